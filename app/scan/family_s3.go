package scan

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// S3 buckets: whether a bucket is public comes from its ACL (inline, or an
// aws_s3_bucket_acl, which wins over the inline one as it does in AWS) and
// its bucket policy, each outweighed by a public access block: ignoring or
// blocking public ACLs neutralizes a public ACL, restricting or blocking
// public policies neutralizes a public policy.
//
// An ACL is public when it is a public canned ACL or grants READ or
// FULL_CONTROL to AllUsers or to AuthenticatedUsers: the latter is any
// holder of any AWS account, not the users of the bucket's account, so
// anyone can read after signing up (S3 itself, Trusted Advisor, tfsec
// and Checkov count it as public), and the finding says which of the two
// it is. A policy is public when an Allow statement grants anyone
// (Principal "*", or NotPrincipal) an action that downloads or lists
// objects, without a Condition that limits it to known callers (a fixed
// source VPC, endpoint, IP range, account or organization: restricting).
//
// Encryption: since January 2023 S3 encrypts every new object with
// S3-managed keys (SSE-S3) and this cannot be turned off, so a bucket
// without an encryption setting is encrypted, and S3_UNENCRYPTED never
// fires for Terraform or CloudFormation input. (Whether a bucket should use
// KMS keys instead is a policy choice the twelve rules do not make.)

// The ACL grantees that make a bucket public: everyone, and everyone
// with an AWS account (of any account).
const (
	allUsers           = "http://acs.amazonaws.com/groups/global/AllUsers"
	authenticatedUsers = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers"
)

// anyAWSAccount is who can read a bucket that AuthenticatedUsers can:
// the finding's words for it (flag.audience).
const anyAWSAccount = "anyone with an AWS account (any account, not only yours: creating one is free)"

type aclState struct {
	public bool
	why    string
	// audience is who can read, when not anyone on the internet: the
	// AuthenticatedUsers group.
	audience string
	path     string
	via      *Linked
}

type blockState struct {
	acls, policies bool   // neutralized
	unknown        string // an access block whose value is unknown until apply
}

// s3State is what a bucket's own settings and its linked resources say.
type s3State struct {
	acl, pol aclState
	block    blockState
}

func (b *builder) s3(r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any) {
	var st s3State
	st.read(n, attrs, nil) // the bucket's own settings
	for _, c := range linked {
		st.read(c, attrsOf(c), linkedOf(c))
	}
	src := st.acl
	neutral := st.block.acls
	if !st.acl.public || st.block.acls {
		src, neutral = st.pol, st.block.policies
	}
	if !src.public || neutral {
		return
	}
	why := src.why
	if st.block.unknown != "" {
		why += "; " + st.block.unknown
	}
	r.publicRead = flag{set: true, on: true, offset: b.next(), why: why, path: src.path, via: src.via, audience: src.audience}
}

// read takes the settings of n, the bucket itself (via nil) or a resource
// linked to it (via names it).
func (st *s3State) read(n *node, attrs map[string]any, via *Linked) {
	switch n.typ {
	case "aws_s3_bucket":
		readACL(&st.acl, n, attrs, "acl", via)
		readPolicy(&st.pol, n, attrs, "policy", via)
	case "AWS::S3::Bucket":
		readACL(&st.acl, n, attrs, "AccessControl", via)
		if pab := mapOf(attrs["PublicAccessBlockConfiguration"]); pab != nil {
			readBlock(&st.block, n, pab, "BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets")
		}
	case "aws_s3_bucket_acl":
		st.acl = aclState{} // it wins over the bucket's inline acl, as in AWS
		readACL(&st.acl, n, attrs, "acl", via)
	case "aws_s3_bucket_policy":
		readPolicy(&st.pol, n, attrs, "policy", via)
	case "AWS::S3::BucketPolicy":
		readPolicy(&st.pol, n, attrs, "PolicyDocument", via)
	case "aws_s3_bucket_public_access_block", "aws_s3_account_public_access_block":
		readBlock(&st.block, n, attrs, "block_public_acls", "ignore_public_acls", "block_public_policy", "restrict_public_buckets")
	}
}

