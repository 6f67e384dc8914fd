package web_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/app/logs"
)

// The log analyzer in a real browser: sign in, load the sample, analyze
// it, see the matches with their keywords marked and the outliers, filter
// by category, download the JSON, page through a long result, see an
// input problem, and all of it on a phone too, without a CSP violation.
func TestLogsInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs.browser@example.com")
	want, err := logs.Analyze(context.Background(), []byte(logs.Sample()), logs.Options{IncludeParams: true})
	if err != nil {
		t.Fatal(err)
	}
	b := apptest.NewBrowser(t)
	downloads := t.TempDir()
	b.Run(
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads),
		// Signed out, the page sends us to sign in and back.
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
	)
	b.Screenshot("logs-empty")
	b.Run(chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery))
	var input string
	b.Run(chromedp.Value(`#logs-input`, &input, chromedp.ByQuery))
	if input != logs.Sample() {
		t.Fatalf("Use sample data put %d bytes in the textarea, want the sample", len(input))
	}
	b.Run(
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=match-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if !strings.HasSuffix(b.Location(), "/logs/app") {
		t.Errorf("location %s: htmx should have swapped the result in place", b.Location())
	}
	visible := func(sel, attr string) []string {
		var out []string
		b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('`+sel+`')).filter(r => r.offsetParent !== null).map(r => r.getAttribute('`+attr+`'))`, &out))
		return out
	}
	cats := visible(`[data-testid=match-row]`, "data-category")
	if len(cats) != len(want.Matches) || !slices.Contains(cats, "fatal") || !slices.Contains(cats, "error") {
		t.Fatalf("match rows %v: want %d with fatal and error ones", cats, len(want.Matches))
	}
	// Every matched line has its keyword marked, and the mark is the
	// keyword as the line spells it.
	var marks []string
	b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid=match-row]')).map(r => (r.querySelector('mark.kw') || {}).textContent || '')`, &marks))
	for i, m := range want.Matches {
		if i < len(marks) && marks[i] != m.Text[m.Start:m.End] {
			t.Errorf("row %d marks %q, want %q", i, marks[i], m.Text[m.Start:m.End])
		}
	}
	if n := b.Count(`[data-testid=outlier-row]`); n == 0 || n != len(want.Outliers) {
		t.Errorf("%d outlier rows, want %d (at least one)", n, len(want.Outliers))
	}
	if got := b.Text(`[data-testid=summary-matched] strong`); got != thousandsOf(int64(want.Summary.Matched)) {
		t.Errorf("matched tile %q, want %d", got, want.Summary.Matched)
	}
	if n := b.Count(`[data-testid=pattern-row]`); n != len(want.Templates) {
		t.Errorf("%d pattern rows, want %d", n, len(want.Templates))
	}
	b.Screenshot("logs")

	// Filter to fatal, then back to all.
	b.Run(chromedp.Click(`[data-testid=filter-fatal]`, chromedp.ByQuery))
	if got := visible(`[data-testid=match-row]`, "data-category"); len(got) != want.Summary.ByCategory.Fatal || slices.ContainsFunc(got, func(s string) bool { return s != "fatal" }) {
		t.Errorf("filtered to fatal: %v", got)
	}
	if pressed := b.Attr(`[data-testid=filter-fatal]`, "aria-pressed"); pressed != "true" {
		t.Errorf("the fatal filter is not pressed: %q", pressed)
	}
	b.Screenshot("logs-fatal")
	b.Run(chromedp.Click(`[data-testid=filter-all]`, chromedp.ByQuery))
	if got := visible(`[data-testid=match-row]`, "data-category"); len(got) != len(want.Matches) {
		t.Errorf("all again: %d rows", len(got))
	}

	// Download JSON: the file is the API's body.
	b.Run(chromedp.Click(`[data-testid=download-json]`, chromedp.ByQuery))
	path := filepath.Join(downloads, "log-analysis.json")
	var got []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, _ = os.ReadFile(path); len(got) > 0 {
			break
		}
	}
	var tmpl string
	b.Run(chromedp.Evaluate(`document.querySelector('#logs-json-data').content.textContent`, &tmpl))
	if len(got) == 0 || string(got) != tmpl || !strings.HasPrefix(tmpl, `{"data":{"summary":`) {
		t.Errorf("downloaded %d bytes; the template holds %d", len(got), len(tmpl))
	}

	// A file picked in the drop zone fills the textarea: a long log whose
	// matches take three pages.
	var long strings.Builder
	for i := range 250 {
		long.WriteString("2024-03-18T10:00:00Z ERROR [db] query " + strconv.Itoa(i) + " failed\n")
	}
	long.WriteString("2024-03-18T10:00:01Z FATAL [main] out of memory, giving up\n")
	file := filepath.Join(t.TempDir(), "prod.log")
	if err := os.WriteFile(file, []byte(long.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Run(
		chromedp.SetUploadFiles(`#logs-file`, []string{file}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#logs-input').value.includes('giving up')`, nil, chromedp.WithPollingTimeout(3*time.Second)),
	)
	if note := b.Text(`[data-file-note]`); note != "Loaded prod.log." {
		t.Errorf("file note %q", note)
	}
	b.Run(
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.Poll(`(document.querySelector('[data-testid=matches-range]') || {}).textContent === 'Showing 1–100 of 251 matched lines'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=match-row]`); n != 100 {
		t.Errorf("page 1 has %d rows", n)
	}
	b.Run(
		chromedp.Click(`[data-testid=matches-next]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('[data-testid=matches-range]').textContent === 'Showing 101–200 of 251 matched lines'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		apptest.Settled(),
	)
	if line := b.Text(`[data-testid=match-row] .line-no`); line != "101" {
		t.Errorf("page 2 starts at line %q", line)
	}
	b.Screenshot("logs-page-2")
	// With the matches paged, the category filter asks the server.
	b.Run(
		chromedp.Click(`[data-testid=filter-fatal]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('[data-testid=matches-range]').textContent === '1 fatal line'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		apptest.Settled(),
	)
	if got := b.Text(`[data-testid=match-row] mark.kw`); got != "FATAL" {
		t.Errorf("the fatal line marks %q", got)
	}
	// An edited log is analysed anew as a whole, not paged into the old
	// result.
	b.Run(
		chromedp.SetValue(`#logs-input`, "ERROR one\nERROR two\n", chromedp.ByQuery),
		chromedp.Click(`[data-testid=filter-all]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('[data-testid=summary-lines] strong').textContent === '2'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		apptest.Settled(),
	)

	// An input problem replaces the report.
	b.Run(
		chromedp.SetValue(`#logs-input`, " \n\n", chromedp.ByQuery),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=input-problems]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if p := b.Text(`[data-testid=input-problems] h2`); p != "No log lines" {
		t.Errorf("empty input: %q", p)
	}

	// The help opens.
	b.Run(chromedp.Click(`[data-testid=logs-help] summary`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=logs-help] dl`, chromedp.ByQuery))
	b.Screenshot("logs-help")

	// A phone: the sample again, the tables as cards.
	b.Run(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(env.URL("/logs/app")),
		chromedp.WaitVisible(`[data-testid=logs-form]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=outlier-row]`, chromedp.ByQuery),
	)
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the page scrolls sideways on a phone")
	}
	b.Screenshot("logs-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))
	b.ExpectNoProblems()
}
