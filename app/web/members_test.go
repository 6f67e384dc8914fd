package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/models"
)

// team is an organization with one signed-in client per role.
type team struct {
	org     models.Organization
	clients map[string]*apptest.Client // by role
	ids     map[string]string          // user ids by role
}

// newTeam signs up an owner who creates "Acme", and one account for each
// other role, added to it directly.
func newTeam(t *testing.T, env *apptest.Env) *team {
	t.Helper()
	tm := &team{clients: map[string]*apptest.Client{}, ids: map[string]string{}}
	for _, role := range models.Roles {
		c := env.Client()
		c.SignUp(role + "@example.com")
		tm.clients[role] = c
		u, err := models.UserByEmail(context.Background(), env.DB.DB, role+"@example.com")
		if err != nil {
			t.Fatal(err)
		}
		tm.ids[role] = u.ID
	}
	tm.clients[models.RoleOwner].CreateOrg("Acme")
	env.DB.Where("slug = ?", "acme").Take(&tm.org)
	for _, role := range models.Roles[1:] {
		if err := models.AddMember(context.Background(), env.DB.DB, tm.org.ID, tm.ids[role], role); err != nil {
			t.Fatal(err)
		}
		if res := tm.clients[role].Submit("/console/orgs", "/console/orgs/switch", url.Values{"org_id": {tm.org.ID}}); res.StatusCode != 303 {
			t.Fatalf("switch: %d", res.StatusCode)
		}
	}
	return tm
}

func formError(t *testing.T, res *apptest.Response) string {
	t.Helper()
	return strings.TrimSpace(res.Doc(t).Find("[data-testid=form-error]").Text())
}

func TestRolesOnKeys(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, member, viewer := tm.clients["owner"], tm.clients["member"], tm.clients["viewer"]
		_, ownerKey := owner.CreateKey("owner-key")

		// A viewer sees the keys but cannot create or revoke one.
		page := viewer.Get("/console/keys").Doc(t)
		if page.Find("[data-testid=key-row]").Length() != 1 || page.Find("[data-testid=create-key-form]").Length() != 0 ||
			page.Find("[data-testid=viewer-note]").Length() != 1 || page.Find("[data-testid=revoke]").Length() != 0 {
			t.Error("the viewer's keys page offers actions or hides the keys")
		}
		res := viewer.Submit("/console/keys", "/console/keys", url.Values{"name": {"sneaky"}, "scopes": {"public"}})
		if res.StatusCode != 403 || !strings.Contains(formError(t, res), "cannot create keys") {
			t.Errorf("a viewer creating a key: %d %q", res.StatusCode, formError(t, res))
		}
		if res := viewer.Submit("/console/keys", "/console/keys/"+ownerKey+"/revoke", nil); res.StatusCode != 403 {
			t.Errorf("a viewer revoking a key: %d", res.StatusCode)
		}
		// A member creates and revokes their own keys, not others'.
		_, memberKey := member.CreateKey("member-key")
		if res := member.Submit("/console/keys", "/console/keys/"+ownerKey+"/revoke", nil); res.StatusCode != 403 {
			t.Errorf("a member revoking the owner's key: %d", res.StatusCode)
		}
		if res := member.Submit("/console/keys", "/console/keys/"+ownerKey+"/roll", nil); res.StatusCode != 403 {
			t.Errorf("a member rolling the owner's key: %d", res.StatusCode)
		}
		if res := member.Submit("/console/keys", "/console/keys/"+memberKey+"/revoke", nil); res.StatusCode != 303 {
			t.Errorf("a member revoking their key: %d", res.StatusCode)
		}
		// An admin revokes anyone's key.
		if res := tm.clients["admin"].Submit("/console/keys", "/console/keys/"+ownerKey+"/revoke", nil); res.StatusCode != 303 {
			t.Errorf("an admin revoking the owner's key: %d", res.StatusCode)
		}
		var n int64
		env.DB.Model(&models.APIKey{}).Where("name = ?", "sneaky").Count(&n)
		if n != 0 {
			t.Error("the viewer's key was created")
		}
	})
}

