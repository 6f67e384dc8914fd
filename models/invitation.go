package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"gorm.io/gorm"
)

// Invitation asks someone, by email, to join an organization with a role.
// The link carries a random token; only its SHA-256 is stored.
type Invitation struct {
	ID         string `gorm:"primaryKey"`
	OrgID      string
	Email      string
	Role       string
	TokenHash  string
	InvitedBy  *string
	CreatedAt  time.Time
	ExpiresAt  time.Time
	AcceptedAt *time.Time
	AcceptedBy *string
	RevokedAt  *time.Time
}

// InvitationTTL is how long an invitation can be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// The states of an invitation.
const (
	InvitePending  = "pending"
	InviteAccepted = "accepted"
	InviteRevoked  = "revoked"
	InviteExpired  = "expired"
)

// State is the invitation's state at now.
func (i Invitation) State(now time.Time) string {
	switch {
	case i.AcceptedAt != nil:
		return InviteAccepted
	case i.RevokedAt != nil:
		return InviteRevoked
	case !now.Before(i.ExpiresAt):
		return InviteExpired
	}
	return InvitePending
}

// InvitationRow is an invitation as lists show it, with the inviter's
// email.
type InvitationRow struct {
	Invitation
	InviterEmail *string
}

// HashToken is the stored form of an invitation token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateInvitation stores a pending invitation and returns it with its
// token, which exists only in the link.
func CreateInvitation(ctx context.Context, db *gorm.DB, orgID, email, role string, by *string) (*Invitation, string, error) {
	token := RandomBase62(32)
	now := Now()
	inv := &Invitation{ID: NewID("inv"), OrgID: orgID, Email: NormalizeEmail(email), Role: role, TokenHash: HashToken(token),
		InvitedBy: by, CreatedAt: now, ExpiresAt: now.Add(InvitationTTL)}
	if err := db.WithContext(ctx).Create(inv).Error; err != nil {
		return nil, "", err
	}
	return inv, token, nil
}

// InvitationsOfOrg lists an organization's invitations, newest first.
func InvitationsOfOrg(ctx context.Context, db *gorm.DB, orgID string) ([]InvitationRow, error) {
	var out []InvitationRow
	err := db.WithContext(ctx).Table("invitations").
		Select("invitations.*, users.email AS inviter_email").
		Joins("LEFT JOIN users ON users.id = invitations.invited_by").
		Where("invitations.org_id = ?", orgID).
		Order("invitations.created_at DESC, invitations.id").
		Scan(&out).Error
	return out, err
}

// InvitationByToken finds the invitation of a link's token.
func InvitationByToken(ctx context.Context, db *gorm.DB, token string) (*Invitation, error) {
	var inv Invitation
	err := db.WithContext(ctx).Where("token_hash = ?", HashToken(token)).Take(&inv).Error
	return &inv, notFound(err)
}

// InvitationOfOrg finds an invitation of an organization by id.
func InvitationOfOrg(ctx context.Context, db *gorm.DB, orgID, id string) (*Invitation, error) {
	var inv Invitation
	err := db.WithContext(ctx).Where("id = ? AND org_id = ?", id, orgID).Take(&inv).Error
	return &inv, notFound(err)
}

// RevokeInvitation revokes a pending invitation; false when it was no
// longer pending.
func RevokeInvitation(ctx context.Context, db *gorm.DB, orgID, id string) (bool, error) {
	res := db.WithContext(ctx).Model(&Invitation{}).
		Where("id = ? AND org_id = ? AND accepted_at IS NULL AND revoked_at IS NULL", id, orgID).
		Update("revoked_at", Now())
	return res.RowsAffected == 1, res.Error
}

// ErrInvitationUsed means the invitation was accepted, revoked or has
// expired by the time it was accepted.
var ErrInvitationUsed = errors.New("this invitation can no longer be accepted")

// ErrInviterCannot means the member who sent the invitation can no longer
// give its role: removed from the organization, or demoted since.
var ErrInviterCannot = errors.New("the member who sent this invitation can no longer invite to its role")

// AcceptInvitation makes the user a member with the invitation's role and
// marks it accepted, in one transaction; the condition on the row makes a
// second acceptance (even a concurrent one) fail with ErrInvitationUsed.
// An invitation a member sent holds only while its sender may still give
// its role (ErrInviterCannot): a removed or demoted admin's invitations
// open no back door. An operator's (the CLI's, no sender) always holds.
func AcceptInvitation(ctx context.Context, db *gorm.DB, inv *Invitation, userID string) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if inv.InvitedBy != nil {
			var roles []string
			if err := tx.Model(&Membership{}).Where("org_id = ? AND user_id = ?", inv.OrgID, *inv.InvitedBy).Pluck("role", &roles).Error; err != nil {
				return err
			}
			if len(roles) == 0 || !Can(roles[0], PermInvite) || !CanAssign(roles[0], inv.Role) {
				return ErrInviterCannot
			}
		}
		now := Now()
		res := tx.Model(&Invitation{}).
			Where("id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?", inv.ID, now).
			Updates(map[string]any{"accepted_at": now, "accepted_by": userID})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrInvitationUsed
		}
		return AddMember(ctx, tx, inv.OrgID, userID, inv.Role)
	})
}

// InvitationPath is the path of an invitation's link: the organization's
// id and the token.
func InvitationPath(orgID, token string) string { return "/invite/" + orgID + "/" + token }

// AuditTarget names the invitation in the audit log, as the console and
// the CLI both record it: "email as role".
func (inv *Invitation) AuditTarget() string { return inv.Email + " as " + inv.Role }
