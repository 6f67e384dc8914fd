package models

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// RecoveryCode is one single-use code that stands in for a TOTP code;
// only its SHA-256 is stored.
type RecoveryCode struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	CodeHash  string
	CreatedAt time.Time
	UsedAt    *time.Time
}

// SetPendingTOTPSecret stores the secret of an enrolment not yet confirmed
// (two-factor sign-in stays off until EnableTOTP).
func SetPendingTOTPSecret(ctx context.Context, db *gorm.DB, userID, secret string) error {
	return db.WithContext(ctx).Model(&User{}).Where("id = ? AND totp_enabled_at IS NULL", userID).
		Update("totp_secret", secret).Error
}

// EnableTOTP turns two-factor sign-in on and replaces the user's recovery
// codes by these hashes, in one transaction.
func EnableTOTP(ctx context.Context, db *gorm.DB, userID string, codeHashes []string) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := Now()
		if err := tx.Model(&User{}).Where("id = ?", userID).Update("totp_enabled_at", now).Error; err != nil {
			return err
		}
		if err := tx.Where("user_id = ?", userID).Delete(&RecoveryCode{}).Error; err != nil {
			return err
		}
		for _, h := range codeHashes {
			if err := tx.Create(&RecoveryCode{ID: NewID("rc"), UserID: userID, CodeHash: h, CreatedAt: now}).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// DisableTOTP turns two-factor sign-in off and forgets the secret and the
// recovery codes.
func DisableTOTP(ctx context.Context, db *gorm.DB, userID string) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&User{}).Where("id = ?", userID).
			Updates(map[string]any{"totp_secret": nil, "totp_enabled_at": nil, "totp_last_step": nil}).Error; err != nil {
			return err
		}
		return tx.Where("user_id = ?", userID).Delete(&RecoveryCode{}).Error
	})
}

// UseRecoveryCode spends an unused recovery code of the user; false when
// none matches. The condition on used_at makes each code work once, even
// against concurrent attempts.
func UseRecoveryCode(ctx context.Context, db *gorm.DB, userID, codeHash string) (bool, error) {
	res := db.WithContext(ctx).Model(&RecoveryCode{}).
		Where("user_id = ? AND code_hash = ? AND used_at IS NULL", userID, codeHash).
		Update("used_at", Now())
	return res.RowsAffected == 1, res.Error
}

// ClaimTOTPStep records that the user's code of a time step was used, and
// reports false when a code of that step (or a later one) was used
// before: each code works once, even against concurrent attempts.
func ClaimTOTPStep(ctx context.Context, db *gorm.DB, userID string, step int64) (bool, error) {
	res := db.WithContext(ctx).Model(&User{}).
		Where("id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)", userID, step).
		Update("totp_last_step", step)
	return res.RowsAffected == 1, res.Error
}

// UnusedRecoveryCodes counts the recovery codes the user has left.
func UnusedRecoveryCodes(ctx context.Context, db *gorm.DB, userID string) (int64, error) {
	var n int64
	err := db.WithContext(ctx).Model(&RecoveryCode{}).Where("user_id = ? AND used_at IS NULL", userID).Count(&n).Error
	return n, err
}
