package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// Compare in a browser: the sample fills both sides, a file dropped on a
// side fills it, and the report shows each pattern side by side (counts,
// rates per 1,000 lines as plain numbers, the change as an arrow and a
// percentage), new and gone first; at 1280 and 390 px.
func TestLogsCompareInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs.compare@example.com")
	baseline, current := deployLogs()
	file := filepath.Join(t.TempDir(), "today.log")
	if err := os.WriteFile(file, []byte(current), 0o644); err != nil {
		t.Fatal(err)
	}
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(env.URL("/logs/app/compare")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=compare-form]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=compare-use-sample]`, chromedp.ByQuery),
	)
	var sb, sc string
	b.Run(chromedp.Value(`#compare-baseline`, &sb, chromedp.ByQuery), chromedp.Value(`#compare-current`, &sc, chromedp.ByQuery))
	if sb == "" || sc == "" || sb == sc {
		t.Fatalf("Use sample data filled %d and %d bytes, want two different logs", len(sb), len(sc))
	}
	b.Run(
		chromedp.Click(`[data-testid=compare-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=compare-report]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	b.Screenshot("logs-compare-sample")

	// Our own two logs: the baseline typed, the current dropped as a file.
	b.Run(
		chromedp.SetValue(`#compare-baseline`, baseline, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#compare-current-file`, []string{file}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#compare-current').value.includes('could not be rendered')`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Click(`[data-testid=compare-submit]`, chromedp.ByQuery),
		chromedp.Poll(`!!document.querySelector('[data-testid=changed-row]')`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		apptest.Settled(),
	)
	row := `[data-testid=changed-row] `
	got := []string{b.Text(row + `[data-testid=change-baseline]`), b.Text(row + `[data-testid=change-baseline-rate]`),
		b.Text(row + `[data-testid=change-current]`), b.Text(row + `[data-testid=change-current-rate]`), b.Text(row + `[data-testid=change-ratio]`)}
	if strings.Join(got, " | ") != "4 | 16.2 | 40 | 140 | ↑ 767%" {
		t.Errorf("the changed pattern side by side: %q", got)
	}
	if c := b.Text(`[data-testid=new-row] [data-testid=change-ratio]`); c != "↑ new" {
		t.Errorf("new pattern's change %q", c)
	}
	b.Screenshot("logs-compare")
	b.Run(chromedp.EmulateViewport(390, 844), apptest.Settled())
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the comparison scrolls sideways on a phone")
	}
	b.Screenshot("logs-compare-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))
	b.ExpectNoProblems()
}
