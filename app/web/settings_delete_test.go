package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	"parapet/app/apptest"
	"parapet/app/web"
	"parapet/models"
)

func TestDeleteOrg(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		ctx := context.Background()
		tm := newTeam(t, env)
		owner := tm.clients[models.RoleOwner]
		key, _ := owner.CreateKey("doomed")
		if _, _, err := models.CreateInvitation(ctx, env.DB.DB, tm.org.ID, "new@example.com", models.RoleMember, nil); err != nil {
			t.Fatal(err)
		}
		api := env.Client()
		callAPI := func() *apptest.Response { return api.Get("/v1/products", "Authorization", "Bearer "+key) }
		if res := callAPI(); res.StatusCode != 200 { // and the verifier caches the key
			t.Fatalf("the key before: %d", res.StatusCode)
		}
		rows := func() map[string]int64 {
			out := map[string]int64{}
			for _, table := range []string{"organizations", "memberships", "api_keys", "invitations", "entitlements"} {
				var n int64
				col := "org_id"
				if table == "organizations" {
					col = "id"
				}
				env.DB.Table(table).Where(col+" = ?", tm.org.ID).Count(&n)
				out[table] = n
			}
			return out
		}
		before := rows()
		if before["organizations"] != 1 || before["memberships"] != 4 || before["api_keys"] != 1 || before["invitations"] != 1 || before["entitlements"] == 0 {
			t.Fatalf("the organization before: %v", before)
		}
		confirm := url.Values{"confirm_name": {"Acme"}, "reauth": {apptest.TestPassword}}

		// Only an owner is offered the form, and only an owner may use it.
		if owner.Get("/console/settings").Doc(t).Find("[data-testid=delete-org-form]").Length() != 1 {
			t.Error("the owner is not offered to delete the organization")
		}
		if owner.Get("/console/members").Doc(t).Find("[data-testid=delete-org-form], [data-testid=require-2fa-form]").Length() != 0 {
			t.Error("the members page still holds the organization's settings")
		}
		for _, role := range models.Roles[1:] {
			c := tm.clients[role]
			if c.Get("/console/settings").Doc(t).Find("[data-testid=delete-org-form]").Length() != 0 {
				t.Errorf("a %s is offered to delete the organization", role)
			}
			res := c.Submit("/console/members", "/console/settings/delete-org", confirm)
			if res.StatusCode != 403 || !strings.Contains(res.Body, "Only an owner") {
				t.Errorf("a %s deleting the organization: %d %q", role, res.StatusCode, formError(t, res))
			}
		}
		// A wrong password is refused, even with the right name.
		res := owner.Submit("/console/settings", "/console/settings/delete-org", url.Values{"confirm_name": {"Acme"}, "reauth": {"not the password"}})
		if res.StatusCode != 401 || !strings.Contains(formError(t, res), "password is not right") {
			t.Errorf("a wrong password: %d %q", res.StatusCode, formError(t, res))
		}
		// A wrong name re-shows the form with a message.
		res = owner.Submit("/console/settings", "/console/settings/delete-org", url.Values{"confirm_name": {"acme"}, "reauth": {apptest.TestPassword}})
		if res.StatusCode != 422 || !strings.Contains(formError(t, res), "type “Acme” exactly") ||
			res.Doc(t).Find("[data-testid=delete-org-form]").Length() != 1 {
			t.Errorf("a wrong name: %d %q", res.StatusCode, formError(t, res))
		}
		if after := rows(); after["organizations"] != 1 || after["memberships"] != 4 || after["api_keys"] != 1 {
			t.Fatalf("refused deletions deleted something: %v", after)
		}
		if res := callAPI(); res.StatusCode != 200 {
			t.Fatalf("the key after refused deletions: %d", res.StatusCode)
		}

		// The owner deletes it.
		res = owner.Submit("/console/settings", "/console/settings/delete-org", confirm)
		if res.StatusCode != 303 || res.Header.Get("Location") != "/console/orgs" {
			t.Fatalf("the owner deleting: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		// Its key is refused on the very next request, though it was cached.
		if res := callAPI(); res.StatusCode != 401 || !strings.Contains(res.Body, `"invalid_api_key"`) {
			t.Errorf("the key after the deletion: %d %s", res.StatusCode, res.Body)
		}
		for table, n := range rows() {
			if n != 0 {
				t.Errorf("%d rows of %s are left", n, table)
			}
		}
		// Nobody has it any more, including members whose session had it.
		for role, c := range tm.clients {
			if c.Get("/console/orgs").Doc(t).Find("[data-testid=org-row]").Length() != 0 {
				t.Errorf("the %s's organizations still list it", role)
			}
			page := c.Get("/console/members")
			if page.Doc(t).Find("[data-testid=member-row]").Length() != 0 || strings.Contains(page.Body, "Acme") {
				t.Errorf("the %s's members page still shows it", role)
			}
		}
		var events []models.AuditEvent
		env.DB.Where("org_id = ? AND action = ?", tm.org.ID, models.ActionOrgDelete).Find(&events)
		if len(events) != 1 || events[0].ActorUserID == nil || *events[0].ActorUserID != tm.ids[models.RoleOwner] || !strings.Contains(events[0].Target, "Acme") {
			t.Errorf("org.delete audit events: %+v", events)
		}
		var kept int64
		env.DB.Model(&models.AuditEvent{}).Where("org_id = ? AND action = ?", tm.org.ID, models.ActionKeyCreate).Count(&kept)
		if kept != 1 {
			t.Errorf("the organization's earlier audit events were not kept: %d key.create", kept)
		}
	})
}

