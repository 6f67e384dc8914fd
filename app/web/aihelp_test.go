package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// The pages' AI help with the demo upstream: the signed-in user's
// organization pays, the CSRF token is required, and without the gateway
// entitlement the page says why and the endpoint refuses.
func TestAIHelpPages(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "ai.pages@example.com")
		c := env.Client()
		if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
			t.Fatalf("sign in: %d", res.StatusCode)
		}
		token := c.CSRF("/logs/app")
		if c.Get("/logs/app").Doc(t).Find(`[data-testid=ai-help]`).AttrOr("data-disabled", "x") != "" {
			t.Error("the AI help is disabled for an entitled organization")
		}
		body, _ := json.Marshal(map[string]any{"text": "2026-11-28T10:00:00Z ERROR connection refused to db password=hunter2hunter2\n"})
		if r := c.PostJSON("/logs/app/explain", string(body)); r.StatusCode != 403 {
			t.Errorf("without the CSRF token: %d %s", r.StatusCode, r.Body)
		}
		r := c.PostJSON("/logs/app/explain", string(body), "X-CSRF-Token", token)
		var out struct {
			Data struct{ Explanation string }
		}
		r.JSON(t, &out)
		if r.StatusCode != 200 || !strings.HasPrefix(out.Data.Explanation, "**Demo answer**") || !strings.Contains(out.Data.Explanation, "## Urgency\nhigh") ||
			strings.Contains(out.Data.Explanation, "hunter2hunter2") {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		env.App.FlushAudit()
		var evs []models.AuditEvent
		if err := env.DB.Where("action = ?", models.ActionGatewayCall).Find(&evs).Error; err != nil {
			t.Fatal(err)
		}
		if len(evs) != 1 || evs[0].ActorUserID == nil || *evs[0].ActorUserID != s.UserID || *evs[0].OrgID != s.OrgID || !strings.HasPrefix(evs[0].Target, "logs.explain") {
			t.Errorf("audit %+v", evs)
		}

		if _, err := models.RevokeEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
			t.Fatal(err)
		}
		why := c.Get("/scan/app").Doc(t).Find(`[data-testid=ai-help-why]`).Text()
		if !strings.Contains(why, "may not use the gateway") {
			t.Errorf("the scanner's page says %q", why)
		}
		fix := `{"document":{"resources":[{"type":"database","name":"db","publicly_accessible":true,"encrypted":true}]},"fingerprints":["x"]}`
		if r := c.PostJSON("/scan/app/fix", fix, "X-CSRF-Token", token); r.StatusCode != 400 {
			t.Errorf("an unknown fingerprint: %d %s", r.StatusCode, r.Body)
		}
		r = c.PostJSON("/logs/app/explain", string(body), "X-CSRF-Token", token)
		if r.StatusCode != 403 || !strings.Contains(r.Body, `"code":"not_entitled"`) {
			t.Errorf("without the entitlement: %d %s", r.StatusCode, r.Body)
		}
	})
}
