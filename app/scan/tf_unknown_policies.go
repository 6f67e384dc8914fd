package scan

import "strings"

// A plan holds no text for a policy computed from a value known only
// after apply: jsonencode({... Resource = "${aws_s3_bucket.b.arn}/*"})
// is wholly unknown to Terraform, which writes after_unknown: true and
// nothing else, and the configuration keeps only the expression's
// references. There is nothing known to check (unlike a policy from an
// aws_iam_policy_document read during apply, rebuilt from the read's
// blocks, or Terraform source, which the scanner evaluates with
// placeholders for the ARNs). So that a clean result is not taken for
// more than it is, a warning names those resources and points to the
// source, where the same policy is checked.

// unknownPolicyAttr is the attribute holding the policy of a resource
// type whose whole purpose is that policy, "" for the others.
func unknownPolicyAttr(typ string) string {
	switch {
	case typ == "aws_iam_policy", typ == "aws_iam_role_policy", typ == "aws_iam_user_policy",
		typ == "aws_iam_group_policy", typ == "aws_s3_bucket_policy":
		return "policy"
	case strings.HasPrefix(typ, "google_") && strings.HasSuffix(typ, "_iam_policy"):
		return "policy_data"
	}
	return ""
}

// unknownPolicies warns of the plan's policies that are unknown until
// apply, in document order.
func unknownPolicies(g *graph) []Warning {
	var addrs []string
	for _, n := range g.nodes {
		if attr := unknownPolicyAttr(n.typ); attr != "" && isUnknown(n.attrs[attr]) || unknownInlinePolicy(n) {
			addrs = append(addrs, n.addr)
		}
	}
	if len(addrs) == 0 {
		return nil
	}
	w := Warning{Message: "policies not checked: the plan has no text for them, since they are computed from values known only after apply " +
		"(jsonencode of an ARN, for instance); scan the Terraform source, where they are checked with those values as placeholders",
		Count: len(addrs), Resources: addrs}
	if len(w.Resources) > MaxNotCheckedAddresses {
		w.Resources = w.Resources[:MaxNotCheckedAddresses]
	}
	return []Warning{w}
}

// unknownInlinePolicy says whether a role has an inline_policy block whose
// policy is unknown until apply. The attribute as a whole is computed, and
// unknown in a plan when the configuration has no such block: that one
// holds no policy and is not warned of.
func unknownInlinePolicy(n *node) bool {
	if n.typ != "aws_iam_role" {
		return false
	}
	for _, p := range listOf(n.attrs["inline_policy"]) {
		if isUnknown(mapOf(p)["policy"]) {
			return true
		}
	}
	return false
}
