package cli_test

import (
	"context"
	"strings"
	"testing"

	"gorm.io/gorm"

	"parapet/app/apptest"
	"parapet/app/cli"
	"parapet/models"
)

// parapet drives the parapet command in-process against one fresh database.
type parapet struct {
	t   *testing.T
	env map[string]string
	db  *models.DB
}

// result is what one invocation did.
type result struct {
	code           int
	stdout, stderr string
}

func newParapet(t *testing.T, d apptest.Database) *parapet {
	return &parapet{t: t, env: map[string]string{
		"DATABASE_URL":   apptest.FreshDatabaseURL(t, d),
		"SESSION_SECRET": "cli-test-secret-cli-test-secret-01234567",
	}}
}

// eachDB runs fn on a freshly migrated database of each kind.
func eachDB(t *testing.T, fn func(t *testing.T, p *parapet)) {
	t.Parallel()
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			p := newParapet(t, d)
			p.ok("migrate")
			fn(t, p)
		})
	}
}

// runIn runs the command with stdin.
func (p *parapet) runIn(stdin string, args ...string) result {
	var out, errOut strings.Builder
	code := cli.Run(args, strings.NewReader(stdin), &out, &errOut, func(k string) string { return p.env[k] })
	return result{code, out.String(), errOut.String()}
}

// run runs the command with nothing on stdin.
func (p *parapet) run(args ...string) result { return p.runIn("", args...) }

// ok runs the command, which must succeed, and returns its stdout.
func (p *parapet) ok(args ...string) string {
	p.t.Helper()
	res := p.run(args...)
	if res.code != 0 {
		p.t.Fatalf("parapet %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
	}
	return res.stdout
}

// fails runs the command, which must exit with code and say want on
// stderr; it returns the result.
func (p *parapet) fails(code int, want string, args ...string) result {
	p.t.Helper()
	res := p.run(args...)
	if res.code != code || !strings.Contains(res.stderr, want) {
		p.t.Fatalf("parapet %s: exit %d, want %d with %q on stderr\nstdout: %s\nstderr: %s",
			strings.Join(args, " "), res.code, code, want, res.stdout, res.stderr)
	}
	return res
}

// gorm reads the database directly, to check what the commands stored.
func (p *parapet) gorm() *gorm.DB {
	if p.db == nil {
		db, err := models.Open(p.env["DATABASE_URL"], 2)
		if err != nil {
			p.t.Fatalf("open database: %v", err)
		}
		p.t.Cleanup(func() { db.Close() })
		p.db = db
	}
	return p.db.DB
}

// audit lists the audit events with an action, oldest first.
func (p *parapet) audit(action string) []models.AuditEvent {
	p.t.Helper()
	var events []models.AuditEvent
	if err := p.gorm().Where("action = ?", action).Order("created_at, id").Find(&events).Error; err != nil {
		p.t.Fatalf("audit events: %v", err)
	}
	return events
}

// org finds an organization by id or slug.
func (p *parapet) org(ref string) *models.Organization {
	p.t.Helper()
	org, err := models.OrgByIDOrSlug(context.Background(), p.gorm(), ref)
	if err != nil {
		p.t.Fatalf("organization %s: %v", ref, err)
	}
	return org
}

func TestHelpListsEveryCommand(t *testing.T) {
	t.Parallel()
	p := &parapet{t: t}
	out := p.ok("help")
	for _, want := range []string{
		"serve ", "migrate ",
		"user create --email E  (password on stdin)",
		"user staff --email E [--revoke]",
		"org create --name N [--owner EMAIL]",
		"key create --org ORG --name N [--scope S]... [--model M]... [--expires 7|30|90|YYYY-MM-DD|never] [--json]",
		"key set KEY_ID --models M1,M2 (empty: the organization's)",
		"key list --org ORG [--json]",
		"key revoke KEY_ID",
		"member list --org ORG [--json]",
		"member set-role --org ORG --email E --role R",
		"member remove --org ORG --email E",
		"invite create --org ORG --email E [--role R]",
		"invite list --org ORG",
		"invite revoke --org ORG INVITATION_ID",
		"product list [--json]",
		"product create --slug S --name N --lifecycle L --url U [--tagline T] [--description D] [--category C] [--pillar P]",
		"product set SLUG [--lifecycle L] [--name N] [--tagline T] [--description D] [--category C] [--pillar P] [--url U]",
		"entitlement set --org ORG --product SLUG (--monthly-tokens N | --revoke)",
		"budget set --org ORG (--monthly-usd N | --clear) [--key KEY_ID]",
		"policy set --org ORG --models M1,M2 (empty: every model)",
	} {
		if !strings.Contains(out, "\n  "+want) {
			t.Errorf("help does not list %q:\n%s", want, out)
		}
	}
}

func TestNounAloneListsItsSubcommands(t *testing.T) {
	t.Parallel()
	p := &parapet{t: t}
	res := p.fails(2, "parapet key: missing subcommand", "key")
	for _, want := range []string{"usage: parapet key create --org ORG", "parapet key list --org ORG", "parapet key revoke KEY_ID"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
	p.fails(2, `parapet user: unknown subcommand "delete"`, "user", "delete", "--email", "a@example.com")
	p.fails(2, `unknown command "frobnicate"`, "frobnicate")
}

func TestAdminCommandsNeedMigrate(t *testing.T) {
	t.Parallel()
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			p := newParapet(t, d)
			p.fails(1, "run `parapet migrate` first", "product", "list")
			p.fails(1, "run `parapet migrate` first", "key", "list", "--org", "acme")
			p.ok("migrate")
			p.ok("product", "list")
		})
	}
}

