package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func analyze(t *testing.T, input string, opts Options) *Result {
	t.Helper()
	res, err := Analyze(context.Background(), []byte(input), opts)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return res
}

// logOf builds a log with n lines of each of the given message kinds; every
// kind is its own template ("kind <i> event <k>" with varying numbers).
func logOf(kinds map[string]int) string {
	var b strings.Builder
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for i := range kinds[k] {
			fmt.Fprintf(&b, "%s happened to item %d\n", k, i*7+1)
		}
	}
	return b.String()
}

func outlierLines(res *Result) map[string]int {
	got := map[string]int{}
	for _, o := range res.Outliers {
		got[strings.Fields(o.Text)[0]]++
	}
	return got
}

func TestOutlierThreshold(t *testing.T) {
	tests := []struct {
		name   string
		kinds  map[string]int
		opts   Options
		cutoff int
		rare   map[string]int // first word of outlier lines -> count
	}{
		{
			name:   "under 400 lines: at most 2 lines",
			kinds:  map[string]int{"Flush": 100, "Pair": 2, "Triple": 3, "Single": 1},
			cutoff: 2,
			rare:   map[string]int{"Pair": 2, "Single": 1},
		},
		{
			name:   "400 lines and more: 0.5%",
			kinds:  map[string]int{"Flush": 988, "Five": 5, "Six": 6, "One": 1},
			cutoff: 5,
			rare:   map[string]int{"Five": 5, "One": 1},
		},
		{
			name:   "custom threshold",
			kinds:  map[string]int{"Flush": 970, "Ten": 10, "Eleven": 11},
			opts:   Options{RareThreshold: 0.01},
			cutoff: 9,
			rare:   map[string]int{},
		},
		{
			name:   "custom threshold: at least one line",
			kinds:  map[string]int{"Flush": 50, "Two": 2, "One": 1},
			opts:   Options{RareThreshold: 0.001},
			cutoff: 1,
			rare:   map[string]int{"One": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := analyze(t, logOf(tt.kinds), tt.opts)
			if res.Summary.RareCutoff != tt.cutoff {
				t.Errorf("rare cut-off %d, want %d", res.Summary.RareCutoff, tt.cutoff)
			}
			if got := outlierLines(res); !maps.Equal(got, tt.rare) {
				t.Errorf("outliers %v, want %v", got, tt.rare)
			}
			for _, o := range res.Outliers {
				if o.Count > tt.cutoff {
					t.Errorf("outlier %+v", o)
				}
			}
		})
	}
}

func TestBadOptions(t *testing.T) {
	for _, r := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		_, err := Analyze(context.Background(), []byte("a line\n"), Options{RareThreshold: r})
		if !errors.Is(err, ErrBadOption) {
			t.Errorf("RareThreshold %v: err %v, want ErrBadOption", r, err)
		}
	}
	if _, err := Analyze(context.Background(), []byte("a line\n"), Options{RareThreshold: 1}); err != nil {
		t.Errorf("RareThreshold 1: %v", err)
	}
}

func TestLimits(t *testing.T) {
	var le *LimitError
	big := bytes.Repeat([]byte("x"), MaxInputBytes+1)
	if _, err := Analyze(context.Background(), big, Options{}); !errors.As(err, &le) || le.Limit != "input_bytes" || le.Max != MaxInputBytes {
		t.Errorf("over MaxInputBytes: %v", err)
	} else if !strings.Contains(err.Error(), "10485760 bytes") {
		t.Errorf("message %q does not name the limit", err)
	}
	many := strings.Repeat("a\n", MaxLines+1)
	if _, err := Analyze(context.Background(), []byte(many), Options{}); !errors.As(err, &le) || le.Limit != "lines" || le.Max != MaxLines {
		t.Errorf("over MaxLines: %v", err)
	} else if !strings.Contains(err.Error(), "200000") {
		t.Errorf("message %q does not name the limit", err)
	}
	if _, err := Analyze(context.Background(), []byte(many[2:]), Options{}); err != nil {
		t.Errorf("exactly MaxLines: %v", err)
	}
	for _, in := range []string{"", "\n", " \n\t\n\r\n", "   "} {
		if _, err := Analyze(context.Background(), []byte(in), Options{}); !errors.Is(err, ErrNoLines) {
			t.Errorf("%q: err %v, want ErrNoLines", in, err)
		}
	}
}

func TestLongLineIsCut(t *testing.T) {
	long := "error " + strings.Repeat("é", MaxLineBytes) // 2-byte runes: the cut must not split one
	res := analyze(t, "short line\n"+long+"\n", Options{})
	if res.Summary.CutLines != 1 || len(res.Matches) != 1 {
		t.Fatalf("summary %+v, matches %d", res.Summary, len(res.Matches))
	}
	m := res.Matches[0]
	if !m.Cut || m.Line != 2 || len(m.Text) > MaxLineBytes || len(m.Text) < MaxLineBytes-3 || !utf8.ValidString(m.Text) {
		t.Errorf("cut match: line %d cut %v len %d valid %v", m.Line, m.Cut, len(m.Text), utf8.ValidString(m.Text))
	}
	for _, o := range res.Outliers {
		if o.Line == 2 && !o.Cut {
			t.Error("outlier of a cut line not flagged as cut")
		}
	}
}

