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
