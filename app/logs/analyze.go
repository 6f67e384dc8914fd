package logs

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"slices"
	"time"
	"unicode/utf8"
)

// Options tune one analysis. The zero value is the default.
type Options struct {
	// RareThreshold is the fraction of analysed lines at or below which a
	// template is rare, in (0, 1]. 0 means the default: a template is rare
	// when it covers at most max(2, floor(0.005 * lines)) lines. A custom
	// value gives max(1, floor(RareThreshold * lines)).
	RareThreshold float64
	// IncludeAssignments adds the template id of every analysed entry.
	IncludeAssignments bool
	// IncludeParams adds to every template the values seen behind its
	// placeholders, with counts (see Param).
	IncludeParams bool
	// IncludePatterns adds to every template what a patterns view shows:
	// its matched lines' category, its first and last time, its entries
	// per timeline bucket and its first lines (see patterns.go).
	IncludePatterns bool
	// Masks are custom masks, applied before the built-in ones: at most
	// MaxMasks, each regex RE2 syntax of at most MaxMaskRegexLen bytes.
	Masks []Mask
	// NamedPlaceholders shows a custom mask's values as <name> rather than <*>.
	NamedPlaceholders bool
	// SplitContinuations analyses every line on its own. By default
	// (false) lines that continue an entry (stack trace frames, indented
	// lines, ...) join the entry above: see entries.go. The API's
	// join_continuations option is its negation.
	SplitContinuations bool
	// runtimeTimes are the container runtime's times of the lines, for
	// those without one of their own (see unwrappedTimes); nil for none.
	runtimeTimes []int64
}

// Result is the outcome of Analyze. Its JSON form is part of the API.
type Result struct {
	Summary   Summary    `json:"summary"`
	Matches   []Match    `json:"matches"`
	Outliers  []Outlier  `json:"outliers"`
	Templates []Template `json:"templates"`
	Timeline  *Timeline  `json:"timeline,omitempty"`
	// Truncated, when set, counts the templates and outliers left out of
	// their lists (see MaxResultTemplates).
	Truncated *Truncated `json:"truncated,omitempty"`
	// Assignments holds, with IncludeAssignments, the template id of each
	// analysed (non-blank) line, in input order.
	Assignments []int `json:"assignments,omitempty"`
	// entryLines holds, with IncludeAssignments, the line number of each
	// analysed entry's first line, beside Assignments (Compare splits the
	// two inputs by it).
	entryLines []int
	// severity holds, with IncludeAssignments or IncludePatterns, the
	// most severe category of each template's matches (see
	// Category.severity), by id: Compare and the patterns read it, for the
	// matches listed may be a few of them.
	severity []uint8
}

// Summary counts what the analysis saw and found.
type Summary struct {
	Lines      int         `json:"lines"`   // analysed lines: input lines less blank ones
	Entries    int         `json:"entries"` // analysed entries: lines less those joined to the entry above
	Matched    int         `json:"matched"`
	Outliers   int         `json:"outliers"`
	Templates  int         `json:"templates"`
	ByCategory CategoryCnt `json:"by_category"`
	BlankLines int         `json:"blank_lines"`
	CutLines   int         `json:"cut_lines"`   // lines longer than MaxLineBytes
	RareCutoff int         `json:"rare_cutoff"` // a template of at most this many lines is rare
	DurationMS float64     `json:"duration_ms"`
}

// CategoryCnt counts matched lines per category.
type CategoryCnt struct {
	Fatal       int `json:"fatal"`
	Error       int `json:"error"`
	Reliability int `json:"reliability"`
}

// Match is a line that carries a keyword. Start and End are the byte offsets
// of the matched keyword text in Text, for highlighting.
type Match struct {
	Line       int      `json:"line"`
	Text       string   `json:"text"`
	Category   Category `json:"category"`
	Keyword    string   `json:"keyword"`
	Start      int      `json:"start"`
	End        int      `json:"end"`
	TemplateID int      `json:"template_id"`
	Cut        bool     `json:"cut,omitempty"`
	LineHeader
}

