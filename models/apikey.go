package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// APIKey is an organization's key. Only the SHA-256 of the key and a
// display hint are stored: nothing here can rebuild the key.
type APIKey struct {
	ID         string `gorm:"primaryKey"`
	OrgID      string
	Name       string
	Hint       string
	Hash       string
	CreatedBy  *string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	RevokedBy  *string
	// Scopes is the space-separated list of what the key may call.
	Scopes string `gorm:"default:public logs scan gateway"`
	// ExpiresAt, when set, is when the key stops working: an expiry chosen
	// at creation, or the end of a roll's grace period (RolledAt set).
	ExpiresAt *time.Time
	RolledAt  *time.Time
	// LeakedAt is when a leak report revoked the key.
	LeakedAt *time.Time
	// LeakSeenAt is when an owner marked the leak as handled: the
	// console's banner no longer shows it.
	LeakSeenAt *time.Time
}

// TableName is the table of API keys.
func (APIKey) TableName() string { return "api_keys" }

// Active reports whether the key is not revoked (it may still have
// expired: see Usable).
func (k APIKey) Active() bool { return k.RevokedAt == nil }

// Expired reports whether the key's expiry (or its roll's grace period)
// has passed at now.
func (k APIKey) Expired(now time.Time) bool { return k.ExpiresAt != nil && !now.Before(*k.ExpiresAt) }

// Usable reports whether the key works at now: not revoked, not expired.
func (k APIKey) Usable(now time.Time) bool { return k.Active() && !k.Expired(now) }

// Status names the key's state for tables: active, expired, rolled
// (still in its grace period), revoked or leaked.
func (k APIKey) Status(now time.Time) string {
	switch {
	case k.LeakedAt != nil:
		return "leaked"
	case !k.Active():
		return "revoked"
	case k.Expired(now):
		return "expired"
	case k.RolledAt != nil:
		return "rolled"
	}
	return "active"
}

// APIKeyRow is a key as the console lists it, with its creator's email,
// and whether its creator is no longer a member (a key kept when they
// left is marked "made by a former member").
type APIKeyRow struct {
	APIKey
	CreatorEmail *string
	MakerLeft    bool
}

// ErrKeyNameTaken means an active key of the organization has the name.
var ErrKeyNameTaken = errors.New("an active key with this name already exists in this organization")

// MaxKeyNameLength bounds key names.
const MaxKeyNameLength = 80

// MaxActiveKeys bounds an organization's active keys (not revoked, not
// expired, a rolled key in its grace period included). Each key has a
// rate-limit budget of its own, so a member with a script and no bound
// multiplied the organization's budgets by the thousands.
const MaxActiveKeys = 100

// ErrTooManyKeys means the organization has MaxActiveKeys active keys.
var ErrTooManyKeys = fmt.Errorf("an organization has at most %d active keys: revoke one first", MaxActiveKeys)

// CreateAPIKey stores a key's hash and hint for an organization, within
// MaxActiveKeys, if its maker's role allows it as the roles stand now
// (checkMaker).
func CreateAPIKey(ctx context.Context, db *gorm.DB, k *APIKey) error {
	return withinKeyBound(ctx, db, k.OrgID, func(tx *gorm.DB) error {
		if err := checkMaker(tx, k.OrgID, k.CreatedBy, k.Scopes); err != nil {
			return err
		}
		if err := tx.Create(k).Error; err != nil {
			if IsUniqueViolation(err) {
				return ErrKeyNameTaken
			}
			return err
		}
		return nil
	})
}

// withinKeyBound makes change under the organization's lock, so that
// parallel requests are counted one after the other, and undoes it with
// ErrTooManyKeys when the organization then has more than MaxActiveKeys.
func withinKeyBound(ctx context.Context, db *gorm.DB, orgID string, change func(tx *gorm.DB) error) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockOrg(tx, orgID); err != nil {
			return err
		}
		if err := change(tx); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&APIKey{}).Where("org_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
			orgID, Now()).Count(&n).Error; err != nil {
			return err
		}
		if n > MaxActiveKeys {
			return ErrTooManyKeys
		}
		return nil
	})
}

// APIKeysOfOrg lists an organization's keys, newest first, active and
// revoked.
func APIKeysOfOrg(ctx context.Context, db *gorm.DB, orgID string) ([]APIKeyRow, error) {
	var rows []APIKeyRow
	err := db.WithContext(ctx).Table("api_keys").
		Select("api_keys.*, users.email AS creator_email, "+
			"CASE WHEN api_keys.created_by IS NOT NULL AND memberships.user_id IS NULL THEN 1 ELSE 0 END AS maker_left").
		Joins("LEFT JOIN users ON users.id = api_keys.created_by").
		Joins("LEFT JOIN memberships ON memberships.org_id = api_keys.org_id AND memberships.user_id = api_keys.created_by").
		Where("api_keys.org_id = ?", orgID).
		Order("api_keys.created_at DESC, api_keys.id").
		Scan(&rows).Error
	return rows, err
}

// APIKeyOfOrg finds one key of an organization; a key of another
// organization is ErrNotFound.
func APIKeyOfOrg(ctx context.Context, db *gorm.DB, orgID, keyID string) (*APIKey, error) {
	var k APIKey
	err := db.WithContext(ctx).Where("id = ? AND org_id = ?", keyID, orgID).Take(&k).Error
	return &k, notFound(err)
}

// APIKeyByID finds a key by id (operators).
func APIKeyByID(ctx context.Context, db *gorm.DB, keyID string) (*APIKey, error) {
	var k APIKey
	err := db.WithContext(ctx).Where("id = ?", keyID).Take(&k).Error
	return &k, notFound(err)
}

// APIKeyByHash finds a key by the SHA-256 of its text.
func APIKeyByHash(ctx context.Context, db *gorm.DB, hash string) (*APIKey, error) {
	var k APIKey
	err := db.WithContext(ctx).Where("hash = ?", hash).Take(&k).Error
	return &k, notFound(err)
}

// RevokeAPIKey revokes an active key of an organization. It reports false
// when the key was already revoked; ErrNotFound when it is not the
// organization's.
func RevokeAPIKey(ctx context.Context, db *gorm.DB, orgID, keyID string, by *string) (bool, error) {
	res := db.WithContext(ctx).Model(&APIKey{}).
		Where("id = ? AND org_id = ? AND revoked_at IS NULL", keyID, orgID).
		Updates(map[string]any{"revoked_at": Now(), "revoked_by": by})
	if res.Error != nil {
		return false, res.Error
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	if _, err := APIKeyOfOrg(ctx, db, orgID, keyID); err != nil {
		return false, err
	}
	return false, nil
}

// TouchAPIKey records that a key was used, at most once a minute: the
// condition makes concurrent instances write the row once.
func TouchAPIKey(ctx context.Context, db *gorm.DB, keyID string, now time.Time) error {
	return db.WithContext(ctx).Model(&APIKey{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at < ?)", keyID, now.Add(-time.Minute)).
		Update("last_used_at", now).Error
}

// AuditTarget names the key in the audit log the way people recognise it,
// as the console and the CLI both record it: "name (hint)".
func (k *APIKey) AuditTarget() string { return k.Name + " (" + k.Hint + ")" }