func TestLineEndingsAndNumbering(t *testing.T) {
	lf := analyze(t, "\n\nerror one\n\n  \nerror two", Options{IncludeAssignments: true})
	if got := []int{lf.Matches[0].Line, lf.Matches[1].Line}; got[0] != 3 || got[1] != 6 {
		t.Errorf("match lines %v, want [3 6]", got)
	}
	if lf.Summary.Lines != 2 || lf.Summary.BlankLines != 4 || len(lf.Assignments) != 2 {
		t.Errorf("summary %+v, assignments %v", lf.Summary, lf.Assignments)
	}
	crlf := analyze(t, "\r\n\r\nerror one\r\n\r\n  \r\nerror two\r\n", Options{IncludeAssignments: true})
	if crlf.Matches[0].Text != "error one" || crlf.Matches[1].Line != 6 {
		t.Errorf("CRLF: %+v", crlf.Matches)
	}
	if crlf.Templates[0].Template != lf.Templates[0].Template {
		t.Errorf("CRLF template %q, LF template %q", crlf.Templates[0].Template, lf.Templates[0].Template)
	}
}

func TestInvalidUTF8(t *testing.T) {
	res := analyze(t, "disk error \xff\xfe on sda\nok \xc3\n", Options{})
	if len(res.Matches) != 1 {
		t.Fatalf("matches %+v", res.Matches)
	}
	m := res.Matches[0]
	if m.Text != "disk error \uFFFD on sda" || m.Text[m.Start:m.End] != "error" {
		t.Errorf("text %q, hit %q", m.Text, m.Text[m.Start:m.End])
	}
	for _, o := range res.Outliers {
		if !utf8.ValidString(o.Text) || !utf8.ValidString(o.Template) {
			t.Errorf("invalid UTF-8 in %+v", o)
		}
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, []byte(Sample()), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 0)
	defer cancel()
	if _, err := Analyze(ctx, []byte(strings.Repeat(Sample(), 20)), Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: err %v", err)
	}
}

func TestJSONShape(t *testing.T) {
	res := analyze(t, Sample(), Options{})
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"summary", "matches", "outliers", "templates"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	if _, ok := doc["assignments"]; ok {
		t.Error("assignments present without IncludeAssignments")
	}
	var shape struct {
		Summary   map[string]json.RawMessage
		Matches   []map[string]json.RawMessage
		Outliers  []map[string]json.RawMessage
		Templates []map[string]json.RawMessage
	}
	if err := json.Unmarshal(raw, &shape); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"summary":   {"lines", "matched", "outliers", "templates"},
		"matches":   {"line", "text", "category", "keyword", "start", "end"},
		"outliers":  {"line", "text", "template", "count"},
		"templates": {"id", "template", "count"},
	}
	objs := map[string][]map[string]json.RawMessage{
		"summary": {shape.Summary}, "matches": shape.Matches, "outliers": shape.Outliers, "templates": shape.Templates,
	}
	for name, keys := range want {
		if len(objs[name]) == 0 {
			t.Errorf("%s: empty", name)
			continue
		}
		for _, k := range keys {
			if _, ok := objs[name][0][k]; !ok {
				t.Errorf("%s: key %q missing", name, k)
			}
		}
	}
	if _, ok := shape.Matches[0]["cut"]; ok {
		t.Error(`"cut" present on a line that was not cut`)
	}
	empty, _ := json.Marshal(analyze(t, "nothing to see\n", Options{}))
	if !bytes.Contains(empty, []byte(`"matches":[]`)) {
		t.Errorf("no matches must marshal as []: %s", empty)
	}
	withAssign, _ := json.Marshal(analyze(t, "a 1\nb 2\n", Options{IncludeAssignments: true}))
	if !bytes.Contains(withAssign, []byte(`"assignments":[`)) {
		t.Errorf("assignments missing: %s", withAssign)
	}
}

// TestTemplatesInvariants checks, on the sample, what the page relies on.
func TestTemplatesInvariants(t *testing.T) {
	res := analyze(t, Sample(), Options{IncludeAssignments: true})
	checkInvariants(t, res)
	if n := res.Summary.Lines; n < 150 || n > 300 {
		t.Errorf("sample has %d lines, want 150-300", n)
	}
	c := res.Summary.ByCategory
	if c.Fatal == 0 || c.Error == 0 || c.Reliability == 0 || len(res.Outliers) == 0 {
		t.Errorf("sample should show every category and outliers: %+v, %d outliers", c, len(res.Outliers))
	}
	if c.Fatal+c.Error+c.Reliability != res.Summary.Matched {
		t.Errorf("by_category %+v does not add up to %d", c, res.Summary.Matched)
	}
}

