package cli

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"parapet/models"
)

var entitlementCommands = []command{
	{"entitlement set", "--org ORG --product SLUG (--monthly-tokens N | --revoke)",
		"grant an organization a product with a monthly token quota, or revoke it", runEntitlementSet},
}

// runEntitlementSet grants an organization a product with a monthly token
// quota (granting again replaces the quota), or with --revoke takes the
// product away.
func runEntitlementSet(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	slug := c.need("product", "the product's slug")
	tokens := c.Int64("monthly-tokens", 0, "the monthly token quota (0 where the product meters no tokens)")
	revoke := c.Bool("revoke", false, "take the product away instead")
	if _, err := c.parse(); err != nil {
		return err
	}
	given := c.given()
	switch {
	case given["monthly-tokens"] == given["revoke"]:
		return usageError{"give exactly one of --monthly-tokens and --revoke"}
	case *tokens < 0:
		return usageError{"--monthly-tokens must be a non-negative integer"}
	}
	return r.withDB(ctx, c, func(w *work) error {
		product, err := findProduct(ctx, w.db, *slug)
		if err != nil {
			return err
		}
		target := fmt.Sprintf("%s: %d tokens/month", product.Slug, *tokens)
		if *revoke {
			target = product.Slug + ": revoked"
		}
		changed := true
		err = w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			var err error
			if *revoke {
				changed, err = models.RevokeEntitlement(ctx, tx, w.org.ID, product.ID)
			} else {
				err = models.SetEntitlement(ctx, tx, w.org.ID, product.ID, *tokens)
			}
			if err != nil || !changed {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionEntitlement, Target: target}, nil
		})
		if err != nil {
			return err
		}
		if !changed {
			fmt.Fprintf(r.stdout, "%s has no active entitlement to %s; nothing changed\n", w.org.Slug, product.Slug)
			return nil
		}
		fmt.Fprintf(r.stdout, "%s: %s\n", w.org.Slug, target)
		return nil
	})
}
