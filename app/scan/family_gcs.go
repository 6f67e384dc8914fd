package scan

import (
	"strconv"
	"strings"
)

// Google Cloud Storage buckets. A bucket is publicly readable when its IAM
// (google_storage_bucket_iam_member, _binding, _policy) grants allUsers or
// allAuthenticatedUsers a role that reads or lists objects (gcsReadRoles),
// or its ACL (google_storage_bucket_acl's predefined_acl, default_acl or
// role_entity, google_storage_bucket_access_control, and the ACL of new
// objects: google_storage_default_object_acl, or one entry of it,
// google_storage_default_object_access_control) gives either
// of them any role: a bucket's READER already lists its objects. The bucket's
// public_access_prevention = "enforced" outweighs both, as an S3 public
// access block does; it defaults to "inherited" (the organization policy,
// which the document does not show), so a grant the document writes is
// reported unless the document enforces prevention itself. ACLs do not
// apply to a bucket with uniform_bucket_level_access = true (the
// provider's default is false). allAuthenticatedUsers is anyone with a
// Google account, so it is public, as S3's AuthenticatedUsers is.
//
// The finding lands on the bucket, naming the IAM or ACL resource that
// grants it; one whose bucket is not in the document is checked on its
// own. Cloud Storage always encrypts at rest: S3_UNENCRYPTED never fires.
// A bucket IAM resource granting roles/owner or roles/editor is read as
// project IAM is (family_gcp_iam.go).

var gcsLinked = family{kind: typeS3Bucket, link: []string{"bucket"}, read: (*builder).gcsBucket,
	linkValue: func(s string) string { return strings.TrimPrefix(s, "b/") }}

// gcsReadRoles are the predefined roles that read or list a bucket's
// objects (storage.objects.get or storage.objects.list), and the basic
// roles, which include them.
var gcsReadRoles = map[string]bool{
	"roles/storage.objectViewer": true, "roles/storage.objectUser": true, "roles/storage.objectAdmin": true,
	"roles/storage.admin": true, "roles/storage.legacyObjectReader": true, "roles/storage.legacyObjectOwner": true,
	"roles/storage.legacyBucketReader": true, "roles/storage.legacyBucketWriter": true,
	"roles/storage.legacyBucketOwner": true, "roles/storage.folderAdmin": true,
	"roles/viewer": true, "roles/editor": true, "roles/owner": true,
}

// gcsPublic are the members that make a grant public, and who they are.
var gcsPublic = map[string]string{
	"allUsers":              "",
	"allAuthenticatedUsers": "anyone with a Google account (any account, not only your organization's: creating one is free)",
}

// gcsState is what a bucket and its linked resources say.
type gcsState struct {
	grant     aclState // the first public IAM grant
	acl       aclState // the first public ACL entry
	prevented bool     // public_access_prevention = "enforced"
	uniform   bool     // uniform_bucket_level_access = true: ACLs do not apply
	// unknown and aclUnknown say that a setting that would outweigh a
	// grant, or an ACL, is unknown until apply: as with an S3 access
	// block, nothing is taken as outweighed, and the finding says so.
	unknown, aclUnknown string
	roleGrants          []roleGrant
}

func (b *builder) gcsBucket(r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any) {
	var st gcsState
	st.read(b, n, attrs, nil)
	for _, c := range linked {
		st.read(b, c, attrsOf(c), linkedOf(c))
	}
	r.roles = st.roleGrants
	src, unknown := st.grant, st.unknown
	if !src.public && !st.uniform {
		src, unknown = st.acl, addNote(st.unknown, st.aclUnknown)
	}
	if !src.public || st.prevented {
		return
	}
	why := src.why
	if unknown != "" {
		why += "; " + unknown
	}
	r.publicRead = flag{set: true, on: true, offset: b.next(), why: why, path: src.path, via: src.via, audience: src.audience}
}

