package logs

// A result lists at most MaxResultTemplates templates (the most frequent)
// and MaxResultOutliers outliers (the first in input order), and of each
// list no more than MaxResultListBytes of text once past its first item:
// an input of all-different lines would otherwise make every line a
// template and an outlier, and the answer several times the input's size.
// The summary's counts, the matches and the timeline stay whole; the ids
// of the templates left out are the ranks after the listed ones. A
// template's text counts its values' and its examples'.
const (
	MaxResultTemplates = 1000
	MaxResultOutliers  = 1000
	MaxResultListBytes = 1 << 20
)

// Truncated counts what a result leaves out of its lists.
type Truncated struct {
	Templates int `json:"templates"` // the least frequent
	Outliers  int `json:"outliers"`  // the last in input order
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
				n += len(e.Text)
			}
		}
		return n
	})
	no := listed(len(r.Outliers), MaxResultOutliers, func(i int) int {
		return len(r.Outliers[i].Text) + len(r.Outliers[i].Template)
	})
	if nt == len(r.Templates) && no == len(r.Outliers) {
		return
	}
	r.Truncated = &Truncated{Templates: len(r.Templates) - nt, Outliers: len(r.Outliers) - no}
	r.Templates, r.Outliers = r.Templates[:nt:nt], r.Outliers[:no:no]
}

// listed is how many of a list of n items, item i of size(i) bytes, are
// listed: at most most, and the first always, then while they fit in
// MaxResultListBytes together.
func listed(n, most int, size func(i int) int) int {
	n = min(n, most)
	total := 0
	for i := range n {
		if total += size(i); total > MaxResultListBytes && i > 0 {
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
