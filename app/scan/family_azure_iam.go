package scan

import (
	"regexp"
	"strconv"
	"strings"
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
