package logs

import (
	"slices"
	"unsafe"
)

// PatternInfo is what a patterns view shows of a template beside its text,
// count and values: with Options.IncludePatterns, every template has it.
type PatternInfo struct {
	// Category is the most severe category of the template's matched
	// entries, "" when none matched; Matched counts them.
	Category Category `json:"category,omitempty"`
	Matched  int      `json:"matched"`
	// First and Last are the earliest and latest timestamps of its
	// entries (RFC 3339, UTC), "" when none has one or the input has no
	// timeline.
	First string `json:"first,omitempty"`
	Last  string `json:"last,omitempty"`
	// Buckets are its timed entries per bucket of the result's timeline,
	// in the same order; absent without a timeline.
	Buckets []int `json:"buckets,omitempty"`
	// Examples are its first MaxPatternExamples entries, in input order.
	Examples []Example `json:"examples"`
}

// Example is one entry of a template: its first line's number and its text
// (the whole entry, lines joined by \n), with its header as for a match.
type Example struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	Cut  bool   `json:"cut,omitempty"`
	LineHeader
}

// MaxPatternExamples is how many entries of each template are kept as
// examples: enough to see how its values vary, few enough that a result
// of 1,000 templates stays small.
const MaxPatternExamples = 3

// addExample keeps ref as an example of shape si while the shape has fewer
// than MaxPatternExamples. A template's examples are then the first of its
// shapes' (a template has at least one shape, each keeping its first).
func (a *analyzer) addExample(si int32, ref lineRef) {
	if a.examples == nil {
		a.examples = make(map[int32][]lineRef)
	}
	if refs := a.examples[si]; len(refs) < MaxPatternExamples {
		a.examples[si] = append(refs, ref)
	}
}

// extendExample makes the example of the entry opening at line no end at
// end, when the entry read on past its first line and was kept.
func (a *analyzer) extendExample(no int32, end int32) {
	refs := a.examples[a.lastShape]
	if k := len(refs) - 1; k >= 0 && refs[k].no == no {
		refs[k].end, refs[k].joined = end, true
	}
}

// patterns fills every template's PatternInfo, from the entries' shapes
// and timestamps read on the way: one pass over the entries and one over
// the matches.
func (a *analyzer) patterns(res *Result, input []byte) {
	// Only the templates the result may list get one (see
	// MaxResultTemplates): a log of all-different lines would otherwise
	// have a timeline's buckets and examples for each of its lines.
	listed := min(len(res.Templates), MaxResultTemplates)
	info := make([]PatternInfo, listed)
	for i := range info {
		res.Templates[i].PatternInfo = &info[i]
	}
	tmpl := func(si int32) int { return a.ids[si] - 1 }
	for _, m := range a.matches {
		if t := tmpl(m.shape); t < listed {
			info[t].Matched++
		}
	}
	for t := range info {
		info[t].Category = bySeverity[res.severity[t+1]] // by id
	}
	if tl := res.Timeline; tl != nil {
		first := make([]int64, len(info))
		last := make([]int64, len(info))
		for t := range info {
			info[t].Buckets = make([]int, len(tl.Buckets))
			first[t], last[t] = -1, -1
		}
		times := a.stamps.times
		for i, si := range a.assign {
			k := a.entryStamp[i]
			t := tmpl(si)
			if k < 0 || t >= listed {
				continue
			}
			ts := times[k]
			info[t].Buckets[(ts-tl.start)/tl.BucketSeconds]++
			if first[t] < 0 || ts < first[t] {
				first[t] = ts
			}
			if ts > last[t] {
				last[t] = ts
			}
		}
		for t := range info {
			if first[t] >= 0 {
				info[t].First, info[t].Last = rfc3339(first[t]), rfc3339(last[t])
			}
		}
	}
	// Each template's first entries, of the first of each of its shapes';
	// only those kept are made examples (a line's fields cost a map).
	refs := make([][]lineRef, len(info))
	for si, r := range a.examples {
		if t := tmpl(si); t < listed {
			refs[t] = append(refs[t], r...)
		}
	}
	text := unsafe.String(unsafe.SliceData(input), len(input))
	for t, r := range refs {
		slices.SortFunc(r, func(x, y lineRef) int { return int(x.no - y.no) })
		r = r[:min(len(r), MaxPatternExamples)]
		info[t].Examples = make([]Example, len(r))
		for k, ref := range r {
			e := &info[t].Examples[k]
			e.Line, e.Cut = int(ref.no), ref.cut
			var o Outlier
			o.setText(lineText(text, ref), ref)
			e.Text, e.LineHeader = o.Text, o.LineHeader
		}
	}
}
