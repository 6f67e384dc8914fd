package cli_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"parapet/models"
)

func TestEntitlementSetAndRevoke(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")
		const product = "prod_secret-scanner"
		active := func() (*models.Entitlement, error) { return models.ActiveEntitlement(ctx, p.gorm(), org.ID, product) }

		out := p.ok("entitlement", "set", "--org", "acme", "--product", "secret-scanner", "--monthly-tokens", "500000")
		if out != "acme: secret-scanner: 500000 tokens/month\n" {
			t.Errorf("set printed %q", out)
		}
		if e, err := active(); err != nil || e.MonthlyTokens != 500000 {
			t.Errorf("after set: %+v, %v", e, err)
		}
		p.ok("entitlement", "set", "--org", org.ID, "--product", "secret-scanner", "--monthly-tokens", "0")
		if e, err := active(); err != nil || e.MonthlyTokens != 0 {
			t.Errorf("after setting 0: %+v, %v", e, err)
		}

		p.ok("entitlement", "set", "--org", "acme", "--product", "secret-scanner", "--revoke")
		if _, err := active(); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("after revoke: %v, want not found", err)
		}
		if out := p.ok("entitlement", "set", "--org", "acme", "--product", "secret-scanner", "--revoke"); !strings.Contains(out, "nothing changed") {
			t.Errorf("second revoke printed %q", out)
		}
		p.ok("entitlement", "set", "--org", "acme", "--product", "secret-scanner", "--monthly-tokens", "42")
		if e, err := active(); err != nil || e.MonthlyTokens != 42 {
			t.Errorf("after granting again: %+v, %v", e, err)
		}

		var targets []string
		for _, e := range p.audit(models.ActionEntitlement) {
			if *e.OrgID != org.ID || e.IP != "cli" {
				t.Errorf("event %+v", e)
			}
			targets = append(targets, e.Target)
		}
		want := "secret-scanner: 500000 tokens/month|secret-scanner: 0 tokens/month|secret-scanner: revoked|secret-scanner: 42 tokens/month"
		if got := strings.Join(targets, "|"); got != want {
			t.Errorf("entitlement events:\n got %s\nwant %s", got, want)
		}

		p.fails(1, `no organization has the id or slug "nope"`, "entitlement", "set", "--org", "nope", "--product", "gateway", "--revoke")
		p.fails(1, `no product has the slug "nope"`, "entitlement", "set", "--org", "acme", "--product", "nope", "--monthly-tokens", "1")
	})
}
