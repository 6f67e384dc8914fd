package scan

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// Scan reads a document in any supported format (doc.go) and checks every
// resource against the rule catalogue, with the current time for the
// expiry of suppressions. The page and the JSON API both call it.
func Scan(input []byte) (*Result, error) { return ScanWith(input, Options{}) }

// Options are what a caller can add to a scan.
type Options struct {
	// Now decides whether a suppression has expired; time.Now() when zero.
	Now time.Time
	// NoSizeLimit lifts MaxInputBytes, for benchmarks and tools that read
	// local files; the HTTP front doors never set it.
	NoSizeLimit bool
	// Suppressions and Baseline are what an envelope would carry, for
	// ScanFiles (the CLI): a JSON array of suppressions, and an earlier
	// SARIF log or JSON result. Scan reads them from the envelope instead.
	Suppressions, Baseline []byte
}

// ScanWith is Scan with options. It returns a *SyntaxError when the input
// is not JSON or YAML, a *LimitError when it is over a limit, and a
// *ValidationError listing every problem when it is readable but not a
// valid document. There is no partial result: either the whole document is
// valid and every resource checked, or an error says why not.
func ScanWith(input []byte, opts Options) (res *Result, err error) {
	defer catchAbort(&err) // a limit met deep in the checks (MaxSuppressionWork)
	if len(input) > MaxInputBytes && !opts.NoSizeLimit {
		return nil, &LimitError{Limit: "input_bytes", Max: MaxInputBytes, Message: fmt.Sprintf(
			"the input is %d bytes; the limit is %d bytes (5 MiB)", len(input), MaxInputBytes)}
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	data, err := decodeText(input)
	if err != nil {
		return nil, err
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	env := &envelope{now: opts.Now}
	if len(opts.Suppressions) == 0 && len(opts.Baseline) == 0 {
		return scanDocument(data, env, false)
	}
	// Given apart (the CLI): the document cannot be an envelope too.
	if err := env.load(opts.Suppressions, opts.Baseline); err != nil {
		return nil, err
	}
	if res, err = scanDocument(data, env, true); err != nil {
		return nil, err
	}
	env.finish(res)
	return res, nil
}

// scanOwn checks a document of our own format.
func scanOwn(data []byte, env *envelope) (*Result, error) {
	e := &evaluator{lines: lineCounter{data: data}, format: FormatParapet, env: env}
	total, skipped, err := parse(data, e.check)
	if err != nil {
		return nil, err
	}
	return e.result(data, total, skipped), nil
}

// evaluator runs the checks on each resource the parser hands it, in input
// order, and collects compact hits; result turns them into Findings once.
//
// Ranking needs no comparison sort: hits come in resource order, the few
// hits of one resource are put in cause order, and a counting sort by
// severity (stable) then gives severity, resource, cause order in O(n).
type evaluator struct {
	cur    []hit             // hits of the current resource
	blocks [][]hit           // hits of the resources before, in fixed-size blocks
	seen   map[causeKey]bool // dedup for a resource with many hits
	lines  lineCounter
	locs   map[string]Location // where the causes are, by path (Terraform source)
	buf    []byte              // reused by path
	hits   int                 // in blocks, against MaxFindings

	format string    // the input's format, for each finding's source
	env    *envelope // suppressions and baseline of the request
}

// hit is a finding before it is dressed with its rule's texts: half the
// size of a Finding, which matters with tens of thousands of them.
type hit struct {
	rule                 ruleID
	index                int // resource index
	name, ptype          string
	path, message, cause string
	reason, expires      string // set when suppressed
	offset, line         int
	via                  *Linked
	loc                  *Location // in Terraform source
}

// hitBlock is the size of a block of hits. Blocks never move, where one
// growing slice would allocate about four times its final size (append
// grows large slices by 1.25) and copy every hit several times.
const hitBlock = 4096

type causeKey struct {
	rule  ruleID
	cause string
}

func (e *evaluator) check(r *resource) {
	e.cur, e.seen = e.cur[:0], nil
	e.run(r)
	if r.alt != nil {
		e.checkAlt(r)
	} else if r.note != "" {
		for k := range e.cur {
			e.cur[k].message += " (" + r.note + ")"
		}
	}
	cur := e.cur
	// Insertion sort: a resource has few hits, mostly in cause order already.
	for k := 1; k < len(cur); k++ {
		for j := k; j > 0 && cur[j].offset < cur[j-1].offset; j-- {
			cur[j], cur[j-1] = cur[j-1], cur[j]
		}
	}
	for k := range cur {
		switch {
		case e.locs != nil:
			cur[k].loc = locate(e.locs, cur[k].path, r.name)
			cur[k].line = cur[k].loc.StartLine
		case e.format != FormatParapet: // read from another format: lines are the resource's, offsets only order
			cur[k].line = r.line
		default:
			cur[k].line = e.lines.at(cur[k].offset)
		}
		// A suppression covers every cause of its rule on the resource.
		cur[k].reason, _ = r.suppressedBy(cur[k].rule)
		if cur[k].reason == "" {
			cur[k].reason, cur[k].expires = e.env.suppressed(catalogue[cur[k].rule].ID, r.name)
		}
		if e.hits++; e.hits > MaxFindings {
			panic(abort{tooManyFindings()})
		}
		if n := len(e.blocks); n == 0 || len(e.blocks[n-1]) == hitBlock {
			e.blocks = append(e.blocks, make([]hit, 0, hitBlock))
		}
		last := &e.blocks[len(e.blocks)-1]
		*last = append(*last, cur[k])
	}
}

// run runs the checks of r's type.
func (e *evaluator) run(r *resource) {
	switch r.typ {
	case typeS3Bucket:
		e.checkS3Bucket(r)
	case typeSecurityGroup:
		e.checkSecurityGroup(r)
	case typeIAMPolicy:
		e.checkIAMPolicy(r)
	case typeDatabase:
		e.checkDatabase(r)
	}
	if len(r.roles) > 0 {
		e.checkRoles(r)
	}
}

// checkAlt checks r.alt, r read with the other outcomes of conditions
// that could not be decided, after r itself, and keeps the findings of
// every reading once each: a finding that some reading does not have
// depends on the conditions and its message names them (r.altNote); one
// every reading has does not, and its message does not blame them.
func (e *evaluator) checkAlt(r *resource) {
	readings := make([][]hit, 0, 1+len(r.alt))
	readings = append(readings, append([]hit(nil), e.cur...))
	for _, alt := range r.alt {
		e.cur, e.seen = e.cur[:0], nil
		e.run(alt)
		readings = append(readings, append([]hit(nil), e.cur...))
	}
	count := map[causeKey]int{} // in how many readings each finding is
	for _, hits := range readings {
		in := make(map[causeKey]bool, len(hits))
		for k := range hits {
			key := causeKey{hits[k].rule, hits[k].cause}
			if !in[key] {
				in[key] = true
				count[key]++
			}
		}
	}
	notes := func(conditional bool) string {
		n := r.note
		if conditional {
			n = addNote(n, r.altNote)
		}
		if n == "" {
			return ""
		}
		return " (" + n + ")"
	}
	kept := map[causeKey]bool{} // found by an earlier reading
	e.cur = e.cur[:0]
	for _, hits := range readings {
		for _, h := range hits {
			key := causeKey{h.rule, h.cause}
			if !kept[key] {
				h.message += notes(count[key] < len(readings))
				e.cur = append(e.cur, h)
			}
		}
		for k := range hits {
			kept[causeKey{hits[k].rule, hits[k].cause}] = true
		}
	}
}

// path builds the JSON path of a field of resource i, or of its element j
// when j >= 0: the same as fieldPath and elemPath, in one allocation.
func (e *evaluator) path(i int, field string, j int) string {
	b := append(e.buf[:0], "resources["...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, "]."...)
	b = append(b, field...)
	if j >= 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ']')
	}
	e.buf = b
	return string(b)
}