// Outlier is a line whose template is rare.
type Outlier struct {
	Line       int    `json:"line"`
	Text       string `json:"text"`
	Template   string `json:"template"`
	TemplateID int    `json:"template_id"`
	Count      int    `json:"count"`
	Cut        bool   `json:"cut,omitempty"`
	LineHeader
}

// LineHeader is what a line holds besides its message, which alone is
// templated: the header columns (timestamp, level, host, process, ...) as
// text, the level word when one was recognised, and for a JSON or logfmt
// line its other fields, by key.
type LineHeader struct {
	Header string            `json:"header,omitempty"`
	Level  string            `json:"level,omitempty"`
	Fields map[string]string `json:"fields,omitempty"`
}

// Template is one mined line shape. Values are shown as <*>, with the part
// every value shares kept around it ("blk_<*>", "uid=<*>"). Ids are ranks in
// this result: 1 is the most frequent template; ties go to the template seen
// first. They are stable for the same input and options, not across inputs.
type Template struct {
	ID       int    `json:"id"`
	Template string `json:"template"`
	Count    int    `json:"count"`
	// Params, with IncludeParams, are the values behind each placeholder.
	Params []Param `json:"params,omitempty"`
	// The rest, with IncludePatterns (see patterns.go).
	*PatternInfo
}

