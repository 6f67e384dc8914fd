package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// An htmx request the server refuses (here a revoke whose form token has
// gone stale) says why at the top of the page instead of doing nothing,
// and the key stays active.
func TestRefusedHTMXRequestSaysWhy(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "stale.form@example.com")
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.Navigate(env.URL("/console/signin")),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
		chromedp.Navigate(env.URL("/console/keys")),
		chromedp.WaitVisible(`[data-testid=key-actions]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.body.setAttribute("hx-headers", '{"X-CSRF-Token":"stale"}')`, nil),
		apptest.Revoke(),
		chromedp.WaitVisible(`[data-testid=request-error]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=request-error]`); !strings.Contains(got, "expired") {
		t.Errorf("the page says %q", got)
	}
	if b.Count(`[data-testid=revoked]`) != 0 {
		t.Error("the key shows as revoked")
	}
	if res := env.Client().Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
		t.Errorf("the key gets %d after the refused revoke", res.StatusCode)
	}
	b.Screenshot("request-error")

	// A refusal the page words itself (the role changed since the page
	// was shown: it may no longer revoke the key) is shown in those words.
	b.Run(chromedp.Navigate(env.URL("/console/keys")), chromedp.WaitVisible(`[data-testid=key-actions]`, chromedp.ByQuery))
	if err := env.DB.Exec(`UPDATE memberships SET role = ? WHERE user_id = ?`, models.RoleViewer, s.UserID).Error; err != nil {
		t.Fatal(err)
	}
	b.Run(
		apptest.Revoke(),
		chromedp.WaitVisible(`[data-testid=request-error]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=request-error]`); !strings.Contains(got, "cannot revoke or roll this key") {
		t.Errorf("the page says %q", got)
	}
	for _, p := range b.Problems() { // the 403 itself is expected
		if !strings.Contains(p, "403") {
			t.Errorf("browser problem: %s", p)
		}
	}
}
