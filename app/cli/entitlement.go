package cli

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

// runEntitlementSet grants an organization a product with a monthly token
// quota (granting again replaces the quota), or with --revoke takes the
// product away.
func runEntitlementSet(ctx context.Context, r *runner, args []string) error {
	fs := newFlags()
	orgRef := fs.String("org", "", "the organization's id or slug")
	slug := fs.String("product", "", "the product's slug")
	tokens := fs.Int64("monthly-tokens", 0, "the monthly token quota (0 where the product meters no tokens)")
	revoke := fs.Bool("revoke", false, "take the product away instead")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "org", "product"); err != nil {
		return err
	}
	given := givenFlags(fs)
	switch {
	case given["monthly-tokens"] == given["revoke"]:
		return usageError{"give exactly one of --monthly-tokens and --revoke"}
	case *tokens < 0:
		return usageError{"--monthly-tokens must be a non-negative integer"}
	}
	return r.withDB(ctx, func(db *gorm.DB, _ app.Config) error {
		org, err := findOrg(ctx, db, *orgRef)
		if err != nil {
			return err
		}
		product, err := models.ProductBySlug(ctx, db, *slug)
		if errors.Is(err, models.ErrNotFound) {
			return fmt.Errorf("no product has the slug %q", *slug)
		}
		if err != nil {
			return err
		}
		target := fmt.Sprintf("%s: %d tokens/month", product.Slug, *tokens)
		if *revoke {
			target = product.Slug + ": revoked"
		}
		changed := true
		err = audited(ctx, db, func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if *revoke {
				changed, err = models.RevokeEntitlement(ctx, tx, org.ID, product.ID)
			} else {
				err = models.SetEntitlement(ctx, tx, org.ID, product.ID, *tokens)
			}
			if err != nil || !changed {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &org.ID, Action: models.ActionEntitlement, Target: target}, nil
		})
		if err != nil {
			return err
		}
		if !changed {
			fmt.Fprintf(r.stdout, "%s has no active entitlement to %s; nothing changed\n", org.Slug, product.Slug)
			return nil
		}
		fmt.Fprintf(r.stdout, "%s: %s\n", org.Slug, target)
		return nil
	})
}
