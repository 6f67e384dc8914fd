package scan

import (
	"slices"
	"testing"
)

// TestHCLSetProduct: rules made for every pair of two lists with
// setproduct, a common for_each, are checked; the scanner lacked the
// function, so the for_each was unknown and the SSH rule open to the
// internet was reported as not checked.
func TestHCLSetProduct(t *testing.T) {
	got := hclOutcome(t, `variable "ports" {
  default = [22, 443]
}

variable "cidrs" {
  default = ["0.0.0.0/0", "10.0.0.0/8"]
}

resource "aws_security_group" "bastion" {
  name = "bastion"
}

resource "aws_security_group_rule" "ingress" {
  for_each = { for pair in setproduct(var.ports, var.cidrs) : "${pair[0]}-${pair[1]}" => pair }

  type              = "ingress"
  security_group_id = aws_security_group.bastion.id
  protocol          = "tcp"
  from_port         = each.value[0]
  to_port           = each.value[0]
  cidr_blocks       = [each.value[1]]
}
`)
	want := []string{"SG_ADMIN_PORT_OPEN aws_security_group.bastion main.tf:21"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLFileSet: policies kept as files and made one resource each with
// for_each = fileset(...), a common layout, are checked; without fileset
// the for_each was unknown and the resources were not checked. * stays in
// a directory, ** crosses them, and the keys are the paths below the
// directory given.
func TestHCLFileSet(t *testing.T) {
	admin := []byte(`{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`)
	files := []File{
		{Path: "main.tf", Data: []byte(`module "iam" {
  source = "./modules/iam"
}
`)},
		{Path: "modules/iam/main.tf", Data: []byte(`resource "aws_iam_policy" "top" {
  for_each = fileset("${path.module}/policies", "*.json")
  policy   = file("${path.module}/policies/${each.value}")
}

resource "aws_iam_policy" "all" {
  for_each = fileset(path.module, "policies/**/*.json")
  policy   = file("${path.module}/${each.value}")
}
`)},
		{Path: "modules/iam/policies/admin.json", Data: admin},
		{Path: "modules/iam/policies/team/ops.json", Data: admin},
		{Path: "modules/iam/policies/README.md", Data: []byte("policies")},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`IAM_FULL_ADMIN module.iam.aws_iam_policy.all["policies/admin.json"] modules/iam/main.tf:8`,
		`IAM_FULL_ADMIN module.iam.aws_iam_policy.all["policies/team/ops.json"] modules/iam/main.tf:8`,
		`IAM_FULL_ADMIN module.iam.aws_iam_policy.top["admin.json"] modules/iam/main.tf:3`,
	}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLYAMLDecode: firewall rules kept in a YAML file and read with
// yamldecode(file(...)) are checked; yamldecode was missing, so the
// for_each over them was unknown and the SSH rule open to the internet
// was reported as not checked.
func TestHCLYAMLDecode(t *testing.T) {
	files := []File{
		{Path: "main.tf", Data: []byte(`locals {
  rules = yamldecode(file("${path.module}/rules.yaml"))
}

resource "google_compute_firewall" "rule" {
  for_each      = { for r in local.rules.ingress : r.name => r }
  name          = each.key
  network       = "default"
  source_ranges = each.value.sources
  allow {
    protocol = "tcp"
    ports    = [for p in each.value.ports : tostring(p)]
  }
}
`)},
		{Path: "rules.yaml", Data: []byte(`# firewall rules
ingress:
  - name: ssh
    sources: ["0.0.0.0/0"]
    ports: [22]
  - name: web
    sources:
      - 0.0.0.0/0
    ports: [80, 443]
`)},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`SG_ADMIN_PORT_OPEN google_compute_firewall.rule["ssh"] main.tf:10`}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