// Analyze analyses one log sample: one entry per line, any line ending.
// It fails with *LimitError for input over the limits, ErrNoLines when no
// line has text, an ErrBadOption error for invalid options and ctx.Err()
// when ctx ends first. The limits apply to input as given; the analysis
// reads it as UTF-8 with '\n' line ends (see utf8Text), and as
// readable makes it: container records unwrapped, without terminal
// escape sequences and byte-order marks. The texts of the result's lines share input's memory:
// input must not change while the result is in use.
func Analyze(ctx context.Context, input []byte, opts Options) (*Result, error) {
	began := time.Now()
	if err := checkThreshold(opts.RareThreshold); err != nil {
		return nil, err
	}
	if len(input) > MaxInputBytes {
		return nil, &LimitError{Limit: "input_bytes", Max: MaxInputBytes}
	}
	input = utf8Text(input)
	total := lineCount(input)
	if total > MaxLines {
		return nil, &LimitError{Limit: "lines", Max: MaxLines}
	}
	text, moved, times := readableTimes(input)
	if !sameBytes(text, input) {
		total = lineCount(text) // counted again: a last line of escapes alone is gone
	}
	opts.runtimeTimes = times
	res, err := run(ctx, text, total, opts, moved)
	if err != nil {
		return nil, err
	}
	res.truncate()
	res.Summary.DurationMS = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// checkThreshold fails for a rare threshold that is not a fraction.
func checkThreshold(r float64) error {
	if math.IsNaN(r) || r < 0 || r > 1 {
		return fmt.Errorf("%w: rare threshold %v is not a fraction in (0, 1]", ErrBadOption, r)
	}
	return nil
}

// lineCount is the number of lines of input, the last one ended by a
// newline or not.
func lineCount(input []byte) int {
	n := bytes.Count(input, []byte{'\n'})
	if len(input) > 0 && input[len(input)-1] != '\n' {
		n++
	}
	return n
}

// sameBytes reports whether a and b are the same memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// run analyses input of total lines, within the limits, put together as
// moved says (nil: the input's lines as they are); the result's line
// numbers are the input's.
func run(ctx context.Context, input []byte, total int, opts Options, moved *lineMap) (*Result, error) {
	masks, err := compileMasks(opts.Masks)
	if err != nil {
		return nil, err
	}
	res, err := newAnalyzer(opts, input, total, masks, moved).run(ctx, input)
	if err != nil {
		return nil, err
	}
	moved.restore(res)
	return res, nil
}

// newAnalyzer is the analyzer of input, of total lines, that reads it
// first: it starts from what is learnt of the whole input (see learn).
func newAnalyzer(opts Options, input []byte, total int, masks []*regexp.Regexp, moved *lineMap) *analyzer {
	a := learn(opts, input, total, masks, moved).analyzer()
	a.parts = partsOf(opts, total)
	a.stamps.size(total) // its timestamps, once joined, are all the input's
	// Room for an entry per line, which later parts' join: grown by
	// append, the garbage of these lists was most of the memory an
	// analysis of short lines took.
	if opts.IncludeAssignments || opts.IncludePatterns {
		a.assign, a.assignNo = make([]int32, 0, total), make([]int32, 0, total)
	}
	if opts.IncludePatterns {
		a.entryStamp = make([]int32, 0, total)
	}
	return a
}

// learnt is what an analysis learns of the whole input before it reads
// any line: its columns, entry rules and whether its lines have
// timestamps. Every analyzer of the input starts from it, the one that
// reads the input first and those of its later parts (parts.go).
type learnt struct {
	opts    Options
	total   int // lines in the input
	masks   []*regexp.Regexp
	maxRefs int // lines a shape keeps: the rare cutoff
	budget  int // of the shapes of one analyzer (see shapeBudget)
	cols    columns
	w3c     int        // the sc-status column of a W3C extended log, 1-based; 0 for none (w3c.go)
	rules   entryRules // of the first segment
	stamps  stampLog   // no timestamp read yet, nor room for any
	// segments are the later runs of lines of one writer each (see
	// lineMap), which no entry spans, with their entry rules.
	segments []segment
}

// segment is a run of lines of one writer from line no on.
type segment struct {
	no    int32
	rules entryRules
}

func learn(opts Options, input []byte, total int, masks []*regexp.Regexp, moved *lineMap) *learnt {
	l := &learnt{
		opts:    opts,
		total:   total,
		masks:   masks,
		maxRefs: rareCutoff(opts.RareThreshold, total),
		budget:  shapeBudget(len(input), total, partsOf(opts, total)),
		cols:    detectColumns(input),
		w3c:     w3cStatusColumn(input),
		stamps:  newStampLog(time.Now(), input, 0),
	}
	l.stamps.looking = l.stamps.looking || opts.runtimeTimes != nil
	var starts []segmentStart
	if moved != nil {
		starts = moved.segments
	}
	end := len(input)
	if len(starts) > 0 {
		end = starts[0].at
	}
	if !opts.SplitContinuations {
		l.rules = detectEntryRules(input[:end])
		l.rules.csvQuotes = l.cols.csv > 0
	}
	for k, st := range starts {
		end := len(input)
		if k+1 < len(starts) {
			end = starts[k+1].at
		}
		seg := segment{no: st.no}
		if !opts.SplitContinuations {
			seg.rules = detectEntryRules(input[st.at:end])
		}
		l.segments = append(l.segments, seg)
	}
	return l
}

// segmentLine is the first line of segment k, 0 past the last.
func (l *learnt) segmentLine(k int) int {
	if k < len(l.segments) {
		return int(l.segments[k].no)
	}
	return 0
}

// segmentAfter is the index of the first segment that starts after line
// no, and the entry rules of line no+1.
func (l *learnt) segmentAfter(no int) (int, entryRules) {
	k := 0
	for k < len(l.segments) && int(l.segments[k].no) <= no {
		k++
	}
	if k == 0 {
		return 0, l.rules
	}
	return k, l.segments[k-1].rules
}

// analyzer is a new analyzer of the input l was learnt from, which has
// read none of its lines.
func (l *learnt) analyzer() *analyzer {
	return &analyzer{
		in:     l,
		opts:   l.opts,
		z:      tokenizer{masks: l.masks},
		set:    shapeSet{index: make(map[string]int32), maxRefs: l.maxRefs, budget: l.budget},
		cols:   l.cols,
		join:   joiner{rules: l.rules},
		stamps: stampLog{p: l.stamps.p, looking: l.stamps.looking},
	}
}

func (a *analyzer) run(ctx context.Context, input []byte) (*Result, error) {
	if err := a.readParts(ctx, input); err != nil {
		return nil, err
	}
	if a.entries == 0 {
		return nil, ErrNoLines
	}
	clusters, err := mine(ctx, a.set.shapes)
	if err != nil {
		return nil, err
	}
	res := a.result(input, clusters)
	res.Timeline = a.stamps.timeline(res, len(a.matches), func(i int) (int32, Category) {
		return a.matches[i].stamp, a.matches[i].category()
	})
	if a.opts.IncludePatterns {
		a.patterns(res, input)
	}
	return res, nil
}

// rareCutoff is the largest line count of a rare template among n lines: at
// least 2 lines by default, at least 1 with a custom threshold. The epsilon
// keeps 0.29*100 from flooring to 28.
func rareCutoff(threshold float64, n int) int {
	least := 1
	if threshold == 0 {
		threshold, least = DefaultRareThreshold, 2
	}
	return max(least, int(math.Floor(threshold*float64(n)+1e-9)))
}

// analyzer holds the state of one analysis.
type analyzer struct {
	in      *learnt // what is known of the whole input
	opts    Options
	parts   int // it is read in, at once (see parts.go)
	z       tokenizer
	set     shapeSet
	fix     []byte // scratch for lines with invalid UTF-8
	head    header
	cols    columns // the input's bare-column header, if any
	msgs    msgCache
	hits    []keywordHit // scratch for msgKeyword
	join    joiner
	lines   int // analysed lines
	entries int // analysed entries: lines, less those joined to the entry above
	blank   int
	// The shape, level and reference of the entry's first line last read.
	lastShape  int32
	lastLevel  levelKind
	lastRef    lineRef
	lastAccess bool // an HTTP access line (access.go)
	// The header of line number headOf, found by a.continues.
	headOf   int32
	headEnd  int
	levels   levelMemo
	cut      int
	matches  []matchRef
	assign   []int32 // shape of each entry, with IncludeAssignments
	assignNo []int32 // its first line's number, with IncludeAssignments
	// With IncludePatterns: the timestamp index of each entry (beside
	// assign), and the first entries of each shape.
	entryStamp []int32
	examples   map[int32][]lineRef
	ids        []int // shape index -> template id, once the result is built
	// The timestamps of the lines, read on the way for the timeline, and
	// the index there of the last entry's, -1 for none.
	stamps    stampLog
	lastStamp int32
}

type matchRef struct {
	ref   lineRef
	hit   packedHit // kw -1 when the level alone decides
	shape int32
	stamp int32 // index of the entry's timestamp in analyzer.stamps, -1 for none
	// The category's severity (see Category.severity): with no string
	// in it, the slice of matches holds no pointer for the collector to
	// scan or guard as it grows.
	sev uint8
}

// packedHit is a keywordHit in a match: a log of error lines holds one
// per line, and ints made a match a third larger.
type packedHit struct{ kw, start, end int32 }

func pack(h keywordHit) packedHit { return packedHit{int32(h.kw), int32(h.start), int32(h.end)} }

func (h packedHit) unpack() keywordHit { return keywordHit{int(h.kw), int(h.start), int(h.end)} }

// bySeverity is the category of each severity.
var bySeverity = [...]Category{"", CategoryReliability, CategoryError, CategoryFatal}

func (m *matchRef) category() Category { return bySeverity[m.sev] }

// read reduces every entry to its shape and keyword match, from the line
// at byte offset start, numbered no+1, to the end of input; or up to stop,
// when an entry opens there (stop -1: none). It returns where it stopped:
// stop, or past the end.
func (a *analyzer) read(ctx context.Context, input []byte, start, no, stop int) (int, error) {
	join := !a.opts.SplitContinuations
	var entry lineRef // the entry being read; no 0 when none
	var first int32   // where its first line ends
	lines := 0        // its lines
	// The next segment, where an entry opens whatever the line above, and
	// whether the line read opens one (up to the first with text).
	seg, rules := a.in.segmentAfter(no)
	a.join.rules = rules
	nextSeg, opening := a.in.segmentLine(seg), false
	for start < len(input) {
		// nextLine, written out: it is too big to be inlined, and its
		// call cost a third of the search.
		raw := input[start:]
		next := bytes.IndexByte(raw, '\n')
		if next < 0 {
			next = len(raw) // the last line, without a '\n'
		}
		raw, next = raw[:next], start+next+1
		line := raw
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		end := start + len(line)
		no++
		if no == nextSeg {
			a.join.rules, opening = a.in.segments[seg].rules, true
			seg++
			nextSeg = a.in.segmentLine(seg)
		}
		if no&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return start, err
			}
		}
		blank := !hasNonSpace(line)
		joins := !blank && join && entry.no > 0 && !opening && lines < MaxEntryLines && end-int(entry.start) <= MaxEntryBytes &&
			!a.lastRef.cut && !a.lastRef.fixed && a.continues(line, no) && validUTF8(line) // nothing joins a cut or mended line
		if start == stop && !blank && !joins {
			break
		}
		stamp := a.stamps.read(raw)
		if rt := a.opts.runtimeTimes; stamp < 0 && no <= len(rt) && rt[no-1] != noTime {
			stamp = a.stamps.add(rt[no-1])
		}
		opening = opening && blank
		switch {
		case blank:
			a.blank++
			a.join.blank()
		case joins:
			entry.end = int32(end)
			lines++
		default:
			if entry.no > 0 {
				a.finish(input, entry, first, lines)
			}
			entry, first, lines = lineRef{no: int32(no), start: int32(start), end: int32(end)}, int32(end), 1
			a.lastStamp = stamp
			a.line(input, entry, line)
			if join {
				a.join.opens(line)
			}
		}
		start = next
	}
	if entry.no > 0 {
		a.finish(input, entry, first, lines)
	}
	return start, ctx.Err()
}

