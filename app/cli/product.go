package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"parapet/app/api"
	"parapet/models"
)

var productCommands = []command{
	{"product list", "[--json]", "list every product of the registry, public or not", productList.run},
	{"product create", "--slug S --name N --lifecycle L --url U [--tagline T] [--description D] [--category C] [--pillar P]",
		"add a product to the registry (category and pillar default to security)", runProductCreate},
	{"product set", "SLUG [--lifecycle L] [--name N] [--tagline T] [--description D] [--category C] [--pillar P] [--url U]",
		"change a product's fields; the lifecycle only moves forward", runProductSet},
}

// productFields are a product's editable fields as flags: the one list
// `product create` and `product set` both use, so they cannot drift apart.
var productFields = []struct {
	flag, usage string
	field       func(*models.Product) *string
	long        bool // free text: a change names the field, not its values
}{
	{"lifecycle", "concept, alpha or beta; it only moves forward", func(p *models.Product) *string { return &p.Lifecycle }, false},
	{"name", "the display name", func(p *models.Product) *string { return &p.Name }, false},
	{"tagline", "a one-line summary", func(p *models.Product) *string { return &p.Tagline }, true},
	{"description", "the full description", func(p *models.Product) *string { return &p.Description }, true},
	{"category", "a lowercase word such as security", func(p *models.Product) *string { return &p.Category }, false},
	{"pillar", "the platform pillar, a lowercase word such as security", func(p *models.Product) *string { return &p.PlatformPillar }, false},
	{"url", "an absolute http(s) URL, or a path on this deployment starting with /", func(p *models.Product) *string { return &p.URL }, false},
}

// productFlags binds the product field flags to p's fields, with p's
// values as their defaults.
func productFlags(c *cmdline, p *models.Product) {
	for _, f := range productFields {
		c.StringVar(f.field(p), f.flag, *f.field(p), f.usage)
	}
}

// productJSON is a product as `product list --json` prints it: the public
// API's fields, with the description, and whether the product is public.
// Its URL is as stored, not made absolute.
type productJSON struct {
	api.ProductDetail
	Public bool `json:"public"`
}

// productList lists the whole registry, public or not.
var productList = list[models.Product]{
	load: func(ctx context.Context, w *work) ([]models.Product, error) {
		return models.AllProducts(ctx, w.db)
	},
	header: []string{"SLUG", "LIFECYCLE", "PUBLIC", "NAME", "URL"},
	cells: func(p models.Product, _ time.Time) []string {
		public := "no"
		if p.Public() {
			public = "yes"
		}
		return []string{p.Slug, p.Lifecycle, public, p.Name, p.URL}
	},
	json: func(p models.Product, _ time.Time) any { return productJSON{api.NewProductDetail(p), p.Public()} },
}

// runProductCreate adds a product to the registry. The model checks the
// fields, so its rules hold whichever way a product is made.
func runProductCreate(ctx context.Context, r *runner, c *cmdline) error {
	p := &models.Product{Category: "security", PlatformPillar: "security"}
	c.StringVar(&p.Slug, "slug", "", "the URL-safe key of /v1/products/:slug")
	productFlags(c, p)
	c.require("slug", "name", "lifecycle", "url")
	if _, err := c.parse(); err != nil {
		return err
	}
	return r.withDB(ctx, c, func(w *work) error {
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			ev := &models.AuditEvent{Action: models.ActionProductCreate, Target: p.Slug} // the slug as given, read before the call
			return ev, models.CreateProduct(ctx, tx, p)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "created product %s (%s, %s)\n", p.ID, p.Lifecycle, visibility(*p))
		return nil
	})
}

// runProductSet changes the fields whose flags are given, and only those.
func runProductSet(ctx context.Context, r *runner, c *cmdline) error {
	var in models.Product
	productFlags(c, &in)
	pos, err := c.parse("SLUG")
	if err != nil {
		return err
	}
	given := c.given()
	if len(given) == 0 {
		return usageError{"nothing to change: give at least one field's flag"}
	}
	slug := pos[0]
	return r.withDB(ctx, c, func(w *work) error {
		var changes []string
		var p *models.Product
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			old, err := findProduct(ctx, tx, slug)
			if err != nil {
				return nil, err
			}
			next := *old
			for _, f := range productFields {
				if given[f.flag] && *f.field(old) != *f.field(&in) {
					*f.field(&next) = *f.field(&in)
					changes = append(changes, describeChange(f.flag, *f.field(old), *f.field(&in), f.long))
				}
			}
			if len(changes) == 0 {
				p = old
				return nil, nil
			}
			// UpdateProduct checks the lifecycle's direction against the
			// stored product, inside this transaction.
			if p, err = models.UpdateProduct(ctx, tx, slug, models.ProductChange{Name: &next.Name, Tagline: &next.Tagline,
				Description: &next.Description, Category: &next.Category, PlatformPillar: &next.PlatformPillar,
				Lifecycle: &next.Lifecycle, URL: &next.URL}); err != nil {
				return nil, err
			}
			return &models.AuditEvent{Action: models.ActionProductUpdate, Target: slug + ": " + strings.Join(changes, ", ")}, nil
		})
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			fmt.Fprintf(r.stdout, "product %s already has these values; nothing changed\n", slug)
			return nil
		}
		fmt.Fprintf(r.stdout, "updated %s: %s (%s)\n", slug, strings.Join(changes, ", "), visibility(*p))
		return nil
	})
}

// describeChange says what became of one field: "lifecycle alpha → beta",
// or just "description" for free text, which would swamp the line.
func describeChange(field, from, to string, long bool) string {
	if long {
		return field
	}
	return field + " " + from + " → " + to
}

func visibility(p models.Product) string {
	if p.Public() {
		return "public"
	}
	return "not public"
}
