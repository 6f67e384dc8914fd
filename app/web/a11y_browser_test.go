package web_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/app/totp"
	"parapet/models"
)

// axeSource reads axe-core, installed from npm by .ci/run into
// $PARAPET_AXE_DIR (npm install --prefix "$PARAPET_AXE_DIR" axe-core@4.10.3).
// Without it the audit is skipped, saying how to get it (a failure in CI).
func axeSource(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PARAPET_AXE_DIR")
	src, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if dir == "" || err != nil {
		msg := "axe-core not found: run npm install --prefix DIR axe-core@4.10.3 and set PARAPET_AXE_DIR=DIR (as .ci/run does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return string(src)
}

// axeViolation is what the audit reports of one failed rule.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// auditPage runs axe-core on the page the browser shows, for the WCAG 2.1
// A and AA rules, and fails the test with every violation found.
func auditPage(t *testing.T, b *apptest.Browser, axe, name string) {
	t.Helper()
	const run = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' — ' + n.failureSummary)}))))`
	var out string
	b.Run(
		chromedp.Evaluate(axe, nil),
		chromedp.Evaluate(run, &out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("%s: axe answered %q: %v", name, out, err)
	}
	for _, v := range vs {
		t.Errorf("%s: %s (%s): %s\n  %s", name, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n  "))
	}
}

// fits checks that the page does not scroll sideways, that no table is
// wider than the box that scrolls it (a wide table hides its last columns:
// the row's actions), and that no visible button is cut off by its
// scrolling box or the window.
func fits(t *testing.T, b *apptest.Browser, name string) {
	t.Helper()
	const check = `(() => {
		const out = [], win = window.innerWidth, doc = document.documentElement;
		if (doc.scrollWidth > win) out.push('the page scrolls sideways by ' + (doc.scrollWidth - win) + 'px');
		const scroller = el => {
			for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
				if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return p;
			}
			return null;
		};
		const label = el => el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : '') + ' "' + el.textContent.trim().slice(0, 30) + '"';
		const shown = el => el.checkVisibility({visibilityProperty: true});
		for (const el of document.querySelectorAll('main table')) {
			if (!shown(el)) continue;
			const box = scroller(el), room = box ? box.clientWidth : win;
			const w = Math.round(el.getBoundingClientRect().width);
			if (w > room + 1) out.push('table ' + label(el).slice(0, 60) + ' is ' + w + 'px wide in a ' + room + 'px box');
		}
		for (const el of document.querySelectorAll('main button, main [role=button], main input[type=submit]')) {
			if (!shown(el)) continue;
			const r = el.getBoundingClientRect(), box = scroller(el);
			const edge = box ? Math.min(box.getBoundingClientRect().right, win) : win;
			const start = box ? box.getBoundingClientRect().left : 0;
			if (r.right > edge + 1 || r.left < start - 1) out.push('button ' + label(el) + ' is cut off');
		}
		return out.slice(0, 8);
	})()`
	var problems []string
	b.Run(chromedp.Evaluate(check, &problems))
	for _, p := range problems {
		t.Errorf("%s: %s", name, p)
	}
}

// Every page, in each of its states (empty, filled, with results, with an
// error), passes the WCAG 2.1 AA rules of axe-core, at desktop and phone
// widths.
func TestAccessibilityOfEveryPage(t *testing.T) {
	axe := axeSource(t)
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "a11y@example.com")
	if err := models.SetStaff(context.Background(), env.DB.DB, s.UserID, true); err != nil {
		t.Fatal(err)
	}
	// An account with two-factor sign-in, for the code form.
	two := env.Seed(t, "a11y-2fa@example.com")
	ctx := context.Background()
	sealed, _ := totp.Seal("JBSWY3DPEHPK3PXP", totp.Key(env.Config.SessionSecret))
	if err := models.SetPendingTOTPSecret(ctx, env.DB.DB, two.UserID, sealed); err != nil {
		t.Fatal(err)
	}
	if err := models.EnableTOTP(ctx, env.DB.DB, two.UserID, nil); err != nil {
		t.Fatal(err)
	}
	link := invite(t, func() *apptest.Client {
		c := env.Client()
		c.SignIn(s.Email, apptest.TestPassword)
		return c
	}(), "guest@example.com", "member")

	// Pages of records as they look in use: ten keys with long names, fifty
	// audit events.
	for i := range 9 {
		env.SeedKey(t, s.OrgID, "deploy-pipeline-production-eu-west-"+itoa(int64(i)))
	}
	// Written as the gateway writes its calls (the event, the month's and
	// the day's counters), so the usage page's tables agree.
	var calls []models.UsageRecord
	for i := range 50 {
		model, in, out, status := "claude-sonnet-4-5-20250929", int64(1200+i), int64(350), 200
		calls = append(calls, models.UsageRecord{ProductID: models.GatewayProductID, Actor: s.UserID, Event: &models.AuditEvent{
			OrgID: &s.OrgID, ActorUserID: &s.UserID, Action: models.ActionGatewayCall, Status: &status,
			Target: "POST /gateway/v1/chat/completions", IP: "2001:db8:85a3::8a2e:370:" + itoa(int64(7334+i)), RequestID: "req_" + strings.Repeat("f3", 12) + itoa(int64(i)),
			Model: &model, InputTokens: &in, OutputTokens: &out}})
	}
	if _, err := models.RecordUsage(ctx, env.DB.DB, calls); err != nil {
		t.Fatal(err)
	}

	// The desktop in the light theme, the phone in the dark one (as the
	// system asks): every page is audited in both themes and at both widths
	// in two passes, and the colours do not depend on the width.
	for _, width := range []int64{1280, 390} {
		dark := width < 500
		theme := map[bool]string{false: "light", true: "dark"}[dark]
		// One browser per part: each has its own time limit.
		visitor := func(b *apptest.Browser) func(name, path, ready string, then ...chromedp.Action) {
			b.Run(chromedp.EmulateViewport(width, 900))
			if dark {
				b.Run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
			}
			return func(name, path, ready string, then ...chromedp.Action) {
				t.Helper()
				b.Run(append([]chromedp.Action{chromedp.Navigate(env.URL(path)), chromedp.WaitVisible(ready, chromedp.ByQuery)}, then...)...)
				auditPage(t, b, axe, name+" @"+itoa(width)+" "+theme)
				fits(t, b, name+" @"+itoa(width))
				b.Screenshot("page-" + strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name) + "-" + itoa(width) + "-" + theme)
			}
		}
		signIn := func(b *apptest.Browser) {
			b.Run(
				chromedp.Navigate(env.URL("/console/signin")),
				apptest.SubmitSignIn(s.Email, apptest.TestPassword),
				// In the DOM: on a phone the header's links are in the menu.
				chromedp.WaitReady(`[data-testid=current-org]`, chromedp.ByQuery),
			)
		}
		// Signed out.
		b := apptest.NewBrowser(t)
		visit := visitor(b)
		visit("home", "/", "main")
		visit("docs", "/docs", "[data-testid=docs-content]")
		visit("docs tables", "/docs/configuration", "[data-testid=docs-content] table") // cards on a phone
		visit("api reference", "/docs/api-reference", "[data-testid=doc-endpoint]")
		visit("sign-up", "/console/signup", "[data-testid=signup-form]")
		visit("invitation (visitor)", pathOf(t, link), "[data-testid=invite-pending]")
		visit("invitation (invalid)", "/invite/org_x/nope", "[data-testid=invite-invalid]")
		visit("two-factor code", "/console/signin", "[data-testid=signin-form]",
			apptest.SubmitSignIn(two.Email, apptest.TestPassword),
			chromedp.WaitVisible(`[data-testid=second-step-form]`, chromedp.ByQuery))
		visit("two-factor code error", "/console/signin/2fa", "[data-testid=second-step-form]",
			chromedp.SendKeys(`#code`, "000000", chromedp.ByQuery),
			chromedp.Click(`[data-testid=second-step-form] button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=form-error]`, chromedp.ByQuery))
		visit("sign-in error", "/console/signin", "[data-testid=signin-form]",
			apptest.SubmitSignIn(s.Email, "wrong password!"),
			chromedp.WaitVisible(`[data-testid=form-error]`, chromedp.ByQuery))

		// Signed in: the console.
		b = apptest.NewBrowser(t)
		visit = visitor(b)
		signIn(b)
		visit("console", "/console", "main h1")
		visit("organizations", "/console/orgs", "[data-testid=orgs-table]")
		visit("keys", "/console/keys", "[data-testid=keys-table]")
		visit("key created", "/console/keys", "[data-testid=new-key-toggle]", apptest.OpenNewKeyForm(),
			chromedp.SendKeys(`#key-name`, "a11y-"+itoa(width), chromedp.ByQuery),
			chromedp.Click(`[data-testid=create-key-form] button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=new-key-value]`, chromedp.ByQuery), apptest.Settled())
		visit("key form error", "/console/keys", "[data-testid=new-key-toggle]", apptest.OpenNewKeyForm(),
			chromedp.SendKeys(`#key-name`, "a11y-"+itoa(width), chromedp.ByQuery),
			chromedp.Click(`[data-testid=create-key-form] button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=form-error]`, chromedp.ByQuery), apptest.Settled())
		b = apptest.NewBrowser(t)
		visit = visitor(b)
		signIn(b)
		visit("members", "/console/members", "[data-testid=members-table]")
		visit("settings", "/console/settings", "[data-testid=rename-form]")
		visit("delete organization refused", "/console/settings", "#confirm-name",
			chromedp.SendKeys(`#reauth`, apptest.TestPassword, chromedp.ByQuery),
			chromedp.SendKeys(`#confirm-name`, "not its name", chromedp.ByQuery),
			chromedp.Click(`[data-testid=delete-org]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=form-error]`, chromedp.ByQuery), apptest.Settled())
		b = apptest.NewBrowser(t)
		visit = visitor(b)
		signIn(b)
		visit("invitations", "/console/invitations", "[data-testid=invitations-table]")
		visit("invitation created", "/console/invitations", "#invite-email",
			chromedp.SendKeys(`#invite-email`, "x"+itoa(width)+"@example.com", chromedp.ByQuery),
			chromedp.Click(`[data-testid=invite-form] button[type=submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=new-invitation]`, chromedp.ByQuery))
		visit("audit", "/console/audit", "[data-testid=audit-table]")
		b = apptest.NewBrowser(t)
		visit = visitor(b)
		signIn(b)
		visit("usage", "/console/usage", "main h1")
		visit("account", "/console/account", "[data-testid=password-form]")
		// Staff pages take a second factor: on for this visit only, as the
		// enrolment page and the next width's sign-in need it off.
		setTOTP := func(on any) {
			if err := env.DB.Model(&models.User{}).Where("id = ?", s.UserID).Update("totp_enabled_at", on).Error; err != nil {
				t.Fatal(err)
			}
		}
		setTOTP(models.Now())
		visit("products", "/console/products", "[data-testid=product]")
		setTOTP(nil)
		visit("two-factor enrolment", "/console/account/2fa", "[data-testid=totp-qr]")
		visit("invitation (member)", pathOf(t, link), "[data-testid=invite-member]")

		// The tools, empty and with results.
		b = apptest.NewBrowser(t)
		visit = visitor(b)
		signIn(b)
		visit("logs", "/logs/app", "[data-testid=logs-form]")
		visit("logs results", "/logs/app", "[data-testid=logs-form]",
			chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
			chromedp.Click(`[data-testid=logs-submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=match-row]`, chromedp.ByQuery), apptest.Settled())
		visit("scan", "/scan/app", "[data-testid=scan-form]")
		visit("scan results", "/scan/app", "[data-testid=scan-form]",
			chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
			chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery), apptest.Settled())
		visit("playground", "/gateway/app", "[data-testid=playground-form]")
		visit("playground reply", "/gateway/app", "[data-testid=playground-form]",
			chromedp.SendKeys(`#pg-message`, "Hello", chromedp.ByQuery),
			chromedp.Click(`[data-testid=send]`, chromedp.ByQuery),
			chromedp.WaitVisible(`[data-testid=chat-assistant] [data-testid=usage]`, chromedp.ByQuery))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
