package models

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Entitlement lets an organization use a product, with a monthly token
// quota where the product meters tokens (the gateway).
type Entitlement struct {
	OrgID         string `gorm:"primaryKey"`
	ProductID     string `gorm:"primaryKey"`
	MonthlyTokens int64
	CreatedAt     time.Time
	UpdatedAt     time.Time
	RevokedAt     *time.Time
}

// GatewayProductID is the registry id of the LLM gateway.
const GatewayProductID = "prod_gateway"

// grantDefaultEntitlements gives a new organization what every organization
// starts with: the gateway, with the configured monthly token quota.
func grantDefaultEntitlements(tx *gorm.DB, orgID string, gatewayMonthlyTokens int64, now time.Time) error {
	return tx.Create(&Entitlement{OrgID: orgID, ProductID: GatewayProductID, MonthlyTokens: gatewayMonthlyTokens, CreatedAt: now, UpdatedAt: now}).Error
}

// SetEntitlement grants (or re-grants) a product to an organization with a
// monthly token quota.
func SetEntitlement(ctx context.Context, db *gorm.DB, orgID, productID string, monthlyTokens int64) error {
	now := Now()
	e := Entitlement{OrgID: orgID, ProductID: productID, MonthlyTokens: monthlyTokens, CreatedAt: now, UpdatedAt: now}
	return db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "org_id"}, {Name: "product_id"}},
		DoUpdates: clause.Assignments(map[string]any{"monthly_tokens": monthlyTokens, "updated_at": now, "revoked_at": nil}),
	}).Create(&e).Error
}

// RevokeEntitlement takes a product away from an organization.
func RevokeEntitlement(ctx context.Context, db *gorm.DB, orgID, productID string) (bool, error) {
	now := Now()
	res := db.WithContext(ctx).Model(&Entitlement{}).
		Where("org_id = ? AND product_id = ? AND revoked_at IS NULL", orgID, productID).
		Updates(map[string]any{"revoked_at": now, "updated_at": now})
	return res.RowsAffected > 0, res.Error
}

// ActiveEntitlement returns the organization's live entitlement to a
// product, or ErrNotFound.
func ActiveEntitlement(ctx context.Context, db *gorm.DB, orgID, productID string) (*Entitlement, error) {
	var e Entitlement
	err := db.WithContext(ctx).Where("org_id = ? AND product_id = ? AND revoked_at IS NULL", orgID, productID).Take(&e).Error
	return &e, notFound(err)
}
