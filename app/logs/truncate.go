package logs

import "slices"

// A result lists at most MaxResultTemplates templates (the most frequent),
// MaxResultOutliers outliers and MaxResultMatches matches (the first in
// input order), and of the templates and outliers no more than
// MaxResultListBytes of text once past the first item, of the matches
// MaxResultMatchBytes: an input of all-different lines would otherwise
// make every line a template and an outlier, and one of error lines every
// line a match, with its fields, so that the answer would be several
// times the input's size (a 9.4 MB log of JSON error lines answered
// 42 MB). A line's text counts its fields' keys and values too. The
// summary's counts and the timeline stay whole; the ids of the templates
// left out are the ranks after the listed ones. A template's text counts
// its values' and its examples'.
const (
	MaxResultTemplates  = 1000
	MaxResultOutliers   = 1000
	MaxResultListBytes  = 1 << 20
	MaxResultMatches    = 10_000
	MaxResultMatchBytes = 4 << 20
)

// Truncated counts what a result leaves out of its lists.
type Truncated struct {
	Templates int `json:"templates"`         // the least frequent
	Outliers  int `json:"outliers"`          // the last in input order
	Matches   int `json:"matches,omitempty"` // the last in input order
}

// headerBytes is the text a line's header adds to the answer: its
// header, level and fields.
func headerBytes(h *LineHeader) int {
	n := len(h.Header) + len(h.Level)
	for k, v := range h.Fields {
		n += len(k) + len(v)
	}
	return n
}

// truncate cuts the result's lists to the limits above, and says so.
func (r *Result) truncate() {
	nt := listed(len(r.Templates), MaxResultTemplates, func(i int) int {
		t := &r.Templates[i]
		n := len(t.Template)
		for _, p := range t.Params {
			for _, v := range p.Values {
				n += len(v.Value)
			}
		}
		if t.PatternInfo != nil {
			for _, e := range t.Examples {
				n += len(e.Text) + headerBytes(&e.LineHeader)
			}
		}
		return n
	})
	no := listed(len(r.Outliers), MaxResultOutliers, func(i int) int {
		return len(r.Outliers[i].Text) + len(r.Outliers[i].Template) + headerBytes(&r.Outliers[i].LineHeader)
	})
	nm := listedWithin(len(r.Matches), MaxResultMatches, MaxResultMatchBytes, func(i int) int {
		return len(r.Matches[i].Text) + headerBytes(&r.Matches[i].LineHeader)
	})
	// The result builds no more than it may list (see analyzer.result):
	// the summary counts them all.
	left := Truncated{Templates: r.Summary.Templates - nt, Outliers: r.Summary.Outliers - no, Matches: r.Summary.Matched - nm}
	if left == (Truncated{}) {
		return
	}
	r.Truncated = &left
	// Copies, so that what is left out is no longer held.
	r.Templates, r.Outliers, r.Matches = cut(r.Templates, nt), cut(r.Outliers, no), cut(r.Matches, nm)
	if tl := r.Timeline; tl != nil && len(tl.matchBucket) > nm {
		tl.matchBucket = cut(tl.matchBucket, nm)
	}
}

// cut is the first n items of s, copied when that leaves some out.
func cut[T any](s []T, n int) []T {
	if n == len(s) {
		return s
	}
	return slices.Clone(s[:n])
}

// listed is how many of a list of n items, item i of size(i) bytes, are
// listed: at most most, and the first always, then while they fit in
// MaxResultListBytes together.
func listed(n, most int, size func(i int) int) int {
	return listedWithin(n, most, MaxResultListBytes, size)
}

// listedWithin is listed with a bound of bytes bytes.
func listedWithin(n, most, bytes int, size func(i int) int) int {
	n = min(n, most)
	total := 0
	for i := range n {
		if total += size(i); total > bytes && i > 0 {
			return i
		}
	}
	return n
}

// MaxCompareListed bounds each list of a Comparison as MaxResultTemplates
// bounds an analysis's templates: a current log of all-different lines
// would otherwise list each line as a new template, with its example.
const MaxCompareListed = 1000

// truncate cuts each list of the comparison to MaxCompareListed
// templates and MaxResultListBytes of template and example text once past
// its first, and says so.
func (c *Comparison) truncate() {
	var left CompareTruncated
	for _, l := range []struct {
		list *[]TemplateChange
		left *int
	}{{&c.New, &left.New}, {&c.Gone, &left.Gone}, {&c.Changed, &left.Changed}} {
		list := *l.list
		n := listed(len(list), MaxCompareListed, func(i int) int { return len(list[i].Template) + len(list[i].Example) })
		*l.left, *l.list = len(list)-n, list[:n:n]
	}
	if left != (CompareTruncated{}) {
		c.Truncated = &left
	}
}
