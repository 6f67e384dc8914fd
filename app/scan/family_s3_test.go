package scan

import (
	"strconv"
	"strings"
	"testing"
)

// tfState wraps resources (tfRes) into a Terraform state document.
func tfState(resources ...string) []byte {
	return []byte(`{"format_version":"1.0","terraform_version":"1.9.5","values":{"root_module":{"resources":[` +
		strings.Join(resources, ",") + `]}}}`)
}

// tfRes is one managed resource of a state or of a plan's planned_values.
func tfRes(addr, values string) string {
	typ, name, _ := strings.Cut(addr, ".")
	return `{"address":` + strconv.Quote(addr) + `,"mode":"managed","type":"` + typ + `","name":` + strconv.Quote(name) +
		`,"provider_name":"registry.terraform.io/hashicorp/aws","schema_version":0,"values":` + values + `,"sensitive_values":{}}`
}

// bucketPolicy is an aws_s3_bucket's values with a policy of one statement.
func bucketPolicy(bucket, statement string) string {
	return `{"id":"` + bucket + `","bucket":"` + bucket + `","policy":` +
		strconv.Quote(`{"Version":"2012-10-17","Statement":[`+statement+`]}`) + `}`
}

// TestS3PublicGrants: a grant of READ or FULL_CONTROL to AllUsers is a
// public ACL, whether it is a bucket's own grant block (legacy inline, or
// the state's record of its real ACL) or an aws_s3_bucket_acl's
// access_control_policy; other grantees and permissions are not.
func TestS3PublicGrants(t *testing.T) {
	const owner = `{"id":"0123abc","permissions":["FULL_CONTROL"],"type":"CanonicalUser","uri":""}`
	grant := func(perm, uri string) string {
		return `{"id":"","permissions":["` + perm + `"],"type":"Group","uri":"` + uri + `"}`
	}
	acp := func(perm, uri string) string {
		return `{"id":"b,","bucket":"b","acl":null,"access_control_policy":[{"grant":[` +
			`{"grantee":[{"type":"CanonicalUser","id":"0123abc","uri":""}],"permission":"FULL_CONTROL"},` +
			`{"grantee":[{"type":"Group","uri":"` + uri + `","id":""}],"permission":"` + perm + `"}],"owner":[{"id":"0123abc"}]}]}`
	}
	tests := []struct {
		name      string
		resources []string
		want      []string
	}{{
		"the probe's state: a bucket's grant block", []string{tfRes("aws_s3_bucket.legacy",
			`{"id":"acme-legacy","bucket":"acme-legacy","acl":null,"grant":[`+grant("READ", allUsers)+`,`+owner+`],"policy":""}`)},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.legacy @ aws_s3_bucket.legacy.grant[0]"},
	}, {
		"FULL_CONTROL includes READ, and a canned private acl does not hide the grant", []string{tfRes("aws_s3_bucket.b",
			`{"id":"b","bucket":"b","acl":"private","grant":[`+owner+`,`+grant("FULL_CONTROL", allUsers)+`]}`)},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.grant[1]"},
	}, {
		"aws_s3_bucket_acl's access_control_policy", []string{
			tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b"}`),
			tfRes("aws_s3_bucket_acl.b", acp("READ", allUsers))},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket_acl.b.access_control_policy[0].grant[1] via aws_s3_bucket_acl.b"},
	}, {
		"WRITE is not read access", []string{tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","grant":[`+grant("WRITE", allUsers)+`]}`)},
		nil,
	}, {
		"AuthenticatedUsers is any AWS account holder: public", []string{
			tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","grant":[`+grant("READ", authenticatedUsers)+`]}`)},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.grant[0]"},
	}, {
		"AuthenticatedUsers in an aws_s3_bucket_acl", []string{
			tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b"}`),
			tfRes("aws_s3_bucket_acl.b", acp("FULL_CONTROL", authenticatedUsers))},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket_acl.b.access_control_policy[0].grant[1] via aws_s3_bucket_acl.b"},
	}, {
		"the canned authenticated-read", []string{tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","acl":"authenticated-read"}`)},
		[]string{"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.acl"},
	}, {
		"the log delivery group is not the public", []string{
			tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b"}`),
			tfRes("aws_s3_bucket_acl.b", acp("READ", "http://acs.amazonaws.com/groups/s3/LogDelivery"))},
		nil,
	}, {
		"an access block ignoring public ACLs outweighs a public grant", []string{
			tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","grant":[`+grant("READ", allUsers)+`]}`),
			tfRes("aws_s3_bucket_public_access_block.b", `{"id":"b","bucket":"b","block_public_acls":false,"ignore_public_acls":true}`)},
		nil,
	}}
	for _, tt := range tests {
		res := scanAt(t, tfState(tt.resources...))
		equalStrings(t, tt.name, findingLines(res.Findings), tt.want)
	}
}

// TestS3PublicPolicies: a bucket policy is public when an Allow statement
// without a Condition grants anyone (Principal "*", or a NotPrincipal) an
// action that reads objects or lists them, however the action is written.
func TestS3PublicPolicies(t *testing.T) {
	const at = "S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b @ aws_s3_bucket.b.policy.Statement[0]: the bucket policy allows "
	allow := func(principal, action string) string {
		return `{"Effect":"Allow",` + principal + `,` + action + `,"Resource":"arn:aws:s3:::b/*"}`
	}
	cond := func(c string) string {
		return `{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*","Condition":` + c + `}`
	}
	tests := []struct {
		statement string
		want      string // the finding's evidence, or "" for none
	}{
		// The probe's statements.
		{allow(`"NotPrincipal":{"AWS":"arn:aws:iam::1:root"}`, `"Action":"s3:GetObject"`),
			`"s3:GetObject" to every principal but those in NotPrincipal`},
		{allow(`"Principal":"*"`, `"Action":"s3:GetObjectVersion"`), `"s3:GetObjectVersion" to principal "*"`},
		// Every way of writing a read action, case-insensitive as IAM is.
		{allow(`"Principal":{"AWS":"*"}`, `"Action":["s3:PutObject","s3:Get*"]`), `"s3:Get*" to principal "*"`},
		{allow(`"Principal":{"AWS":["arn:aws:iam::1:root","*"]}`, `"Action":"S3:*"`), `"S3:*" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"*"`), `"*" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:ListBucket"`), `"s3:ListBucket" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:List*"`), `"s3:List*" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:ListBucketVersions"`), `"s3:ListBucketVersions" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:GetObject*"`), `"s3:GetObject*" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:*Object"`), `"s3:*Object" to principal "*"`},
		{allow(`"Principal":"*"`, `"Action":"s3:?etObject"`), `"s3:?etObject" to principal "*"`},
		// NotAction allows every action but the listed ones.
		{allow(`"Principal":"*"`, `"NotAction":["s3:DeleteObject","s3:PutObject"]`),
			`every action but "s3:DeleteObject", "s3:PutObject" (NotAction) to principal "*"`},
		// Not public: no read action, a named principal, a condition, Deny,
		// a NotPrincipal of everyone, a NotAction of every read action.
		{allow(`"Principal":"*"`, `"Action":["s3:PutObject","s3:GetObjectAcl","s3:GetBucketLocation"]`), ""},
		{allow(`"Principal":{"AWS":"arn:aws:iam::1:root"}`, `"Action":"s3:GetObject"`), ""},
		{`{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*","Condition":{"StringEquals":{"aws:SourceVpce":"vpce-1"}}}`, ""},
		{`{"Effect":"Deny","NotPrincipal":{"AWS":"arn:aws:iam::1:root"},"Action":"s3:*","Resource":"*"}`, ""},
		{allow(`"NotPrincipal":"*"`, `"Action":"s3:GetObject"`), ""},
		{allow(`"Principal":"*"`, `"NotAction":["s3:Get*","s3:List*"]`), ""},
		// A Condition limits who only on the keys S3 itself counts, with
		// fixed values and a positive operator (they were all taken as
		// limiting: a policy that only requires TLS was private).
		{cond(`{"Bool":{"aws:SecureTransport":"true"}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"StringLike":{"aws:Referer":["https://acme.example/*"]}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"IpAddress":{"aws:SourceIp":["0.0.0.0/0"]}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"StringLike":{"aws:SourceVpce":"vpce-*"}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"StringNotEquals":{"aws:SourceVpce":"vpce-1"}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"StringEqualsIfExists":{"aws:SourceVpc":"vpc-1"}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"StringEquals":{"aws:PrincipalOrgID":"${aws:PrincipalTag/org}"}}`), `"s3:GetObject" to principal "*", under a Condition that does not limit who`},
		{cond(`{"IpAddress":{"aws:SourceIp":["203.0.113.0/24","198.51.100.7/32"]}}`), ""},
		{cond(`{"Bool":{"aws:SecureTransport":"true"},"StringEquals":{"AWS:SourceVpc":"vpc-1"}}`), ""},
		{cond(`{"StringEquals":{"aws:PrincipalOrgID":"o-abc123"}}`), ""},
		{cond(`{"ArnLike":{"aws:SourceArn":"arn:aws:cloudfront::1:distribution/E1"}}`), ""},
		{cond(`{"ForAnyValue:StringEquals":{"aws:SourceAccount":["111122223333"]}}`), ""},
	}
	for _, tt := range tests {
		res := scanAt(t, tfState(tfRes("aws_s3_bucket.b", bucketPolicy("b", tt.statement))))
		var want []string
		if tt.want != "" {
			want = []string{at + tt.want}
		}
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Rule+" "+f.Resource.Type+" "+f.Resource.Name+" @ "+f.Path+": "+
				strings.TrimSuffix(strings.TrimPrefix(f.Message, `bucket "aws_s3_bucket.b" allows public read (`),
					"): anyone on the internet can list and download its objects"))
		}
		equalStrings(t, tt.statement, got, want)
	}
}

