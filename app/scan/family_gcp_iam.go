package scan

import (
	"strconv"
	"strings"
)

// Google Cloud IAM on a project, folder or organization: an _iam_member
// (one role to one member), an _iam_binding (one role to members) or an
// _iam_policy (the whole policy, policy_data as a JSON string, usually
// from data.google_iam_policy). Each grant becomes a roleGrant, judged by
// checkRoles: roles/owner and roles/editor are reported, on the IAM
// resource itself, which is what a person changes. A role or policy
// unknown until apply is not read; IAM conditions are not evaluated (a
// condition narrows when a grant holds, not what it grants).

var gcpIAM = family{kind: typeIAMPolicy, read: (*builder).gcpIAM}

func (b *builder) gcpIAM(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	var scope string
	switch {
	case strings.HasPrefix(n.typ, "google_project_"):
		scope = "project " + quotedOr(attrs["project"], "(the provider's project)")
	case strings.HasPrefix(n.typ, "google_folder_"):
		scope = "folder " + quotedOr(attrs["folder"], "(unknown until apply)")
	default:
		scope = "organization " + quotedOr(attrs["org_id"], "(unknown until apply)")
	}
	r.roles = gcpBindings(b, n, attrs, nil, scope)
}

// gcpBindings reads the grants of an IAM member, binding or policy
// resource (of a project, folder, organization or bucket) on scope.
func gcpBindings(b *builder, n *node, attrs map[string]any, via *Linked, scope string) []roleGrant {
	grant := func(role any, members []string, path string) []roleGrant {
		s, ok := role.(string)
		if !ok {
			return nil // unknown until apply
		}
		return []roleGrant{{cloud: cloudGCP, action: s, members: members, scope: scope, path: path, offset: b.next(), via: via}}
	}
	switch {
	case strings.HasSuffix(n.typ, "_iam_member"):
		var members []string
		if m, ok := attrs["member"].(string); ok {
			members = []string{m}
		}
		return grant(attrs["role"], members, n.base+".role")
	case strings.HasSuffix(n.typ, "_iam_binding"):
		return grant(attrs["role"], stringsOf(attrs["members"]), n.base+".role")
	case strings.HasSuffix(n.typ, "_iam_policy"):
		doc, ok := policyDocument(attrs["policy_data"], n.base+".policy_data")
		if !ok {
			return nil
		}
		var out []roleGrant
		for j, bd := range listOf(doc["bindings"]) {
			m := mapOf(bd)
			out = append(out, grant(m["role"], stringsOf(m["members"]), n.base+".policy_data.bindings["+strconv.Itoa(j)+"]")...)
		}
		return out
	}
	return nil
}

// stringsOf keeps the known strings of a list.
func stringsOf(v any) []string {
	var out []string
	for _, x := range listOf(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// quotedOr quotes a known string, or says what stands for it.
func quotedOr(v any, otherwise string) string {
	if s, ok := v.(string); ok && s != "" {
		return strconv.Quote(s)
	}
	return otherwise
}
