package scan

import (
	"strconv"
	"strings"
)

// AWS managed policies attached by ARN (or, in SAM, by name) grant what
// their documents say, and the documents of a few are administrator
// access by another name: attaching AdministratorAccess is the most common
// way a role becomes administrator, and it has no policy document in the
// template to read. Those are read as their documents' Allow statements,
// so the same rules fire as for the document written inline. Other managed
// policies are AWS's own, scoped ones, and an ARN unknown until apply (a
// customer policy's aws_iam_policy.x.arn) is not read.

// managedPolicies are the AWS managed policies whose documents the IAM
// rules flag, by the name their ARN ends with, as AWS publishes them
// (only the statements a rule reads).
var managedPolicies = map[string]statement{
	// {"Effect":"Allow","Action":"*","Resource":"*"}
	"AdministratorAccess": {actions: []item{{value: "*"}}, targets: []item{{value: "*"}}},
	// {"Effect":"Allow","NotAction":["iam:*","organizations:*","account:*"],"Resource":"*"}
	"PowerUserAccess": {notActions: []item{{value: "iam:*"}, {value: "organizations:*"}, {value: "account:*"}}, targets: []item{{value: "*"}}},
	// {"Effect":"Allow","Action":["iam:*","organizations:Describe*",...],"Resource":"*"}
	"IAMFullAccess": {actions: []item{{value: "iam:*"}}, targets: []item{{value: "*"}}},
}

// managedPolicyName returns the name of an AWS managed policy given by
// ARN in any partition (arn:aws:iam::aws:policy/AdministratorAccess), or by
// name where byName (SAM's Policies take both).
func managedPolicyName(v any, byName bool) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	if rest, ok := strings.CutPrefix(s, "arn:"); ok {
		_, name, ok := strings.Cut(rest, ":iam::aws:policy/")
		return name, ok
	}
	return s, byName
}

// managed adds the statements of the flagged AWS managed policies among
// the ARNs (or names) in v, found at path.
func (b *builder) managed(r *resource, v any, path string, byName bool) {
	_, isList := v.([]any)
	for k, x := range listOf(v) {
		name, ok := managedPolicyName(x, byName)
		st, flagged := managedPolicies[name]
		if !ok || !flagged {
			continue
		}
		p := path
		if isList {
			p += "[" + strconv.Itoa(k) + "]"
		}
		at := func(items []item) []item {
			out := make([]item, len(items))
			for j, it := range items {
				out[j] = item{value: it.value, index: j, offset: b.next(), path: p}
			}
			return out
		}
		r.statements = append(r.statements, statement{actions: at(st.actions), targets: at(st.targets),
			notActions: at(st.notActions), managed: name})
	}
}
