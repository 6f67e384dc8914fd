package logs

import (
	"bytes"
	"math"
	"runtime"
	"slices"
	"strings"
	"unsafe"
)

// emptyTemplate is the template of lines that are all header ("2026-11-29
// 02:00:00 INFO [main]", "host app[12]:"), which an empty text would show
// as a blank row.
const emptyTemplate = "(empty message)"

// result turns shapes, clusters and matches into the Result.
func (a *analyzer) result(input []byte, clusters []*cluster) *Result {
	shapes := a.set.shapes
	// Shapes are numbered in the order of their first lines, so a
	// cluster's smallest member is its first line's shape.
	firsts := make(map[*cluster]int32, len(clusters))
	for _, c := range clusters {
		firsts[c] = slices.Min(c.members)
	}
	slices.SortFunc(clusters, func(x, y *cluster) int {
		if x.count != y.count {
			return y.count - x.count
		}
		return int(firsts[x] - firsts[y])
	})
	id := make([]int, len(shapes)) // shape index -> template id
	res := &Result{
		Summary: Summary{
			Lines:      a.lines,
			Entries:    a.entries,
			Templates:  len(clusters),
			BlankLines: a.blank,
			CutLines:   a.cut,
			RareCutoff: rareCutoff(a.opts.RareThreshold, a.entries),
		},
		Templates: make([]Template, len(clusters)),
	}
	// Rare lines, and their order: line number << 32 | index in rare, so
	// that sorting them by line is a plain integer sort.
	type rareLine struct {
		ref  lineRef
		tmpl int
	}
	rares := 0 // a rare cluster's shapes keep all their lines: its count of them
	for _, c := range clusters {
		if c.count <= res.Summary.RareCutoff {
			rares += c.count
		}
	}
	// Only the first MaxResultOutliers are listed: when more lines are
	// rare, the line number of the last listed bounds those kept (a log
	// of all-different lines would otherwise hold all its lines twice
	// more here).
	lastRare := int32(math.MaxInt32)
	if rares > MaxResultOutliers {
		nos := make([]int32, 0, rares)
		for _, c := range clusters {
			if c.count <= res.Summary.RareCutoff {
				for _, si := range c.members {
					for _, ref := range shapes[si].lines {
						nos = append(nos, ref.no)
					}
				}
			}
		}
		slices.Sort(nos)
		lastRare, rares = nos[MaxResultOutliers-1], MaxResultOutliers
	}
	rare, order := make([]rareLine, 0, rares), make([]uint64, 0, rares)
	rareLines := 0     // in all, listed or not
	var names []string // custom masks' placeholders
	for _, m := range a.opts.Masks {
		if a.opts.NamedPlaceholders {
			names = append(names, "<"+m.Name+">")
		} else {
			names = append(names, "<*>")
		}
	}
	for n, c := range clusters {
		toks := display(shapes, c, names)
		tmpl := strings.Join(toks, " ")
		if shapes[c.members[0]].escaped {
			tmpl = unescapeQuotes(tmpl)
		}
		if tmpl == "" {
			tmpl = emptyTemplate
		}
		res.Templates[n] = Template{ID: n + 1, Template: tmpl, Count: c.count}
		if a.opts.IncludeParams && n < MaxResultTemplates { // no more are listed
			res.Templates[n].Params = templateParams(shapes, c, toks)
		}
		for _, si := range c.members {
			id[si] = n + 1
		}
		if c.count <= res.Summary.RareCutoff {
			for _, si := range c.members {
				rareLines += len(shapes[si].lines)
				for _, ref := range shapes[si].lines {
					if ref.no <= lastRare {
						order = append(order, uint64(ref.no)<<32|uint64(len(rare)))
						rare = append(rare, rareLine{ref, n})
					}
				}
			}
		}
	}
	sortByLine(order)
	for _, m := range a.matches {
		switch m.category() {
		case CategoryFatal:
			res.Summary.ByCategory.Fatal++
		case CategoryError:
			res.Summary.ByCategory.Error++
		case CategoryReliability:
			res.Summary.ByCategory.Reliability++
		}
	}
	// The lines of the result, matches then outliers: a large result's
	// in pieces at once. Their texts are views of the input, not copies:
	// Analyze's caller keeps input unchanged while it uses the result (see
	// Analyze), and copies would be a second copy of much of the input, in
	// fresh memory that costs more to fault in than to fill.
	text := unsafe.String(unsafe.SliceData(input), len(input))
	// Only what the result may list is built (see MaxResultMatches).
	nm, no := min(len(a.matches), MaxResultMatches), min(len(order), MaxResultOutliers)
	res.Matches, res.Outliers = make([]Match, nm), make([]Outlier, no)
	n := len(res.Matches) + len(res.Outliers)
	pieces := max(1, min(runtime.GOMAXPROCS(0), n/minPieceLines))
	together(pieces, func(k int) {
		from, to := k*n/pieces, (k+1)*n/pieces
		for i := from; i < to; i++ {
			if i < len(res.Matches) {
				m := &a.matches[i]
				m.record(&res.Matches[i], id)
				res.Matches[i].setText(lineText(text, m.ref), m.ref)
				continue
			}
			// Field by field into the zeroed slot: a record built aside
			// and copied in is written twice.
			r := rare[uint32(order[i-len(res.Matches)])]
			t := &res.Templates[r.tmpl]
			o := &res.Outliers[i-len(res.Matches)]
			o.Line, o.Template, o.TemplateID, o.Count, o.Cut = int(r.ref.no), t.Template, t.ID, t.Count, r.ref.cut
			o.setText(lineText(text, r.ref), r.ref)
		}
	})
	a.ids = id
	res.Summary.Matched = len(a.matches)
	res.Summary.Outliers = rareLines
	if a.opts.IncludeAssignments || a.opts.IncludePatterns {
		res.severity = make([]uint8, len(clusters)+1)
		for _, m := range a.matches {
			t := id[m.shape]
			res.severity[t] = max(res.severity[t], m.sev)
		}
	}
	if a.opts.IncludeAssignments {
		res.Assignments = make([]int, len(a.assign))
		res.entryLines = make([]int, len(a.assignNo))
		for i, no := range a.assignNo {
			res.entryLines[i] = int(no)
		}
		for i, si := range a.assign {
			res.Assignments[i] = id[si]
		}
	}
	return res
}

