package logs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// compareLogs is a service's log before and after a release: requests go
// on as before, the cache warm-up message is gone, payment retries went
// from 1 in 50 lines to 1 in 10, and a new error appears.
func compareLogs() (baseline, current string) {
	var b, c strings.Builder
	for i := range 400 {
		ts := fmt.Sprintf("2024-03-18T09:%02d:%02dZ", i/60, i%60)
		fmt.Fprintf(&b, "%s INFO  [http] GET /api/v1/orders/%d 200 %dms\n", ts, 3000+i, 2+i%9)
		if i%40 == 0 {
			fmt.Fprintf(&b, "%s INFO  [cache] warmed %d entries in %dms\n", ts, 5000+i, 30+i%7)
		}
		if i%50 == 0 {
			fmt.Fprintf(&b, "%s WARN  [payments] upstream timeout, retrying charge %d\n", ts, 88000+i)
		}
	}
	for i := range 400 {
		ts := fmt.Sprintf("2024-03-19T09:%02d:%02dZ", i/60, i%60)
		fmt.Fprintf(&c, "%s INFO  [http] GET /api/v1/orders/%d 200 %dms\n", ts, 7000+i, 2+i%9)
		if i%10 == 0 {
			fmt.Fprintf(&c, "%s WARN  [payments] upstream timeout, retrying charge %d\n", ts, 99000+i)
		}
		if i%25 == 0 {
			fmt.Fprintf(&c, "%s ERROR [db] connection pool exhausted: %d waiters\n", ts, 10+i%13)
		}
	}
	return b.String(), c.String()
}

