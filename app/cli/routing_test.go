package cli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

const routingYAML = `providers:
  - {name: anthropic, style: messages, url: "https://api.anthropic.com", key: "${ANTHROPIC_API_KEY}"}
models:
  - name: smart
    targets: [{provider: anthropic, model: claude-sonnet-4-5}]
  - name: cheap
    targets: [{provider: anthropic, model: claude-haiku-4-5}]
`

// parapet config checks GATEWAY_CONFIG and prints it with its keys
// masked; a bad one stops with a message naming the line.
func TestConfigPrintsTheRoutingMasked(t *testing.T) {
	p := newParapet(t, apptest.Databases(t)[0])
	p.env["GATEWAY_CONFIG"] = routingYAML
	p.env["ANTHROPIC_API_KEY"] = "sk-ant-very-secret"
	out := p.ok("config")
	if strings.Contains(out, "very-secret") || !strings.Contains(out, "${ANTHROPIC_API_KEY} (set, hidden)") || !strings.Contains(out, "name: cheap") {
		t.Errorf("config printed:\n%s", out)
	}
	p.env["GATEWAY_CONFIG"] = strings.Replace(routingYAML, "provider: anthropic, model: claude-haiku", "provider: anthropc, model: claude-haiku", 1)
	p.fails(1, `GATEWAY_CONFIG: line 7: model "cheap": no provider is named "anthropc"`, "config")
}

func TestBudgetAndPolicyCommands(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		p.env["GATEWAY_CONFIG"] = routingYAML
		p.env["ANTHROPIC_API_KEY"] = "sk-ant-very-secret"
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")
		if out := p.ok("budget", "set", "--org", "acme", "--monthly-usd", "25"); out != "gateway budget of acme: $25.00/month\n" {
			t.Errorf("budget set printed %q", out)
		}
		bs, err := models.BudgetsOf(ctx, p.gorm(), org.ID, "", models.Period(time.Now()))
		if err != nil || len(bs) != 1 || bs[0].MonthlyMicros != 25_000_000 {
			t.Errorf("budgets %+v %v", bs, err)
		}
		p.fails(2, "give exactly one of --monthly-usd and --clear", "budget", "set", "--org", "acme")
		p.fails(2, "--monthly-usd must be more than 0", "budget", "set", "--org", "acme", "--monthly-usd", "-1")
		p.fails(1, `acme has no key "key_nope"`, "budget", "set", "--org", "acme", "--monthly-usd", "1", "--key", "key_nope")
		p.ok("budget", "set", "--org", "acme", "--clear")
		if bs, _ := models.BudgetsOf(ctx, p.gorm(), org.ID, "", models.Period(time.Now())); len(bs) != 0 {
			t.Errorf("after --clear: %+v", bs)
		}

		p.ok("policy", "set", "--org", "acme", "--models", "smart,cheap")
		p.fails(1, `model "gpt-9" is not in GATEWAY_CONFIG`, "policy", "set", "--org", "acme", "--models", "gpt-9")
		out := p.ok("key", "create", "--org", "acme", "--name", "ci", "--model", "cheap", "--json")
		var created struct{ ID string }
		if err := json.Unmarshal([]byte(out), &created); err != nil {
			t.Fatal(err)
		}
		keyID := created.ID
		pols, err := models.ModelPoliciesOf(ctx, p.gorm(), org.ID, keyID)
		if err != nil || len(pols) != 2 || strings.Join(pols[0].Models, ",") != "smart,cheap" || strings.Join(pols[1].Models, ",") != "cheap" {
			t.Errorf("policies %+v %v", pols, err)
		}
		p.ok("key", "set", keyID, "--models", "smart")
		p.ok("policy", "set", "--org", "acme", "--models=")
		pols, _ = models.ModelPoliciesOf(ctx, p.gorm(), org.ID, keyID)
		if len(pols) != 1 || pols[0].KeyID != keyID || pols[0].Models[0] != "smart" {
			t.Errorf("after clearing the organization's: %+v", pols)
		}
		if n := len(p.audit(models.ActionModelPolicySet)) + len(p.audit(models.ActionBudgetSet)); n != 5 {
			t.Errorf("%d audit events, want 5", n)
		}
	})
}
