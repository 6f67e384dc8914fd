package models

import (
	"context"
	"errors"
	"maps"
	"time"

	"gorm.io/gorm"
)

// What an account token is for.
const (
	PurposeReset  = "reset"  // sets a new password
	PurposeVerify = "verify" // proves the account's email address
)

// AccountToken is a password reset or email verification link: only the
// SHA-256 of its random token is stored.
type AccountToken struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	Purpose   string
	Email     string // the address it was sent to
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// TableName is the table of account tokens.
func (AccountToken) TableName() string { return "account_tokens" }

// ErrTokenSpent means a link was used already, has expired, or was made
// for an address the account no longer has.
var ErrTokenSpent = errors.New("this link was used already or has expired")

// CreateAccountToken makes a link token for purpose, sent to the user's
// address, valid for ttl, and returns its text (stored only hashed).
func CreateAccountToken(ctx context.Context, db *gorm.DB, u *User, purpose string, ttl time.Duration) (string, error) {
	token := RandomBase62(32)
	now := Now()
	t := &AccountToken{ID: NewID("tok"), UserID: u.ID, Purpose: purpose, Email: u.Email, TokenHash: HashToken(token),
		CreatedAt: now, ExpiresAt: now.Add(ttl)}
	return token, db.WithContext(ctx).Create(t).Error
}

// AccountTokenByText finds a token of purpose by its text, used or not;
// ErrNotFound when there is none.
func AccountTokenByText(ctx context.Context, db *gorm.DB, purpose, token string) (*AccountToken, error) {
	var t AccountToken
	err := db.WithContext(ctx).Where("token_hash = ? AND purpose = ?", HashToken(token), purpose).Take(&t).Error
	return &t, notFound(err)
}

// Usable reports whether the token still works at now.
func (t *AccountToken) Usable(now time.Time) bool { return t.UsedAt == nil && now.Before(t.ExpiresAt) }

// claimToken spends a token of purpose in tx, in one conditional UPDATE:
// of two requests with one link, one wins and the other gets
// ErrTokenSpent. The token must still be usable and the account's address
// the one it was sent to. It returns the token's user.
func claimToken(tx *gorm.DB, purpose, token string) (*User, error) {
	hash, now := HashToken(token), Now()
	res := tx.Model(&AccountToken{}).Where("token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?", hash, purpose, now).
		Update("used_at", now)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected != 1 {
		return nil, ErrTokenSpent
	}
	var t AccountToken
	if err := tx.Where("token_hash = ?", hash).Take(&t).Error; err != nil {
		return nil, err
	}
	var u User
	if err := tx.Where("id = ?", t.UserID).Take(&u).Error; err != nil {
		return nil, notFound(err)
	}
	if u.Email != t.Email {
		return nil, ErrTokenSpent
	}
	return &u, nil
}

// ResetPassword spends a reset token and sets the account's new password
// in one transaction: every session of the account ends, every other
// reset link of the account stops working, and the address is proven
// (an unproven account's second factors are forgotten). It returns the
// account.
func ResetPassword(ctx context.Context, db *gorm.DB, token, passwordHash string) (*User, error) {
	var user *User
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if user, err = claimToken(tx, PurposeReset, token); err != nil {
			return err
		}
		now := Now()
		if err := tx.Model(&AccountToken{}).Where("user_id = ? AND purpose = ? AND used_at IS NULL", user.ID, PurposeReset).
			Update("used_at", now).Error; err != nil {
			return err
		}
		// The link was mailed to the address: using it proves the address.
		// Until then, whoever signed up may not have held the address:
		// the second factors set up meanwhile (passkeys, an authenticator
		// app) are forgotten, or one who squatted the address before its
		// owner would keep signing in with them and lock the owner out.
		updates := map[string]any{"password_hash": passwordHash, "password_changed_at": now}
		if user.EmailVerifiedAt == nil {
			user.EmailVerifiedAt = &now
			user.TOTPSecret, user.TOTPEnabledAt, user.TOTPLastStep, user.PasskeyCount = nil, nil, nil, 0
			maps.Copy(updates, map[string]any{"email_verified_at": now, "totp_secret": nil, "totp_enabled_at": nil, "totp_last_step": nil, "passkey_count": 0})
			for _, m := range []any{&RecoveryCode{}, &Passkey{}} {
				if err := tx.Where("user_id = ?", user.ID).Delete(m).Error; err != nil {
					return err
				}
			}
		}
		if err := tx.Model(&User{}).Where("id = ?", user.ID).Updates(updates).Error; err != nil {
			return err
		}
		return tx.Where("user_id = ?", user.ID).Delete(&Session{}).Error
	})
	return user, err
}

// VerifyEmail spends a verification token and marks the account's address
// as proven. It returns the account.
func VerifyEmail(ctx context.Context, db *gorm.DB, token string) (*User, error) {
	var user *User
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if user, err = claimToken(tx, PurposeVerify, token); err != nil {
			return err
		}
		now := Now()
		user.EmailVerifiedAt = &now
		return tx.Model(&User{}).Where("id = ? AND email_verified_at IS NULL", user.ID).Update("email_verified_at", now).Error
	})
	return user, err
}

// SetEmailVerified marks a user's address as proven (an operator vouches
// for the accounts it creates).
func SetEmailVerified(ctx context.Context, db *gorm.DB, userID string) error {
	return db.WithContext(ctx).Model(&User{}).Where("id = ? AND email_verified_at IS NULL", userID).Update("email_verified_at", Now()).Error
}
