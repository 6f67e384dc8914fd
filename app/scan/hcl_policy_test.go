package scan

import (
	"slices"
	"testing"
)

// hclOutcome scans one pasted main.tf and returns its outcome lines.
func hclOutcome(t testing.TB, src string) []string {
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

// TestHCLGoogleIAMPolicyData: a google_*_iam_policy whose policy_data
// comes from a google_iam_policy data source, as the provider documents
// it, is checked on the data source's bindings.
func TestHCLGoogleIAMPolicyData(t *testing.T) {
	src := `resource "google_storage_bucket" "site" {
  name     = "site"
  location = "EU"
}

resource "google_storage_bucket_iam_policy" "site" {
  bucket      = google_storage_bucket.site.name
  policy_data = data.google_iam_policy.site.policy_data
}

data "google_iam_policy" "site" {
  binding {
    role    = "roles/storage.objectViewer"
    members = ["allUsers"]
  }
}

resource "google_service_account" "ci" {
  account_id = "ci"
}

resource "google_project_iam_policy" "project" {
  project     = "acme"
  policy_data = data.google_iam_policy.project.policy_data
}

data "google_iam_policy" "project" {
  binding {
    role    = "roles/viewer"
    members = ["serviceAccount:${google_service_account.ci.email}"]
  }
  binding {
    role    = "roles/owner"
    members = ["user:alice@example.com"]
  }
}
`
	want := []string{"IAM_FULL_ADMIN google_project_iam_policy.project main.tf:24", "S3_PUBLIC_READ google_storage_bucket.site main.tf:8",
		"not-checked google_service_account.ci"}
	if got := hclOutcome(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLNewerFunctions: functions of recent Terraform versions used to
// choose a rule's CIDR or protocol are evaluated, not taken as unknown
// (which hid the rule and its finding).
func TestHCLNewerFunctions(t *testing.T) {
	src := `variable "cidrs" {
  default = ["0.0.0.0/0", "::/0", "10.0.0.0/8"]
}

resource "aws_security_group" "b" {
  name = "b"
}

resource "aws_vpc_security_group_ingress_rule" "v4" {
  for_each          = toset([for c in var.cidrs : c if !strcontains(c, ":")])
  security_group_id = aws_security_group.b.id
  ip_protocol       = alltrue([startswith(each.key, "0."), endswith(each.key, "/0")]) ? "-1" : "tcp"
  from_port         = 443
  to_port           = 443
  cidr_ipv4         = each.key
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  count             = anytrue([for c in var.cidrs : endswith(c, "/0")]) ? length(range(1, 3)) : 0
  security_group_id = aws_security_group.b.id
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_ipv6         = var.cidrs[1]
}
`
	want := []string{
		"SG_ADMIN_PORT_OPEN aws_security_group.b main.tf:24",
		"SG_ALL_PORTS_OPEN aws_security_group.b main.tf:15",
	}
	if got := hclOutcome(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLTemplateFile: a policy rendered by templatefile from a file sent
// is checked, with the variables given (an ARN known only after apply
// among them) and the template's own directives.
func TestHCLTemplateFile(t *testing.T) {
	files := []File{
		{Path: "main.tf", Data: []byte(`resource "aws_s3_bucket" "site" {
  bucket = "site"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = templatefile("${path.module}/policies/public-read.json.tpl", {
    bucket_arn = aws_s3_bucket.site.arn
    actions    = ["s3:GetObject", "s3:ListBucket"]
  })
}

resource "aws_iam_policy" "loop" {
  policy = templatefile("policies/loop.json.tpl", { admin = true })
}
`)},
		{Path: "policies/public-read.json.tpl", Data: []byte(`{
  "Version": "2012-10-17",
  "Statement": [{
    "Effect": "Allow",
    "Principal": "*",
    "Action": ${jsonencode(actions)},
    "Resource": ["${bucket_arn}", "${bucket_arn}/*"]
  }]
}
`)},
		{Path: "policies/loop.json.tpl", Data: []byte(`{"Statement": [
%{ for a in (admin ? ["*"] : ["s3:GetObject"]) ~}
  {"Effect": "Allow", "Action": "${a}", "Resource": "*"}
%{ endfor ~}
]}
`)},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"IAM_FULL_ADMIN aws_iam_policy.loop main.tf:14", "S3_PUBLIC_READ aws_s3_bucket.site main.tf:7"}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLSensitivityFunctions: sensitive() and nonsensitive() only change
// what Terraform prints; a policy or a CIDR passed through them is still
// checked.
func TestHCLSensitivityFunctions(t *testing.T) {
	src := `resource "aws_iam_policy" "p" {
  policy = nonsensitive(jsonencode({ Statement = [{ Effect = "Allow", Action = "*", Resource = "*" }] }))
}

resource "aws_security_group_rule" "r" {
  type              = "ingress"
  security_group_id = "sg-1"
  from_port         = 22
  to_port           = 22
  protocol          = "tcp"
  cidr_blocks       = sensitive(["0.0.0.0/0"])
}
`
	want := []string{"IAM_FULL_ADMIN aws_iam_policy.p main.tf:2", "SG_ADMIN_PORT_OPEN aws_security_group_rule.r main.tf:11"}
	if got := hclOutcome(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLAzureAssignmentFromDataSources: the provider's own example of a
// role assignment takes its scope from data "azurerm_subscription" and,
// often, its role from data "azurerm_role_definition". Both were unknown,
// so Owner on the subscription was not told from Owner on a resource
// group; the subscription's id is now /subscriptions/(known after apply)
// and a built-in role's id is known from its name.
func TestHCLAzureAssignmentFromDataSources(t *testing.T) {
	src := `data "azurerm_subscription" "primary" {}

data "azurerm_role_definition" "owner" {
  name = "Owner"
}

resource "azurerm_role_assignment" "subscription" {
  scope              = data.azurerm_subscription.primary.id
  role_definition_id = data.azurerm_role_definition.owner.id
  principal_id       = "p"
}

resource "azurerm_role_assignment" "group" {
  scope                = "${data.azurerm_subscription.primary.id}/resourceGroups/rg"
  role_definition_name = "Owner"
  principal_id         = "p"
}
`
	want := []string{"IAM_FULL_ADMIN azurerm_role_assignment.subscription main.tf:9", "IAM_WILDCARD_ACTION azurerm_role_assignment.group main.tf:15"}
	if got := hclOutcome(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLJSONFormTemplates: a template in HCL's JSON form still links a
// resource to the one it references and reports at the attribute's line.
func TestHCLJSONFormTemplates(t *testing.T) {
	files := []File{{Path: "main.tf.json", Data: []byte(`{
  "resource": {
    "aws_s3_bucket": {"b": {"bucket": "acme-${local.env}"}},
    "aws_s3_bucket_acl": {"b": {
      "bucket": "${aws_s3_bucket.b.id}",
      "acl": "%{ if local.env == \"prod\" }private%{ else }public-read%{ endif }"
    }}
  },
  "locals": {"env": "dev"}
}
`)}}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outcome(res), []string{"S3_PUBLIC_READ aws_s3_bucket.b main.tf.json:6"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLOne: one() takes the only element of a list or set, as modules
// write a value of a resource that has count = 0 or 1.
func TestHCLOne(t *testing.T) {
	src := `variable "public" {
  default = true
}

data "aws_iam_policy_document" "public" {
  count = var.public ? 1 : 0
  statement {
    actions   = ["s3:GetObject"]
    resources = ["arn:aws:s3:::site/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
  }
}

resource "aws_s3_bucket" "site" {
  bucket = "site"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = one(data.aws_iam_policy_document.public[*].json)
}

resource "aws_security_group_rule" "ssh" {
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = one(toset([22]))
  to_port           = 22
  cidr_blocks       = [one(["0.0.0.0/0"])]
}
`
	want := []string{"S3_PUBLIC_READ aws_s3_bucket.site main.tf:23", "SG_ADMIN_PORT_OPEN aws_security_group_rule.ssh main.tf:32"}
	if got := hclOutcome(t, src); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
