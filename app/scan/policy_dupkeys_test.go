package scan

import (
	"errors"
	"strconv"
	"testing"
)

// TestPolicyStringDuplicateKeys: a policy document given as a JSON string
// that gives a key twice is refused, as the document itself would be: read
// with encoding/json, the last copy won, so an Allow of * on * followed by
// a second "Effect": "Deny" passed as a Deny. A document without repeated
// keys, and a string that is not JSON, read as before.
func TestPolicyStringDuplicateKeys(t *testing.T) {
	policy := func(addr, doc string) []byte {
		return tfState(tfRes(addr, `{"policy":`+strconv.Quote(doc)+`}`))
	}
	const hidden = `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*","Effect":"Deny"}]}`
	tests := []struct {
		name  string
		input []byte
		path  string // of the problem; empty for a scan
		msg   string
		want  []string
	}{
		{"an Effect given twice", policy("aws_iam_policy.a", hidden), "aws_iam_policy.a.policy",
			"the policy document's Statement[0].Effect appears more than once (parsers disagree on which copy counts) (line 1, column 61)", nil},
		{"a bucket policy's Principal given twice", policy("aws_s3_bucket_policy.p",
			`{"Statement":[{"Effect":"Allow","Principal":"*","Principal":{"AWS":"arn:aws:iam::1:root"},"Action":"s3:GetObject","Resource":"*"}]}`),
			"aws_s3_bucket_policy.p.policy", "the policy document's Statement[0].Principal appears more than once (parsers disagree on which copy counts) (line 1, column 49)", nil},
		{"a CloudFormation policy string", []byte("Resources:\n  P:\n    Type: AWS::IAM::ManagedPolicy\n    Properties:\n      PolicyDocument: '" + hidden + "'\n"),
			"Resources.P.Properties.PolicyDocument", "the policy document's Statement[0].Effect appears more than once (parsers disagree on which copy counts) (line 1, column 61)", nil},
		{"no repeated key", policy("aws_iam_policy.a", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`), "", "",
			[]string{"IAM_FULL_ADMIN aws_iam_policy aws_iam_policy.a @ aws_iam_policy.a.policy.Statement[0].Action"}},
		{"not JSON", policy("aws_iam_policy.a", `{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]} x`), "", "", nil},
	}
	for _, tt := range tests {
		res, err := Scan(tt.input)
		var ve *ValidationError
		switch {
		case tt.path == "":
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
				continue
			}
			equalStrings(t, tt.name, findingLines(res.Findings), tt.want)
		case !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Path != tt.path || ve.Problems[0].Message != tt.msg:
			t.Errorf("%s: got %v, want %s: %s", tt.name, err, tt.path, tt.msg)
		}
	}
}
