package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"parapet/models"
)

// userIn creates an account and makes it a member of org with role.
func userIn(t *testing.T, p *parapet, org *models.Organization, email, role string) {
	t.Helper()
	if res := p.runIn("long enough password\n", "user", "create", "--email", email); res.code != 0 {
		t.Fatalf("user create: %s", res.stderr)
	}
	u, _ := models.UserByEmail(context.Background(), p.gorm(), email)
	if err := models.AddMember(context.Background(), p.gorm(), org.ID, u.ID, role); err != nil {
		t.Fatal(err)
	}
}

func TestMemberCommands(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		if res := p.runIn("long enough password\n", "user", "create", "--email", "owner@example.com"); res.code != 0 {
			t.Fatal(res.stderr)
		}
		p.ok("org", "create", "--name", "Acme", "--owner", "owner@example.com")
		org := p.org("acme")
		userIn(t, p, org, "dev@example.com", "member")

		if out := p.ok("member", "list", "--org", "acme"); !strings.Contains(out, "owner@example.com  owner\n") || !strings.Contains(out, "dev@example.com    member\n") {
			t.Errorf("member list:\n%s", out)
		}
		p.ok("member", "set-role", "--org", "acme", "--email", "dev@example.com", "--role", "admin")
		var list []struct{ Email, Role string }
		if err := json.Unmarshal([]byte(p.ok("member", "list", "--org", org.ID, "--json")), &list); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(list) != "[{owner@example.com owner} {dev@example.com admin}]" {
			t.Errorf("member list --json: %v", list)
		}
		p.fails(1, "at least one owner", "member", "set-role", "--org", "acme", "--email", "owner@example.com", "--role", "viewer")
		p.fails(1, "at least one owner", "member", "remove", "--org", "acme", "--email", "owner@example.com")
		p.fails(2, "--role must be one of owner, admin, member, viewer", "member", "set-role", "--org", "acme", "--email", "dev@example.com", "--role", "root")
		p.fails(1, `no account has the email "nobody@example.com"`, "member", "remove", "--org", "acme", "--email", "nobody@example.com")
		if res := p.runIn("long enough password\n", "user", "create", "--email", "stranger@example.com"); res.code != 0 {
			t.Fatal(res.stderr)
		}
		p.fails(1, "stranger@example.com is not a member of acme", "member", "remove", "--org", "acme", "--email", "stranger@example.com")
		p.ok("member", "remove", "--org", "acme", "--email", "dev@example.com")
		if out := p.ok("member", "list", "--org", "acme"); strings.Contains(out, "dev@") {
			t.Errorf("removed member still listed:\n%s", out)
		}
		if len(p.audit(models.ActionMemberRole)) != 1 || len(p.audit(models.ActionMemberRemove)) != 1 {
			t.Error("member changes are not audited")
		}
	})
}

func TestInviteCommands(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")
		out := p.ok("invite", "create", "--org", "acme", "--email", "New@Example.com", "--role", "viewer")
		var id, link string
		if _, err := fmt.Sscanf(out, "id: %s\nlink: %s\n", &id, &link); err != nil {
			t.Fatalf("invite create printed %q", out)
		}
		// Without PUBLIC_URL the link is a path: /invite/ORG/TOKEN.
		token := strings.TrimPrefix(link, "/invite/"+org.ID+"/")
		if token == link || len(token) != 32 {
			t.Fatalf("link %q", link)
		}
		inv, err := models.InvitationByToken(context.Background(), p.gorm(), token)
		if err != nil || inv.ID != id || inv.Email != "new@example.com" || inv.Role != "viewer" || inv.TokenHash == token {
			t.Errorf("stored invitation %+v, %v", inv, err)
		}
		p.env["PUBLIC_URL"] = "https://parapet.example.com"
		out = p.ok("invite", "create", "--org", "acme", "--email", "b@example.com")
		if !strings.Contains(out, "link: https://parapet.example.com/invite/"+org.ID+"/") {
			t.Errorf("with PUBLIC_URL: %q", out)
		}
		p.ok("invite", "revoke", "--org", "acme", id)
		p.fails(1, "only a pending invitation can be revoked", "invite", "revoke", "--org", "acme", id)
		list := p.ok("invite", "list", "--org", "acme")
		if !strings.Contains(list, "new@example.com  viewer  revoked") || !strings.Contains(list, "b@example.com    member  pending") {
			t.Errorf("invite list:\n%s", list)
		}
		p.fails(2, "--role must be one of", "invite", "create", "--org", "acme", "--email", "c@example.com", "--role", "god")
		p.fails(2, "not a valid email", "invite", "create", "--org", "acme", "--email", "nope")
		if len(p.audit(models.ActionInviteCreate)) != 2 || len(p.audit(models.ActionInviteRevoke)) != 1 {
			t.Error("invitations are not audited")
		}
	})
}
