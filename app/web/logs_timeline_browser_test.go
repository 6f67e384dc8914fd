package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/app/logs"
)

// The timeline and the Compare mode in a real browser: analyse a log with
// an error burst, see the chart, click the burst's bar and see only its
// matched lines, go back to all times; then compare two logs; on a
// desktop and on a phone, without a CSP violation.
func TestLogsTimelineAndCompareInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs.timeline@example.com")
	input := burstLog()
	want, err := logs.Analyze(context.Background(), []byte(input), logs.Options{IncludeParams: true})
	if err != nil {
		t.Fatal(err)
	}
	byBucket := bucketOfMatches(want)
	b := apptest.NewBrowser(t)
	wait := chromedp.WithPollingTimeout(5 * time.Second)
	b.Run(
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
		chromedp.SetValue(`#logs-input`, input, chromedp.ByQuery),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=timeline-chart]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=timeline-bar]`); n != len(want.Timeline.Buckets) {
		t.Errorf("%d bars, want %d", n, len(want.Timeline.Buckets))
	}
	// The burst's bars are the tallest: their error segment is drawn.
	var drawn []float64
	b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid=timeline-bar]')).map(g => { const r = g.querySelector('rect.tl-error'); return r ? r.getBoundingClientRect().height : 0 })`, &drawn))
	for i, h := range drawn {
		if (h > 0) != (want.Timeline.Buckets[i].Error > 0) {
			t.Errorf("bar %d: error segment %.1f px high, %d errors", i, h, want.Timeline.Buckets[i].Error)
		}
	}
	var colour string
	b.Run(chromedp.Evaluate(`getComputedStyle(document.querySelector('rect.tl-error')).fill`, &colour))
	if colour != "rgb(220, 38, 38)" {
		t.Errorf("error bars are %s", colour)
	}
	b.Screenshot("logs-timeline")

	// Click the bar of 11:10 (bucket 15): its matched lines only.
	b.Run(
		chromedp.Click(`[data-testid=timeline-bucket][data-bucket="15"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=time-filter]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	var lines []string
	b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid=match-row]')).map(r => r.dataset.line)`, &lines))
	if strings.Join(lines, ",") != strings.Join(byBucket[14], ",") || len(lines) == 0 {
		t.Errorf("bucket 15 shows lines %v, want %v", lines, byBucket[14])
	}
	if pressed := b.Attr(`[data-testid=timeline-bucket][data-bucket="15"]`, "aria-pressed"); pressed != "true" {
		t.Errorf("the chosen bar is not pressed: %q", pressed)
	}
	if !strings.HasSuffix(b.Location(), "/logs/app") {
		t.Errorf("location %s: htmx should have swapped in place", b.Location())
	}
	b.Screenshot("logs-timeline-bucket")
	b.Run(
		chromedp.Click(`[data-testid=time-filter-clear]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('[data-testid=time-filter]') === null`, nil, wait),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=match-row]`); n != len(want.Matches) {
		t.Errorf("all times again: %d rows, want %d", n, len(want.Matches))
	}

	// Compare mode: two logs, three tables.
	baseline, current := deployLogs()
	b.Run(
		chromedp.Click(`[data-testid=mode-compare]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=compare-form]`, chromedp.ByQuery),
		chromedp.SetValue(`#compare-baseline`, baseline, chromedp.ByQuery),
		chromedp.SetValue(`#compare-current`, current, chromedp.ByQuery),
		chromedp.Click(`[data-testid=compare-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=compare-report]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	for _, kind := range []string{"new", "gone", "changed"} {
		if n := b.Count(`[data-testid=` + kind + `-row]`); n != 1 {
			t.Errorf("%d %s rows", n, kind)
		}
	}
	if got := b.Text(`[data-testid=new-row] [data-testid=change-template]`); !strings.Contains(got, "could not be rendered") {
		t.Errorf("the new template %q", got)
	}
	if got := b.Text(`[data-testid=changed-row] [data-testid=change-ratio]`); got != "↑ 767%" {
		t.Errorf("the changed ratio %q", got)
	}
	b.Screenshot("logs-compare")

	// A phone: both results fit the width.
	overflow := func(name string) {
		var wide bool
		b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &wide))
		if wide {
			t.Errorf("%s scrolls sideways on a phone", name)
		}
	}
	b.Run(chromedp.EmulateViewport(390, 844))
	overflow("the compare result")
	b.Screenshot("logs-compare-phone")
	b.Run(
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
		chromedp.SetValue(`#logs-input`, input, chromedp.ByQuery),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=timeline-chart]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	overflow("the timeline")
	b.Screenshot("logs-timeline-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))
	b.ExpectNoProblems()
}