func (st *gcsState) read(b *builder, n *node, attrs map[string]any, via *Linked) {
	switch n.typ {
	case "google_storage_bucket":
		switch v := attrs["public_access_prevention"]; {
		case isUnknown(v):
			st.unknown = n.addr + ".public_access_prevention is unknown until apply"
		case v == "enforced":
			st.prevented = true
		}
		if v := attrs["uniform_bucket_level_access"]; isUnknown(v) {
			st.aclUnknown = n.addr + ".uniform_bucket_level_access is unknown until apply"
		} else {
			st.uniform, _ = boolOf(v)
		}
	case "google_storage_bucket_iam_member", "google_storage_bucket_iam_binding", "google_storage_bucket_iam_policy":
		for _, g := range gcpBindings(b, n, attrs, via, "bucket "+gcsBucketName(attrs)) {
			st.roleGrants = append(st.roleGrants, g)
			if st.grant.public || !gcsReadRoles[g.action] {
				continue
			}
			for j, m := range g.members {
				if who, ok := gcsPublic[m]; ok {
					st.grant = aclState{public: true, why: "IAM grants " + g.action + " to " + m, audience: who, path: memberPath(n, g, j), via: via}
					break
				}
			}
		}
	case "google_storage_bucket_acl":
		st.predefined(n, attrs, "predefined_acl", via)
		st.predefined(n, attrs, "default_acl", via) // the ACL of new objects
		st.roleEntities(n, attrs, via)
	case "google_storage_default_object_acl":
		st.roleEntities(n, attrs, via)
	case "google_storage_bucket_access_control", "google_storage_default_object_access_control":
		entity, _ := attrs["entity"].(string)
		role, _ := attrs["role"].(string)
		if who, ok := gcsPublic[entity]; ok && role != "" && !st.acl.public {
			st.acl = aclState{public: true, why: "the ACL gives " + role + " to " + entity, audience: who, path: n.base + ".entity", via: via}
		}
	}
}

// predefined reads a predefined ACL (of the bucket, or default_acl: of
// its new objects).
func (st *gcsState) predefined(n *node, attrs map[string]any, key string, via *Linked) {
	acl, ok := attrs[key].(string)
	if !ok || st.acl.public {
		return
	}
	why := key + " is " + strconv.Quote(acl)
	switch acl {
	case "publicRead", "publicReadWrite":
		st.acl = aclState{public: true, why: why, path: n.base + "." + key, via: via}
	case "authenticatedRead":
		st.acl = aclState{public: true, why: why, path: n.base + "." + key, via: via, audience: gcsPublic["allAuthenticatedUsers"]}
	}
}

// roleEntities reads an ACL's ROLE:entity pairs: any role of allUsers or
// allAuthenticatedUsers reads (a bucket's READER lists its objects, an
// object's READER downloads it).
func (st *gcsState) roleEntities(n *node, attrs map[string]any, via *Linked) {
	for i, e := range listOf(attrs["role_entity"]) {
		s, _ := e.(string)
		role, entity, _ := strings.Cut(s, ":")
		if who, ok := gcsPublic[entity]; ok && !st.acl.public {
			st.acl = aclState{public: true, why: "the ACL gives " + role + " to " + entity, audience: who,
				path: n.base + ".role_entity[" + strconv.Itoa(i) + "]", via: via}
		}
	}
}

// memberPath is where the j-th member of grant g, read from n, is
// written: the member that makes a grant public is what a person changes.
func memberPath(n *node, g roleGrant, j int) string {
	switch {
	case strings.HasSuffix(n.typ, "_iam_member"):
		return n.base + ".member"
	case strings.HasSuffix(n.typ, "_iam_binding"):
		return n.base + ".members[" + strconv.Itoa(j) + "]"
	}
	return g.path // a binding of policy_data
}

// gcsBucketName names a bucket IAM resource's bucket in messages.
func gcsBucketName(attrs map[string]any) string {
	if s, ok := attrs["bucket"].(string); ok {
		return strconv.Quote(strings.TrimPrefix(s, "b/"))
	}
	return "its bucket"
}
