package logs

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// Limits of a comparison: each side may have half of what one analysis
// accepts, so that both together are mined as one input. A side's size
// counts the newline that ends its last line, written or not.
const (
	MaxCompareSideBytes = MaxInputBytes / 2 // 5 MiB
	MaxCompareSideLines = MaxLines / 2      // 100,000
)

// Thresholds of a changed template: its rate per 1,000 lines at least
// doubled or at least halved, and at least ChangedMinCount lines of it on
// the side where it is more frequent. Below that count a change is noise.
const (
	ChangedRatio    = 2.0
	ChangedMinCount = 5
)

// Comparison is the outcome of Compare. Its JSON form is part of the API.
type Comparison struct {
	Summary CompareSummary `json:"summary"`
	// New templates have lines in current only, Gone ones in baseline
	// only, Changed ones in both at a rate that changed by ChangedRatio
	// or more. Each list is ranked by what matters most: templates of
	// fatal, then error, then reliability lines, then the others; within
	// one category, by how much the rate per 1,000 lines moved.
	New     []TemplateChange `json:"new"`
	Gone    []TemplateChange `json:"gone"`
	Changed []TemplateChange `json:"changed"`
	// Truncated, when set, counts what each list leaves out (see
	// MaxCompareListed); the summary counts them all.
	Truncated *CompareTruncated `json:"truncated,omitempty"`
}

// CompareTruncated counts the templates left out of each list of a
// Comparison: the least important, at its end.
type CompareTruncated struct {
	New     int `json:"new"`
	Gone    int `json:"gone"`
	Changed int `json:"changed"`
}

// CompareSummary counts both sides and the templates of each kind.
type CompareSummary struct {
	BaselineLines int     `json:"baseline_lines"` // analysed entries of each side (a multi-line entry counts once)
	CurrentLines  int     `json:"current_lines"`
	Templates     int     `json:"templates"` // mined from both sides together
	New           int     `json:"new"`
	Gone          int     `json:"gone"`
	Changed       int     `json:"changed"`
	Unchanged     int     `json:"unchanged"` // in both, rate within the thresholds
	ChangedRatio  float64 `json:"changed_ratio"`
	MinCount      int     `json:"changed_min_count"`
	DurationMS    float64 `json:"duration_ms"`
}

// TemplateChange is one template's lines on both sides.
type TemplateChange struct {
	TemplateID int    `json:"template_id"` // the id in the analysis of both sides together
	Template   string `json:"template"`
	// Category is the most severe category of the template's matched
	// lines on either side; absent when none of them matched a keyword.
	Category Category  `json:"category,omitempty"`
	Baseline SideCount `json:"baseline"`
	Current  SideCount `json:"current"`
	// Ratio is current's rate over baseline's: 0 for a gone template,
	// absent for a new one.
	Ratio *float64 `json:"ratio,omitempty"`
	// Example is the template's first line on the side it is reported
	// for (baseline for a gone template, current otherwise), and
	// ExampleLine its line number in that side's own input.
	Example     string `json:"example"`
	ExampleLine int    `json:"example_line"`
}

// SideCount is a template's lines on one side and their rate per 1,000
// analysed lines of that side (three decimals).
type SideCount struct {
	Count int     `json:"count"`
	Rate  float64 `json:"rate"`
}

// CompareLimitError reports a side over its limit.
type CompareLimitError struct {
	Side  string // "baseline" or "current"
	Limit string // "bytes" or "lines"
	Max   int
}

func (e *CompareLimitError) Error() string {
	if e.Limit == "lines" {
		return fmt.Sprintf("%s has too many lines: at most %d per side", e.Side, e.Max)
	}
	return fmt.Sprintf("%s is too large: at most %d bytes (%d MiB) per side", e.Side, e.Max, e.Max>>20)
}