// messageHit is the best keyword hit of the message text[hdr:], just
// tokenized, with offsets within the message; kw -1 for none.
func (a *analyzer) messageHit(text []byte, hdr int, si int32) keywordHit {
	var hit keywordHit
	if sh := a.set.shapes[si]; sh.folded {
		hit = a.fieldKeyword(text, hdr) // its literal words are no shape's
	} else {
		hit = a.msgKeyword(text, hdr, sh)
	}
	if st := a.z.st; st.ok && st.lvl1 == st.lvl0 {
		// A structured message without a level field: a keyword in any
		// field counts.
		if h := a.fieldKeyword(text, hdr); h.kw >= 0 && better(h, hit) {
			hit = h
		}
	}
	if hit.kw >= 0 {
		hit.start, hit.end = hit.start-hdr, hit.end-hdr
	}
	return hit
}

// continues reports whether line, numbered no, continues the entry above.
// When that depends on its header, the header found is kept for a.line.
func (a *analyzer) continues(line []byte, no int) bool {
	cont, needHeader := false, a.join.rules.timeHeader // what continues says of a plain line
	if !a.join.plain(line) {
		cont, needHeader = a.join.continues(line, a.lastLevel == levelQuiet)
	}
	if needHeader {
		a.headOf, a.headEnd = int32(no), a.head.end(line)
		// A line that opens with a time opens an entry, also when the
		// header finder does not know the rest of its header.
		cont = a.headEnd == 0 && !a.head.firstTime && !opensWithTime(line) && !standsAlone(line)
	}
	return cont
}

