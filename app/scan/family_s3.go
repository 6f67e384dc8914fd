package scan

import (
	"encoding/json"
	"strconv"
	"strings"
)

// S3 buckets: whether a bucket is public comes from its ACL (inline, or an
// aws_s3_bucket_acl, which wins over the inline one as it does in AWS) and
// its bucket policy, each outweighed by a public access block: ignoring or
// blocking public ACLs neutralizes a public ACL, restricting or blocking
// public policies neutralizes a public policy.
//
// Encryption: since January 2023 S3 encrypts every new object with
// S3-managed keys (SSE-S3) and this cannot be turned off, so a bucket
// without an encryption setting is encrypted, and S3_UNENCRYPTED never
// fires for Terraform or CloudFormation input. (Whether a bucket should use
// KMS keys instead is a policy choice the twelve rules do not make.)

// allUsers is the ACL grantee "everyone".
const allUsers = "http://acs.amazonaws.com/groups/global/AllUsers"

type aclState struct {
	public bool
	why    string
	path   string
	via    *Linked
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
	r.publicRead = flag{set: true, on: true, offset: b.next(), why: why, path: src.path, via: src.via}
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
	case "aws_s3_bucket_public_access_block":
		readBlock(&st.block, n, attrs, "block_public_acls", "ignore_public_acls", "block_public_policy", "restrict_public_buckets")
	}
}

// readACL reads a canned ACL (acl = "public-read", AccessControl:
// PublicRead) or, in an aws_s3_bucket_acl, grants to AllUsers.
func readACL(s *aclState, n *node, attrs map[string]any, key string, via *Linked) {
	if v, ok := attr(attrs, key); ok {
		if name, ok := v.(string); ok {
			switch strings.ToLower(name) {
			case "public-read", "public-read-write", "publicread", "publicreadwrite":
				*s = aclState{public: true, why: key + " is " + strconv.Quote(name), path: n.base + "." + key, via: via}
			}
			return
		}
	}
	for i, p := range listOf(attrs["access_control_policy"]) {
		for j, g := range listOf(mapOf(p)["grant"]) {
			gm := mapOf(g)
			for _, who := range listOf(gm["grantee"]) {
				perm, _ := gm["permission"].(string)
				if uri, _ := mapOf(who)["uri"].(string); uri == allUsers && (perm == "READ" || perm == "FULL_CONTROL") {
					*s = aclState{public: true, via: via,
						why:  "the ACL grants " + perm + " to AllUsers",
						path: n.base + ".access_control_policy[" + strconv.Itoa(i) + "].grant[" + strconv.Itoa(j) + "]"}
					return
				}
			}
		}
	}
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

// readPolicy finds a statement that lets anyone read: Allow, principal
// "*" (or AWS "*"), a read action, and no Condition (a condition, such as a
// source VPC, is taken as restricting it).
func readPolicy(s *aclState, n *node, attrs map[string]any, key string, via *Linked) {
	doc, ok := policyDocument(attrs[key])
	if !ok || s.public {
		return
	}
	for j, st := range listOf(doc["Statement"]) {
		sm := mapOf(st)
		if sm == nil || sm["Effect"] != "Allow" || sm["Condition"] != nil || !anyonePrincipal(sm["Principal"]) {
			continue
		}
		for _, a := range listOf(sm["Action"]) {
			if act, ok := a.(string); ok && readAction(act) {
				*s = aclState{public: true, via: via,
					why:  "the bucket policy allows " + strconv.Quote(act) + " to principal \"*\"",
					path: n.base + "." + key + ".Statement[" + strconv.Itoa(j) + "]"}
				return
			}
		}
	}
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

func readAction(a string) bool {
	switch strings.ToLower(a) {
	case "*", "s3:*", "s3:get*", "s3:getobject", "s3:getobject*", "s3:listbucket", "s3:list*":
		return true
	}
	return false
}

// policyDocument reads a policy document given as an object or as a JSON
// string (jsonencode in Terraform, a string in a template).
func policyDocument(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(x), &m) == nil {
			return m, true
		}
	}
	return nil, false
}
