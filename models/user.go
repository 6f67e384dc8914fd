package models

import (
	"context"
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"
)

// User is a person with an account. Emails are stored lowercased, which
// makes them case-insensitively unique.
type User struct {
	ID                string `gorm:"primaryKey"`
	Email             string
	PasswordHash      string
	IsStaff           bool
	CreatedAt         time.Time
	PasswordChangedAt time.Time
	// TOTPSecret is set at enrolment; two-factor sign-in is on once
	// TOTPEnabledAt is set (the first code confirmed).
	TOTPSecret    *string    `gorm:"column:totp_secret"`
	TOTPEnabledAt *time.Time `gorm:"column:totp_enabled_at"`
	TOTPLastStep  *int64     `gorm:"column:totp_last_step"` // the last code's time step: each code works once
	// EmailVerifiedAt is when the address was proven by a link mailed to
	// it (or vouched for by an operator); nil until then.
	EmailVerifiedAt *time.Time
	// PasskeyCount is how many passkeys the account holds (kept with the
	// passkeys rows, in the same transaction).
	PasskeyCount int
}

// HasSecondFactor tells whether the account signs in with more than a
// password: TOTP on, or a passkey. An organization that requires
// two-factor sign-in, and the staff pages, accept either.
func (u *User) HasSecondFactor() bool { return u.TOTPEnabledAt != nil || u.PasskeyCount > 0 }

// ErrEmailTaken is returned when an account with the email exists.
var ErrEmailTaken = errors.New("an account with this email already exists")

// ErrNotFound is returned when a looked-up row does not exist (or is not
// visible to the caller).
var ErrNotFound = errors.New("not found")

// NormalizeEmail is the form emails are stored and looked up in.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// CreateUser stores a new user with an already hashed password.
func CreateUser(ctx context.Context, db *gorm.DB, email, passwordHash string) (*User, error) {
	now := Now()
	u := &User{ID: NewID("usr"), Email: NormalizeEmail(email), PasswordHash: passwordHash, CreatedAt: now, PasswordChangedAt: now}
	if err := db.WithContext(ctx).Create(u).Error; err != nil {
		if IsUniqueViolation(err) {
			return nil, ErrEmailTaken
		}
		return nil, err
	}
	return u, nil
}

// UserByEmail finds a user by email, case-insensitively.
func UserByEmail(ctx context.Context, db *gorm.DB, email string) (*User, error) {
	var u User
	err := db.WithContext(ctx).Where("email = ?", NormalizeEmail(email)).Take(&u).Error
	return &u, notFound(err)
}

// UserByID finds a user by id.
func UserByID(ctx context.Context, db *gorm.DB, id string) (*User, error) {
	var u User
	err := db.WithContext(ctx).Where("id = ?", id).Take(&u).Error
	return &u, notFound(err)
}

// SetStaff grants or removes the staff flag.
func SetStaff(ctx context.Context, db *gorm.DB, userID string, staff bool) error {
	return db.WithContext(ctx).Model(&User{}).Where("id = ?", userID).Update("is_staff", staff).Error
}

// ChangePassword stores a new password hash and ends every session of the
// user, in one transaction: a session someone else holds dies with the old
// password (SessionByID would refuse it anyway, as older than the change).
func ChangePassword(ctx context.Context, db *gorm.DB, userID, passwordHash string) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&User{}).Where("id = ?", userID).
			Updates(map[string]any{"password_hash": passwordHash, "password_changed_at": Now()}).Error; err != nil {
			return err
		}
		return tx.Where("user_id = ?", userID).Delete(&Session{}).Error
	})
}

func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// IsUniqueViolation tells a unique-constraint failure on either database.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLSTATE 23505") || strings.Contains(msg, "UNIQUE constraint failed") ||
		strings.Contains(msg, "duplicate key value")
}
