package scan

import "testing"

// TestSourceHeredocPolicyWithUnknownParts: a policy written as a heredoc
// (or a quoted template) that interpolates an ARN known only after apply
// was unknown as a whole, so its Action "*" and its Principal "*" went
// unreported; it is read with the unknown parts as a placeholder, as
// jsonencode and templatefile are. A string holding a placeholder is the
// placeholder whole: "${var.service}:*" is no service wildcard. A template
// that does not render a JSON document stays unknown.
func TestSourceHeredocPolicyWithUnknownParts(t *testing.T) {
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`variable "service" {
  type = string
}

resource "aws_s3_bucket" "b" {
  bucket = "acme-b"
}

resource "aws_iam_policy" "deploy" {
  name   = "deploy"
  policy = <<EOF
{
  "Version": "2012-10-17",
  "Statement": [
    {"Effect": "Allow", "Action": "${var.service}:*", "Resource": "${aws_s3_bucket.b.arn}/*"},
    {"Effect": "Allow", "Action": "*", "Resource": "*"}
  ]
}
EOF
}

resource "aws_s3_bucket_policy" "b" {
  bucket = aws_s3_bucket.b.id
  policy = <<-POLICY
    {
      "Statement": [{
        "Effect": "Allow",
        "Principal": "*",
        "Action": "s3:GetObject",
        "Resource": "${aws_s3_bucket.b.arn}/*"
      }]
    }
  POLICY
}

resource "aws_iam_role" "r" {
  name               = "r"
  assume_role_policy = "{}"
  inline_policy {
    name   = "i"
    policy = "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"ec2:*\",\"Resource\":\"${aws_s3_bucket.b.arn}\"}]}"
  }
}

resource "aws_iam_user_policy" "u" {
  user   = "u"
  policy = "${var.service}"
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Path)
	}
	equalStrings(t, "findings", got, []string{
		"S3_PUBLIC_READ aws_s3_bucket_policy.b.policy.Statement[0]",
		"IAM_FULL_ADMIN aws_iam_policy.deploy.policy.Statement[1].Action",
		"IAM_SERVICE_WILDCARD aws_iam_role.r.inline_policy[0].policy.Statement[0].Action",
	})
}

// TestSourceTemplateFileDataSource: configurations older than templatefile
// render their policies with data "template_file", whose rendered was
// unknown, so the policy was not read; it is rendered as templatefile
// renders, a var known only after apply as (known after apply).
func TestSourceTemplateFileDataSource(t *testing.T) {
	res, err := ScanFiles([]File{
		{Path: "main.tf", Data: []byte(`resource "aws_s3_bucket" "b" {
  bucket = "acme-b"
}
data "template_file" "policy" {
  template = file("${path.module}/policy.json.tpl")
  vars = {
    bucket_arn = aws_s3_bucket.b.arn
    action     = "s3:*"
  }
}
resource "aws_iam_policy" "p" {
  name   = "p"
  policy = data.template_file.policy.rendered
}
data "template_file" "admin" {
  template = "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"$${action}\",\"Resource\":\"*\"}]}"
  vars     = { action = "*" }
}
resource "aws_iam_role_policy" "admin" {
  role   = "r"
  policy = data.template_file.admin.rendered
}
`)},
		{Path: "policy.json.tpl", Data: []byte(`{"Statement":[{"Effect":"Allow","Action":"${action}","Resource":["${bucket_arn}","${bucket_arn}/*"]}]}` + "\n")},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Path)
	}
	equalStrings(t, "findings", got, []string{
		"IAM_FULL_ADMIN aws_iam_role_policy.admin.policy.Statement[0].Action",
		"IAM_SERVICE_WILDCARD aws_iam_policy.p.policy.Statement[0].Action",
	})
}

// TestSourceScopeTemplate: a role assignment's scope written as
// "/subscriptions/${var.subscription_id}" (or the client config's
// subscription_id) is a subscription whatever the id, as data
// "azurerm_subscription"'s id is; unknown as a whole, Owner there was
// graded as at a narrow scope. An unknown part that is not a whole path
// segment leaves the scope unknown.
func TestSourceScopeTemplate(t *testing.T) {
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`variable "subscription_id" {
  type = string
}
variable "suffix" {
  type = string
}
data "azurerm_client_config" "current" {}
resource "azurerm_role_assignment" "var" {
  scope                = "/subscriptions/${var.subscription_id}"
  role_definition_name = "Owner"
  principal_id         = "00000000-0000-0000-0000-000000000001"
}
resource "azurerm_role_assignment" "cfg" {
  scope                = "/subscriptions/${data.azurerm_client_config.current.subscription_id}/"
  role_definition_name = "Owner"
  principal_id         = "00000000-0000-0000-0000-000000000001"
}
resource "azurerm_role_assignment" "rg" {
  scope                = "/subscriptions/${var.subscription_id}/resourceGroups/rg-app"
  role_definition_name = "Owner"
  principal_id         = "00000000-0000-0000-0000-000000000001"
}
resource "azurerm_role_assignment" "glued" {
  scope                = "/subscriptions/${var.subscription_id}${var.suffix}"
  role_definition_name = "Owner"
  principal_id         = "00000000-0000-0000-0000-000000000001"
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name)
	}
	equalStrings(t, "findings", got, []string{
		"IAM_FULL_ADMIN azurerm_role_assignment.var",
		"IAM_FULL_ADMIN azurerm_role_assignment.cfg",
		"IAM_WILDCARD_ACTION azurerm_role_assignment.rg",
		"IAM_WILDCARD_ACTION azurerm_role_assignment.glued",
	})
}