// finish completes an entry of n lines, whose first line, ending at first,
// was analysed last: the lines that continue it are part of its text, and
// their keywords count unless a level decided.
func (a *analyzer) finish(input []byte, ref lineRef, first int32, n int) {
	a.lines += n
	a.entries++
	if ref.end != first { // most entries are one line: no call for them
		a.finishJoined(input, ref, first)
	}
}

// finishJoined is finish for an entry of more than one line.
func (a *analyzer) finishJoined(input []byte, ref lineRef, first int32) {
	end := ref.end
	if a.opts.IncludePatterns {
		a.extendExample(ref.no, end)
	}
	k := len(a.matches) - 1
	matched := k >= 0 && a.matches[k].ref.no == ref.no
	if matched {
		a.matches[k].ref.end, a.matches[k].ref.joined = end, true
	}
	a.set.extend(a.lastShape, ref.no, end)
	if !a.lastAccess {
		// The first line only names the logger: its message is an access
		// line, whose status decides.
		if st := continuedAccess(input, int(first), int(end)); st.ok() {
			st.at -= int(ref.start)
			hit, cat, ok := st.match()
			switch {
			case ok && matched:
				a.matches[k].hit, a.matches[k].sev = pack(hit), uint8(cat.severity())
			case ok:
				r := a.lastRef
				r.end, r.joined = end, true
				a.addMatch(matchRef{ref: r, hit: pack(hit), shape: a.lastShape, sev: uint8(cat.severity())})
			case matched:
				a.matches = a.matches[:k]
			}
			return
		}
	}
	if a.lastLevel != levelNone && a.lastLevel != levelWarn {
		return
	}
	cont := input[first:end]
	h, ok := findKeyword(cont[:min(len(cont), MaxLineBytes)])
	if !ok {
		return
	}
	h.start, h.end = h.start+int(first-ref.start), h.end+int(first-ref.start)
	cat, _ := byLevel(a.lastLevel, h)
	switch {
	case !matched:
		r := a.lastRef
		r.end, r.joined = end, true
		a.addMatch(matchRef{ref: r, hit: pack(h), shape: a.lastShape, sev: uint8(cat.severity())})
	case better(h, a.matches[k].hit.unpack()):
		a.matches[k].hit, a.matches[k].sev = pack(h), uint8(cat.severity())
	}
}

