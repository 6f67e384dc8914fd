package web_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// patternsLog is a log a person would need the patterns view for: 16,000
// lines of one event over two hours, a few errors with stack traces, and
// JSON lines with a field to filter on.
func patternsLog() string {
	var b strings.Builder
	start := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	for i := range 16_000 {
		ts := start.Add(time.Duration(i) * 450 * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
		fmt.Fprintf(&b, "%s INFO cache refreshed for tenant t-%d in %dms\n", ts, i%40, i%97)
		if i%2000 == 1999 {
			fmt.Fprintf(&b, "%s ERROR payment %d declined by gateway\n", ts, i)
			b.WriteString("java.lang.IllegalStateException: declined\n\tat com.shop.Pay.charge(Pay.java:88)\n\tat com.shop.Api.post(Api.java:12)\n")
			fmt.Fprintf(&b, `{"time":"%s","level":"error","msg":"upload failed","region":"%s"}`+"\n", ts, []string{"eu-west", "us-east"}[i/2000%2])
		}
	}
	return b.String()
}

// The patterns view in a browser: a log of 16,000 lines of one event is
// one row that opens to its lines, with a sparkline and its values; a
// stack trace folds to its first line; the search and a field filter
// narrow the view and the address keeps them; at 1280 and 390 px.
func TestLogsPatternsInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs.patterns@example.com")
	file := filepath.Join(t.TempDir(), "app.log")
	if err := os.WriteFile(file, []byte(patternsLog()), 0o644); err != nil {
		t.Fatal(err)
	}
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#logs-file`, []string{file}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#logs-input').value.length > 100000`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=pattern-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=pattern-row]`); n != 3 {
		t.Errorf("%d pattern rows, want 3 (refreshed, declined, upload failed)", n)
	}
	top := `[data-testid=pattern-row]:first-child`
	if got := b.Text(top + ` [data-testid=pattern-count]`); !strings.HasPrefix(got, "16,000 lines") {
		t.Errorf("the 16,000 lines of one event are not one row: %q", got)
	}
	if b.Count(top+` svg[data-testid=sparkline] rect`) < 10 {
		t.Error("the top pattern has no sparkline over the two hours")
	}
	// A row opens to its values and first lines.
	b.Run(chromedp.Click(top+` summary`, chromedp.ByQuery), chromedp.WaitVisible(top+` [data-testid=pattern-examples]`, chromedp.ByQuery))
	if got := b.Text(top + ` [data-testid=pattern-values]`); !strings.Contains(got, "t-0") {
		t.Errorf("the top values do not show the tenants: %q", got)
	}
	b.Screenshot("logs-patterns")

	// The error pattern: its stack traces fold to their first line.
	errRow := `[data-testid=pattern-row][data-template="2"]`
	if !strings.Contains(b.Text(errRow+` [data-testid=pattern-text]`), "declined") {
		t.Fatalf("pattern 2 is %q", b.Text(errRow+` [data-testid=pattern-text]`))
	}
	b.Run(chromedp.Click(errRow+` > details > summary`, chromedp.ByQuery), chromedp.WaitVisible(errRow+` [data-testid=pattern-match]`, chromedp.ByQuery))
	var frameShown bool
	b.Run(chromedp.Evaluate(`document.querySelector('`+errRow+` pre.trace-rest').checkVisibility()`, &frameShown))
	if n := b.Count(errRow + ` [data-testid=trace]`); n != 8 || frameShown {
		t.Errorf("%d folded traces, frames shown %v; want 8 folded", n, frameShown)
	}
	b.Screenshot("logs-patterns-traces")

	// Search narrows to the patterns and lines holding the text, and the
	// address keeps the view.
	b.Run(
		setFilter("q", "upload"),
		chromedp.Click(`[data-testid=filter-apply]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll('[data-testid=pattern-row]').length === 1`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		apptest.Settled(),
	)
	if u, _ := url.Parse(b.Location()); u.Query().Get("q") != "upload" {
		t.Errorf("the address does not keep the search: %s", b.Location())
	}
	// A field filter narrows the lines to those whose field holds the value.
	b.Run(
		setFilter("q", ""),
		setFilter("field", "region=eu-west"),
		chromedp.Click(`[data-testid=filter-apply]`, chromedp.ByQuery),
		chromedp.Poll(`location.search.includes('field=region')`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=pattern-row]`); n != 1 {
		t.Errorf("field filter: %d pattern rows, want 1", n)
	}
	var lines string
	b.Run(chromedp.Evaluate(`document.querySelector('[data-testid=pattern-row] .pattern-body p').textContent`, &lines))
	if !strings.Contains(lines, "(4)") || b.Count(`[data-testid=pattern-match]`) != 4 {
		t.Errorf("field filter: %q, %d lines; want the 4 eu-west lines", lines, b.Count(`[data-testid=pattern-match]`))
	}
	b.Screenshot("logs-patterns-filtered")

	// The shared address shows the view before any analysis.
	shared := b.Location()
	b.Run(chromedp.Navigate(shared), chromedp.WaitVisible(`[data-testid=pending-filter]`, chromedp.ByQuery))
	var field string
	b.Run(chromedp.Value(`[data-testid=filter-field]`, &field, chromedp.ByQuery))
	if field != "region=eu-west" {
		t.Errorf("the shared view's field filter is %q", field)
	}

	// A phone.
	b.Run(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#logs-file`, []string{file}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#logs-input').value.length > 100000`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=pattern-row]`, chromedp.ByQuery),
		apptest.Settled(),
		chromedp.Click(`[data-testid=pattern-row]:first-child summary`, chromedp.ByQuery),
	)
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the page scrolls sideways on a phone")
	}
	b.Screenshot("logs-patterns-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))
	b.ExpectNoProblems()
}

// setFilter types value into the patterns filter named name.
func setFilter(name, value string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`document.querySelector('[data-testid=filter-%s]').value = %q`, name, value), nil)
}