// checkInvariants holds for every successful analysis.
func checkInvariants(t *testing.T, res *Result) {
	t.Helper()
	sum := 0
	count := map[int]int{}
	for i, tp := range res.Templates {
		sum += tp.Count
		count[tp.ID] = tp.Count
		if tp.ID != i+1 || (i > 0 && tp.Count > res.Templates[i-1].Count) {
			t.Errorf("templates out of order at %d: %+v", i, tp)
		}
		if !utf8.ValidString(tp.Template) {
			t.Errorf("template %q is not valid UTF-8", tp.Template)
		}
	}
	if sum != res.Summary.Entries || res.Summary.Templates != len(res.Templates) {
		t.Errorf("template counts sum to %d, %d entries", sum, res.Summary.Entries)
	}
	if len(res.Assignments) != res.Summary.Entries {
		t.Fatalf("%d assignments for %d entries", len(res.Assignments), res.Summary.Entries)
	}
	if res.Summary.Entries > res.Summary.Lines || res.Summary.Entries == 0 {
		t.Errorf("%d entries for %d lines", res.Summary.Entries, res.Summary.Lines)
	}
	for _, id := range res.Assignments {
		count[id]--
	}
	for id, n := range count {
		if n != 0 {
			t.Errorf("template %d: count and assignments differ by %d", id, n)
		}
	}
	for _, m := range res.Matches {
		if m.Start < 0 || m.End > len(m.Text) || m.Start >= m.End || !utf8.ValidString(m.Text) {
			t.Errorf("bad match %+v", m)
		}
	}
	for i, o := range res.Outliers {
		if o.Count > res.Summary.RareCutoff || (i > 0 && o.Line <= res.Outliers[i-1].Line) {
			t.Errorf("bad outlier %+v", o)
		}
	}
	if res.Summary.Matched != len(res.Matches) || res.Summary.Outliers != len(res.Outliers) {
		t.Errorf("summary %+v disagrees with lists", res.Summary)
	}
}

// TestConcurrent runs analyses side by side, as the HTTP handlers do; with
// -race it shows that they share no mutable state.
func TestConcurrent(t *testing.T) {
	want, _ := json.Marshal(analyze(t, Sample(), Options{IncludeAssignments: true}).Templates)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			res, err := Analyze(context.Background(), []byte(Sample()), Options{IncludeAssignments: true})
			if err == nil {
				if got, _ := json.Marshal(res.Templates); !bytes.Equal(got, want) {
					err = errors.New("templates differ between runs")
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// An outlier shows its header and level, as a match does.
func TestOutliersShowTheirHeader(t *testing.T) {
	in := strings.Repeat("2024-03-05 10:00:00 INFO request served\n", 50) + "2024-03-05 10:00:01 WARN disk nearly full\n"
	res := analyze(t, in, Options{})
	for _, o := range res.Outliers {
		if o.Line == 51 {
			if o.Level != "WARN" || o.Header != "2024-03-05 10:00:01 WARN" {
				t.Errorf("outlier header %q, level %q", o.Header, o.Level)
			}
			return
		}
	}
	t.Fatalf("line 51 is not an outlier: %+v", res.Outliers)
}

// validUTF8 answers as utf8.Valid does, whatever the length and wherever
// a non-ASCII byte falls.
func TestValidUTF8(t *testing.T) {
	ascii := strings.Repeat("abcdefgh", 17) // past two 64-byte blocks
	for n := 0; n <= len(ascii); n++ {
		for at := 0; at <= n; at++ {
			for _, ins := range []string{"", "é", "\xff", "\xe2\x82", "€", "\xc3", "\x80"} {
				s := []byte(ascii[:at] + ins + ascii[at:n])
				if got, want := validUTF8(s), utf8.Valid(s); got != want {
					t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", s, got, want)
				}
			}
		}
	}
}

// A line that is all header (a logger called with an empty string, a
// program printing a blank line under syslog) has no message: its
// template says so instead of showing a blank row.
func TestEmptyMessageTemplate(t *testing.T) {
	in := strings.Join([]string{
		"2026-11-29 02:00:00,146 INFO  [main] ",
		"2026-11-29 02:00:01,146 INFO  [main] Started application in 3.2 seconds",
		"Nov 29 02:00:02 web-1 app[812]: ",
		"2026-11-29T02:00:03Z web-1 app[812]:",
		"2026-11-29 02:00:04,146 WARN  [worker-2] ",
	}, "\n")
	res := analyze(t, in, Options{})
	for _, tp := range res.Templates {
		if strings.TrimSpace(tp.Template) == "" {
			t.Errorf("template %d is blank, want (empty message)", tp.ID)
		}
	}
	if tp := res.Templates[0]; tp.Template != "(empty message)" || tp.Count != 4 {
		t.Errorf("first template %q × %d, want (empty message) × 4", tp.Template, tp.Count)
	}
}
