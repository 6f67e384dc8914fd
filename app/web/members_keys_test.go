package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/app/keys"
	"parapet/models"
)

// apiStatus is what the public API answers a key.
func apiStatus(env *apptest.Env, key string) int {
	return env.Client().Get("/v1/products", "Authorization", "Bearer "+key).StatusCode
}

// createKey makes a key through the console with scopes.
func createKey(t *testing.T, c *apptest.Client, name string, scopes ...string) (key, id string) {
	t.Helper()
	res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {name}, "scopes": scopes})
	if res.StatusCode != 201 {
		t.Fatalf("create key %s: %d\n%s", name, res.StatusCode, res.Body)
	}
	doc := res.Doc(t)
	key, _ = doc.Find(`[data-testid=new-key-value]`).Attr("value")
	id, _ = doc.Find(`[data-testid=key-row]`).First().Attr("data-key-id")
	return key, id
}

// auditDetails is the details of an organization's events of action on
// target.
func auditDetails(env *apptest.Env, orgID, action, target string) []string {
	var out []string
	env.DB.Model(&models.AuditEvent{}).Where("org_id = ? AND action = ? AND target LIKE ?", orgID, action, target+" (%").
		Pluck("detail", &out)
	return out
}

// Removing a member lists the keys they made and revokes them (their next
// call is 401) but those the owner keeps, which go on working and are
// marked "made by a former member"; each decision is audited.
func TestRemovingAMemberEndsTheirKeys(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, member := tm.clients[models.RoleOwner], tm.clients[models.RoleMember]
		ci, ciID := createKey(t, member, "ci", keys.Scopes...)
		deploy, deployID := createKey(t, member, "deploy", keys.ScopePublic)

		res := owner.Submit("/console/members", "/console/members/"+tm.ids[models.RoleMember]+"/remove", nil)
		if n := res.Doc(t).Find("[data-testid=keep-key]").Length(); res.StatusCode != 200 || n != 2 {
			t.Fatalf("remove without confirming: %d with %d keys to keep, want the 2 keys listed\n%s", res.StatusCode, n, res.Body)
		}
		if _, err := models.MemberOf(t.Context(), env.DB.DB, tm.org.ID, tm.ids[models.RoleMember]); err != nil {
			t.Fatalf("the question removed the member already: %v", err)
		}
		res = owner.Submit("/console/members", "/console/members/"+tm.ids[models.RoleMember]+"/remove",
			url.Values{"confirm": {"1"}, "keep": {deployID}})
		if res.StatusCode != 303 {
			t.Fatalf("confirmed removal: %d", res.StatusCode)
		}
		if st := apiStatus(env, ci); st != 401 {
			t.Errorf("the removed member's key: %d, want 401", st)
		}
		if st := apiStatus(env, deploy); st != 200 {
			t.Errorf("the key the owner kept: %d, want 200", st)
		}
		page := owner.Get("/console/keys").Doc(t)
		kept := page.Find(`[data-key-id="` + deployID + `"] [data-testid=former-member]`).Text()
		if !strings.Contains(kept, "made by a former member") {
			t.Errorf("the kept key is not marked: %q", kept)
		}
		if n := page.Find(`[data-key-id="` + ciID + `"] [data-testid=former-member]`).Length(); n != 0 {
			t.Error("a revoked key is marked as kept")
		}
		if d := auditDetails(env, tm.org.ID, models.ActionKeyRevoke, "ci"); len(d) != 1 || !strings.Contains(d[0], "member@example.com, who was removed") {
			t.Errorf("audit of the revoked key: %q", d)
		}
		if d := auditDetails(env, tm.org.ID, models.ActionKeyKeep, "deploy"); len(d) != 1 {
			t.Errorf("audit of the kept key: %q", d)
		}
	})
}

// Lowering a role to viewer revokes the gateway keys the member made,
// even when the owner asks to keep them: a viewer holds no gateway key.
// Their other keys are the owner's choice, as for a removal.
func TestDemotionToViewerEndsGatewayKeys(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, admin := tm.clients[models.RoleOwner], tm.clients[models.RoleAdmin]
		gw, gwID := createKey(t, admin, "gw", keys.Scopes...)
		read, readID := createKey(t, admin, "read", keys.ScopePublic)
		action := "/console/members/" + tm.ids[models.RoleAdmin] + "/role"
		res := owner.Submit("/console/members", action, url.Values{"role": {models.RoleViewer}})
		doc := res.Doc(t)
		if res.StatusCode != 200 || doc.Find("[data-testid=keep-key]").Length() != 1 || doc.Find("[data-testid=revoked-key]").Length() != 1 {
			t.Fatalf("demotion to viewer: %d, want one key to keep and the gateway key revoked\n%s", res.StatusCode, res.Body)
		}
		res = owner.Submit("/console/members", action, url.Values{"role": {models.RoleViewer}, "confirm": {"1"}, "keep": {gwID, readID}})
		if res.StatusCode != 303 {
			t.Fatalf("confirmed demotion: %d", res.StatusCode)
		}
		if st := apiStatus(env, gw); st != 401 {
			t.Errorf("a viewer's gateway key: %d, want 401", st)
		}
		if st := apiStatus(env, read); st != 200 {
			t.Errorf("a viewer's kept public key: %d, want 200", st)
		}
		// Raising a role asks nothing and ends nothing.
		if res := owner.Submit("/console/members", action, url.Values{"role": {models.RoleMember}}); res.StatusCode != 303 || apiStatus(env, read) != 200 {
			t.Errorf("raising the role: %d", res.StatusCode)
		}
	})
}

// A member removed while their key creations are in flight holds no
// working key afterwards: each creation is checked against the maker's
// role under the organization's lock, and the removal revokes what was
// made before it.
func TestNoKeySurvivesARemovalRacingCreations(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, member := tm.clients[models.RoleOwner], tm.clients[models.RoleMember]
		tok := member.CSRF("/console/keys")
		ownerTok := owner.CSRF("/console/members")
		statuses := make([]int, 20)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = member.PostForm("/console/keys", url.Values{"_csrf": {tok}, "name": {fmt.Sprintf("k%d", i)},
					"scopes": {"public"}}).StatusCode
			})
		}
		wg.Go(func() {
			res := owner.PostForm("/console/members/"+tm.ids[models.RoleMember]+"/remove", url.Values{"_csrf": {ownerTok}, "confirm": {"1"}})
			if res.StatusCode != 303 {
				t.Errorf("removal: %d", res.StatusCode)
			}
		})
		wg.Wait()
		for _, st := range statuses {
			if st != 201 && st != 403 {
				t.Errorf("a creation racing the removal: %d, want 201 or 403", st)
			}
		}
		var working int64
		env.DB.Model(&models.APIKey{}).Where("org_id = ? AND created_by = ? AND revoked_at IS NULL", tm.org.ID, tm.ids[models.RoleMember]).Count(&working)
		if working != 0 {
			t.Errorf("%d keys of the removed member still work", working)
		}
	})
}
