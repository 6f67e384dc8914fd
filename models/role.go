package models

import "slices"

// The roles of a member, most powerful first.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
	RoleViewer = "viewer"
)

// Roles lists every role, most powerful first (RoleOwner is in org.go).
var Roles = []string{RoleOwner, RoleAdmin, RoleMember, RoleViewer}

// ValidRole reports whether r is a role.
func ValidRole(r string) bool { return slices.Contains(Roles, r) }

// Permission is something a member may or may not do. The docs'
// permission table (views/docs/console.md) is this one.
type Permission string

const (
	PermSeeKeys       Permission = "see keys"
	PermCreateKeys    Permission = "create keys"             // and revoke or roll one's own
	PermManageAnyKey  Permission = "revoke others' keys"     // and roll them
	PermInvite        Permission = "invite"                  // and revoke invitations
	PermManageMembers Permission = "change roles or remove"  // an admin only below owner
	PermRenameOrg     Permission = "rename the organization" // and see its settings page
	PermOrgSettings   Permission = "organization settings"   // require two-factor sign-in
	PermDeleteOrg     Permission = "delete the organization"
	PermHandleLeaks   Permission = "see and handle leaked keys" // the leak banner
	PermChat          Permission = "chat in the playground"     // spends the organization's gateway quota
	PermGatewayLimits Permission = "set gateway budgets and models"
)

var permissions = map[Permission][]string{
	PermSeeKeys:       {RoleOwner, RoleAdmin, RoleMember, RoleViewer},
	PermCreateKeys:    {RoleOwner, RoleAdmin, RoleMember},
	PermManageAnyKey:  {RoleOwner, RoleAdmin},
	PermInvite:        {RoleOwner, RoleAdmin},
	PermManageMembers: {RoleOwner, RoleAdmin},
	PermRenameOrg:     {RoleOwner, RoleAdmin},
	PermOrgSettings:   {RoleOwner},
	PermDeleteOrg:     {RoleOwner},
	PermHandleLeaks:   {RoleOwner},
	PermChat:          {RoleOwner, RoleAdmin, RoleMember},
	PermGatewayLimits: {RoleOwner, RoleAdmin},
}

// Can reports whether a role has a permission.
func Can(role string, p Permission) bool { return slices.Contains(permissions[p], role) }

// CanAssign reports whether a member with role actor may give or take
// away role target: an owner any role, an admin only roles below owner.
func CanAssign(actor, target string) bool {
	return actor == RoleOwner || actor == RoleAdmin && target != RoleOwner
}
