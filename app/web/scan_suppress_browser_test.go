package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/app/scan"
)

// "Suppress" on a finding, in a real browser: the page's dialog takes a
// reason and an expiry, the input becomes an envelope with the
// suppression, the scan runs again and the finding is listed as
// suppressed — as the API would answer the same envelope — and the
// suppressions download as a file. At 1280 and 390 px, light and dark.
func TestScanSuppressInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "suppress.browser@example.com")
	b := apptest.NewBrowser(t)
	downloads := t.TempDir()
	b.Run(
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads),
		chromedp.Navigate(env.URL("/scan/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=scan-form]`, chromedp.ByQuery),
	)
	for i, shot := range []struct {
		width int64
		theme string
	}{{1280, "light"}, {390, "dark"}} {
		b.Run(
			chromedp.EmulateViewport(shot.width, 900),
			chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
			chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery),
			apptest.Settled(),
		)
		if (b.Attr(`html`, "data-theme") == "dark") != (shot.theme == "dark") {
			b.Run(chromedp.Click(`[data-testid=theme-switch]`, chromedp.ByQuery))
		}
		before := b.Count(`[data-testid=finding-row]`)
		rule, resource := b.Text(`[data-testid=finding-row] [data-testid=finding-rule]`), b.Attr(`[data-testid=finding-row] [data-testid=suppress]`, "data-resource")
		reason := "accepted risk " + itoa(int64(i))
		b.Run(
			chromedp.Click(`[data-testid=finding-row] [data-testid=suppress]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#suppress-reason`, chromedp.ByQuery),
		)
		var focused string
		b.Run(chromedp.Evaluate(`document.activeElement.id`, &focused))
		if focused != "suppress-reason" || !strings.Contains(b.Text(`[data-suppress-what]`), rule+" on "+resource) {
			t.Errorf("the dialog: focus on %q, says %q", focused, b.Text(`[data-suppress-what]`))
		}
		b.Screenshot("scan-suppress-dialog-" + itoa(shot.width) + "-" + shot.theme)
		// No reason: the dialog stays and nothing is scanned.
		b.Run(chromedp.Click(`[data-testid=confirm-suppress]`, chromedp.ByQuery))
		if b.Count(`#suppress-dialog[open]`) != 1 {
			t.Error("the dialog closed without a reason")
		}
		b.Run(
			chromedp.SendKeys(`#suppress-reason`, reason, chromedp.ByQuery),
			chromedp.SetValue(`#suppress-expires`, "2099-12-31", chromedp.ByQuery),
			chromedp.Click(`[data-testid=confirm-suppress]`, chromedp.ByQuery),
			chromedp.Poll(`Array.from(document.querySelectorAll('[data-testid=suppressed-row]')).some(r => r.textContent.includes(`+jsString(reason)+`))`, nil, chromedp.WithPollingTimeout(5*time.Second)),
			apptest.Settled(),
		)
		// What the API answers for the same envelope.
		var doc any
		if err := json.Unmarshal([]byte(scan.Sample()), &doc); err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"document": doc, "suppressions": []map[string]string{
			{"rule": rule, "resource": resource, "reason": reason, "expires": "2099-12-31"}}})
		want, err := scan.Scan(body)
		if err != nil {
			t.Fatal(err)
		}
		after := b.Count(`[data-testid=finding-row]`)
		if after != len(want.Findings) || after >= before || b.Count(`[data-testid=suppressed-row]`) != len(want.Suppressed) {
			t.Errorf("after suppressing %s on %s: %d findings (was %d, want %d), %d suppressed (want %d)",
				rule, resource, after, before, len(want.Findings), b.Count(`[data-testid=suppressed-row]`), len(want.Suppressed))
		}
		b.Screenshot("scan-suppressed-" + itoa(shot.width) + "-" + shot.theme)

		// The download holds the input's suppressions.
		b.Run(chromedp.Click(`[data-testid=download-suppressions]`, chromedp.ByQuery))
		path := filepath.Join(downloads, "parapet-suppressions.json")
		var got struct {
			Suppressions []map[string]string `json:"suppressions"`
		}
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if raw, _ := os.ReadFile(path); json.Unmarshal(raw, &got) == nil {
				break
			}
		}
		if len(got.Suppressions) != 1 || got.Suppressions[0]["reason"] != reason || got.Suppressions[0]["expires"] != "2099-12-31" || got.Suppressions[0]["rule"] != rule {
			t.Errorf("downloaded suppressions: %+v", got.Suppressions)
		}
		_ = os.Remove(path)
	}
	b.ExpectNoProblems()
}
