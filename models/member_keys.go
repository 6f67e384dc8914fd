package models

import (
	"context"
	"errors"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// EndedKeys is what became of the keys a member made when their
// membership ended or their role was lowered: Revoked by default, Kept
// when the actor chose to keep them. Each is one audit event.
type EndedKeys struct {
	Revoked, Kept []APIKey
}

// Lowers reports whether going from role was to role to is a step down
// (owner, admin, member, viewer, most powerful first).
func Lowers(was, to string) bool { return slices.Index(Roles, to) > slices.Index(Roles, was) }

// ErrMakerCannot refuses a key whose maker's role (as it is when the key
// is made, under the organization's lock) does not allow it.
var ErrMakerCannot = errors.New("your role in this organization does not allow this key")

// MayHoldScopes reports whether a member with role may make (or keep) a
// key with scopes: a role that makes keys, and the gateway scope (which
// spends the organization's token quota) only for a role that may chat.
// A viewer holds no gateway key.
func MayHoldScopes(role, scopes string) bool {
	if role == RoleViewer {
		return !slices.Contains(strings.Fields(scopes), "gateway")
	}
	return Can(role, PermCreateKeys)
}

// checkMaker refuses, inside a transaction that holds the organization's
// lock, a key made by a member whose role does not allow its scopes: a
// member removed or demoted while their form was in flight makes no key.
// A key made by an operator (no maker) is not checked.
func checkMaker(tx *gorm.DB, orgID string, maker *string, scopes string) error {
	if maker == nil {
		return nil
	}
	var m Membership
	err := tx.Where("org_id = ? AND user_id = ?", orgID, *maker).Take(&m).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrMakerCannot
	}
	if err != nil {
		return err
	}
	if !Can(m.Role, PermCreateKeys) || !MayHoldScopes(m.Role, scopes) {
		return ErrMakerCannot
	}
	return nil
}

// ActiveKeysMadeBy lists the keys a user made in an organization that
// still work (not revoked, not expired; a rolled key in its grace period
// included), newest first.
func ActiveKeysMadeBy(tx *gorm.DB, orgID, userID string) ([]APIKey, error) {
	var ks []APIKey
	err := tx.Where("org_id = ? AND created_by = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
		orgID, userID, Now()).Order("created_at DESC, id").Find(&ks).Error
	return ks, err
}

// endKeys ends the working keys userID made in orgID, as their
// membership ends (role "") or is lowered to role: each is revoked,
// by actorID (or an operator, ""), unless its id is in keep and the role
// may still hold it (a viewer keeps no gateway key; a former member keeps
// what the actor chose). It records the outcome in ended.
func endKeys(tx *gorm.DB, orgID, userID, actorID, role string, keep []string, ended *EndedKeys) error {
	ks, err := ActiveKeysMadeBy(tx, orgID, userID)
	if err != nil {
		return err
	}
	var ids []string
	for _, k := range ks {
		if slices.Contains(keep, k.ID) && (role == "" || MayHoldScopes(role, k.Scopes)) {
			ended.Kept = append(ended.Kept, k)
			continue
		}
		ended.Revoked = append(ended.Revoked, k)
		ids = append(ids, k.ID)
	}
	if len(ids) == 0 {
		return nil
	}
	var by *string
	if actorID != "" {
		by = &actorID
	}
	return tx.Model(&APIKey{}).Where("id IN ? AND revoked_at IS NULL", ids).
		Updates(map[string]any{"revoked_at": Now(), "revoked_by": by}).Error
}

// KeyMakerRole is the role in the key's organization of the member who
// made the key: "" when an operator made it or its maker has left (a key
// kept then is the organization's).
func KeyMakerRole(ctx context.Context, db *gorm.DB, keyID string) (string, error) {
	var roles []string
	err := db.WithContext(ctx).Table("memberships").Select("memberships.role").
		Joins("JOIN api_keys ON api_keys.org_id = memberships.org_id AND api_keys.created_by = memberships.user_id").
		Where("api_keys.id = ?", keyID).Limit(1).Pluck("memberships.role", &roles).Error
	if err != nil || len(roles) == 0 {
		return "", err
	}
	return roles[0], nil
}