// TestS3ProbeStateGrant: the probe's state, whose two buckets are public
// through a grant block and a NotPrincipal statement.
func TestS3ProbeStateGrant(t *testing.T) {
	res := scanAt(t, readTestdata(t, "state_grant.json"))
	equalStrings(t, "findings", findingLines(res.Findings), []string{
		"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.legacy @ aws_s3_bucket.legacy.grant[0]",
		"S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.fc @ aws_s3_bucket.fc.policy.Statement[0]",
	})
}

func TestMatchAction(t *testing.T) {
	for _, c := range []struct {
		pattern, action string
		want            bool
	}{
		{"*", "s3:getobject", true},
		{"s3:*", "s3:getobject", true},
		{"s3:get*", "s3:getobject", true},
		{"s3:*object*", "s3:getobjectversion", true},
		{"s3:g?tobject", "s3:getobject", true},
		{"s3:getobject", "s3:getobjectversion", false},
		{"s3:getobject?", "s3:getobject", false},
		{"s3:put*", "s3:getobject", false},
		{"ec2:*", "s3:getobject", false},
		{"", "s3:getobject", false},
	} {
		if got := matchAction(c.pattern, c.action); got != c.want {
			t.Errorf("matchAction(%q, %q) = %v", c.pattern, c.action, got)
		}
	}
}

