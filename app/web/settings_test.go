package web_test

import (
	"net/url"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// TestSettingsPermissions: owners and admins see the settings page and its
// tab; members and viewers get neither; only an owner changes the
// two-factor rule.
func TestSettingsPermissions(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		for _, role := range models.Roles {
			c := tm.clients[role]
			res := c.Get("/console/settings")
			tab := c.Get("/console/members").Doc(t).Find("[data-testid=settings-tab]").Length()
			allowed := role == models.RoleOwner || role == models.RoleAdmin
			if allowed && (res.StatusCode != 200 || tab != 1 || res.Doc(t).Find("[data-testid=rename-form]").Length() != 1) {
				t.Errorf("a %s: settings %d, tab %d", role, res.StatusCode, tab)
			}
			if !allowed && (res.StatusCode != 403 || tab != 0 || strings.Contains(res.Body, "rename-form")) {
				t.Errorf("a %s: settings %d, tab %d", role, res.StatusCode, tab)
			}
		}
		// An admin sees the rule but is not offered the switch, and a post
		// is refused.
		admin := tm.clients[models.RoleAdmin]
		doc := admin.Get("/console/settings").Doc(t)
		if doc.Find("[data-testid=require-2fa-form], [data-testid=delete-org-form]").Length() != 0 ||
			!strings.Contains(doc.Find("[data-testid=require-2fa-state]").Text(), "not required") {
			t.Error("an admin is offered the owner's settings, or not shown the rule")
		}
		res := admin.Submit("/console/settings", "/console/settings/require-2fa", url.Values{"require_2fa": {"on"}})
		if res.StatusCode != 403 || !strings.Contains(formError(t, res), "two-factor rule") {
			t.Errorf("an admin requiring 2FA: %d %q", res.StatusCode, formError(t, res))
		}
		for _, role := range []string{models.RoleMember, models.RoleViewer} {
			res := tm.clients[role].Submit("/console/members", "/console/settings/name", url.Values{"name": {"Pwned"}})
			if res.StatusCode != 403 {
				t.Errorf("a %s renaming: %d", role, res.StatusCode)
			}
		}
		var org models.Organization
		env.DB.Take(&org, "id = ?", tm.org.ID)
		if org.Name != "Acme" || org.Require2FA {
			t.Errorf("refused changes changed the organization: %+v", org)
		}
	})
}

// TestSettingsRenameAndRequire2FA: an admin renames (the slug stays,
// audited); an owner turns the two-factor rule on and off from the page.
func TestSettingsRenameAndRequire2FA(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, admin := tm.clients[models.RoleOwner], tm.clients[models.RoleAdmin]
		res := admin.Submit("/console/settings", "/console/settings/name", url.Values{"name": {"  "}})
		if res.StatusCode != 422 || !strings.Contains(formError(t, res), "Enter a name") {
			t.Errorf("an empty name: %d %q", res.StatusCode, formError(t, res))
		}
		res = admin.Submit("/console/settings", "/console/settings/name", url.Values{"name": {strings.Repeat("x", 81)}})
		if res.StatusCode != 422 || !strings.Contains(formError(t, res), "at most 80") {
			t.Errorf("a long name: %d %q", res.StatusCode, formError(t, res))
		}
		res = admin.Submit("/console/settings", "/console/settings/name", url.Values{"name": {"  Acme   Labs "}})
		if res.StatusCode != 303 {
			t.Fatalf("renaming: %d %q", res.StatusCode, formError(t, res))
		}
		page := owner.Get(res.Header.Get("Location"))
		if v, _ := page.Doc(t).Find("[data-testid=org-name]").Attr("value"); v != "Acme Labs" || !strings.Contains(page.Body, "renamed") {
			t.Errorf("the owner's settings after the rename show %q", v)
		}
		var org models.Organization
		env.DB.Take(&org, "id = ?", tm.org.ID)
		if org.Name != "Acme Labs" || org.Slug != "acme" {
			t.Errorf("after the rename: %q (%s)", org.Name, org.Slug)
		}
		var ev models.AuditEvent
		env.DB.Where("org_id = ? AND action = ?", tm.org.ID, models.ActionOrgRename).Take(&ev)
		if ev.ActorUserID == nil || *ev.ActorUserID != tm.ids[models.RoleAdmin] || ev.Detail == nil || *ev.Detail != "Acme → Acme Labs" {
			t.Errorf("the rename's audit event: %+v", ev)
		}

		enrolTOTP(t, owner) // the rule holds its owner too
		for _, on := range []bool{true, false} {
			form := url.Values{}
			if on {
				form.Set("require_2fa", "on")
			}
			if res := owner.Submit("/console/settings", "/console/settings/require-2fa", form); res.StatusCode != 303 {
				t.Fatalf("setting the rule to %v: %d", on, res.StatusCode)
			}
			env.DB.Take(&org, "id = ?", tm.org.ID)
			_, checked := owner.Get("/console/settings").Doc(t).Find("[data-testid=require-2fa]").Attr("checked")
			if org.Require2FA != on || checked != on {
				t.Errorf("the rule set to %v: stored %v, shown %v", on, org.Require2FA, checked)
			}
		}
	})
}