// Compare mines baseline and current as one input, so that an event gets
// the same template on both sides, and reports the templates that are
// new, gone or changed. It fails with *CompareLimitError for a side over
// its limits, an error wrapping ErrNoLines (naming the side) when a side
// has no line with text, and otherwise as Analyze does.
func Compare(ctx context.Context, baseline, current []byte, opts Options) (*Comparison, error) {
	began := time.Now()
	baseline, current = utf8Text(baseline), utf8Text(current)
	sides := [2]struct {
		name  string
		text  []byte
		lines int // input lines, blank ones included
		used  int // lines with text
	}{{name: "baseline", text: baseline}, {name: "current", text: current}}
	for i := range sides {
		s := &sides[i]
		size := len(s.text)
		if size > 0 && s.text[size-1] != '\n' {
			size++
		}
		if size > MaxCompareSideBytes {
			return nil, &CompareLimitError{Side: s.name, Limit: "bytes", Max: MaxCompareSideBytes}
		}
		eachLine(s.text, func(_ int, line []byte) {
			s.lines++
			if hasNonSpace(line) {
				s.used++
			}
		})
		if s.lines > MaxCompareSideLines {
			return nil, &CompareLimitError{Side: s.name, Limit: "lines", Max: MaxCompareSideLines}
		}
		if s.used == 0 {
			return nil, fmt.Errorf("%s: %w", s.name, ErrNoLines)
		}
	}
	if err := checkThreshold(opts.RareThreshold); err != nil {
		return nil, err
	}
	joined, moved := joinSides(baseline, current, sides[0].lines)
	opts.IncludeAssignments = true
	res, err := run(ctx, joined, lineCount(joined), opts, moved)
	if err != nil {
		return nil, err
	}
	nt := len(res.Templates)
	var count, first [2][]int
	for s := range 2 {
		count[s], first[s] = make([]int, nt+1), make([]int, nt+1)
	}
	// Count entries per side: with continuations joined an entry may span
	// lines, so each side's size is its number of entries.
	var entries [2]int
	for i, id := range res.Assignments {
		no, side := res.entryLines[i], 0
		if no > sides[0].lines {
			side, no = 1, no-sides[0].lines
		}
		entries[side]++
		count[side][id]++
		if first[side][id] == 0 {
			first[side][id] = no
		}
	}
	examples := exampleLines(joined, moved.of, sides[0].lines, first)
	cats := make([]Category, nt+1)
	for id, sev := range res.severity {
		cats[id] = bySeverity[sev]
	}
	cmpRes := &Comparison{
		Summary: CompareSummary{BaselineLines: entries[0], CurrentLines: entries[1], Templates: nt,
			ChangedRatio: ChangedRatio, MinCount: ChangedMinCount},
		New: []TemplateChange{}, Gone: []TemplateChange{}, Changed: []TemplateChange{},
	}
	for _, t := range res.Templates {
		b, c := count[0][t.ID], count[1][t.ID]
		ch := TemplateChange{TemplateID: t.ID, Template: t.Template, Category: cats[t.ID],
			Baseline: SideCount{b, rate(b, entries[0])}, Current: SideCount{c, rate(c, entries[1])}}
		side := 1
		if c == 0 {
			side = 0
		}
		ch.Example, ch.ExampleLine = examples[[2]int{side, t.ID}], first[side][t.ID]
		if b > 0 {
			r := round3((float64(c) / float64(entries[1])) / (float64(b) / float64(entries[0])))
			ch.Ratio = &r
		}
		switch {
		case b == 0:
			cmpRes.New = append(cmpRes.New, ch)
		case c == 0:
			cmpRes.Gone = append(cmpRes.Gone, ch)
		case (*ch.Ratio >= ChangedRatio || *ch.Ratio <= 1/ChangedRatio) && max(b, c) >= ChangedMinCount:
			cmpRes.Changed = append(cmpRes.Changed, ch)
		default:
			cmpRes.Summary.Unchanged++
		}
	}
	for _, list := range [][]TemplateChange{cmpRes.New, cmpRes.Gone, cmpRes.Changed} {
		slices.SortStableFunc(list, func(x, y TemplateChange) int {
			return cmp.Or(
				cmp.Compare(y.Category.severity(), x.Category.severity()),
				cmp.Compare(math.Abs(y.Current.Rate-y.Baseline.Rate), math.Abs(x.Current.Rate-x.Baseline.Rate)),
				cmp.Compare(x.TemplateID, y.TemplateID))
		})
	}
	s := &cmpRes.Summary
	s.New, s.Gone, s.Changed = len(cmpRes.New), len(cmpRes.Gone), len(cmpRes.Changed)
	cmpRes.truncate()
	s.DurationMS = float64(time.Since(began).Microseconds()) / 1000
	return cmpRes, nil
}

