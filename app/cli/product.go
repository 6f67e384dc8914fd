package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

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
func productFlags(fs *flag.FlagSet, p *models.Product) {
	for _, f := range productFields {
		fs.StringVar(f.field(p), f.flag, *f.field(p), f.usage)
	}
}

// productJSON is a product as `product list --json` prints it: the public
// API's fields, the description and whether the product is public.
type productJSON struct {
	ID             string `json:"id"`
	Slug           string `json:"slug"`
	Name           string `json:"name"`
	Tagline        string `json:"tagline"`
	Description    string `json:"description"`
	Category       string `json:"category"`
	PlatformPillar string `json:"platform_pillar"`
	Lifecycle      string `json:"lifecycle"`
	URL            string `json:"url"`
	Public         bool   `json:"public"`
}

// runProductList lists the whole registry, public or not.
func runProductList(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	asJSON := fs.Bool("json", false, "print a JSON array")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		ps, err := models.AllProducts(ctx, db)
		if err != nil {
			return err
		}
		if *asJSON {
			out := make([]productJSON, 0, len(ps)) // [] rather than null when there are none
			for _, p := range ps {
				out = append(out, productJSON{ID: p.ID, Slug: p.Slug, Name: p.Name, Tagline: p.Tagline, Description: p.Description,
					Category: p.Category, PlatformPillar: p.PlatformPillar, Lifecycle: p.Lifecycle, URL: p.URL, Public: p.Public()})
			}
			return printJSON(r.stdout, out)
		}
		tw := tabwriter.NewWriter(r.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SLUG\tLIFECYCLE\tPUBLIC\tNAME\tURL")
		for _, p := range ps {
			public := "no"
			if p.Public() {
				public = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Slug, p.Lifecycle, public, p.Name, p.URL)
		}
		return tw.Flush()
	})
}

// runProductCreate adds a product to the registry. The model checks the
// fields, so its rules hold whichever way a product is made.
func runProductCreate(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	p := &models.Product{Category: "security", PlatformPillar: "security"}
	fs.StringVar(&p.Slug, "slug", "", "the URL-safe key of /v1/products/:slug")
	productFlags(fs, p)
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "slug", "name", "lifecycle", "url"); err != nil {
		return err
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		err := audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			if err := models.CreateProduct(ctx, tx, p); err != nil {
				return nil, err
			}
			return &models.AuditEvent{Action: models.ActionProductCreate, Target: p.Slug}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(r.stdout, "created product %s (%s, %s)\n", p.ID, p.Lifecycle, visibility(*p))
		return nil
	})
}

// runProductSet changes the fields whose flags are given, and only those.
func runProductSet(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	var in models.Product
	productFlags(fs, &in)
	pos, err := parseArgs(fs, args, "SLUG")
	if err != nil {
		return err
	}
	given := givenFlags(fs)
	if len(given) == 0 {
		return usageError{"nothing to change: give at least one field's flag"}
	}
	slug := pos[0]
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		var changes []string
		var p *models.Product
		err := audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			old, err := models.ProductBySlug(ctx, tx, slug)
			if errors.Is(err, models.ErrNotFound) {
				return nil, fmt.Errorf("no product has the slug %q", slug)
			}
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