// TestDeleteOrgPasswordThrottled: the password asked again before a
// deletion counts against the sign-in throttle, so a session left open
// cannot guess it; once refused, even the right password waits.
func TestDeleteOrgPasswordThrottled(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	tm := newTeam(t, env)
	owner := tm.clients[models.RoleOwner]
	tok := owner.CSRF("/console/settings")
	wrong := url.Values{"_csrf": {tok}, "confirm_name": {"Acme"}, "reauth": {"not the password"}}
	for i := 0; i < web.SignInLimit; i++ {
		if res := owner.PostForm("/console/settings/delete-org", wrong); res.StatusCode != 401 {
			t.Fatalf("wrong password %d: %d", i+1, res.StatusCode)
		}
	}
	right := url.Values{"_csrf": {tok}, "confirm_name": {"Acme"}, "reauth": {apptest.TestPassword}}
	res := owner.PostForm("/console/settings/delete-org", right)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(formError(t, res), "Too many") {
		t.Errorf("the right password after %d wrong ones: %d %q", web.SignInLimit, res.StatusCode, formError(t, res))
	}
	var n int64
	env.DB.Model(&models.Organization{}).Where("id = ?", tm.org.ID).Count(&n)
	if n != 1 {
		t.Error("the organization was deleted past the throttle")
	}
	var failures int64
	env.DB.Model(&models.AuditEvent{}).Where("action = ?", models.ActionPasswordFailure).Count(&failures)
	if failures != web.SignInLimit {
		t.Errorf("%d password failures audited, want %d", failures, web.SignInLimit)
	}
}

// TestDeleteOrgWithCode: an owner with two-factor sign-in may confirm with
// a current code instead of the password; a wrong code is refused.
func TestDeleteOrgWithCode(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	tm := newTeam(t, env)
	owner := tm.clients[models.RoleOwner]
	secret, _, used := enrolTOTP(t, owner)
	wrong := "000000"
	if wrong == used {
		wrong = "111111"
	}
	// The enrolment's code is spent; the next step's is accepted (the
	// check allows a step of clock skew).
	code, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	res := owner.Submit("/console/settings", "/console/settings/delete-org", url.Values{"confirm_name": {"Acme"}, "reauth": {wrong}})
	if res.StatusCode != 401 || !strings.Contains(formError(t, res), "code is not right") {
		t.Errorf("a wrong code: %d %q", res.StatusCode, formError(t, res))
	}
	res = owner.Submit("/console/settings", "/console/settings/delete-org", url.Values{"confirm_name": {"Acme"}, "reauth": {code}})
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console/orgs" {
		t.Errorf("deleting with a current code: %d %q", res.StatusCode, formError(t, res))
	}
}
