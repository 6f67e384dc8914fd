package cli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"parapet/models"
)

func TestProductList(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		table := p.ok("product", "list")
		for _, want := range []string{"SLUG", "gateway  ", "posture-monitor  concept    no", "log-analyzer     beta       yes"} {
			if !strings.Contains(table, want) {
				t.Errorf("product list lacks %q:\n%s", want, table)
			}
		}
		var list []struct {
			Slug, Lifecycle string
			Public          bool
		}
		if err := json.Unmarshal([]byte(p.ok("product", "list", "--json")), &list); err != nil {
			t.Fatal(err)
		}
		public := map[string]bool{}
		for _, pr := range list {
			public[pr.Slug] = pr.Public
		}
		if len(list) != 5 || !public["gateway"] || public["secret-scanner"] || public["posture-monitor"] {
			t.Errorf("product list --json: %+v", list)
		}
	})
}

func TestProductCreateAndSet(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		product := func() *models.Product {
			pr, err := models.ProductBySlug(ctx, p.gorm(), "widget")
			if err != nil {
				t.Fatal(err)
			}
			return pr
		}
		out := p.ok("product", "create", "--slug", "widget", "--name", "Widget", "--lifecycle", "alpha", "--url", "/widget",
			"--tagline", "Widgets, checked.")
		if out != "created product prod_widget (alpha, not public)\n" {
			t.Errorf("create printed %q", out)
		}
		pr := product()
		if pr.ID != "prod_widget" || pr.Category != "security" || pr.PlatformPillar != "security" || pr.Tagline != "Widgets, checked." || pr.Public() {
			t.Errorf("stored %+v", pr)
		}

		// The positional comes first, the flags after; only given flags change.
		out = p.ok("product", "set", "widget", "--lifecycle", "beta", "--description", "All about widgets.")
		if !strings.Contains(out, "lifecycle alpha → beta, description") || !strings.Contains(out, "(public)") {
			t.Errorf("set printed %q", out)
		}
		pr = product()
		if !pr.Public() || pr.Lifecycle != "beta" || pr.Description != "All about widgets." || pr.Name != "Widget" || pr.Tagline != "Widgets, checked." {
			t.Errorf("after set: %+v", pr)
		}

		// A given flag changes the field even to an empty value.
		p.ok("product", "set", "--tagline", "", "widget")
		if pr = product(); pr.Tagline != "" || pr.Name != "Widget" {
			t.Errorf("after clearing the tagline: %+v", pr)
		}

		p.fails(1, "cannot go back from beta to alpha", "product", "set", "widget", "--lifecycle", "alpha", "--name", "Old Widget")
		if after := product(); after.Lifecycle != "beta" || after.Name != "Widget" || !after.UpdatedAt.Equal(pr.UpdatedAt) {
			t.Errorf("a refused change changed the product: %+v", after)
		}
		if out := p.ok("product", "set", "widget", "--lifecycle", "beta"); !strings.Contains(out, "nothing changed") {
			t.Errorf("a change to the current value printed %q", out)
		}

		events := p.audit(models.ActionProductCreate)
		if len(events) != 1 || events[0].Target != "widget" || events[0].OrgID != nil || events[0].RequestID != "cli" {
			t.Errorf("product.create events %+v", events)
		}
		events = p.audit(models.ActionProductUpdate)
		if len(events) != 2 || events[0].Target != "widget: lifecycle alpha → beta, description" || events[1].Target != "widget: tagline" {
			t.Errorf("product.update events %+v", events)
		}

		p.fails(1, "a product with this slug already exists", "product", "create", "--slug", "widget", "--name", "W", "--lifecycle", "alpha", "--url", "/w")
		p.fails(1, "must be lowercase letters", "product", "create", "--slug", "Bad_Slug", "--name", "W", "--lifecycle", "alpha", "--url", "/w")
		p.fails(1, `lifecycle "gamma" must be one of`, "product", "create", "--slug", "w", "--name", "W", "--lifecycle", "gamma", "--url", "/w")
		p.fails(1, `no product has the slug "nope"`, "product", "set", "nope", "--name", "Nope")
	})
}
