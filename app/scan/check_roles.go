package scan

import (
	"strconv"
	"strings"
)

// roleGrant is one grant the IAM rules judge on Google Cloud or Azure:
// a GCP role given to members on a project, folder, organization or
// bucket, or one action pattern of an Azure role definition.
type roleGrant struct {
	cloud   cloud
	action  string   // the GCP role (roles/owner) or the Azure action pattern (*, Microsoft.Compute/*)
	members []string // GCP: who is granted it, as written (user:a@example.com, allUsers)
	// scope says where the grant applies, in words: project "p",
	// the assignable scopes of an Azure role definition.
	scope string
	// broad is set for an Azure definition assignable at a subscription,
	// a management group or the root "/" (azureBroadScope).
	broad      bool
	notActions []string // Azure: the not_actions of the same permissions block
	// role is the built-in Azure role an assignment gives (Owner); empty
	// for a custom role definition's action.
	role   string
	path   string
	offset int
	via    *Linked
}

// checkRoles grades role grants, as the AWS rules grade actions:
//   - GCP roles/owner is IAM_FULL_ADMIN: every permission on everything
//     under the resource, its IAM policy included; roles/editor is
//     IAM_WILDCARD_ACTION: it creates, changes and deletes nearly every
//     resource, but cannot change IAM policies. Other roles are Google's
//     scoped ones (or custom roles, whose permissions are not in the
//     document) and are not reported;
//   - an Azure action "*" (of a custom role definition, or of the
//     built-in role an assignment gives) is IAM_FULL_ADMIN at a broad scope (a
//     subscription, management group or "/") and IAM_WILDCARD_ACTION at a
//     narrower or unknown one, or when not_actions takes some actions out
//     (as an AWS NotAction is); Microsoft.Authorization/* is
//     IAM_WILDCARD_ACTION (it assigns any role, itself included, like
//     iam:*); another provider's wildcard (Microsoft.Compute/*) is
//     IAM_SERVICE_WILDCARD. Narrower patterns (Microsoft.Storage/
//     storageAccounts/*, */read) are not reported, as partial AWS
//     wildcards are not.
func (e *evaluator) checkRoles(r *resource) {
	for k := range r.roles {
		g := &r.roles[k]
		if g.cloud == cloudGCP {
			e.checkGCPRole(r, g)
		} else {
			e.checkAzureAction(r, g)
		}
	}
}

func (e *evaluator) checkGCPRole(r *resource, g *roleGrant) {
	grants := strconv.Quote(r.name) + " grants " + g.action + " on " + g.scope + " to " + listMembers(g.members)
	switch g.action {
	case "roles/owner":
		e.report(r, ruleIAMFullAdmin, g.path, g.offset, g.action,
			grants+": every permission on every resource there, including its IAM policy, so full administrator access", g.via)
	case "roles/editor":
		e.report(r, ruleIAMWildcardAction, g.path, g.offset, g.action,
			grants+": create, change and delete nearly every resource there (a basic role, not scoped to a service)", g.via)
	}
}

func (e *evaluator) checkAzureAction(r *resource, g *roleGrant) {
	def, at, like := "role definition "+strconv.Quote(r.name), "assignable at "+g.scope, " (the built-in Owner role)"
	if g.role != "" {
		def, at, like = "role assignment "+strconv.Quote(r.name)+" of the built-in role "+g.role, "at "+g.scope, ""
	}
	cause := strings.ToLower(g.action)
	switch {
	case g.action == "*" && len(g.notActions) > 0:
		e.report(r, ruleIAMWildcardAction, g.path, g.offset, cause, def+" allows every action except "+
			joinAnd(quoteAll(g.notActions))+" (not_actions), "+at, g.via)
	case g.action == "*" && g.broad:
		e.report(r, ruleIAMFullAdmin, g.path, g.offset, cause, def+` allows action "*" `+at+
			": full control of every resource there, role assignments included"+like, g.via)
	case g.action == "*":
		e.report(r, ruleIAMWildcardAction, g.path, g.offset, cause, def+` allows action "*" `+at+
			": every action on every resource there, role assignments included", g.via)
	case cause == "microsoft.authorization/*":
		e.report(r, ruleIAMWildcardAction, g.path, g.offset, cause, def+" allows "+strconv.Quote(g.action)+
			": every authorization action, including assigning any role to anyone, so the holder can make itself Owner", g.via)
	default:
		if provider, ok := azureProviderWildcard(g.action); ok {
			e.report(r, ruleIAMServiceWildcard, g.path, g.offset, cause, def+" allows "+strconv.Quote(g.action)+
				": every action of "+provider+", including destructive and permission-changing ones", g.via)
		}
	}
}

// azureProviderWildcard returns the resource provider of an action
// "Provider/*" (Microsoft.Compute/*).
func azureProviderWildcard(action string) (string, bool) {
	p, rest, ok := strings.Cut(action, "/")
	if !ok || rest != "*" || p == "" || strings.Contains(p, "*") {
		return "", false
	}
	return p, true
}

// listMembers names the first three members and counts the rest.
func listMembers(members []string) string {
	const shown = 3
	words := make([]string, 0, shown+1)
	for k, m := range members {
		if k == shown {
			words = append(words, plural(len(members)-shown, "more member"))
			break
		}
		words = append(words, m)
	}
	if len(words) == 0 {
		return "(members unknown until apply)"
	}
	return joinAnd(words)
}

func quoteAll(items []string) []string {
	out := make([]string, len(items))
	for k, s := range items {
		out[k] = strconv.Quote(s)
	}
	return out
}
