package cli

import (
	"context"
	"fmt"
	"math"

	"gorm.io/gorm"

	"parapet/models"
)

var budgetCommands = []command{
	{"budget set", "--org ORG (--monthly-usd N | --clear) [--key KEY_ID]",
		"set or clear an organization's (or one of its keys') monthly gateway budget in USD", runBudgetSet},
}

// runBudgetSet sets an organization's monthly gateway budget in money, or
// one key's with --key; --clear removes it. Calls that could pass it are
// refused with 429 budget_exceeded.
func runBudgetSet(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	usd := c.Float64("monthly-usd", 0, "the monthly budget in US dollars (up to 10,000,000, to the micro-dollar)")
	keyID := c.String("key", "", "a key of the organization: the budget is that key's")
	clear := c.Bool("clear", false, "remove the budget instead")
	if _, err := c.parse(); err != nil {
		return err
	}
	given := c.given()
	switch {
	case given["monthly-usd"] == given["clear"]:
		return usageError{"give exactly one of --monthly-usd and --clear"}
	case !*clear && (math.IsNaN(*usd) || *usd <= 0 || *usd > models.MaxBudgetUSD):
		return usageError{fmt.Sprintf("--monthly-usd must be more than 0 and at most %d", models.MaxBudgetUSD)}
	}
	micros := int64(math.Round(*usd * 1e6))
	if *clear {
		micros = 0
	}
	return r.withDB(ctx, c, func(w *work) error {
		scope := w.org.Slug
		if *keyID != "" {
			var n int64
			if err := w.db.WithContext(ctx).Table("api_keys").Where("id = ? AND org_id = ?", *keyID, w.org.ID).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("%s has no key %q", w.org.Slug, *keyID)
			}
			scope += " key " + *keyID
		}
		target := fmt.Sprintf("gateway budget of %s: $%.2f/month", scope, float64(micros)/1e6)
		if *clear {
			target = "gateway budget of " + scope + ": cleared"
		}
		err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
			if err := models.SetBudget(tx, w.org.ID, *keyID, micros); err != nil {
				return nil, err
			}
			return &models.AuditEvent{OrgID: &w.org.ID, Action: models.ActionBudgetSet, Target: target}, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintln(r.stdout, target)
		return nil
	})
}
