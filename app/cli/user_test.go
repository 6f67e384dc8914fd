package cli_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"parapet/app/auth"
	"parapet/models"
)

func TestUserCreate(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		res := p.runIn("correct horse battery\n", "user", "create", "--email", "Ada@Example.com")
		if res.code != 0 {
			t.Fatalf("user create: exit %d: %s", res.code, res.stderr)
		}
		u, err := models.UserByEmail(ctx, p.gorm(), "ada@example.com")
		if err != nil {
			t.Fatalf("the user was not stored: %v", err)
		}
		if want := "created user " + u.ID + " (ada@example.com)\n"; res.stdout != want {
			t.Errorf("stdout = %q, want %q", res.stdout, want)
		}
		if ok, err := auth.CheckPassword(u.PasswordHash, "correct horse battery"); !ok || err != nil {
			t.Errorf("the stored hash does not match the password from stdin (%v)", err)
		}
		if u.IsStaff {
			t.Error("a new user is staff")
		}
		if events := p.audit(models.ActionUserCreate); len(events) != 1 || *events[0].ActorUserID != u.ID ||
			events[0].Target != "ada@example.com" || events[0].IP != "cli" {
			t.Errorf("user.create audit events = %+v, want one for ada@example.com from the cli", events)
		}

		// A CRLF line ending is not part of the password, nor is a second line.
		if res := p.runIn("windows password\r\nignored\n", "user", "create", "--email", "grace@example.com"); res.code != 0 {
			t.Fatalf("user create with CRLF: exit %d: %s", res.code, res.stderr)
		}
		g, _ := models.UserByEmail(ctx, p.gorm(), "grace@example.com")
		if ok, _ := auth.CheckPassword(g.PasswordHash, "windows password"); !ok {
			t.Error("the CRLF line ending was kept in the password")
		}

		res = p.runIn("another password\n", "user", "create", "--email", "ADA@example.com")
		if res.code != 1 || !strings.Contains(res.stderr, "an account with this email already exists") {
			t.Errorf("duplicate email: exit %d, stderr %q", res.code, res.stderr)
		}
	})
}

func TestUserCreateRefusesBadPasswords(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		for stdin, want := range map[string]string{
			"short\n": "at least 12 characters",
			"":        "no password on stdin",
			"\n":      "no password on stdin",
		} {
			res := p.runIn(stdin, "user", "create", "--email", "bob@example.com")
			if res.code != 1 || !strings.Contains(res.stderr, want) {
				t.Errorf("stdin %q: exit %d, stderr %q, want exit 1 with %q", stdin, res.code, res.stderr, want)
			}
		}
		if _, err := models.UserByEmail(context.Background(), p.gorm(), "bob@example.com"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("a refused user was stored (%v)", err)
		}
	})
}

func TestUserStaff(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		if res := p.runIn("long enough password\n", "user", "create", "--email", "ops@example.com"); res.code != 0 {
			t.Fatalf("user create: %s", res.stderr)
		}
		isStaff := func() bool {
			u, err := models.UserByEmail(ctx, p.gorm(), "ops@example.com")
			if err != nil {
				t.Fatal(err)
			}
			return u.IsStaff
		}
		if out := p.ok("user", "staff", "--email", "OPS@example.com"); out != "ops@example.com is now staff\n" || !isStaff() {
			t.Errorf("staff: stdout %q, staff %v", out, isStaff())
		}
		if out := p.ok("user", "staff", "--revoke", "--email", "ops@example.com"); out != "ops@example.com is no longer staff\n" || isStaff() {
			t.Errorf("staff --revoke: stdout %q, staff %v", out, isStaff())
		}
		p.fails(1, `no account has the email "nobody@example.com"`, "user", "staff", "--email", "nobody@example.com")

		// Each change of rights is audited; a revoke of no rights changes nothing.
		p.ok("user", "staff", "--revoke", "--email", "ops@example.com")
		grants, revokes := p.audit(models.ActionStaffGrant), p.audit(models.ActionStaffRevoke)
		if len(grants) != 1 || len(revokes) != 1 || grants[0].Target != "ops@example.com" || revokes[0].Target != "ops@example.com" {
			t.Errorf("staff audit events: %d grants, %d revokes (%+v %+v), want one each for ops@example.com", len(grants), len(revokes), grants, revokes)
		}
	})
}
