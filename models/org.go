package models

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"gorm.io/gorm"
)

// Organization owns API keys, entitlements and audit events. People belong
// to it through memberships.
type Organization struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	Slug      string
	CreatedBy *string
	CreatedAt time.Time
	// Require2FA: every member must sign in with a second factor.
	Require2FA bool `gorm:"column:require_2fa"`
}

// Membership says a user belongs to an organization, with a role.
type Membership struct {
	OrgID     string `gorm:"primaryKey"`
	UserID    string `gorm:"primaryKey"`
	Role      string
	CreatedAt time.Time
}

// RoleOwner is the role of an organization's creator; the other roles are
// in role.go.
const RoleOwner = "owner"

// OrgWithRole is an organization as one of its members sees it.
type OrgWithRole struct {
	Organization
	Role string
}

// MaxOrgNameLength bounds organization names.
const MaxOrgNameLength = 80

// Slugify derives a URL-safe slug from a name: lowercase ASCII letters and
// digits separated by single hyphens, at most 40 characters.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "org"
	}
	return s
}

// CreateOrg creates an organization with owner as its owner (owner may be
// empty for operator-created organizations) and grants it the default
// entitlements, all in one transaction. The slug is made unique by a
// numeric suffix.
func CreateOrg(ctx context.Context, db *gorm.DB, name, ownerID string, gatewayMonthlyTokens int64) (*Organization, error) {
	base := Slugify(name)
	now := Now()
	var org *Organization
	for attempt := 1; attempt <= 20; attempt++ {
		slug := base
		if attempt > 1 {
			slug = base + "-" + strconv.Itoa(attempt)
		}
		if attempt > 10 {
			slug = base + "-" + strings.ToLower(RandomBase62(6))
		}
		o := &Organization{ID: NewID("org"), Name: name, Slug: slug, CreatedAt: now}
		if ownerID != "" {
			o.CreatedBy = &ownerID
		}
		err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := tx.Create(o).Error; err != nil {
				return err
			}
			if ownerID != "" {
				if err := tx.Create(&Membership{OrgID: o.ID, UserID: ownerID, Role: RoleOwner, CreatedAt: now}).Error; err != nil {
					return err
				}
			}
			return grantDefaultEntitlements(tx, o.ID, gatewayMonthlyTokens, now)
		})
		if err == nil {
			org = o
			break
		}
		if !IsUniqueViolation(err) {
			return nil, err
		}
	}
	if org == nil {
		return nil, ErrSlugTaken
	}
	return org, nil
}

// ErrSlugTaken means no free slug could be found for a name.
var ErrSlugTaken = errors.New("could not find a free slug for this name; choose another name")

// orgsWithRole selects organizations with their member's role.
func orgsWithRole(ctx context.Context, db *gorm.DB) *gorm.DB {
	return db.WithContext(ctx).Table("organizations").
		Select("organizations.*, memberships.role").
		Joins("JOIN memberships ON memberships.org_id = organizations.id")
}

// OrgsOfUser lists the organizations a user belongs to, by name.
func OrgsOfUser(ctx context.Context, db *gorm.DB, userID string) ([]OrgWithRole, error) {
	var out []OrgWithRole
	err := orgsWithRole(ctx, db).Where("memberships.user_id = ?", userID).
		Order("organizations.name, organizations.slug").
		Scan(&out).Error
	return out, err
}

// OrgForMember returns the organization if the user is a member of it, and
// ErrNotFound otherwise, so a stranger cannot tell whether it exists.
func OrgForMember(ctx context.Context, db *gorm.DB, orgID, userID string) (*OrgWithRole, error) {
	var out OrgWithRole
	if err := orgsWithRole(ctx, db).Where("organizations.id = ? AND memberships.user_id = ?", orgID, userID).Take(&out).Error; err != nil {
		return nil, notFound(err)
	}
	return &out, nil
}

// OrgByIDOrSlug finds an organization for operators (admin commands).
func OrgByIDOrSlug(ctx context.Context, db *gorm.DB, ref string) (*Organization, error) {
	var o Organization
	err := db.WithContext(ctx).Where("id = ? OR slug = ?", ref, ref).Take(&o).Error
	return &o, notFound(err)
}

// AuditTarget names the organization in the audit log, as the console
// and the CLI both record it: "Name (slug)".
func (o *Organization) AuditTarget() string { return o.Name + " (" + o.Slug + ")" }