// TestS3AccountPublicAccessBlock: an account's public access block applies
// to every bucket of the document, setting by setting as a bucket's own
// does, and is no longer listed as not checked.
func TestS3AccountPublicAccessBlock(t *testing.T) {
	const acct = "aws_s3_account_public_access_block.acct"
	buckets := []string{
		tfRes("aws_s3_bucket.acl", `{"id":"acl","bucket":"acl","acl":"public-read"}`),
		tfRes("aws_s3_bucket.pol", bucketPolicy("pol", `{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*"}`)),
	}
	const (
		aclFinding = "S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.acl @ aws_s3_bucket.acl.acl"
		polFinding = "S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.pol @ aws_s3_bucket.pol.policy.Statement[0]"
	)
	tests := []struct {
		name, block string
		want        []string
	}{
		{"all four settings", `{"account_id":"1","block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}`, nil},
		{"ACL settings only", `{"block_public_acls":false,"ignore_public_acls":true,"block_public_policy":false,"restrict_public_buckets":false}`, []string{polFinding}},
		{"policy settings only", `{"block_public_acls":false,"ignore_public_acls":false,"block_public_policy":false,"restrict_public_buckets":true}`, []string{aclFinding}},
		{"all off", `{"block_public_acls":false,"ignore_public_acls":false,"block_public_policy":false,"restrict_public_buckets":false}`, []string{aclFinding, polFinding}},
	}
	for _, tt := range tests {
		res := scanAt(t, tfState(append([]string{tfRes(acct, tt.block)}, buckets...)...))
		equalStrings(t, tt.name, findingLines(res.Findings), tt.want)
		equalStrings(t, tt.name+": not checked", notCheckedLines(res.NotChecked), []string{})
	}

	// Alone, it is checked and finds nothing.
	res := scanAt(t, tfState(tfRes(acct, `{"block_public_acls":false}`)))
	if len(res.Findings) != 0 || len(res.NotChecked) != 0 {
		t.Errorf("alone: %v %v", findingLines(res.Findings), notCheckedLines(res.NotChecked))
	}

	// Unknown until apply: the finding stays, and says so.
	plan := `{"format_version":"1.2","planned_values":{"root_module":{"resources":[` + tfRes(acct, `{}`) + `,` + buckets[0] + `]}},
		"resource_changes":[{"address":"` + acct + `","mode":"managed","change":{"after_unknown":{"block_public_acls":true}}}]}`
	res = scanAt(t, []byte(plan))
	if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, acct+".block_public_acls is unknown until apply") {
		t.Errorf("unknown account block: %v", summarize(res.Findings))
	}

	// The probe's plan: every bucket, in a module or not, is covered.
	res = scanAt(t, readTestdata(t, "plan2_crossmodule.json"))
	equalStrings(t, "plan2_crossmodule.json", findingLines(res.Findings), []string{})
}