// sortByLine sorts keys, line number << 32 | index, by line number, as
// slices.Sort would (line numbers are distinct): a radix sort of 11-bit
// digits, two passes over the keys for up to 2^22 lines, instead of a
// comparison sort's dozen and more comparisons a key.
func sortByLine(keys []uint64) {
	const bits, digits = 11, 1 << 11
	if len(keys) < digits {
		slices.Sort(keys)
		return
	}
	var last uint64
	for _, k := range keys {
		last = max(last, k>>32)
	}
	src, dst := keys, make([]uint64, len(keys))
	for shift := 32; last>>(shift-32) > 0; shift += bits {
		var at [digits]int
		for _, k := range src {
			at[k>>shift%digits]++
		}
		n := 0
		for d, c := range at {
			at[d], n = n, n+c
		}
		for _, k := range src {
			d := k >> shift % digits
			dst[at[d]] = k
			at[d]++
		}
		src, dst = dst, src
	}
	copy(keys, src) // nothing to copy when src is keys
}

// record sets r, zero, to the match as the result shows it, but for its
// text; id is the template id of each shape.
func (m *matchRef) record(r *Match, id []int) {
	cat := m.category()
	// The keyword found names the match, unless the level made it more
	// severe than that keyword: then the level word does.
	word, start, end := "", int(m.ref.lvl0), int(m.ref.lvl1) // the level word, filled with the text
	hit := m.hit.unpack()
	if hit.kw >= 0 {
		if kw := keywordTable[hit.kw]; kw.Category == cat || cat == CategoryReliability {
			word, start, end = kw.Word, hit.start, hit.end
		}
	}
	if w, ok := statusWord(hit); ok { // an HTTP access line's status (access.go)
		word, start, end = w, hit.start, hit.end
	}
	r.Line, r.Category, r.Keyword, r.Start, r.End = int(m.ref.no), cat, word, start, end
	r.TemplateID, r.Cut = id[m.shape], m.ref.cut
}