// at is the path of a cause: the one an adapter gave, or the JSON path of
// our format.
func (e *evaluator) at(r *resource, field string, j int, given string) string {
	if given != "" {
		return given
	}
	return e.path(r.index, field, j)
}

// report records a finding unless the same rule already fired for the same
// cause on this resource (two identical ingress entries are one problem).
// via names the linked resource the cause comes from, if any.
func (e *evaluator) report(r *resource, id ruleID, path string, offset int, cause, message string, via *Linked) {
	if e.duplicate(causeKey{id, cause}) {
		return
	}
	if via != nil {
		message += " (set in " + via.Name + ")"
	}
	e.cur = append(e.cur, hit{rule: id, index: r.index, name: r.name, ptype: r.ptype, path: path, message: message,
		cause: cause, offset: offset, via: via})
}

// duplicate reports whether the current resource already has a hit for
// key, and notes key. A linear search is cheapest for the usual handful of
// hits; a map keeps a resource with thousands of causes linear.
func (e *evaluator) duplicate(key causeKey) bool {
	const linear = 16
	cur := e.cur
	if len(cur) < linear {
		for k := range cur {
			if cur[k].rule == key.rule && cur[k].cause == key.cause {
				return true
			}
		}
		return false
	}
	if e.seen == nil {
		e.seen = make(map[causeKey]bool, 2*linear)
		for k := range cur {
			e.seen[causeKey{cur[k].rule, cur[k].cause}] = true
		}
	}
	if e.seen[key] {
		return true
	}
	e.seen[key] = true
	return false
}

