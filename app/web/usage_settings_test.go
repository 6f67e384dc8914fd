package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// settingsConfig routes two model names; the provider is never called.
const settingsConfig = "providers:\n  - {name: anthropic, style: messages, url: http://127.0.0.1:9}\n" +
	"models:\n  - {name: smart, targets: [{provider: anthropic, model: claude-sonnet-4-5}]}\n" +
	"  - {name: cheap, targets: [{provider: anthropic, model: claude-haiku-4-5}]}\n"

// Owners and admins set the organization's and a key's budget and models
// on the usage page, audited; members and viewers only read them; a key of
// another organization, an unknown model, a bad amount or a missing CSRF
// token change nothing.
func TestUsageSettings(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		tm := newTeam(t, env)
		owner, admin := tm.clients["owner"], tm.clients["admin"]
		_, keyID := owner.CreateKey("ci")
		other := env.Seed(t, "stranger@example.com")
		period := models.Period(models.Now())

		if res := owner.Submit("/console/usage", "/console/usage/budget", url.Values{"usd": {"25"}}); res.StatusCode != 303 {
			t.Fatalf("owner sets the budget: %d", res.StatusCode)
		}
		if res := admin.Submit("/console/usage", "/console/usage/budget", url.Values{"usd": {"2.5"}, "key": {keyID}}); res.StatusCode != 303 {
			t.Fatalf("admin sets the key's budget: %d", res.StatusCode)
		}
		if res := admin.Submit("/console/usage", "/console/usage/models", url.Values{"models": {"cheap"}}); res.StatusCode != 303 {
			t.Fatalf("admin sets the models: %d", res.StatusCode)
		}
		if res := owner.Submit("/console/usage", "/console/usage/models", url.Values{"models": {"cheap", "smart"}, "key": {keyID}}); res.StatusCode != 303 {
			t.Fatalf("owner sets the key's models: %d", res.StatusCode)
		}
		budgets, err := models.OrgBudgets(ctx, env.DB.DB, tm.org.ID, period)
		if err != nil || len(budgets) != 2 || budgets[0].MonthlyMicros != 25_000_000 || budgets[1].KeyID != keyID || budgets[1].MonthlyMicros != 2_500_000 {
			t.Errorf("budgets %+v %v", budgets, err)
		}
		policies, err := models.ModelPoliciesOf(ctx, env.DB.DB, tm.org.ID, keyID)
		if err != nil || len(policies) != 2 || strings.Join(policies[0].Models, ",") != "cheap" || strings.Join(policies[1].Models, ",") != "cheap,smart" {
			t.Errorf("policies %+v %v", policies, err)
		}
		var n int64
		env.DB.Table("audit_events").Where("org_id = ? AND action IN ?", tm.org.ID, []string{models.ActionBudgetSet, models.ActionModelPolicySet}).Count(&n)
		if n != 4 {
			t.Errorf("%d audit events, want 4", n)
		}
		doc := owner.Get("/console/usage").Doc(t)
		if got := textIn(doc, "[data-testid=org-budget]"); !strings.Contains(got, "$25.00") {
			t.Errorf("org budget line %q", got)
		}
		if got := textIn(doc, "[data-testid=org-models]"); !strings.Contains(got, "cheap") || strings.Contains(got, "smart") {
			t.Errorf("org models line %q", got)
		}
		if doc.Find(`[data-testid=models-form] input[value=cheap][checked]`).Length() != 1 {
			t.Error("the organization's model is not checked")
		}

		// Members and viewers read, and are refused.
		for _, role := range []string{"member", "viewer"} {
			c := tm.clients[role]
			doc := c.Get("/console/usage").Doc(t)
			if doc.Find("[data-testid=budget-form], [data-testid=models-form]").Length() != 0 || doc.Find("[data-testid=settings-readonly]").Length() != 1 ||
				!strings.Contains(textIn(doc, "[data-testid=key-budgets]"), "$2.50") {
				t.Errorf("%s sees forms, or not the settings", role)
			}
			if res := c.Submit("/console/keys", "/console/usage/budget", url.Values{"clear": {"1"}}); res.StatusCode != 403 ||
				!strings.Contains(textIn(res.Doc(t), "[data-testid=settings-error]"), "cannot change") {
				t.Errorf("%s clears the budget: %d", role, res.StatusCode)
			}
			if res := c.Submit("/console/keys", "/console/usage/models", nil); res.StatusCode != 403 {
				t.Errorf("%s lifts the models: %d", role, res.StatusCode)
			}
		}
		for _, bad := range []url.Values{
			{"usd": {"0"}}, {"usd": {"-3"}}, {"usd": {"abc"}}, {"usd": {"NaN"}}, {"usd": {"10000001"}},
			{"usd": {"5"}, "key": {other.KeyID}}, {"usd": {"5"}, "key": {"key_nope"}},
		} {
			if res := owner.Submit("/console/usage", "/console/usage/budget", bad); res.StatusCode != 400 || textIn(res.Doc(t), "[data-testid=settings-error]") == "" {
				t.Errorf("budget %v: %d", bad, res.StatusCode)
			}
		}
		if res := owner.Submit("/console/usage", "/console/usage/models", url.Values{"models": {"gpt-9"}}); res.StatusCode != 400 {
			t.Errorf("unknown model: %d", res.StatusCode)
		}
		if res := owner.PostForm("/console/usage/budget", url.Values{"clear": {"1"}}); res.StatusCode != 403 {
			t.Errorf("without CSRF: %d", res.StatusCode)
		}
		if b, _ := models.BudgetsOf(ctx, env.DB.DB, other.OrgID, other.KeyID, period); len(b) != 0 {
			t.Errorf("another organization's key got a budget: %+v", b)
		}
		if b, _ := models.OrgBudgets(ctx, env.DB.DB, tm.org.ID, period); len(b) != 2 || b[0].MonthlyMicros != 25_000_000 {
			t.Errorf("refused forms changed the budgets: %+v", b)
		}
		// Clearing: the budget goes, and no box checked is every model.
		if res := owner.Submit("/console/usage", "/console/usage/budget", url.Values{"clear": {"1"}}); res.StatusCode != 303 {
			t.Errorf("clear: %d", res.StatusCode)
		}
		if res := owner.Submit("/console/usage", "/console/usage/models", nil); res.StatusCode != 303 {
			t.Errorf("every model: %d", res.StatusCode)
		}
		doc = owner.Get("/console/usage?saved=models").Doc(t)
		if !strings.Contains(textIn(doc, "[data-testid=org-budget]"), "no budget") || !strings.Contains(textIn(doc, "[data-testid=org-models]"), "every model") ||
			doc.Find("[data-testid=settings-notice]").Length() != 1 {
			t.Errorf("after clearing: %q / %q", textIn(doc, "[data-testid=org-budget]"), textIn(doc, "[data-testid=org-models]"))
		}
	}, apptest.WithEnv("GATEWAY_CONFIG", settingsConfig))
}