// addMatch adds a match of the last entry read.
func (a *analyzer) addMatch(m matchRef) {
	m.stamp = a.lastStamp
	a.matches = append(doubled(a.matches), m)
}

// doubled is s with room for one more, at least twice its length when it
// must grow. append grows a large slice by a quarter, so a slice of many
// entries would be copied over and over, each time into fresh memory,
// whose page faults cost more than the copies.
func doubled[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 1))
}

// line analyses the line at ref, line (input[ref.start:ref.end], which
// read has at hand).
func (a *analyzer) line(input []byte, ref lineRef, line []byte) {
	text, cut := cutLine(line)
	if cut {
		ref.end = ref.start + int32(len(text))
		ref.cut = true
		a.cut++
	}
	if !validUTF8(text) {
		a.fix = appendValid(a.fix[:0], text)
		text = a.fix
		ref.fixed = true
	}
	var hdr int
	if a.headOf == ref.no && !ref.cut && !ref.fixed {
		hdr = a.headEnd // found by a.continues, with a.head's state
	} else {
		hdr = a.head.end(text)
	}
	if a.cols.n > 0 || a.cols.tabs > 0 || a.cols.csv > 0 {
		// A line that fits the input's bare columns has them for its
		// header, whatever the per-line finder took for a level further
		// on; unless the finder's header ran on to a syslog process
		// ("host1 sshd[812]:", as journald writes after an ISO time and
		// a host name, which the columns take for an id column), an
		// anchor bare columns lack.
		if e := a.cols.end(text); e > 0 && !(hdr > e && bytes.Contains(text[e:hdr], procEnd)) {
			hdr = e
			if a.head.lvl1 > e {
				a.head.lvl0, a.head.lvl1 = 0, 0
			}
			if a.cols.csv > 0 {
				text = a.csvRow(text, hdr)
			}
		}
	}
	// The message under a header line of its own, .NET's console
	// header's or an Erlang report's, is read with it: the header line is
	// the entry's header, with its level (dotnet.go, erlang.go). .NET's
	// has a colon after its four-letter level, and Erlang's opens with
	// '=', which rule out most lines here, without a call. (A mended
	// text's bytes may not be the line's, but no mended line is read so.)
	own, ownLvl0, ownLvl1 := false, 0, 0
	if len(text) >= 10 && text[4] == ':' {
		if two := a.dotnetText(input, ref); two != nil {
			text, hdr, own, ownLvl1 = two, len(text), true, 4
		}
	} else if text[0] == '=' {
		if two, l0, l1 := a.erlangText(input, ref); two != nil {
			text, hdr, own, ownLvl0, ownLvl1 = two, len(text), true, l0, l1
		}
	}
	msg := text[hdr:]
	e, seen := a.msgs.lookup(msg)
	if !seen {
		a.z.tokenize(text, hdr)
		e.hitDone = false
		e.lvl0, e.lvl1 = 0, 0
		if st := a.z.st; st.ok && st.lvl1 > st.lvl0 {
			e.lvl0, e.lvl1 = int32(st.lvl0-hdr), int32(st.lvl1-hdr)
		}
		e.structured, e.quiet = a.z.st.ok, a.z.st.quiet()
		e.status, e.table = a.z.access(msg, hdr) // accessStatus and mayBeTable (tokcache.go)
	}
	// The header and level first: the shape keeps ref for its outliers.
	ref.hdr, ref.head, ref.structured = uint16(hdr), uint16(blankEnd(text[:hdr])), e.structured
	if a.cols.csv > 0 { // the comma and quote before the message are no column
		ref.head = uint16(len(bytes.TrimRight(text[:ref.head], `,"`)))
	}
	ref.lvl0, ref.lvl1 = uint16(a.head.lvl0), uint16(a.head.lvl1)
	fromHead := !own && e.lvl1 <= e.lvl0
	if own {
		ref.lvl0, ref.lvl1 = uint16(ownLvl0), uint16(ownLvl1)
	}
	if e.lvl1 > e.lvl0 { // a level field
		ref.lvl0, ref.lvl1 = uint16(hdr+int(e.lvl0)), uint16(hdr+int(e.lvl1))
	}
	if !seen {
		e.shape = a.set.add(&a.z, text, ref)
		a.msgs.store(e, msg, input)
	} else {
		a.set.count(e.shape, ref)
	}
	if a.opts.IncludeParams {
		if !seen {
			e.params = messageParams(&a.z, text, e.params)
		}
		a.set.shapes[e.shape].countParams(e.params, ref.no)
	}
	si := e.shape
	lvl := levelNone
	if l := a.head.level; l != nil && fromHead && ref.lvl1 > ref.lvl0 {
		// The header's level word is its layout's: its kind is kept there.
		if !l.known {
			l.kind, l.known = a.levels.of(text[ref.lvl0:ref.lvl1]), true
		}
		lvl = l.kind
	} else if ref.lvl1 > ref.lvl0 {
		lvl = a.levels.of(text[ref.lvl0:ref.lvl1])
	} else if e.quiet {
		lvl = levelQuiet
	}
	// An HTTP access line is read as at a quiet level, so no keyword in
	// its URL counts, and its status decides (access.go).
	status := e.status
	if status.ok() {
		status.at += hdr
	} else if e.table { // its status may be in its header: not the message's
		status = tableStatus(text)
	}
	if col := a.in.w3c; col > 0 && !status.ok() {
		status = w3cStatus(text, col)
	}
	if status.ok() {
		lvl = levelQuiet
	}
	// Keywords matter unless a quiet level (info, debug) rules the line
	// out, as it does for most lines: they are looked for only then.
	hit := keywordHit{kw: -1}
	if lvl != levelQuiet {
		if !e.hitDone {
			if seen { // tokenized for another line: tokenize again
				a.z.tokenize(text, hdr)
			}
			e.hit, e.hitDone = a.messageHit(text, hdr, si), true
		}
		hit = a.headHit(text, hdr)
		if m := e.hit; m.kw >= 0 {
			if m.start, m.end = m.start+hdr, m.end+hdr; better(m, hit) {
				hit = m
			}
		}
	}
	cat, ok := byLevel(lvl, hit)
	if status.ok() {
		hit, cat, ok = status.match()
	}
	if ok {
		a.addMatch(matchRef{ref: ref, hit: pack(hit), shape: si, sev: uint8(cat.severity())})
	}
	a.lastShape, a.lastLevel, a.lastRef, a.lastAccess = si, lvl, ref, status.ok()
	if a.opts.IncludeAssignments || a.opts.IncludePatterns {
		a.assign = append(a.assign, si)
		a.assignNo = append(a.assignNo, ref.no)
	}
	if a.opts.IncludePatterns {
		a.entryStamp = append(a.entryStamp, a.lastStamp)
		a.addExample(si, ref)
	}
}