func TestCompare(t *testing.T) {
	baseline, current := compareLogs()
	res, err := Compare(context.Background(), []byte(baseline), []byte(current), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	if s.BaselineLines != 400+10+8 || s.CurrentLines != 400+40+16 {
		t.Errorf("lines %d and %d", s.BaselineLines, s.CurrentLines)
	}
	if len(res.New) != 1 || !strings.Contains(res.New[0].Template, "connection pool exhausted") {
		t.Fatalf("new: %+v", res.New)
	}
	n := res.New[0]
	if n.Category != CategoryError || n.Current.Count != 16 || n.Baseline.Count != 0 || n.Ratio != nil ||
		n.Current.Rate != round3(16*1000.0/456) || !strings.HasPrefix(n.Example, "2024-03-19T09:00:00Z ERROR [db]") || n.ExampleLine != 3 {
		t.Errorf("new error template: %+v", n)
	}
	if len(res.Gone) != 1 || !strings.Contains(res.Gone[0].Template, "warmed") {
		t.Fatalf("gone: %+v", res.Gone)
	}
	g := res.Gone[0]
	if g.Baseline.Count != 10 || g.Current.Count != 0 || g.Ratio == nil || *g.Ratio != 0 || g.Category != "" ||
		g.ExampleLine != 2 || !strings.Contains(g.Example, "[cache] warmed 5000 entries") {
		t.Errorf("gone template: %+v", g)
	}
	if len(res.Changed) != 1 || !strings.Contains(res.Changed[0].Template, "retrying charge") {
		t.Fatalf("changed: %+v", res.Changed)
	}
	c := res.Changed[0]
	want := round3((40.0 / 456) / (8.0 / 418))
	if c.Category != CategoryReliability || c.Baseline.Count != 8 || c.Current.Count != 40 || c.Ratio == nil || *c.Ratio != want {
		t.Errorf("changed template: %+v (ratio want %v)", c, want)
	}
	if s.New != 1 || s.Gone != 1 || s.Changed != 1 || s.Unchanged != 1 || s.Templates != 4 {
		t.Errorf("summary %+v", s)
	}
	// The same event has one template on both sides: the request line
	// is unchanged, not gone and new.
	for _, list := range [][]TemplateChange{res.New, res.Gone, res.Changed} {
		for _, ch := range list {
			if strings.Contains(ch.Template, "GET") {
				t.Errorf("the request template is reported: %+v", ch)
			}
		}
	}
}

// Ranking: within a list, errors before other templates, then by how far
// the rate moved; a change under the minimum count is not a change.
func TestCompareRanking(t *testing.T) {
	baseline := strings.Repeat("INFO steady state\n", 100) + "INFO rare thing happened\nINFO rare thing happened\n"
	current := strings.Repeat("INFO steady state\n", 100) + strings.Repeat("INFO user logged in\n", 30) +
		"ERROR disk quota exceeded\n" + "INFO rare thing happened\n" + strings.Repeat("INFO rare thing happened\n", 3)
	res, err := Compare(context.Background(), []byte(baseline), []byte(current), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.New) != 2 || res.New[0].Category != CategoryError || !strings.Contains(res.New[1].Template, "logged in") {
		t.Errorf("new, errors first: %+v", res.New)
	}
	// "rare thing" went from 2 to 4 lines: twice the count, but under
	// ChangedMinCount on both sides.
	if len(res.Changed) != 0 || res.Summary.Unchanged != 2 {
		t.Errorf("changed %+v, unchanged %d", res.Changed, res.Summary.Unchanged)
	}
}

func TestCompareLimits(t *testing.T) {
	ctx := context.Background()
	ok := []byte("INFO fine\n")
	var lim *CompareLimitError
	_, err := Compare(ctx, ok, []byte(strings.Repeat("x", MaxCompareSideBytes)), Options{})
	if !errors.As(err, &lim) || lim.Side != "current" || lim.Limit != "bytes" || !strings.Contains(err.Error(), "current is too large: at most 5242880 bytes (5 MiB) per side") {
		t.Errorf("5 MiB and its newline: %v", err)
	}
	if _, err := Compare(ctx, []byte(strings.Repeat("x", MaxCompareSideBytes-1)), ok, Options{}); err != nil {
		t.Errorf("5 MiB with its newline: %v", err)
	}
	_, err = Compare(ctx, []byte(strings.Repeat("a\n", MaxCompareSideLines+1)), ok, Options{})
	if !errors.As(err, &lim) || lim.Side != "baseline" || lim.Limit != "lines" || err.Error() != "baseline has too many lines: at most 100000 per side" {
		t.Errorf("lines: %v", err)
	}
	_, err = Compare(ctx, []byte("\n  \n"), ok, Options{})
	if !errors.Is(err, ErrNoLines) || err.Error() != "baseline: no log lines" {
		t.Errorf("blank baseline: %v", err)
	}
	if _, err := Compare(ctx, ok, ok, Options{RareThreshold: 2}); !errors.Is(err, ErrBadOption) {
		t.Errorf("bad option: %v", err)
	}
	// Both sides at their line limit fit the engine's.
	if _, err := Compare(ctx, []byte(strings.Repeat("a 1\n", MaxCompareSideLines)), []byte(strings.Repeat("b 2\n", MaxCompareSideLines)), Options{}); err != nil {
		t.Errorf("both sides at the line limit: %v", err)
	}
}

// TestCompareCountsEntries: a stack trace is one entry, so a side's size
// and each template's count are in entries, and the current side starts
// at its own first entry however many lines the baseline's traces span.
func TestCompareCountsEntries(t *testing.T) {
	trace := func(b *strings.Builder, ts string, n int) {
		fmt.Fprintf(b, "%s ERROR [worker] job %d failed\n", ts, n)
		b.WriteString("java.lang.IllegalStateException: queue closed\n")
		b.WriteString("\tat com.example.Queue.take(Queue.java:42)\n")
		b.WriteString("\tat com.example.Worker.run(Worker.java:17)\n")
		b.WriteString("\t... 3 more\n")
	}
	var b, c strings.Builder
	for i := range 20 {
		ts := fmt.Sprintf("2024-03-18T10:00:%02dZ", i)
		fmt.Fprintf(&b, "%s INFO  [http] GET /health 200 %dms\n", ts, 1+i%5)
		trace(&b, ts, i)
	}
	for i := range 20 {
		ts := fmt.Sprintf("2024-03-19T10:00:%02dZ", i)
		fmt.Fprintf(&c, "%s INFO  [http] GET /health 200 %dms\n", ts, 1+i%5)
		fmt.Fprintf(&c, "%s INFO  [worker] job %d done\n", ts, i)
	}
	res, err := Compare(context.Background(), []byte(b.String()), []byte(c.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Summary; s.BaselineLines != 40 || s.CurrentLines != 40 {
		t.Errorf("entries %d and %d, want 40 and 40", s.BaselineLines, s.CurrentLines)
	}
	if len(res.Gone) != 1 || res.Gone[0].Baseline.Count != 20 || res.Gone[0].Category != CategoryError {
		t.Fatalf("gone: %+v", res.Gone)
	}
	if len(res.New) != 1 || res.New[0].Current.Count != 20 || res.New[0].ExampleLine != 2 ||
		!strings.Contains(res.New[0].Example, "job 0 done") {
		t.Fatalf("new: %+v", res.New)
	}
}

// No entry spans the two sides: current's first line opens an entry of
// current even when it would continue baseline's last one (a trace frame,
// an exception line), so it is counted on its own side and a side made
// only of such lines is still compared, not a division by zero.
func TestCompareSidesDoNotJoin(t *testing.T) {
	baseline := strings.Repeat("2024-03-05 10:00:00 INFO a ok\n", 6) + "2024-03-05 10:00:01 ERROR boom failed\n\tat com.x.Foo.bar(Foo.java:1)\n"
	for _, current := range []string{
		"\tat com.x.Foo.bar(Foo.java:1)\n\tat com.x.Foo.main(Foo.java:9)\n",
		"java.io.IOException: disk full\n2024-03-06 10:00:00 INFO a ok\n",
	} {
		res, err := Compare(context.Background(), []byte(baseline), []byte(current), Options{})
		if err != nil {
			t.Fatalf("%q: %v", current, err)
		}
		if res.Summary.BaselineLines != 7 || res.Summary.CurrentLines == 0 {
			t.Errorf("%q: %+v, want baseline's 7 entries and current's own", current, res.Summary)
		}
		if len(res.New) == 0 || res.New[0].ExampleLine != 1 || !strings.HasPrefix(current, res.New[0].Example) {
			t.Errorf("%q: new %+v, want current's first line as a new template", current, res.New)
		}
	}
}
