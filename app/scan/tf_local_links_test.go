package scan

import (
	"strings"
	"testing"
)

// TestPlanLinksThroughLocals: a plan's configuration has no locals, so an
// access block and an ACL naming their bucket by a local
// (bucket = local.bucket_id), unknown until apply, were read apart from
// it: the ACL was reported as a public bucket of its own although the
// access block ignores public ACLs (a false positive the source does not
// give). Such a value names a resource the plan creates, and the one of
// the module instance that the attribute can name is taken; with two,
// nothing is guessed.
func TestPlanLinksThroughLocals(t *testing.T) {
	bucket := func(name string) string {
		return `{"address":"aws_s3_bucket.` + name + `","mode":"managed","type":"aws_s3_bucket","name":"` + name + `","values":{"bucket":"acme-` + name + `"}}`
	}
	plan := func(buckets ...string) string {
		var res, changes []string
		for _, b := range buckets {
			res = append(res, bucket(b))
			changes = append(changes, `{"address":"aws_s3_bucket.`+b+`","mode":"managed","type":"aws_s3_bucket","name":"`+b+`","change":{"actions":["create"],"after":{},"after_unknown":{"id":true}}}`)
		}
		return `{"format_version":"1.2","terraform_version":"1.9.8",
"planned_values":{"root_module":{"resources":[` + strings.Join(res, ",") + `,
  {"address":"aws_s3_bucket_public_access_block.b","mode":"managed","type":"aws_s3_bucket_public_access_block","name":"b",
   "values":{"block_public_acls":true,"block_public_policy":true,"ignore_public_acls":true,"restrict_public_buckets":true}},
  {"address":"aws_s3_bucket_acl.b","mode":"managed","type":"aws_s3_bucket_acl","name":"b","values":{"acl":"public-read"}}]}},
"resource_changes":[` + strings.Join(changes, ",") + `,
  {"address":"aws_s3_bucket_public_access_block.b","mode":"managed","type":"aws_s3_bucket_public_access_block","name":"b","change":{"actions":["create"],"after":{},"after_unknown":{"id":true,"bucket":true}}},
  {"address":"aws_s3_bucket_acl.b","mode":"managed","type":"aws_s3_bucket_acl","name":"b","change":{"actions":["create"],"after":{},"after_unknown":{"id":true,"bucket":true}}}],
"configuration":{"root_module":{"resources":[
  {"address":"aws_s3_bucket_public_access_block.b","mode":"managed","type":"aws_s3_bucket_public_access_block","name":"b","expressions":{"bucket":{"references":["local.bucket_id"]}}},
  {"address":"aws_s3_bucket_acl.b","mode":"managed","type":"aws_s3_bucket_acl","name":"b","expressions":{"bucket":{"references":["local.bucket_id"]}}}]}}}`
	}
	if res := mustScan(t, plan("b")); len(res.Findings) != 0 {
		t.Errorf("one bucket: findings %v: the access block ignores the public ACL", summarize(res.Findings))
	}
	res := mustScan(t, plan("a", "b"))
	if len(res.Findings) != 1 || res.Findings[0].Resource.Name != "aws_s3_bucket_acl.b" {
		t.Errorf("two buckets: findings %v: want the ACL on its own", summarize(res.Findings))
	}
}