// minPieceLines is the fewest lines of the result built by one piece.
const minPieceLines = 10_000

// lineText is the text of the line or entry ref of the input text: a
// view of it, or for a line whose invalid UTF-8 was replaced, the mended
// copy.
func lineText(text string, ref lineRef) string {
	s := text[ref.start:ref.end]
	if ref.fixed {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// setText sets the text of the match's line or entry, ref.
func (m *Match) setText(text string, ref lineRef) {
	m.Text = text
	m.LineHeader.set(text, ref)
	if ref.joined && strings.Contains(m.Text, "\r\n") { // an entry of CRLF lines
		m.Start -= strings.Count(m.Text[:m.Start], "\r\n")
		m.End -= strings.Count(m.Text[:m.End], "\r\n")
		m.Text = strings.ReplaceAll(m.Text, "\r\n", "\n")
	}
	if m.Keyword == "" { // the level made the match: it is the keyword
		m.Keyword = strings.ToLower(m.Text[m.Start:m.End])
		if len(m.Keyword) == 1 || isDigit(m.Keyword[0]) || m.Keyword[0] == '<' { // E, F (glog, Android), 50 (pino), <27> (syslog priority)
			m.Keyword = string(m.Category)
		}
	}
}

// setText sets the text of the outlier's line or entry, ref.
func (o *Outlier) setText(text string, ref lineRef) {
	o.Text = text
	o.LineHeader.set(text, ref)
	if ref.joined {
		o.Text = strings.ReplaceAll(o.Text, "\r\n", "\n")
	}
}

// firstLine is s up to its first line ending.
func firstLine(s string) string {
	if k := strings.IndexAny(s, "\r\n"); k >= 0 {
		return s[:k]
	}
	return s
}

// blankEnd is the length of s without the spaces and tabs that end it:
// that of strings.TrimRight(s, " \t"), without building a set of the two
// bytes for every line.
func blankEnd[T ~string | ~[]byte](s T) int {
	n := len(s)
	for n > 0 && (s[n-1] == ' ' || s[n-1] == '\t') {
		n--
	}
	return n
}

// set sets h, zero, to the header part of a line's text s.
func (h *LineHeader) set(s string, ref lineRef) {
	switch hdr := min(int(ref.hdr), len(s)); {
	case hdr == int(ref.hdr):
		// Measured as the line was read: the input's bytes, read again
		// here, would miss the processor's caches for most lines.
		h.Header = s[:ref.head]
	case hdr > 0:
		h.Header = s[:blankEnd(s[:hdr])]
	}
	if ref.lvl1 > ref.lvl0 && int(ref.lvl1) <= len(s) {
		h.Level = s[ref.lvl0:ref.lvl1]
	}
	if hdr := min(int(ref.hdr), len(s)); ref.structured {
		h.Fields = structuredFields(firstLine(s[hdr:]))
	}
}

// display renders the tokens of a template: literal tokens as they are, a
// custom mask's value as its placeholder (names), and for a value
// position the prefix and suffix shared by every value around <*>. A value
// is shown as <*> even when it never changed in the sample: "port 22" seen
// with one port only is still a port (typed masking), so the template reads
// the same whatever sample it was mined from.
func display(shapes []*shape, c *cluster, names []string) []string {
	out := make([]string, len(c.toks))
	for p, t := range c.toks {
		switch k := strings.Index(t, maskMarkerString); {
		case strings.IndexByte(t, wild) < 0:
			out[p] = t
		case k >= 0 && k+2 < len(t) && int(t[k+2]) < len(names):
			// A custom mask's value, with the text around it in the token.
			out[p] = t[:k] + names[t[k+2]] + t[k+3:]
		default:
			out[p] = valueAt(shapes, c.members, p)
		}
	}
	return out
}

// valueAt renders the values at position p of the members. The shared part
// shown is at least the kept key ("uid=") and the punctuation that wraps
// the value ("(", "):"); a value seen once shows no more than that.
func valueAt(shapes []*shape, members []int32, p int) string {
	sh := shapes[members[0]]
	tv := sh.vals[p]
	rep := tv.val
	pre, suf := rep[:tv.lcp], rep[len(rep)-int(tv.lcs):]
	// The shape's lines share all of it: as prefix and as suffix, since
	// a longer value shares all of a shorter one's bytes on one side
	// ("/api" and "/api/v2").
	minLen, same := len(rep), whole(tv)
	for _, si := range members[1:] {
		o := shapes[si].vals[p]
		v := o.val
		minLen = min(minLen, len(v))
		same = same && v == rep && whole(o)
		pre = pre[:commonPrefix(pre, v[:o.lcp])]
		suf = suf[len(suf)-commonSuffix(suf, v[len(v)-int(o.lcs):]):]
	}
	if same {
		return constantValue(rep, keptPrefix(sh.toks[p]))
	}
	if word := sharedNameWord(shapes, members, p); word != "" {
		return word + "<*>" + nameEnd(rep, len(word))
	}
	if manyWordDate(rep) {
		return "<*>" // what dates share ("Fri Jun 17 07:07:") says nothing of the event
	}
	// A value may be all shared part: "()" among "(db1)" and "(db2)" shares
	// "(" and ")" with them, and shows as "(<*>)".
	pre = pre[:min(len(pre), minLen)]
	suf = suf[len(suf)-min(len(suf), minLen-len(pre)):]
	preEnd, sufStart := outsideWholeValues(rep, len(pre), len(rep)-len(suf))
	pre, suf = pre[:preEnd], suf[sufStart-(len(rep)-len(suf)):]
	// Do not cut inside a word or number of any value: "blk_-69" and
	// "blk_-12" share "blk_-", not "blk_-6" or more; "2.1 KB," and "384.0
	// B," share ",", not "B,"; "ñ00" and "Ü00" share no byte of their
	// first letter, which would be no text.
	for _, si := range members {
		pre, suf = wholeWords(shapes[si].vals[p].val, pre, suf)
	}
	if barToken(rep, 0, len(rep), len(rep)) > 0 { // a progress bar: no cells around <*>
		pre, suf = strings.TrimRight(pre, barCells), strings.TrimLeft(suf, barCells)
	}
	pre, suf = paired(rep, pre, suf)
	return pre + "<*>" + suf
}

// paired shortens the prefix pre and the suffix suf of value v shown
// around <*> so that neither shows a bracket whose partner is hidden in
// <*>: "(111)Connection" shows as "<*>", not "(<*>", "unknown[10.0.0.5]"
// as "<*>", not "<*>]", and "[::]:8201" as "<*>", not "[<*>". A bracket
// whose partner is outside the value ("2)" of "(a, 2)") stays.
func paired(v, pre, suf string) (string, string) {
	mid := v[len(pre) : len(v)-len(suf)]
	for i := 0; i < len(pre); i++ {
		if k := strings.IndexByte(bracketOpeners, pre[i]); k >= 0 && strings.IndexByte(pre[i+1:], bracketClosers[k]) < 0 &&
			strings.IndexByte(mid, bracketClosers[k]) >= 0 {
			pre = pre[:i]
			break
		}
	}
	for i := len(suf) - 1; i >= 0; i-- {
		if k := strings.IndexByte(bracketClosers, suf[i]); k >= 0 && strings.IndexByte(suf[:i], bracketOpeners[k]) < 0 &&
			strings.IndexByte(mid, bracketOpeners[k]) >= 0 {
			suf = suf[i+1:]
			break
		}
	}
	return pre, suf
}

// bracketOpeners and bracketClosers pair brackets by place.
const bracketOpeners, bracketClosers = "([{<", ")]}>"

// whole reports a value that every line of its shape shares whole.
func whole(v tokenValue) bool {
	return int(v.lcp) >= len(v.val) && int(v.lcs) >= len(v.val)
}

// wholeWords shortens a prefix and a suffix of v, no longer than v
// together, until neither ends inside a word of v.
func wholeWords(v, pre, suf string) (string, string) {
	for len(pre) > 0 && wordByte(pre[len(pre)-1]) && len(pre) < len(v) && wordByte(v[len(pre)]) {
		pre = pre[:len(pre)-1]
	}
	for len(suf) > 0 && wordByte(suf[0]) && len(suf) < len(v) && wordByte(v[len(v)-len(suf)-1]) {
		suf = suf[1:]
	}
	return pre, suf
}

// outsideWholeValues moves the end of a shared prefix (p) and the start of
// a shared suffix (s) of rep out of a decimal number or a UUID they would
// cut: "10.5" and "11.5" share ".5", and two UUIDs their last groups, but
// neither is a part of the value worth showing. (A dotted address or
// version keeps its shared head: "10.0.0.<*>" says which subnet.)
func outsideWholeValues(rep string, p, s int) (int, int) {
	for i := 0; i < len(rep); {
		end := wholeValueAt(rep, i)
		if end == i {
			i++
			continue
		}
		if i < p && p < end {
			p = i
		}
		if i < s && s < end {
			s = end
		}
		i = end
	}
	return p, s
}

// wholeValueAt is the end of a decimal number (digits, one '.', digits),
// a time of day (maybe after a date) or a UUID starting at rep[i], or i
// when none starts there.
func wholeValueAt(rep string, i int) int {
	if i > 0 && (isAlnum(rep[i-1]) || rep[i-1] == '.') {
		return i // inside a longer word, number or dotted value
	}
	if end := i + 36; end <= len(rep) && uuidText(rep[i:end]) && (end == len(rep) || !isAlnum(rep[end]) && rep[end] != '-') {
		return end
	}
	if end := timeAt(rep, i); end > i {
		return end
	}
	j := i
	for j < len(rep) && isDigit(rep[j]) {
		j++
	}
	if j == i || j+1 >= len(rep) || rep[j] != '.' || !isDigit(rep[j+1]) {
		return i
	}
	for j++; j < len(rep) && isDigit(rep[j]); j++ {
	}
	if j < len(rep) && (rep[j] == '.' || isDigit(rep[j])) {
		return i // a second dot: an address or a version
	}
	return j
}

// timeAt is the end of a time of day starting at rep[i] ("04:55:32",
// "4:55:32.120Z"), or of a date and time ("2026-09-22T04:55:32Z",
// "2026/09/22 04:55:32"), or i: what two times share (":32", "2026-09-")
// says nothing of the event.
func timeAt[T ~string | ~[]byte](rep T, i int) int {
	j := i
	if k := i + 10; k < len(rep) && digitsAt(rep, i, 4) && digitsAt(rep, i+5, 2) && digitsAt(rep, i+8, 2) &&
		(rep[i+4] == '-' || rep[i+4] == '/') && rep[i+7] == rep[i+4] && (rep[k] == 'T' || rep[k] == ' ') {
		j = k + 1 // a date, then the time
	}
	h := j
	for h < len(rep) && h-j < 2 && isDigit(rep[h]) {
		h++
	}
	if h == j || h >= len(rep) || rep[h] != ':' || !digitsAt(rep, h+1, 2) {
		return i
	}
	for h++; h < len(rep) && (isDigit(rep[h]) || rep[h] == ':' || rep[h] == '.' || rep[h] == ','); h++ {
	}
	if h < len(rep) && rep[h] == 'Z' {
		h++
	}
	return h
}

// digitsAt reports n digits at rep[i].
func digitsAt[T ~string | ~[]byte](rep T, i, n int) bool {
	if i+n > len(rep) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(rep[k]) {
			return false
		}
	}
	return true
}

// uuidText reports the 36 characters of a UUID: hex groups of 8, 4, 4, 4
// and 12, joined by '-'.
func uuidText(t string) bool {
	for k := range len(t) {
		switch k {
		case 8, 13, 18, 23:
			if t[k] != '-' {
				return false
			}
		default:
			if !isDigit(t[k]) && charClass[t[k]]&(cHexLower|cHexUpper) == 0 {
				return false
			}
		}
	}
	return true
}

// wordByte reports a byte of a word: a letter or digit, ASCII or not (any
// byte of a UTF-8 character beyond ASCII).
func wordByte(c byte) bool { return isAlnum(c) || c >= 0x80 }

// constantValue renders a value that never changed, rep, whose first k
// bytes are a key kept literal. A plain word after a key ("tty=ssh"; not
// a literal such as true or null) and a path of one segment without digits
// ("/default-rack") are names, shown as they are; any other value is
// masked, keeping the key, the wrapping punctuation and a unit joined to it
// ("(<*>)", "<*> ms").
func constantValue(rep string, k int) string {
	if w := numberedName(rep); k == 0 && w > 0 {
		return rep[:w] + "<*>" + nameEnd(rep, w)
	}
	core := escapedCore(trimPunct([]byte(rep[k:])))
	if len(core) == 0 || k > 0 && plainWord(core) && !literalValue(core) || plainPath(core) {
		return rep
	}
	open := k + strings.Index(rep[k:], string(core))
	end := open + len(core)
	if closes(core, rep[end:]) {
		end++ // the value's own bracket ("taskID[42]"), not one around it
	}
	if sp := strings.LastIndexByte(string(core), ' '); sp > 0 && unitWord(core[sp+1:]) {
		end = open + sp
		for end > open+1 && strings.IndexByte(")]}>", rep[end-1]) >= 0 {
			end-- // the value's bracket before its unit: "[1234] milliseconds"
		}
	}
	pre, suf := paired(rep, rep[:open], rep[end:])
	return pre + "<*>" + suf
}

// closes reports whether rest opens with the bracket closing one left
// open in core.
func closes(core []byte, rest string) bool {
	if rest == "" {
		return false
	}
	var open byte
	switch rest[0] {
	case ')':
		open = '('
	case ']':
		open = '['
	case '>':
		open = '<'
	case '}':
		open = '{'
	default:
		return false
	}
	return bytes.IndexByte(core, open) >= 0 && bytes.IndexByte(core, rest[0]) < 0
}

// plainWord reports letters, maybe joined by '-' or '_'.
func plainWord(t []byte) bool {
	for _, c := range t {
		if !isLetter(c) && c != '-' && c != '_' {
			return false
		}
	}
	return len(t) > 0 && isLetter(t[0])
}

// plainPath reports an absolute path of one plain word: no digits, no dots,
// no further '/'. A path of several segments ("/var/www/html/") is a place
// in a file system, which differs between hosts and installs even when one
// sample shows it constant: a value.
func plainPath(t []byte) bool {
	if len(t) < 2 || t[0] != '/' {
		return false
	}
	for _, c := range t[1:] {
		if !isLetter(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// keptPrefix is the length of the literal key kept before a masked value
// in a shape token ("uid=" of "uid=\xff").
func keptPrefix(t string) int {
	return max(0, strings.IndexByte(t, wild))
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	for i := 1; i <= n; i++ {
		if a[len(a)-i] != b[len(b)-i] {
			return i - 1
		}
	}
	return n
}
