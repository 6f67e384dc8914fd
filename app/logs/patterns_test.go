package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestPatterns checks what the patterns view reads of each template: the
// category of its matched lines, its first and last time, its entries per
// timeline bucket (summing to its timed entries) and its first entries,
// a stack trace whole.
func TestPatterns(t *testing.T) {
	var b strings.Builder
	for i := range 120 { // two hours, a line a minute
		ts := fmt.Sprintf("2024-03-05T%02d:%02d:00Z", 10+i/60, i%60)
		fmt.Fprintf(&b, "%s INFO login accepted for user %d from 10.0.0.%d\n", ts, i, i%7)
		if i%30 == 29 {
			fmt.Fprintf(&b, "%s ERROR payment failed for order %d\n", ts, i)
			fmt.Fprintf(&b, "java.lang.IllegalStateException: boom\n\tat com.shop.Pay.run(Pay.java:%d)\n", i)
		}
	}
	res, err := Analyze(context.Background(), []byte(b.String()), Options{IncludePatterns: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Timeline == nil {
		t.Fatal("no timeline")
	}
	byText := map[string]Template{} // by the template's first two words
	for _, tp := range res.Templates {
		if tp.PatternInfo == nil {
			t.Fatalf("template %q has no pattern info", tp.Template)
		}
		if f := strings.Fields(tp.Template); len(f) > 1 {
			byText[f[0]+" "+f[1]] = tp
		}
		sum := 0
		for _, n := range tp.Buckets {
			sum += n
		}
		if sum != tp.Count || len(tp.Buckets) != len(res.Timeline.Buckets) {
			t.Errorf("%q: buckets sum to %d of %d entries, %d buckets of %d", tp.Template, sum, tp.Count, len(tp.Buckets), len(res.Timeline.Buckets))
		}
	}
	served := byText["login accepted"]
	if served.Count != 120 || served.Category != "" || served.Matched != 0 {
		t.Errorf("served: %+v", served)
	}
	if served.First != "2024-03-05T10:00:00Z" || served.Last != "2024-03-05T11:59:00Z" {
		t.Errorf("served: first %s last %s", served.First, served.Last)
	}
	if len(served.Examples) != MaxPatternExamples || served.Examples[0].Line != 1 || served.Examples[1].Line != 2 ||
		!strings.HasSuffix(served.Examples[0].Text, "login accepted for user 0 from 10.0.0.0") || served.Examples[0].Level != "INFO" {
		t.Errorf("served examples: %+v", served.Examples)
	}
	failed := byText["payment failed"]
	if failed.Count != 4 || failed.Category != CategoryError || failed.Matched != 4 {
		t.Errorf("failed: count %d category %q matched %d", failed.Count, failed.Category, failed.Matched)
	}
	if len(failed.Examples) != 3 || !strings.Contains(failed.Examples[0].Text, "\n\tat com.shop.Pay.run(Pay.java:29)") {
		t.Errorf("failed examples, stack trace joined: %+v", failed.Examples)
	}
	if failed.First != "2024-03-05T10:29:00Z" || failed.Last != "2024-03-05T11:59:00Z" {
		t.Errorf("failed: first %s last %s", failed.First, failed.Last)
	}
}

// Without the option the templates carry nothing more, and a log without
// timestamps has pattern info without times.
func TestPatternsOff(t *testing.T) {
	in := []byte("job 1 done\njob 2 done\njob 3 failed\n")
	res, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range res.Templates {
		if tp.PatternInfo != nil {
			t.Errorf("%q: pattern info without the option", tp.Template)
		}
	}
	res, err = Analyze(context.Background(), in, Options{IncludePatterns: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range res.Templates {
		if tp.First != "" || tp.Buckets != nil || len(tp.Examples) == 0 {
			t.Errorf("%q: %+v", tp.Template, tp.PatternInfo)
		}
	}
}
