package scan

import (
	"slices"
	"testing"
)

// TestHCLVariableValues: a variable takes its value as Terraform gives it
// one: null passed to a nullable variable stays null (the attribute is
// then unset), null to a non-nullable one takes the default, and a value
// is converted to the variable's type.
func TestHCLVariableValues(t *testing.T) {
	files := []File{
		{Path: "main.tf", Data: []byte(`
module "a" {
  source = "./db"
  public = null
}
module "b" {
  source = "./strict"
  public = null
}
module "c" {
  source = "./db"
  public = "true"
}
`)},
		{Path: "db/main.tf", Data: []byte(`
variable "public" {
  type    = bool
  default = true
}
resource "aws_db_instance" "d" {
  publicly_accessible = var.public
  storage_encrypted   = true
}
`)},
		{Path: "strict/main.tf", Data: []byte(`
variable "public" {
  type     = bool
  default  = true
  nullable = false
}
resource "aws_db_instance" "d" {
  publicly_accessible = var.public
  storage_encrypted   = true
}
`)},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"DB_PUBLIC module.b.aws_db_instance.d strict/main.tf:8", "DB_PUBLIC module.c.aws_db_instance.d db/main.tf:7"}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestHCLUnknownFunction: a function the scanner lacks (a provider's
// provider::aws::arn_build, a name Terraform added later) leaves only its
// call unknown, never the scan or the whole value: the policy around it
// is still checked on its actions, and a rule whose source is the unknown
// call is not reported. A function whose value Terraform knows only at
// apply (timestamp) is unknown the same way.
func TestHCLUnknownFunction(t *testing.T) {
	got := hclOutcome(t, `resource "aws_iam_policy" "ops" {
  name = "ops-${formatdate("YYYYMMDD", timestamp())}"
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect   = "Allow"
      Action   = "*"
      Resource = provider::aws::arn_build("aws", "iam", "", "123456789012", "role/ops")
    }, {
      Effect   = "Allow"
      Action   = "s3:*"
      Resource = "*"
      Sid      = future_function("x")
    }]
  })
}

resource "aws_security_group_rule" "ssh" {
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = [future_function("0.0.0.0/0")]
}
`)
	want := []string{
		"IAM_SERVICE_WILDCARD aws_iam_policy.ops main.tf:3",
		"IAM_WILDCARD_ACTION aws_iam_policy.ops main.tf:3",
		"IAM_WILDCARD_RESOURCE aws_iam_policy.ops main.tf:3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