// linkAccountBlocks links each aws_s3_account_public_access_block to every
// bucket of the document: S3 applies the account's settings to all its
// buckets, the stricter of the two winning, as readBlock's "any setting
// true" does. A document is taken to be one account (a plan or state of
// several providers' accounts is rare). Without a bucket the block is
// checked on its own, and finds nothing.
func linkAccountBlocks(nodes []*node, children map[*node][]*node, attached map[*node]bool) {
	var blocks []*node
	for _, n := range nodes {
		if n.typ == "aws_s3_account_public_access_block" && n.skip == "" {
			blocks = append(blocks, n)
		}
	}
	if len(blocks) == 0 {
		return
	}
	linked := false
	for _, n := range nodes {
		if canConfigure(blocks[0].typ, n.typ) && n.typ != blocks[0].typ && n.skip == "" {
			children[n] = append(children[n], blocks...)
			linked = true
		}
	}
	for _, b := range blocks {
		attached[b] = linked
	}
}

// readACL reads a canned ACL (acl = "public-read", AccessControl:
// PublicRead) and the grants of an ACL: the access_control_policy of an
// aws_s3_bucket_acl, and the grant blocks of an aws_s3_bucket (the legacy
// inline grants, which in a state also record the bucket's real ACL as
// read from AWS). A grant of READ or FULL_CONTROL to AllUsers is public.
func readACL(s *aclState, n *node, attrs map[string]any, key string, via *Linked) {
	if name, ok := attrs[key].(string); ok {
		switch strings.ToLower(name) {
		case "public-read", "public-read-write", "publicread", "publicreadwrite":
			*s = aclState{public: true, why: key + " is " + strconv.Quote(name), path: n.base + "." + key, via: via}
			return
		case "authenticated-read", "authenticatedread":
			*s = aclState{public: true, why: key + " is " + strconv.Quote(name) + ", which grants READ to AuthenticatedUsers",
				path: n.base + "." + key, via: via, audience: anyAWSAccount}
			return
		}
	}
	granted := func(perm, who, path string) {
		*s = aclState{public: true, via: via, why: "the ACL grants " + perm + " to " + who, path: path}
		if who == "AuthenticatedUsers" {
			s.audience = anyAWSAccount
		}
	}
	for i, p := range listOf(attrs["access_control_policy"]) {
		for j, g := range listOf(mapOf(p)["grant"]) {
			gm := mapOf(g)
			for _, grantee := range listOf(gm["grantee"]) {
				if perm, who, ok := publicGrant(mapOf(grantee)["uri"], gm["permission"]); ok {
					granted(perm, who, n.base+".access_control_policy["+strconv.Itoa(i)+"].grant["+strconv.Itoa(j)+"]")
					return
				}
			}
		}
	}
	for j, g := range listOf(attrs["grant"]) {
		gm := mapOf(g)
		for _, p := range listOf(gm["permissions"]) {
			if perm, who, ok := publicGrant(gm["uri"], p); ok {
				granted(perm, who, n.base+".grant["+strconv.Itoa(j)+"]")
				return
			}
		}
	}
}

// publicGrant says whether a grant of perm to uri lets anyone read, and
// returns the permission and the grantee's name: READ lists the bucket,
// FULL_CONTROL includes READ.
func publicGrant(uri, perm any) (p, who string, ok bool) {
	p, _ = perm.(string)
	switch uri {
	case allUsers:
		who = "AllUsers"
	case authenticatedUsers:
		who = "AuthenticatedUsers"
	default:
		return "", "", false
	}
	return p, who, p == "READ" || p == "FULL_CONTROL"
}

// readBlock reads a public access block: any of its two settings for ACLs
// (or for policies) set to true neutralizes them.
func readBlock(s *blockState, n *node, attrs map[string]any, blockACLs, ignoreACLs, blockPolicy, restrict string) {
	for _, k := range []struct {
		key string
		dst *bool
	}{{blockACLs, &s.acls}, {ignoreACLs, &s.acls}, {blockPolicy, &s.policies}, {restrict, &s.policies}} {
		v, ok := attr(attrs, k.key)
		if !ok {
			continue
		}
		if isUnknown(v) {
			s.unknown = n.addr + "." + k.key + " is unknown until apply"
			continue
		}
		if on, _ := boolOf(v); on {
			*k.dst = true
		}
	}
}