// joinSides is the text the analysis of both sides reads, each side read
// as Analyze reads it (see readable), the current side from line
// baselineLines+1 on, and where its lines were; each side is one segment
// at least, so that no entry spans both.
func joinSides(baseline, current []byte, baselineLines int) ([]byte, *lineMap) {
	base, baseMoved := readable(baseline)
	cur, curMoved := readable(current)
	joined := make([]byte, 0, len(base)+1+len(cur)+1)
	joined = append(joined, base...)
	if n := len(joined); n > 0 && joined[n-1] != '\n' {
		joined = append(joined, '\n')
	}
	if !sameBytes(base, baseline) { // a last line of escapes alone is gone: its line stays
		for k := baselineLines - lineCount(joined); k > 0; k-- {
			joined = append(joined, '\n')
		}
	}
	m := &lineMap{}
	if baseMoved != nil {
		m.segments = append(m.segments, baseMoved.segments...)
	}
	m.segments = append(m.segments, segmentStart{no: int32(baselineLines + 1), at: len(joined)})
	if curMoved != nil {
		for _, st := range curMoved.segments {
			m.segments = append(m.segments, segmentStart{no: st.no + int32(baselineLines), at: st.at + len(joined)})
		}
	}
	joined = append(joined, cur...)
	if baseMoved == nil && curMoved == nil {
		return joined, m
	}
	m.of = make([]int32, 0, lineCount(joined))
	for k, side := range []*lineMap{baseMoved, curMoved} {
		from, n := 0, baselineLines
		if k == 1 {
			from, n = baselineLines, lineCount(cur)
		}
		for i := range n {
			no := int32(i + 1)
			if side != nil {
				no = side.of[i]
			}
			m.of = append(m.of, int32(from)+no)
		}
	}
	return joined, m
}

// exampleLines returns the text of the lines first names, by side and
// template id, in joined, whose line i+1 is the input's line of[i] (i+1
// when of is nil; the first baselineLines lines are the baseline's).
func exampleLines(joined []byte, of []int32, baselineLines int, first [2][]int) map[[2]int]string {
	want := map[int][2]int{} // line number in the input -> side and template id
	for side := range 2 {
		for id, no := range first[side] {
			if no > 0 {
				want[no+side*baselineLines] = [2]int{side, id}
			}
		}
	}
	examples := make(map[[2]int]string, len(want))
	eachLine(joined, func(no int, line []byte) {
		if of != nil {
			no = int(of[no-1])
		}
		if k, ok := want[no]; ok {
			examples[k] = exampleText(line)
		}
	})
	return examples
}

// eachLine calls fn with every line of input and its 1-based number, as
// the engine splits lines: on LF, with a CR before it dropped.
func eachLine(input []byte, fn func(no int, line []byte)) {
	for start, no := 0, 1; start < len(input); no++ {
		var line []byte
		line, start = nextLine(input, start)
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		fn(no, line)
	}
}

// exampleText is a line as an example: as the engine reads it (cutLine),
// as valid UTF-8.
func exampleText(line []byte) string {
	line, _ = cutLine(line)
	return string(bytes.ToValidUTF8(line, []byte("\uFFFD")))
}

func rate(n, lines int) float64 { return round3(1000 * float64(n) / float64(lines)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