// TestS3AuthenticatedUsersMessage: a bucket readable by AuthenticatedUsers
// is reported (any AWS account holder can read it, as S3, Trusted Advisor,
// tfsec and Checkov count it), and the finding says who that is, not
// "anyone on the internet"; in CloudFormation too (AuthenticatedRead).
func TestS3AuthenticatedUsersMessage(t *testing.T) {
	for _, c := range []struct {
		name  string
		input []byte
		why   string
	}{
		{"grant", tfState(tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","grant":[{"permissions":["READ"],"type":"Group","uri":"`+authenticatedUsers+`"}]}`)),
			`the ACL grants READ to AuthenticatedUsers`},
		{"canned", []byte("Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: AuthenticatedRead\n"),
			`AccessControl is "AuthenticatedRead", which grants READ to AuthenticatedUsers`},
	} {
		res := scanAt(t, c.input)
		if len(res.Findings) != 1 {
			t.Fatalf("%s: %v", c.name, findingLines(res.Findings))
		}
		msg := res.Findings[0].Message
		if !strings.Contains(msg, "("+c.why+"): anyone with an AWS account (any account, not only yours") {
			t.Errorf("%s: message %q", c.name, msg)
		}
	}
	res := scanAt(t, tfState(tfRes("aws_s3_bucket.b", `{"id":"b","bucket":"b","acl":"public-read"}`)))
	if len(res.Findings) != 1 || !strings.HasSuffix(res.Findings[0].Message, "anyone on the internet can list and download its objects") {
		t.Errorf("public-read: %v", res.Findings)
	}
}
