package views

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"time"

	"parapet/app/logs"
	"parapet/views/paths"
)

// The patterns view: one row per template, opening to its lines. What it
// shows is narrowed by a LogsFilter, which travels as form fields beside
// the log (the filter inputs belong to the analyzer's form) and as the
// page's query string, so a view can be shared as a link; the log itself
// is never stored, so the link's receiver pastes the log and analyzes.

// Bounds of the patterns view.
const (
	logsPatternRows  = 100 // pattern rows shown; the CSV has all the filtered ones
	logsPatternLines = 10  // matched lines shown under a pattern
	maxFilterBytes   = 256 // a search or field filter longer than this is cut
)

// LogsFilter narrows the patterns view. The zero value shows everything.
type LogsFilter struct {
	Query    string        // case-insensitive text in the template, or its lines shown
	Category logs.Category // patterns with matched lines of this category, and those lines
	Pattern  int           // one template id; 0 for all
	Field    string        // key=value: lines whose JSON or logfmt field key holds value
}

// ParseLogsFilter reads a filter from form or query values (q, cat,
// pattern, field). Anything unknown or malformed is ignored.
func ParseLogsFilter(get func(string) string) LogsFilter {
	f := LogsFilter{
		Query: cutBytes(strings.TrimSpace(get("q")), maxFilterBytes),
		Field: cutBytes(strings.TrimSpace(get("field")), maxFilterBytes),
	}
	switch c := logs.Category(get("cat")); c {
	case logs.CategoryFatal, logs.CategoryError, logs.CategoryReliability:
		f.Category = c
	}
	if n, err := strconv.Atoi(get("pattern")); err == nil && n > 0 {
		f.Pattern = n
	}
	if _, _, ok := f.field(); !ok {
		f.Field = ""
	}
	return f
}

// cutBytes keeps at most n bytes of s, on a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// Active reports whether the filter narrows anything.
func (f LogsFilter) Active() bool { return f != LogsFilter{} }

// URL is the analyzer's address with the filter as its query.
func (f LogsFilter) URL() string {
	q := url.Values{}
	if f.Query != "" {
		q.Set("q", f.Query)
	}
	if f.Category != "" {
		q.Set("cat", string(f.Category))
	}
	if f.Pattern > 0 {
		q.Set("pattern", strconv.Itoa(f.Pattern))
	}
	if f.Field != "" {
		q.Set("field", f.Field)
	}
	if len(q) == 0 {
		return paths.LogAnalyzer
	}
	return paths.LogAnalyzer + "?" + q.Encode()
}

// field splits the field filter at its first =; the key may not be empty.
func (f LogsFilter) field() (key, value string, ok bool) {
	k, v, ok := strings.Cut(f.Field, "=")
	return strings.TrimSpace(k), strings.TrimSpace(v), ok && strings.TrimSpace(k) != ""
}

// patternRow is one pattern as the view shows it: the template and the
// lines of it the filter keeps.
type patternRow struct {
	T        logs.Template
	Lines    []logs.Match   // its matched lines kept, the first logsPatternLines
	Matched  int            // its matched lines kept, in all
	Examples []logs.Example // its examples kept
}

// shownPatterns are the templates the filter keeps, in rank order, with
// their lines; the caller shows the first logsPatternRows.
func shownPatterns(r LogsReport) []patternRow {
	res, f := r.Result, r.Filter
	byTemplate := map[int][]int{} // template id -> indexes in res.Matches
	for i, m := range res.Matches {
		byTemplate[m.TemplateID] = append(byTemplate[m.TemplateID], i)
	}
	q := strings.ToLower(f.Query)
	key, value, hasField := f.field()
	keep := func(text string, fields map[string]string, lineQuery bool) bool {
		if hasField && fields[key] != value {
			return false
		}
		return !lineQuery || strings.Contains(strings.ToLower(text), q)
	}
	var rows []patternRow
	for _, t := range res.Templates {
		if f.Pattern > 0 && t.ID != f.Pattern {
			continue
		}
		// A search that the template's text answers keeps all its lines;
		// otherwise only the lines that hold the text.
		lineQuery := q != "" && !strings.Contains(strings.ToLower(t.Template), q)
		row := patternRow{T: t}
		for _, i := range byTemplate[t.ID] {
			m := res.Matches[i]
			if (f.Category == "" || m.Category == f.Category) && keep(m.Text, m.Fields, lineQuery) {
				if row.Matched < logsPatternLines {
					row.Lines = append(row.Lines, m)
				}
				row.Matched++
			}
		}
		if t.PatternInfo != nil && f.Category == "" {
			for _, e := range t.Examples {
				if keep(e.Text, e.Fields, lineQuery) {
					row.Examples = append(row.Examples, e)
				}
			}
		}
		lines := row.Matched + len(row.Examples)
		if (f.Category != "" || hasField || lineQuery) && lines == 0 {
			continue
		}
		rows = append(rows, row)
	}
	return rows
}

