package scan

import (
	"os"
	"strings"
	"testing"
)

// TestPlanPolicyUnknownUntilApply: a plan (terraform show -json, from
// Terraform 1.11) whose bucket policy and role policy are jsonencode of
// an ARN known only after apply holds no text for them: nothing can be
// checked, and the result said nothing, which read as clean. A warning
// now names them. The role's trust policy, known, is not a permission
// policy and adds nothing.
func TestPlanPolicyUnknownUntilApply(t *testing.T) {
	if got := scanTestdata(t, "plan_policy_jsonencode_unknown.json"); len(got) != 0 {
		t.Errorf("findings %q, want none", got)
	}
	data, err := os.ReadFile("testdata/plan_policy_jsonencode_unknown.json")
	if err != nil {
		t.Fatal(err)
	}
	res := mustScan(t, string(data))
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.Message[:strings.Index(w.Message, ":")]+": "+strings.Join(w.Resources, ", "))
	}
	equalStrings(t, "warnings", got, []string{"policies not checked: aws_iam_role_policy.ci, aws_s3_bucket_policy.site"})

	// The source the plan was made from: there, the same policies are
	// checked, the ARNs as placeholders.
	equalStrings(t, "source", hclOutcome(t, planSource), []string{
		"IAM_WILDCARD_ACTION aws_iam_role_policy.ci main.tf:37",
		"S3_PUBLIC_READ aws_s3_bucket.site main.tf:16",
	})
}

const planSource = `provider "aws" {
  region                      = "eu-west-1"
  access_key                  = "x"
  secret_key                  = "x"
  skip_credentials_validation = true
  skip_metadata_api_check     = true
  skip_requesting_account_id  = true
}

resource "aws_s3_bucket" "site" {
  bucket_prefix = "site-"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = "s3:GetObject"
      Resource  = "${aws_s3_bucket.site.arn}/*"
    }]
  })
}

resource "aws_iam_role" "ci" {
  name = "ci"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { AWS = "*" }, Action = "sts:AssumeRole" }]
  })
}

resource "aws_iam_role_policy" "ci" {
  role = aws_iam_role.ci.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "*", Resource = [aws_s3_bucket.site.arn] }]
  })
}
`

// TestPlanRoleInlinePolicyUnknown: a role's inline_policy block whose
// policy is jsonencode of an ARN known only after apply has no text in
// the plan either, and was not warned of (only the policy resources
// were). A role without such a block, whose inline_policy Terraform
// computes (after_unknown true for the whole attribute), is not named.
func TestPlanRoleInlinePolicyUnknown(t *testing.T) {
	role := func(name, after, unknown string) (string, string) {
		return `{"address":"aws_iam_role.` + name + `","mode":"managed","type":"aws_iam_role","name":"` + name + `","values":` + after + `}`,
			`{"address":"aws_iam_role.` + name + `","mode":"managed","type":"aws_iam_role","name":"` + name + `","change":{"actions":["create"],"before":null,"after":` + after + `,"after_unknown":` + unknown + `}}`
	}
	appV, appC := role("app", `{"name":"app","inline_policy":[{"name":"data"}]}`, `{"arn":true,"inline_policy":[{"policy":true}]}`)
	plainV, plainC := role("plain", `{"name":"plain"}`, `{"arn":true,"inline_policy":true}`)
	res := mustScan(t, `{"format_version":"1.2","terraform_version":"1.8.5",
"planned_values":{"root_module":{"resources":[`+appV+`,`+plainV+`]}},
"resource_changes":[`+appC+`,`+plainC+`]}`)
	var got []string
	for _, w := range res.Warnings {
		got = append(got, w.Message[:strings.Index(w.Message, ":")]+": "+strings.Join(w.Resources, ", "))
	}
	equalStrings(t, "warnings", got, []string{"policies not checked: aws_iam_role.app"})
}
