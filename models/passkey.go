package models

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// Passkey is a WebAuthn credential of a user. Binary values are stored
// base64url-encoded (CredentialID, PublicKey, AAGUID); Transports is a
// comma-separated list as the browser reported it.
type Passkey struct {
	ID             string `gorm:"primaryKey"`
	UserID         string
	CredentialID   string
	PublicKey      string
	SignCount      int64
	Transports     string
	AAGUID         string `gorm:"column:aaguid"`
	BackupEligible bool
	UserVerified   bool
	Name           string
	CreatedAt      time.Time
	LastUsedAt     *time.Time
}

// Limits of passkeys: a name is shown in lists and mails; the count keeps
// the list (and the credentials a sign-in loads) bounded.
const (
	MaxPasskeyName     = 64
	MaxPasskeysPerUser = 20
)

// ErrTooManyPasskeys refuses a passkey over MaxPasskeysPerUser.
var ErrTooManyPasskeys = errors.New("an account holds at most 20 passkeys: remove one first")

// ErrPasskeyTaken means the credential is registered already.
var ErrPasskeyTaken = errors.New("this passkey is registered already")

// PasskeysOfUser lists a user's passkeys, oldest first.
func PasskeysOfUser(ctx context.Context, db *gorm.DB, userID string) ([]Passkey, error) {
	var out []Passkey
	err := db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&out).Error
	return out, err
}

// PasskeyByCredentialID finds a passkey by its credential id (base64url).
func PasskeyByCredentialID(ctx context.Context, db *gorm.DB, credentialID string) (*Passkey, error) {
	var pk Passkey
	err := db.WithContext(ctx).Where("credential_id = ?", credentialID).Take(&pk).Error
	return &pk, notFound(err)
}

// AddPasskey stores a new passkey and counts it on the user, in one
// transaction; the count is checked there too, so concurrent
// registrations cannot pass MaxPasskeysPerUser.
func AddPasskey(ctx context.Context, db *gorm.DB, pk *Passkey) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND passkey_count < ?", pk.UserID, MaxPasskeysPerUser).
			Update("passkey_count", gorm.Expr("passkey_count + 1"))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrTooManyPasskeys
		}
		pk.ID, pk.CreatedAt = NewID("pk"), Now()
		if err := tx.Create(pk).Error; err != nil {
			if IsUniqueViolation(err) {
				return ErrPasskeyTaken
			}
			return err
		}
		return nil
	})
}

// RenamePasskey names one of the user's passkeys; ErrNotFound when the user
// has no such passkey.
func RenamePasskey(ctx context.Context, db *gorm.DB, userID, id, name string) error {
	res := db.WithContext(ctx).Model(&Passkey{}).Where("id = ? AND user_id = ?", id, userID).Update("name", name)
	if res.Error == nil && res.RowsAffected == 0 {
		return ErrNotFound
	}
	return res.Error
}

// DeletePasskey removes one of the user's passkeys and uncounts it;
// ErrNotFound when the user has no such passkey.
func DeletePasskey(ctx context.Context, db *gorm.DB, userID, id string) (*Passkey, error) {
	var pk Passkey
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("id = ? AND user_id = ?", id, userID).Take(&pk).Error; err != nil {
			return notFound(err)
		}
		res := tx.Where("id = ?", pk.ID).Delete(&Passkey{})
		if res.Error != nil || res.RowsAffected == 0 {
			return orNotFound(res.Error)
		}
		return tx.Model(&User{}).Where("id = ?", userID).
			Update("passkey_count", gorm.Expr("passkey_count - 1")).Error
	})
	return &pk, err
}

func orNotFound(err error) error {
	if err == nil {
		return ErrNotFound
	}
	return err
}

// UsePasskey records a sign-in with the passkey: its new signature count
// and when. The condition on the count refuses an assertion whose counter
// did not move past the stored one (a cloned authenticator, or a replay
// racing this one), except for authenticators that always send 0.
func UsePasskey(ctx context.Context, db *gorm.DB, id string, signCount uint32) (bool, error) {
	q := db.WithContext(ctx).Model(&Passkey{}).Where("id = ?", id)
	if signCount == 0 {
		q = q.Where("sign_count = 0")
	} else {
		q = q.Where("sign_count < ?", int64(signCount))
	}
	res := q.Updates(map[string]any{"sign_count": int64(signCount), "last_used_at": Now()})
	return res.RowsAffected == 1, res.Error
}

// Ceremony is the server-side state of a WebAuthn ceremony under way: the
// library's session data (with the challenge), as JSON. ID is the SHA-256
// of the token in the browser's cookie.
type Ceremony struct {
	ID        string `gorm:"primaryKey"`
	UserID    *string
	Purpose   string
	Data      string
	ExpiresAt time.Time
}

// TableName is the table of ceremonies.
func (Ceremony) TableName() string { return "webauthn_ceremonies" }

// SaveCeremony stores a ceremony, sweeping the expired ones first so the
// table holds only live rows without a background job.
func SaveCeremony(ctx context.Context, db *gorm.DB, c *Ceremony) error {
	if err := db.WithContext(ctx).Where("expires_at < ?", Now()).Delete(&Ceremony{}).Error; err != nil {
		return err
	}
	return db.WithContext(ctx).Create(c).Error
}

// TakeCeremony returns a live ceremony of the purpose and deletes it, so
// its challenge works once even against concurrent attempts: of two
// requests only the one whose DELETE removed the row gets it.
func TakeCeremony(ctx context.Context, db *gorm.DB, id, purpose string) (*Ceremony, error) {
	var c Ceremony
	if err := db.WithContext(ctx).Where("id = ? AND purpose = ?", id, purpose).Take(&c).Error; err != nil {
		return nil, notFound(err)
	}
	res := db.WithContext(ctx).Where("id = ?", id).Delete(&Ceremony{})
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected != 1 || !c.ExpiresAt.After(Now()) {
		return nil, ErrNotFound
	}
	return &c, nil
}
