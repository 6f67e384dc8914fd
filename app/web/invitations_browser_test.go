package web_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// An operator invites by CLI; the invited person, new to Parapet, opens the
// link in a real browser, signs up, comes back, accepts, and is a member.
func TestInvitationAcceptedInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	env.Seed(t, "boss@example.com")
	b := apptest.NewBrowser(t)
	out := parapetCLI(t, env, "invite", "create", "--org", "boss-example-com-org", "--email", "fresh@example.com", "--role", "admin")
	var id, link string
	if _, err := fmt.Sscanf(out, "id: %s\nlink: %s\n", &id, &link); err != nil {
		t.Fatalf("invite create printed %q", out)
	}
	b.Run(
		chromedp.Navigate(env.URL(link)),
		chromedp.WaitVisible(`[data-testid=invite-pending]`, chromedp.ByQuery),
	)
	b.Screenshot("invitation-visitor")
	b.Run(
		chromedp.Click(`[data-testid=invite-signup]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=signup-form]`, chromedp.ByQuery),
		chromedp.SendKeys(`#email`, "fresh@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`#password`, "a long enough passphrase", chromedp.ByQuery),
		chromedp.Click(`[data-testid=signup-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=invite-unverified]`, chromedp.ByQuery),
	)
	// The address is confirmed with the link the development mailer
	// logged, then the invitation can be accepted.
	verify := regexp.MustCompile(`/verify/[0-9A-Za-z]{32}`).FindString(env.Logs.String())
	if verify == "" {
		t.Fatal("no verification link mailed")
	}
	b.Run(
		chromedp.Navigate(env.URL(verify)),
		chromedp.Click(`[data-testid=confirm-email-form] button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=verify-done]`, chromedp.ByQuery),
		chromedp.Navigate(env.URL(link)),
		chromedp.WaitVisible(`[data-testid=accept]`, chromedp.ByQuery),
	)
	if org, role := b.Text(`[data-testid=invite-org]`), b.Text(`[data-testid=invite-role]`); org != "boss@example.com org" || role != "admin" {
		t.Errorf("the invitation shows %q as %q", org, role)
	}
	b.Screenshot("invitation-signed-in")
	b.Run(
		chromedp.Click(`[data-testid=accept]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=current-org]`, chromedp.ByQuery),
	)
	if got := b.Text(`[data-testid=current-org]`); got != "boss@example.com org" {
		t.Errorf("after accepting, the current organization is %q", got)
	}
	if !listsMember(parapetCLI(t, env, "member", "list", "--org", "boss-example-com-org"), "fresh@example.com", "admin") {
		t.Error("member list does not show the new admin")
	}
	b.Run(chromedp.Navigate(env.URL("/console/members")), chromedp.WaitVisible(`[data-testid=members-table]`, chromedp.ByQuery))
	b.Screenshot("members")
	b.Run(chromedp.EmulateViewport(390, 844), chromedp.Navigate(env.URL("/console/invitations")), chromedp.WaitVisible(`[data-testid=invitations-table]`, chromedp.ByQuery))
	b.Screenshot("invitations-phone")
	if strings.Contains(b.Location(), "signin") {
		t.Error("signed out")
	}
	b.ExpectNoProblems()
}