func TestMembersAndRoles(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, admin, viewer := tm.clients["owner"], tm.clients["admin"], tm.clients["viewer"]
		rolePath := func(role string) string { return "/console/members/" + tm.ids[role] + "/role" }

		page := owner.Get("/console/members").Doc(t)
		if page.Find("[data-testid=member-row]").Length() != 4 {
			t.Fatalf("the members page lists %d members", page.Find("[data-testid=member-row]").Length())
		}
		var roles []string
		page.Find("[data-testid=member-role]").Each(func(_ int, s *goquery.Selection) { roles = append(roles, s.Text()) })
		if strings.Join(roles, " ") != "owner admin member viewer" {
			t.Errorf("roles shown %v", roles)
		}
		// A viewer only reads: no actions, and the server refuses them.
		if viewer.Get("/console/members").Doc(t).Find("[data-testid=set-role], [data-testid=remove]").Length() != 0 {
			t.Error("a viewer is offered member actions")
		}
		if res := viewer.Submit("/console/members", rolePath("member"), url.Values{"role": {"admin"}}); res.StatusCode != 403 {
			t.Errorf("a viewer changing a role: %d", res.StatusCode)
		}
		// An admin manages members below owner, never owners.
		if res := admin.Submit("/console/members", rolePath("owner"), url.Values{"role": {"viewer"}}); res.StatusCode != 403 {
			t.Errorf("an admin demoting the owner: %d", res.StatusCode)
		}
		if res := admin.Submit("/console/members", rolePath("viewer"), url.Values{"role": {"owner"}}); res.StatusCode != 403 {
			t.Errorf("an admin making an owner: %d", res.StatusCode)
		}
		if res := admin.Submit("/console/members", rolePath("viewer"), url.Values{"role": {"member"}}); res.StatusCode != 303 {
			t.Errorf("an admin promoting a viewer: %d", res.StatusCode)
		}
		if res := admin.Submit("/console/members", rolePath("viewer"), url.Values{"role": {"root"}}); res.StatusCode != 422 {
			t.Errorf("an unknown role: %d", res.StatusCode)
		}
		// The last owner can neither leave nor step down.
		res := owner.Submit("/console/members", "/console/members/leave", nil)
		if res.StatusCode != 409 || !strings.Contains(formError(t, res), "last owner") {
			t.Errorf("the last owner leaving: %d %q", res.StatusCode, formError(t, res))
		}
		if res := owner.Submit("/console/members", rolePath("owner"), url.Values{"role": {"admin"}}); res.StatusCode != 409 {
			t.Errorf("the last owner stepping down: %d", res.StatusCode)
		}
		// With a second owner, the first may leave; the member is removed.
		if res := owner.Submit("/console/members", rolePath("admin"), url.Values{"role": {"owner"}}); res.StatusCode != 303 {
			t.Errorf("making the admin an owner: %d", res.StatusCode)
		}
		if res := owner.Submit("/console/members", "/console/members/"+tm.ids["member"]+"/remove", nil); res.StatusCode != 303 {
			t.Errorf("removing a member: %d", res.StatusCode)
		}
		if res := owner.Submit("/console/members", "/console/members/leave", nil); res.StatusCode != 303 {
			t.Errorf("an owner leaving with another owner left: %d", res.StatusCode)
		}
		members, _ := models.MembersOfOrg(context.Background(), env.DB.DB, tm.org.ID)
		got := map[string]string{}
		for _, m := range members {
			got[m.Email] = m.Role
		}
		if len(got) != 2 || got["admin@example.com"] != "owner" || got["viewer@example.com"] != "member" {
			t.Errorf("members after the changes: %v", got)
		}
		// The removed member lost the organization at once.
		if tm.clients["member"].Get("/console/keys").Doc(t).Find("[data-testid=no-org]").Length() != 1 {
			t.Error("a removed member still sees the organization's keys")
		}
		var actions []string
		var events []models.AuditEvent
		env.DB.Where("org_id = ? AND action LIKE ?", tm.org.ID, "member.%").Order("created_at").Find(&events)
		for _, e := range events {
			actions = append(actions, e.Action)
		}
		if strings.Join(actions, " ") != "member.role member.role member.remove member.leave" {
			t.Errorf("member audit events %v", actions)
		}
	})
}
