package models

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// MemberRow is a member as the members page and `member list` show them.
type MemberRow struct {
	UserID        string
	Email         string
	Role          string
	CreatedAt     time.Time // when they joined
	TOTPEnabledAt *time.Time
	PasskeyCount  int
}

// HasSecondFactor tells whether the member signs in with TOTP or a passkey.
func (m MemberRow) HasSecondFactor() bool { return m.TOTPEnabledAt != nil || m.PasskeyCount > 0 }

// ErrLastOwner refuses a change that would leave an organization without
// an owner.
var ErrLastOwner = errors.New("an organization always keeps at least one owner: make another member an owner first")

// ErrAlreadyMember means the user already belongs to the organization.
var ErrAlreadyMember = errors.New("already a member of this organization")

// members selects an organization's members with what the console shows
// of each.
func members(ctx context.Context, db *gorm.DB) *gorm.DB {
	return db.WithContext(ctx).Table("memberships").
		Select("memberships.user_id, users.email, memberships.role, memberships.created_at, users.totp_enabled_at, users.passkey_count").
		Joins("JOIN users ON users.id = memberships.user_id")
}

// MembersOfOrg lists an organization's members, owners first, then by
// email.
func MembersOfOrg(ctx context.Context, db *gorm.DB, orgID string) ([]MemberRow, error) {
	var out []MemberRow
	err := members(ctx, db).Where("memberships.org_id = ?", orgID).
		Order("CASE memberships.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END, users.email").
		Scan(&out).Error
	return out, err
}

// MemberOf finds one member of an organization, or ErrNotFound.
func MemberOf(ctx context.Context, db *gorm.DB, orgID, userID string) (*MemberRow, error) {
	var out MemberRow
	if err := members(ctx, db).Where("memberships.org_id = ? AND memberships.user_id = ?", orgID, userID).Take(&out).Error; err != nil {
		return nil, notFound(err)
	}
	return &out, nil
}

// AddMember makes a user a member of an organization with a role.
func AddMember(ctx context.Context, db *gorm.DB, orgID, userID, role string) error {
	err := db.WithContext(ctx).Create(&Membership{OrgID: orgID, UserID: userID, Role: role, CreatedAt: Now()}).Error
	if IsUniqueViolation(err) {
		return ErrAlreadyMember
	}
	return err
}

// ErrActorCannot refuses a change to a membership that the acting member's
// role does not allow, as the roles stand when the change is made: the
// actor was demoted or removed meanwhile, or the member they meant to
// change was made an owner.
var ErrActorCannot = errors.New("your role does not allow this change to that member")

// SetMemberRole changes a member's role; taking the role of the last
// owner away is ErrLastOwner. actorID is the member making the change
// (checked under the organization's lock: ErrActorCannot), or "" for an
// operator. A lowered role ends the member's keys but those in keep
// (endKeys), in the same transaction.
func SetMemberRole(ctx context.Context, db *gorm.DB, orgID, actorID, userID, role string, keep ...string) (*EndedKeys, error) {
	ended := &EndedKeys{}
	return ended, keepingAnOwner(ctx, db, orgID, actorID, userID, role, func(tx *gorm.DB, was string) error {
		if err := tx.Model(&Membership{}).Where("org_id = ? AND user_id = ?", orgID, userID).Update("role", role).Error; err != nil {
			return err
		}
		if !Lowers(was, role) {
			return nil
		}
		return endKeys(tx, orgID, userID, actorID, role, keep, ended)
	}, role == RoleOwner)
}

// RemoveMember removes a member (or lets one leave: actorID ""); removing
// the last owner is ErrLastOwner. actorID is as for SetMemberRole. The
// member's keys end but those in keep (endKeys), in the same transaction.
func RemoveMember(ctx context.Context, db *gorm.DB, orgID, actorID, userID string, keep ...string) (*EndedKeys, error) {
	ended := &EndedKeys{}
	return ended, keepingAnOwner(ctx, db, orgID, actorID, userID, "", func(tx *gorm.DB, _ string) error {
		if err := tx.Where("org_id = ? AND user_id = ?", orgID, userID).Delete(&Membership{}).Error; err != nil {
			return err
		}
		return endKeys(tx, orgID, userID, actorID, "", keep, ended)
	}, false)
}

// keepingAnOwner runs change on a member in a transaction that holds the
// organization's row, so two owners demoting each other at once cannot
// both succeed, and refuses it when the member is the last owner and stays
// one only if staysOwner. Under the same lock it checks that the actor
// (unless "") may still manage the member as they are now, and give
// newRole (unless ""): a check made before the transaction could be
// stale by the time of the change, and an admin's demotion racing an
// owner's promotion of the same member demoted an owner.
func keepingAnOwner(ctx context.Context, db *gorm.DB, orgID, actorID, userID, newRole string, change func(tx *gorm.DB, was string) error, staysOwner bool) error {
	return db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockOrg(tx, orgID); err != nil {
			return err
		}
		var m Membership
		if err := tx.Where("org_id = ? AND user_id = ?", orgID, userID).Take(&m).Error; err != nil {
			return notFound(err)
		}
		if actorID != "" {
			var a Membership
			err := tx.Where("org_id = ? AND user_id = ?", orgID, actorID).Take(&a).Error
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return ErrActorCannot
			}
			if err != nil {
				return err
			}
			if !Can(a.Role, PermManageMembers) || !CanAssign(a.Role, m.Role) || newRole != "" && !CanAssign(a.Role, newRole) {
				return ErrActorCannot
			}
		}
		if m.Role == RoleOwner && !staysOwner {
			var owners int64
			if err := tx.Model(&Membership{}).Where("org_id = ? AND role = ?", orgID, RoleOwner).Count(&owners).Error; err != nil {
				return err
			}
			if owners <= 1 {
				return ErrLastOwner
			}
		}
		return change(tx, m.Role)
	})
}

// SetRequire2FA turns on or off the rule that every member signs in with
// a second factor.
func SetRequire2FA(ctx context.Context, db *gorm.DB, orgID string, on bool) error {
	return db.WithContext(ctx).Model(&Organization{}).Where("id = ?", orgID).Update("require_2fa", on).Error
}
