package scan

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Azure custom role definitions (azurerm_role_definition). Each action of
// each permissions block becomes a roleGrant, judged by checkRoles; the
// scope that decides between IAM_FULL_ADMIN and IAM_WILDCARD_ACTION for
// action "*" is where the role can be assigned: assignable_scopes, which
// the provider defaults to the definition's scope (a plan shows it
// unknown until apply when the configuration leaves it out, and
// leaveOutComputed takes it as left out). A subscription, a
// management group or the root "/" is broad; a resource group or a
// resource is narrower; a scope unknown until apply is not taken as broad
// (the action "*" is still reported, as IAM_WILDCARD_ACTION).
// data_actions (reading and writing blob contents, for instance) do not
// manage resources and are not read.

// azureBroadScope matches a subscription, a management group or the root.
var azureBroadScope = regexp.MustCompile(`(?i)^(/|/subscriptions/[^/]+/?|/providers/microsoft\.management/managementgroups/[^/]+/?)$`)

func (b *builder) azureRoleDefinition(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	scopes := listOf(attrs["assignable_scopes"])
	if !given(attrs, "assignable_scopes") {
		scopes = []any{attrs["scope"]}
	}
	broad, words := false, make([]string, 0, len(scopes))
	for _, s := range scopes {
		text, ok := s.(string)
		if !ok {
			words = append(words, "a scope unknown until apply")
			continue
		}
		words = append(words, strconv.Quote(text))
		broad = broad || azureBroadScope.MatchString(strings.TrimSpace(text))
	}
	scope := joinAnd(words)
	if scope == "" {
		scope = "a scope unknown until apply"
	}
	for i, p := range listOf(attrs["permissions"]) {
		pm := mapOf(p)
		not := stringsOf(pm["not_actions"])
		at := n.base + ".permissions[" + strconv.Itoa(i) + "].actions"
		for j, a := range listOf(pm["actions"]) {
			action, ok := a.(string)
			if !ok {
				continue
			}
			r.roles = append(r.roles, roleGrant{cloud: cloudAzure, action: strings.TrimSpace(action), scope: scope, broad: broad,
				notActions: not, path: at + "[" + strconv.Itoa(j) + "]", offset: b.next()})
		}
	}
}

// Azure role assignments (azurerm_role_assignment) of the built-in roles
// that hand out administrator access, named by role_definition_name or by
// a role_definition_id ending in the role's GUID. Assigning Owner on a
// subscription is how an identity most often becomes administrator there,
// and there is no azurerm_role_definition in the configuration to read:
// the assignment is read as the built-in definition's actions at the
// assignment's scope, and judged as a custom definition with those
// actions is (Owner at a subscription is IAM_FULL_ADMIN, as GCP's
// roles/owner on a project). Other built-in roles are Microsoft's scoped
// ones, and a custom role is checked on its own azurerm_role_definition.

// azureBuiltinRole is a built-in role with the actions of its definition
// that a rule reads, as Microsoft publishes them (Contributor's not_actions
// that only concern Blueprint, Purview and gallery sharing are left out).
type azureBuiltinRole struct {
	name, guid          string
	actions, notActions []string
}

var azureBuiltinRoles = []azureBuiltinRole{
	{name: "Owner", guid: "8e3af657-a8ff-443c-a75c-2fe8c4bcb635", actions: []string{"*"}},
	{name: "Contributor", guid: "b24988ac-6180-42a0-ab88-20f7382dd24c", actions: []string{"*"},
		notActions: []string{"Microsoft.Authorization/*/Delete", "Microsoft.Authorization/*/Write", "Microsoft.Authorization/elevateAccess/Action"}},
	{name: "User Access Administrator", guid: "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9", actions: []string{"Microsoft.Authorization/*"}},
}

func (b *builder) azureRoleAssignment(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	role, key, ok := azureAssignedRole(attrs)
	if !ok {
		return
	}
	scope, _ := attrs["scope"].(string)
	words := "a scope unknown until apply"
	if scope != "" {
		words = strconv.Quote(scope)
	}
	for _, action := range role.actions {
		r.roles = append(r.roles, roleGrant{cloud: cloudAzure, action: action, scope: words, role: role.name,
			broad: azureBroadScope.MatchString(strings.TrimSpace(scope)), notActions: role.notActions,
			path: n.base + "." + key, offset: b.next()})
	}
}

// azureAssignedRole finds the built-in role an assignment gives, and the
// attribute that names it.
func azureAssignedRole(attrs map[string]any) (azureBuiltinRole, string, bool) {
	name, _ := attrs["role_definition_name"].(string)
	id, _ := attrs["role_definition_id"].(string)
	for _, role := range azureBuiltinRoles {
		switch {
		case name != "" && strings.EqualFold(strings.TrimSpace(name), role.name):
			return role, "role_definition_name", true
		case name == "" && strings.HasSuffix(strings.ToLower(strings.TrimSpace(id)), "/"+role.guid):
			return role, "role_definition_id", true
		}
	}
	return azureBuiltinRole{}, "", false
}

// The data sources a role assignment usually takes its scope and role
// from, in Terraform source: what the provider would read is known only
// after apply, but its shape is known now.

// azureSubscriptionID is the id of data "azurerm_subscription":
// /subscriptions/ and its subscription_id, or knownAfterApply for the
// provider's own subscription. A scope of that id is a subscription, and
// one that adds "/resourceGroups/rg" to it is not.
func azureSubscriptionID(attrs map[string]any) cty.Value {
	sub, ok := attrs["subscription_id"].(string)
	if !ok || sub == "" {
		sub = knownAfterApply
	}
	return cty.StringVal("/subscriptions/" + sub)
}

// azureBuiltinRoleID is the id of data "azurerm_role_definition" naming
// a built-in role of azureBuiltinRoles, which an assignment's
// role_definition_id then names as role_definition_name would.
func azureBuiltinRoleID(attrs map[string]any) (cty.Value, bool) {
	role, _, ok := azureAssignedRole(map[string]any{"role_definition_name": attrs["name"], "role_definition_id": attrs["role_definition_id"]})
	if !ok {
		return cty.NilVal, false
	}
	return cty.StringVal("/providers/Microsoft.Authorization/roleDefinitions/" + role.guid), true
}