// readPolicy finds a statement that lets anyone read: Allow, to anyone
// (anyoneGrantee), a read action (readGrant), and no Condition that
// limits who can (restricting).
func readPolicy(s *aclState, n *node, attrs map[string]any, key string, via *Linked) {
	doc, ok := policyDocument(attrs[key], n.base+"."+key)
	if !ok || s.public {
		return
	}
	for j, st := range listOf(doc["Statement"]) {
		sm := mapOf(st)
		if sm == nil || sm["Effect"] != "Allow" || restricting(sm["Condition"]) {
			continue
		}
		who, anyone := anyoneGrantee(sm)
		if !anyone {
			continue
		}
		if what, reads := readGrant(sm); reads {
			why := "the bucket policy allows " + what + " to " + who
			if sm["Condition"] != nil {
				why += ", under a Condition that does not limit who"
			}
			*s = aclState{public: true, via: via, why: why,
				path: n.base + "." + key + ".Statement[" + strconv.Itoa(j) + "]"}
			return
		}
	}
}

// restrictingKeys are the condition keys that, compared with fixed
// values, limit a statement to known callers: S3's own test of whether a
// policy is public ("The meaning of public" in the S3 user guide), lower
// case (IAM's keys are case-insensitive).
var restrictingKeys = map[string]bool{
	"aws:sourceip": true, "aws:sourcearn": true, "aws:sourcevpc": true, "aws:sourcevpce": true,
	"aws:sourceowner": true, "aws:sourceaccount": true, "aws:userid": true,
	"aws:principalorgid": true, "aws:principalaccount": true, "aws:principalarn": true,
	"s3:dataaccesspointarn": true, "s3:dataaccesspointaccount": true,
	"s3:x-amz-server-side-encryption-aws-kms-key-id": true,
}

// restricting says whether a statement's Condition limits it to known
// callers, as S3 decides whether a policy is public: some key of
// restrictingKeys compared, by a positive operator (StringEquals,
// StringLike, ArnEquals, ArnLike, IpAddress; not a negated one, nor
// IfExists or ForAllValues, which hold when the request lacks the key, as
// an anonymous one does), with fixed values only: no wildcard, no policy
// variable, and for aws:SourceIp no range of prefix length 0. Conditions
// on other keys (aws:SecureTransport, aws:Referer, which anyone can set)
// limit nothing. A value unknown until deployment (a template parameter)
// is taken as fixed.
func restricting(cond any) bool {
	for op, block := range mapOf(cond) {
		o := strings.ToLower(op)
		if strings.HasSuffix(o, "ifexists") || strings.HasPrefix(o, "forallvalues:") {
			continue
		}
		o = strings.TrimPrefix(o, "foranyvalue:")
		switch o {
		case "stringequals", "stringequalsignorecase", "stringlike", "arnequals", "arnlike", "ipaddress":
		default:
			continue
		}
		for k, v := range mapOf(block) {
			key := strings.ToLower(k)
			if restrictingKeys[key] && fixedValues(v, key == "aws:sourceip") {
				return true
			}
		}
	}
	return false
}

// fixedValues says whether a condition's values are all fixed.
func fixedValues(v any, cidrs bool) bool {
	values := listOf(v)
	if len(values) == 0 {
		return false
	}
	for _, x := range values {
		if isUnknown(x) {
			continue
		}
		s, ok := x.(string)
		if !ok || s == "" || strings.ContainsAny(s, "*?") || strings.Contains(s, "${") {
			return false
		}
		if cidrs {
			if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil && p.Bits() == 0 {
				return false
			}
		}
	}
	return true
}

// anyoneGrantee says whether a statement grants to anyone, and in words
// to whom: Principal "*" (or AWS "*"), or a NotPrincipal, which grants to
// every principal but the ones it names, anonymous users included.
func anyoneGrantee(sm map[string]any) (string, bool) {
	if anyonePrincipal(sm["Principal"]) {
		return `principal "*"`, true
	}
	if np, ok := attr(sm, "NotPrincipal"); ok && !anyonePrincipal(np) {
		return "every principal but those in NotPrincipal", true
	}
	return "", false
}

func anyonePrincipal(p any) bool {
	switch x := p.(type) {
	case string:
		return x == "*"
	case map[string]any:
		for _, v := range listOf(x["AWS"]) {
			if v == "*" {
				return true
			}
		}
	}
	return false
}

