package cli_test

import (
	"context"
	"strings"
	"testing"

	"parapet/models"
)

func TestOrgCreate(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		if res := p.runIn("long enough password\n", "user", "create", "--email", "owner@example.com"); res.code != 0 {
			t.Fatalf("user create: %s", res.stderr)
		}
		owner, _ := models.UserByEmail(ctx, p.gorm(), "owner@example.com")

		out := p.ok("org", "create", "--name", "  Acme   Corp ", "--owner", "owner@example.com")
		org := p.org("acme-corp")
		if want := "created organization " + org.ID + " (slug acme-corp)\n"; out != want {
			t.Errorf("stdout = %q, want %q", out, want)
		}
		if org.Name != "Acme Corp" || org.CreatedBy == nil || *org.CreatedBy != owner.ID {
			t.Errorf("stored %+v", org)
		}
		if m, err := models.OrgForMember(ctx, p.gorm(), org.ID, owner.ID); err != nil || m.Role != models.RoleOwner {
			t.Errorf("the owner is not the organization's owner: %+v, %v", m, err)
		}
		// Like the console's organizations, it starts with the gateway and
		// the configured quota (the default, as the test sets none).
		if e, err := models.ActiveEntitlement(ctx, p.gorm(), org.ID, models.GatewayProductID); err != nil || e.MonthlyTokens != 1_000_000 {
			t.Errorf("gateway entitlement: %+v, %v", e, err)
		}

		// Without an owner; the same name gets the next free slug.
		out = p.ok("org", "create", "--name", "Acme Corp")
		second := p.org("acme-corp-2")
		if !strings.Contains(out, second.ID) || second.CreatedBy != nil {
			t.Errorf("second organization: stdout %q, stored %+v", out, second)
		}

		events := p.audit(models.ActionOrgCreate)
		if len(events) != 2 {
			t.Fatalf("%d org.create events, want 2", len(events))
		}
		e := events[0]
		if *e.OrgID != org.ID || e.ActorUserID == nil || *e.ActorUserID != owner.ID || e.Target != "Acme Corp (acme-corp)" ||
			e.IP != "cli" || e.RequestID != "cli" {
			t.Errorf("first event %+v", e)
		}
		if events[1].ActorUserID != nil {
			t.Errorf("an organization without an owner has an actor: %+v", events[1])
		}

		p.fails(1, `no account has the email "ghost@example.com"`, "org", "create", "--name", "Ghost", "--owner", "ghost@example.com")
	})
}

func TestOrgDelete(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		p.ok("org", "create", "--name", "Acme")
		p.ok("org", "create", "--name", "Other")
		org := p.org("acme")
		p.ok("key", "create", "--org", "acme", "--name", "ci")

		out := p.ok("org", "delete", "--org", "acme")
		if want := "deleted organization " + org.ID + " (slug acme)\n"; out != want {
			t.Errorf("stdout = %q, want %q", out, want)
		}
		var keys, orgs int64
		p.gorm().Model(&models.APIKey{}).Where("org_id = ?", org.ID).Count(&keys)
		p.gorm().Model(&models.Organization{}).Count(&orgs)
		if keys != 0 || orgs != 1 {
			t.Errorf("after the deletion: %d keys of it, %d organizations (want 0 and the other one)", keys, orgs)
		}
		events := p.audit(models.ActionOrgDelete)
		if len(events) != 1 || *events[0].OrgID != org.ID || events[0].Target != "Acme (acme)" || events[0].IP != "cli" {
			t.Errorf("org.delete events %+v", events)
		}
		p.fails(1, `no organization has the id or slug "acme"`, "org", "delete", "--org", "acme")
		p.fails(2, "--org", "org", "delete")
	})
}