var procEnd = []byte("]:")

// headHit is headKeyword's answer, kept with the header's layout: its
// words are the layout's, whose keyword hits are the same in every line
// that fits it, so only where the header ends (the columns or a klog
// header may move it) changes the answer.
func (a *analyzer) headHit(text []byte, hdr int) keywordHit {
	c := a.head.hit
	if c == nil {
		return a.headKeyword(text, hdr)
	}
	if !c.known || c.hdr != hdr {
		c.hit, c.hdr, c.known = a.headKeyword(text, hdr), hdr, true
	}
	return c.hit
}

// dotnetText is the text of the entry opening at ref when its first line
// is .NET's console header and the message line under it joins it: the
// two lines as the input holds them, so that offsets in it are the
// entry's; else nil. The caller has seen the colon after the level.
func (a *analyzer) dotnetText(input []byte, ref lineRef) []byte {
	if ref.cut || ref.fixed || a.opts.SplitContinuations || a.join.rules.indentedInput {
		return nil
	}
	two := dotnetMessage(input, int(ref.start), int(ref.end))
	if len(two) > MaxLineBytes || !validUTF8(two) {
		return nil
	}
	return two
}

// csvRow reads a comma-separated row (csvcolumns.go) whose message starts
// at hdr: its level column is its level, and the quote that closes a
// quoted message on this line is no part of the message, so it returns
// text without it.
func (a *analyzer) csvRow(text []byte, hdr int) []byte {
	if k := a.cols.level; k > 0 {
		if l0, l1 := csvLevel(text[:hdr], k); l1 > l0 {
			a.head.lvl0, a.head.lvl1, a.head.level = l0, l1, nil
		}
	}
	if text[hdr-1] == '"' && text[len(text)-1] == '"' && oddQuotes(text[hdr:]) {
		return text[:len(text)-1]
	}
	return text
}