func (e *evaluator) result(data []byte, total int, skipped []Skipped) *Result {
	// Counting sort by severity: count, then place each hit after the
	// hits of higher severities, keeping the order within a severity.
	var next [2][4]int // [suppressed][rank]: where the next hit goes
	for _, block := range e.blocks {
		for k := range block {
			next[b2i(block[k].reason != "")][catalogue[block[k].rule].Severity.rank()]++
		}
	}
	res := &Result{
		Format:              e.format,
		NotChecked:          []NotChecked{},
		ExpiredSuppressions: []EnvelopeSuppression{},
		Findings:            make([]Finding, next[0][0]+next[0][1]+next[0][2]+next[0][3]),
		Suppressed:          make([]SuppressedFinding, next[1][0]+next[1][1]+next[1][2]+next[1][3]),
		Skipped:             nonNil(skipped),
	}
	s := &res.Summary
	s.Resources, s.Findings, s.Suppressed, s.Skipped = total, len(res.Findings), len(res.Suppressed), len(res.Skipped)
	s.BySeverity = BySeverity{Critical: next[0][0], High: next[0][1], Medium: next[0][2], Low: next[0][3]}
	for k := range next {
		n := &next[k]
		n[0], n[1], n[2], n[3] = 0, n[0], n[0]+n[1], n[0]+n[1]+n[2]
	}
	for _, block := range e.blocks {
		for k := range block {
			place(res, &next, &block[k])
		}
	}
	lines := lineCounter{data: data}
	for k := range res.Skipped {
		res.Skipped[k].Line = lines.at(res.Skipped[k].offset)
	}
	return res
}

// place turns a hit into a Finding at the next place of its severity,
// written where it goes (a Finding is large: built elsewhere and copied,
// it cost a scan of many findings a few percent).
func place(res *Result, next *[2][4]int, h *hit) {
	rule := &catalogue[h.rule]
	typ := h.ptype
	if typ == "" {
		typ = rule.ResourceType
	}
	rank := rule.Severity.rank()
	var f *Finding
	if h.reason == "" {
		f = &res.Findings[next[0][rank]]
		next[0][rank]++
	} else {
		s := &res.Suppressed[next[1][rank]]
		next[1][rank]++
		s.Reason, s.Expires = h.reason, h.expires
		f = &s.Finding
	}
	title, remediation, refs := textsOf(rule, h.rule, h.ptype)
	*f = Finding{
		Rule: rule.ID, Severity: rule.Severity, Title: title, Message: h.message, Remediation: remediation,
		Resource: ResourceRef{Type: typ, Name: h.name, Index: h.index},
		Path:     h.path, References: refs, Line: h.line,
		Source: Source{Format: res.Format, Linked: h.via}, Location: h.loc,
		offset: h.offset, cause: h.cause,
	}
	f.Fingerprint = fingerprint(f)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// lineCounter turns increasing byte offsets into line numbers, counting
// the newlines between one offset and the next: one pass over the input
// for a whole scan, where counting from the start each time would be
// quadratic on a large document.
type lineCounter struct {
	data      []byte
	pos, line int
}

func (c *lineCounter) at(offset int) int {
	c.line += bytes.Count(c.data[c.pos:offset], []byte{'\n'})
	c.pos = offset
	return c.line + 1
}
