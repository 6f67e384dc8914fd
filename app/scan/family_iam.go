package scan

import "strconv"

// IAM: the permission policies a resource carries. Trust policies
// (assume_role_policy, AssumeRolePolicyDocument) say who may assume a role,
// not what it may do, and are not read; Deny statements grant nothing. A
// document may be an object or a JSON string; one that is unknown until
// apply (jsonencode of a value from another resource) is not read.
// An Allow with NotAction or NotResource allows every action or resource
// but the ones listed, and is read as such. A SAM function or state
// machine (AWS::Serverless::*) carries its inline documents in Policies.

func (b *builder) iam(r *resource, n *node, attrs map[string]any) {
	switch n.typ {
	case "aws_iam_policy", "aws_iam_role_policy", "aws_iam_user_policy", "aws_iam_group_policy":
		b.document(r, attrs["policy"], n.base+".policy")
	case "aws_iam_role":
		for i, p := range listOf(attrs["inline_policy"]) {
			b.document(r, mapOf(p)["policy"], n.base+".inline_policy["+strconv.Itoa(i)+"].policy")
		}
		b.managed(r, attrs["managed_policy_arns"], n.base+".managed_policy_arns", false)
	case "aws_iam_role_policy_attachment", "aws_iam_user_policy_attachment", "aws_iam_group_policy_attachment", "aws_iam_policy_attachment":
		b.managed(r, attrs["policy_arn"], n.base+".policy_arn", false)
	case "aws_iam_role_policy_attachments_exclusive", "aws_iam_user_policy_attachments_exclusive", "aws_iam_group_policy_attachments_exclusive":
		b.managed(r, attrs["policy_arns"], n.base+".policy_arns", false)
	case "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy":
		b.document(r, attrs["PolicyDocument"], n.base+".PolicyDocument")
	case "AWS::IAM::Role", "AWS::IAM::User", "AWS::IAM::Group":
		for i, p := range listOf(attrs["Policies"]) {
			b.document(r, mapOf(p)["PolicyDocument"], n.base+".Policies["+strconv.Itoa(i)+"].PolicyDocument")
		}
		b.managed(r, attrs["ManagedPolicyArns"], n.base+".ManagedPolicyArns", false)
	case "AWS::Serverless::Function", "AWS::Serverless::StateMachine":
		// SAM's Policies: a policy document, a managed policy's name or
		// ARN, a policy template ({S3ReadPolicy: {...}}), or a list of
		// them. The documents (those with a Statement) are read, and the
		// managed policies as family_iam_managed.go says; the templates
		// are AWS's own, scoped policies.
		p := attrs["Policies"]
		_, isList := p.([]any)
		for i, e := range listOf(p) {
			at := n.base + ".Policies"
			if isList {
				at += "[" + strconv.Itoa(i) + "]"
			}
			if m := mapOf(e); m["Statement"] != nil {
				b.document(r, m, at)
			} else {
				b.managed(r, e, at, true)
			}
		}
	}
}

func (b *builder) document(r *resource, v any, path string) {
	doc, ok := policyDocument(v, path)
	if !ok {
		return
	}
	for j, st := range listOf(doc["Statement"]) {
		sm := mapOf(st)
		if sm == nil || sm["Effect"] != "Allow" {
			continue
		}
		sp := path + ".Statement[" + strconv.Itoa(j) + "]"
		r.statements = append(r.statements, statement{
			actions:    b.items(sm["Action"], sp+".Action"),
			targets:    b.items(sm["Resource"], sp+".Resource"),
			notActions: b.items(sm["NotAction"], sp+".NotAction"),
			notTargets: b.items(sm["NotResource"], sp+".NotResource"),
		})
	}
}

func (b *builder) items(v any, path string) []item {
	list := listOf(v)
	out := make([]item, 0, len(list))
	for k, x := range list {
		if s, ok := x.(string); ok {
			p := path
			if _, isList := v.([]any); isList {
				p += "[" + strconv.Itoa(k) + "]"
			}
			out = append(out, item{value: s, index: k, offset: b.next(), path: p})
		}
	}
	return out
}