// erlangText is, as dotnetText, the text of the entry opening at ref
// when its first line is an Erlang report's header (erlang.go), and the
// span of its level word in it.
func (a *analyzer) erlangText(input []byte, ref lineRef) ([]byte, int, int) {
	if ref.cut || ref.fixed || a.opts.SplitContinuations {
		return nil, 0, 0
	}
	text, lvl0, lvl1 := erlangMessage(input, int(ref.start), int(ref.end))
	if len(text) > MaxLineBytes || !validUTF8(text) {
		return nil, 0, 0
	}
	return text, lvl0, lvl1
}

// validUTF8 reports whether s is valid UTF-8, as utf8.Valid does. Most
// lines are ASCII: their bytes are tested 64, 32 and 16 at a time, the
// last 16 overlapping those before, and only a line with another byte is
// decoded (utf8.Valid goes byte by byte after its last 32-byte block).
func validUTF8(s []byte) bool {
	const high = 0x8080808080808080
	if len(s) < 16 {
		return utf8.Valid(s)
	}
	t := s
	for len(t) >= 64 {
		u := t[:64]
		if (binary.LittleEndian.Uint64(u)|binary.LittleEndian.Uint64(u[8:])|
			binary.LittleEndian.Uint64(u[16:])|binary.LittleEndian.Uint64(u[24:])|
			binary.LittleEndian.Uint64(u[32:])|binary.LittleEndian.Uint64(u[40:])|
			binary.LittleEndian.Uint64(u[48:])|binary.LittleEndian.Uint64(u[56:]))&high != 0 {
			return utf8.Valid(s)
		}
		t = t[64:]
	}
	if len(t) >= 32 {
		if (binary.LittleEndian.Uint64(t)|binary.LittleEndian.Uint64(t[8:])|
			binary.LittleEndian.Uint64(t[16:])|binary.LittleEndian.Uint64(t[24:]))&high != 0 {
			return utf8.Valid(s)
		}
		t = t[32:]
	}
	// Fewer than 32 bytes are left: their first 16, and the last 16.
	if len(t) > 16 && (binary.LittleEndian.Uint64(t)|binary.LittleEndian.Uint64(t[8:]))&high != 0 {
		return utf8.Valid(s)
	}
	t = s[len(s)-16:]
	return (binary.LittleEndian.Uint64(t)|binary.LittleEndian.Uint64(t[8:]))&high == 0 || utf8.Valid(s)
}

// appendValid appends s with every run of invalid UTF-8 replaced by U+FFFD.
func appendValid(dst, s []byte) []byte {
	invalid := false
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size == 1 {
			if !invalid {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			}
			invalid = true
		} else {
			dst = append(dst, s[:size]...)
			invalid = false
		}
		s = s[size:]
	}
	return dst
}
