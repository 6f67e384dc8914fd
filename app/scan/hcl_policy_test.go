package scan

import (
	"slices"
	"testing"
)

// hclOutcome scans one pasted main.tf and returns its outcome lines.
func hclOutcome(t *testing.T, src string) []string {
	t.Helper()
	res, err := Scan([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return outcome(res)
}

// TestHCLPolicyWithUnknownARN: a policy naming an ARN known only after
// apply, the way nearly every bucket policy and many IAM policies are
// written, is still checked on what is known (its Principal and Action).
func TestHCLPolicyWithUnknownARN(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"jsonencode", `resource "aws_s3_bucket" "site" {
  bucket = "site"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = jsonencode({
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = "s3:GetObject"
      Resource  = "${aws_s3_bucket.site.arn}/*"
    }]
  })
}

resource "aws_iam_policy" "ci" {
  policy = jsonencode({
    Statement = [
      { Effect = "Allow", Action = "*", Resource = "*" },
      { Effect = "Allow", Action = "s3:GetObject", Resource = aws_s3_bucket.site.arn },
    ]
  })
}
`, []string{"IAM_FULL_ADMIN aws_iam_policy.ci main.tf:18", "S3_PUBLIC_READ aws_s3_bucket.site main.tf:7"}},
		{"policy document", `resource "aws_s3_bucket" "site" {
  bucket = "site"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = data.aws_iam_policy_document.site.json
}

data "aws_iam_policy_document" "site" {
  statement {
    actions   = ["s3:GetObject"]
    resources = ["${aws_s3_bucket.site.arn}/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
  }
}
`, []string{"S3_PUBLIC_READ aws_s3_bucket.site main.tf:7"}},
		// An unknown principal is not anyone, an unknown resource not "*".
		{"unknown principal", `resource "aws_s3_bucket" "site" {
  bucket = "site"
}

resource "aws_iam_role" "reader" {
  name = "reader"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = jsonencode({
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = aws_iam_role.reader.arn }
      Action    = "s3:*"
      Resource  = "${aws_s3_bucket.site.arn}/*"
    }]
  })
}
`, nil},
	} {
		if got := hclOutcome(t, tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