// readActions are the actions that download a bucket's objects (any
// version) or list them: what "publicly readable" means.
var readActions = [...]string{"s3:getobject", "s3:getobjectversion", "s3:listbucket", "s3:listbucketversions"}

// readGrant says whether a statement allows a read action, and in words
// which: an Action pattern that matches one (s3:GetObject, s3:Get*, s3:*,
// *), or a NotAction that leaves one out (it allows every action but the
// ones it lists).
func readGrant(sm map[string]any) (string, bool) {
	for _, a := range listOf(sm["Action"]) {
		if act, ok := a.(string); ok && coversRead(act) {
			return strconv.Quote(act), true
		}
	}
	not, ok := attr(sm, "NotAction")
	if !ok {
		return "", false
	}
	var patterns, quoted []string
	for _, a := range listOf(not) {
		act, ok := a.(string)
		if !ok {
			return "", false // unknown: it may leave out no read action
		}
		patterns, quoted = append(patterns, strings.ToLower(act)), append(quoted, strconv.Quote(act))
	}
	for _, read := range readActions {
		if !slices.ContainsFunc(patterns, func(p string) bool { return matchAction(p, read) }) {
			return "every action but " + strings.Join(quoted, ", ") + " (NotAction)", true
		}
	}
	return "", false
}

// coversRead says whether an action pattern covers a read action.
func coversRead(pattern string) bool {
	p := strings.ToLower(pattern)
	for _, read := range readActions {
		if matchAction(p, read) {
			return true
		}
	}
	return false
}

// matchAction matches an IAM action pattern, lower case, against an action:
// "*" is any run of characters, "?" any one. It backtracks only to the last
// "*", so it is linear in practice.
func matchAction(pattern, action string) bool {
	p, a := 0, 0
	star, mark := -1, 0
	for a < len(action) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == action[a]):
			p++
			a++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, a
			p++
		case star >= 0:
			mark++
			p, a = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// policyDocument reads a policy document given as an object or as a JSON
// string (jsonencode in Terraform, a string in a template), found at
// path. A string giving a key twice is refused as the document is
// (dupkeys.go): IAM and the scanner could read different copies of an
// Effect or an Action, and a policy could hide what it allows.
func policyDocument(v any, path string) (map[string]any, bool) {
	if p, ok := v.(partialText); ok {
		// A template's JSON text with parts unknown until deployment:
		// each string value holding one stands as that placeholder, as
		// a value unknown until apply does in Terraform source, so that
		// "${Service}:*" is no wildcard of a service named so.
		doc, ok := policyDocument(p.text, path)
		if !ok {
			return nil, false
		}
		placeholdPartial(doc)
		return doc, true
	}
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case string:
		r := &reader{data: []byte(x), maxDepth: MaxDocumentDepth}
		var m map[string]any
		var err error
		func() {
			defer catchAbort(&err)
			m, _ = r.anyValue().(map[string]any)
			if r.ws(); r.pos < len(r.data) {
				m = nil // text after the document: not JSON
			}
		}()
		if err != nil || m == nil {
			return nil, false
		}
		if len(r.dups.problems) > 0 {
			d := r.dups.problems[0]
			panic(abort{&ValidationError{Problems: []Problem{{Path: path, Message: "the policy document's " + d.Path + " " + d.Message}},
				Omitted: len(r.dups.problems) - 1 + r.dups.more}})
		}
		if strings.Contains(x, knownAfterApply) {
			placeholdPartial(m) // a template rendered with unknown parts (hcl_policy_text.go)
		}
		return m, true
	}
	return nil, false
}

// placeholdPartial replaces in place each string of v that holds a
// placeholder (knownAfterDeployment, knownAfterApply) by the placeholder
// alone.
func placeholdPartial(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = placeheld(e)
		}
	case []any:
		for i, e := range x {
			x[i] = placeheld(e)
		}
	}
}

// placeheld is v with its placeholders placed (placeholdPartial): a string
// that holds one is that placeholder alone.
func placeheld(v any) any {
	s, ok := v.(string)
	switch {
	case !ok:
		placeholdPartial(v)
	case strings.Contains(s, knownAfterDeployment):
		return knownAfterDeployment
	case strings.Contains(s, knownAfterApply):
		return knownAfterApply
	}
	return v
}