// firstPatterns is the first logsPatternRows of rows.
func firstPatterns(rows []patternRow) []patternRow { return rows[:min(len(rows), logsPatternRows)] }

// sparkBar is one bucket of a pattern's sparkline, in the viewBox's units
// (each bar 4 wide, the chart 20 high).
type sparkBar struct{ X, Y, Height string }

// sparkline draws a pattern's entries per timeline bucket; its label says
// the busiest bucket.
func sparkline(t logs.Template, tl *logs.Timeline) (bars []sparkBar, width, label string) {
	if t.PatternInfo == nil || len(t.Buckets) == 0 || tl == nil {
		return nil, "", ""
	}
	top, at := 0, 0
	for i, n := range t.Buckets {
		if n > top {
			top, at = n, i
		}
	}
	for i, n := range t.Buckets {
		if n == 0 {
			continue
		}
		h := max(1.5, 20*float64(n)/float64(max(top, 1)))
		bars = append(bars, sparkBar{X: itoa(i * 4), Y: num2(20 - h), Height: num2(h)})
	}
	from, _ := tl.BucketTimes(at)
	label = "Lines over time: at most " + Thousands(top) + " in " + durationWords(tl.BucketSeconds) + ", from " + from.Format("2006-01-02 15:04:05") + " UTC"
	return bars, itoa(len(t.Buckets) * 4), label
}

// durationWords is a bucket width for people: 5 minutes, 1 hour.
func durationWords(sec int64) string {
	d := time.Duration(sec) * time.Second
	switch {
	case sec%86400 == 0:
		return plural(int(sec/86400), "day", "days")
	case sec%3600 == 0:
		return plural(int(d.Hours()), "hour", "hours")
	case sec%60 == 0:
		return plural(int(d.Minutes()), "minute", "minutes")
	}
	return plural(int(sec), "second", "seconds")
}

// shortTime writes an RFC 3339 time as 2024-03-05 10:29:00.
func shortTime(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// paramSummary is one placeholder's top values as the row shows them.
type paramSummary struct {
	Label  string // "Value 1"
	Values []logs.ParamValue
	More   bool // more values than shown
}

// topValues are the first three values of each placeholder of t.
func topValues(t logs.Template) []paramSummary {
	var out []paramSummary
	for i, p := range t.Params {
		s := paramSummary{Label: "<*> " + itoa(i+1), Values: p.Values[:min(len(p.Values), 3)], More: len(p.Values) > 3}
		out = append(out, s)
	}
	return out
}

// traceParts splits an entry into its first line and the rest (a stack
// trace's frames), which the view folds.
func traceParts(text string) (first, rest string) {
	first, rest, _ = strings.Cut(text, "\n")
	return first, rest
}

// firstLineMatch is a matched line cut to its first line, its keyword
// marked when it is there.
func firstLineMatch(m logs.Match) lineSegments {
	first, _ := traceParts(m.Text)
	if m.End > len(first) {
		return lineSegments{Before: clipped(first)}
	}
	m.Text = first
	return matchSegments(m)
}

// patternsCSV is the filtered patterns as CSV: a header row, then one row
// per pattern. A cell a spreadsheet would read as a formula gets a
// leading quote.
func patternsCSV(rows []patternRow, lines int) []byte {
	var b bytes.Buffer
	w := NewCSVWriter(&b)
	_ = w.Write([]string{"id", "template", "count", "share_percent", "category", "matched", "first", "last"})
	for _, r := range rows {
		t := r.T
		rec := []string{itoa(t.ID), CSVCell(t.Template), itoa(t.Count), strconv.FormatFloat(100*float64(t.Count)/float64(max(lines, 1)), 'f', 2, 64), "", "", "", ""}
		if p := t.PatternInfo; p != nil {
			rec[4], rec[5], rec[6], rec[7] = string(p.Category), itoa(p.Matched), p.First, p.Last
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// firstOf is an entry's first line.
func firstOf(text string) string {
	first, _ := traceParts(text)
	return first
}

// moreNote says how many of n lines a pattern shows, when not all.
func moreNote(n, shown int) string {
	if n <= shown {
		return ""
	}
	return ", the first " + itoa(shown) + " shown: all are in Matched lines below"
}

// patternShare is count as a share of entries, "<0.1%" rather than a
// misleading 0.0% for a rare pattern.
func patternShare(count, entries int) string {
	if count > 0 && 1000*count < entries {
		return "<0.1%"
	}
	return shareText(count, entries)
}