// TestUsageErrors checks that every kind of command-line mistake exits 2
// with the command's usage line, before touching the database.
func TestUsageErrors(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"user", "create"}, "missing --email"},
			{[]string{"user", "create", "--email", "not-an-address"}, "not a valid email address"},
			{[]string{"user", "create", "--email", "a@example.com", "--password", "x"}, "flag provided but not defined"},
			{[]string{"user", "staff", "--email"}, "flag needs an argument"},
			{[]string{"user", "staff", "--email", "a@example.com", "extra"}, `unexpected argument "extra"`},
			{[]string{"org", "create"}, "missing --name"},
			{[]string{"org", "create", "--name", "   "}, "missing --name"},
			{[]string{"org", "create", "--name", strings.Repeat("x", 81)}, "at most 80 characters"},
			{[]string{"key", "create", "--org", "acme"}, "missing --name"},
			{[]string{"key", "create", "--org", "acme", "--name", "tab\there"}, "printable"},
			{[]string{"key", "list"}, "missing --org"},
			{[]string{"key", "list", "--org", "acme", "-h"}, "-org string"},
			{[]string{"key", "revoke"}, "missing KEY_ID"},
			{[]string{"key", "revoke", "key_a", "key_b"}, `unexpected argument "key_b"`},
			{[]string{"product", "list", "--yaml"}, "flag provided but not defined"},
			{[]string{"product", "create", "--slug", "x", "--name", "X", "--url", "/x"}, "missing --lifecycle"},
			{[]string{"product", "set", "--lifecycle", "beta"}, "missing SLUG"},
			{[]string{"product", "set", "gateway"}, "nothing to change"},
			{[]string{"entitlement", "set", "--org", "acme", "--product", "gateway"}, "exactly one of --monthly-tokens and --revoke"},
			{[]string{"entitlement", "set", "--org", "acme", "--product", "gateway", "--monthly-tokens", "5", "--revoke"}, "exactly one of"},
			{[]string{"entitlement", "set", "--org", "acme", "--product", "gateway", "--monthly-tokens", "-5"}, "non-negative"},
			{[]string{"entitlement", "set", "--org", "acme", "--product", "gateway", "--monthly-tokens", "many"}, "invalid value"},
			{[]string{"entitlement", "set", "--product", "gateway", "--revoke"}, "missing --org"},
		} {
			res := p.fails(2, tc.want, tc.args...)
			if usage := "usage: parapet " + tc.args[0] + " " + tc.args[1] + " "; !strings.Contains(res.stderr, usage) {
				t.Errorf("parapet %s: stderr lacks %q:\n%s", strings.Join(tc.args, " "), usage, res.stderr)
			}
		}
	})
}
