package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// The usage page's charts, tables and settings fit a desktop and a phone
// screen (nothing wider than the viewport, every table within its box, a
// phone's cards labelling every number), with no CSP violation.
func TestUsageSpendFitsInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_CONFIG", settingsConfig))
	s := env.Seed(t, "spend.browser@example.com")
	now := models.Now()
	day := time.Date(now.Year(), now.Month(), 1, 12, 0, 0, 0, time.UTC)
	fellBack := `[{"provider":"anthropic","model":"claude-sonnet-4-5-20250929","status":529,"code":"overloaded","ms":1200},{"provider":"openai","model":"gpt-4.1-mini-2025-04-14","status":200,"code":"","ms":2345}]`
	var calls []spendCall
	for i := 0; i < 24; i++ {
		at := day.Add(time.Duration(i) * 29 * time.Hour)
		if at.After(now) {
			at = now.Add(-time.Duration(i) * time.Second)
		}
		calls = append(calls, spendCall{s.OrgID, s.KeyID, "smart", "openai", at, []int{200, 200, 429}[i%3], int64(1000 * (i%7 + 1)), fellBack})
	}
	recordCalls(t, env, calls)
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/console/signin")),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
	)
	for _, width := range []int64{1280, 390} {
		b.Run(chromedp.EmulateViewport(width, 900), chromedp.Navigate(env.URL("/console/usage")),
			chromedp.WaitVisible(`[data-testid=chart-cost]`, chromedp.ByQuery))
		var over struct{ Page, Tables, Chart float64 }
		b.Run(chromedp.Evaluate(`({Page: document.documentElement.scrollWidth - window.innerWidth,
			Tables: Math.max(0, ...[...document.querySelectorAll('.totals-table')].map(t => t.scrollWidth - t.parentElement.clientWidth)),
			Chart: Math.max(...[...document.querySelectorAll('.spend-chart svg')].map(s => s.getBoundingClientRect().right)) - window.innerWidth})`, &over))
		if over.Page > 0 || over.Tables > 0 || over.Chart > 0 {
			t.Errorf("at %d px: the page overflows by %v px, a totals table by %v, a chart by %v", width, over.Page, over.Tables, over.Chart)
		}
		if width < 768 {
			// The tables are cards on a phone: each number says what it
			// counts (a name alone needs no label).
			var unlabelled []string
			b.Run(chromedp.Evaluate(`[...document.querySelectorAll('.totals-table tbody td.num')]
				.filter(td => getComputedStyle(td, '::before').display === 'none' || getComputedStyle(td, '::before').content !== '"' + td.dataset.label + '"')
				.map(td => td.closest('table').dataset.testid + ': ' + td.textContent.trim())`, &unlabelled))
			if len(unlabelled) > 0 {
				t.Errorf("at %d px: numbers without their label: %q", width, unlabelled)
			}
		}
		if n := b.Count(`[data-testid=chart-cost] rect`); n < 1 {
			t.Errorf("at %d px: no bars", width)
		}
		b.Screenshot(fmt.Sprintf("usage-spend-%d", width))
	}
	b.ExpectNoProblems()
}
