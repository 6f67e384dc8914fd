package scan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestHCLVPCSubnets: a VPC module cutting its range with cidrsubnets and
// making one rule per subnet (for_each) is checked, with Terraform's
// addresses: cidrsubnets was missing, so the for_each was unknown and the
// SSH rules open to the internet were not reported. The subnets are
// Terraform's own (its documentation's example: /20, /20, /24, /20).
func TestHCLVPCSubnets(t *testing.T) {
	got := hclOutcome(t, `variable "cidr" {
  default = "10.1.0.0/16"
}

locals {
  subnets = cidrsubnets(var.cidr, 4, 4, 8, 4)
}

resource "aws_subnet" "private" {
  count      = length(local.subnets)
  vpc_id     = "vpc-1"
  cidr_block = local.subnets[count.index]
}

resource "aws_security_group_rule" "bastion" {
  for_each          = toset(local.subnets)
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = [cidrnetmask(var.cidr) == "255.255.0.0" ? "0.0.0.0/0" : var.cidr]
  description       = "from ${cidrhost(each.value, 1)}"
}
`)
	want := []string{
		`SG_ADMIN_PORT_OPEN aws_security_group_rule.bastion["10.1.0.0/20"] main.tf:22`,
		`SG_ADMIN_PORT_OPEN aws_security_group_rule.bastion["10.1.16.0/20"] main.tf:22`,
		`SG_ADMIN_PORT_OPEN aws_security_group_rule.bastion["10.1.32.0/24"] main.tf:22`,
		`SG_ADMIN_PORT_OPEN aws_security_group_rule.bastion["10.1.48.0/20"] main.tf:22`,
		`not-checked aws_subnet.private[0]`, `not-checked aws_subnet.private[1]`,
		`not-checked aws_subnet.private[2]`, `not-checked aws_subnet.private[3]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLTerraformFunctions: Terraform's built-ins give Terraform's
// values. Each case opens SSH to the internet only when its expression
// encodes as what Terraform returns, so a missing function (unknown value) or
// a wrong one (go-cty's index is list[key], its length refuses strings,
// its coalesce keeps "", its replace knows no /regex/) shows as a rule
// not reported.
func TestHCLTerraformFunctions(t *testing.T) {
	cases := [][2]string{
		{`cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`, `["fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72", "fd00:fd12:3456:7800:200::/72", "fd00:fd12:3456:7800:300::/88"]`},
		{`cidrsubnets("10.0.0.0/8", 8, 4)`, `["10.0.0.0/16", "10.16.0.0/12"]`},
		{`cidrsubnet("10.0.0.0/8", 8, 3)`, `"10.3.0.0/16"`},
		{`cidrhost("10.12.112.0/20", -2)`, `"10.12.127.254"`},
		{`cidrnetmask("172.16.0.0/12")`, `"255.240.0.0"`},
		{`[cidrcontains("10.0.0.0/8", "10.1.2.3"), cidrcontains("10.0.0.0/8", "11.0.0.0/16")]`, `[true, false]`},
		{`index(["a", "b", "c"], "b")`, `1`},
		{`length("héllo") + length({a = 1, b = "x"})`, `7`},
		{`coalesce("", "x")`, `"x"`},
		{`replace("web-01.example.com", "/^([a-z]+)-\\d+\\..*$/", "$1")`, `"web"`},
		{`replace("a.b.c", ".", "-")`, `"a-b-c"`},
		{`sum([1, 2, 3.5])`, `6.5`},
		{`transpose({a = ["x", "y"], b = ["x"]})`, `{x = ["a", "b"], y = ["a"]}`},
		{`matchkeys(["i-1", "i-2", "i-3"], ["a", "b", "a"], ["a"])`, `["i-1", "i-3"]`},
		{`[pow(2, 10), log(8, 2)]`, `[1024, 3]`},
		{`base64decode(base64encode("hello"))`, `"hello"`},
		{`textencodebase64("hi", "UTF-16LE")`, `"aABpAA=="`},
		{`textdecodebase64("aABpAA==", "UTF-16LE")`, `"hi"`},
		{`urlencode("a b&c")`, `"a+b%26c"`},
		{`md5("hello")`, `"5d41402abc4b2a76b9719d911017c592"`},
		{`sha256("hello")`, `"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"`},
		{`uuidv5("dns", "www.example.com")`, `"2ed6657d-e927-568b-95e1-2665a8aea6a2"`},
		{`timeadd("2024-01-01T00:00:00Z", "1h")`, `"2024-01-01T01:00:00Z"`},
		{`timecmp("2024-01-01T00:00:00Z", "2023-01-01T00:00:00Z")`, `1`},
		{`formatdate("YYYY-MM-DD", "2024-03-05T10:00:00Z")`, `"2024-03-05"`},
		{`indent(2, "a\nb")`, `"a\n  b"`},
		{`[basename("a/b/c.txt"), dirname("a/b/c.txt")]`, `["c.txt", "a/b"]`},
		{`templatestring("port $${p}", {p = 22})`, `"port 22"`},
		{`yamldecode(yamlencode({a = [1, "x"]}))`, `{a = [1, "x"]}`},
		{`issensitive("x")`, `false`},
		{`[lookup({a = "1"}, "b", null), lookup({a = "1"}, "a")]`, `[null, "1"]`},
	}
	var src strings.Builder
	var want []string
	for i, c := range cases {
		fmt.Fprintf(&src, `resource "aws_security_group_rule" "c%d" {
  type              = "ingress"
  security_group_id = "sg-1"
  protocol          = "tcp"
  from_port         = 22
  to_port           = 22
  cidr_blocks       = [jsonencode(%s) == jsonencode(%s) ? "0.0.0.0/0" : "10.0.0.0/8"]
}
`, i, c[0], c[1])
		want = append(want, fmt.Sprintf("SG_ADMIN_PORT_OPEN aws_security_group_rule.c%d main.tf:%d", i, 8*i+7))
	}
	slices.Sort(want)
	got := hclOutcome(t, src.String())
	for _, w := range want {
		if !slices.Contains(got, w) {
			var n int
			fmt.Sscanf(w, "SG_ADMIN_PORT_OPEN aws_security_group_rule.c%d", &n)
			t.Errorf("%s is not %s in Terraform's sense: no finding", cases[n][0], cases[n][1])
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHCLSecurityGroupModule: the rule lists of a security-group module
// in the style of terraform-aws-modules (maps of strings read with
// lookup(rule, "from_port", null), a named rule's ports from a table, a
// comma-separated cidr_blocks) are checked; go-cty's lookup refused a
// null default, so every rule but the named one had unknown ports and
// SSH open to the internet was not reported.
func TestHCLSecurityGroupModule(t *testing.T) {
	files := []File{
		{Path: "main.tf", Data: []byte(`module "web_sg" {
  source = "./modules/sg"
  name   = "web"
  ingress_with_cidr_blocks = [
    { from_port = 443, to_port = 443, protocol = "tcp", cidr_blocks = "0.0.0.0/0" },
    { from_port = 22, to_port = 22, protocol = "tcp", cidr_blocks = "10.0.0.0/8, 0.0.0.0/0", description = "ssh" },
    { rule = "postgresql-tcp", cidr_blocks = "0.0.0.0/0" },
  ]
}
`)},
		{Path: "modules/sg/main.tf", Data: []byte(`variable "name" {}

variable "ingress_with_cidr_blocks" {
  type    = list(map(string))
  default = []
}

locals {
  rules = {
    "postgresql-tcp" = [5432, 5432, "tcp", "PostgreSQL"]
  }
}

resource "aws_security_group" "this" {
  name = var.name
}

resource "aws_security_group_rule" "ingress_with_cidr_blocks" {
  count             = length(var.ingress_with_cidr_blocks)
  security_group_id = aws_security_group.this.id
  type              = "ingress"
  cidr_blocks       = compact(split(",", replace(lookup(var.ingress_with_cidr_blocks[count.index], "cidr_blocks", ""), " ", "")))
  description       = lookup(var.ingress_with_cidr_blocks[count.index], "description", "Ingress Rule")
  from_port         = lookup(var.ingress_with_cidr_blocks[count.index], "from_port", try(local.rules[lookup(var.ingress_with_cidr_blocks[count.index], "rule", "_")][0], null))
  to_port           = lookup(var.ingress_with_cidr_blocks[count.index], "to_port", try(local.rules[lookup(var.ingress_with_cidr_blocks[count.index], "rule", "_")][1], null))
  protocol          = lookup(var.ingress_with_cidr_blocks[count.index], "protocol", try(local.rules[lookup(var.ingress_with_cidr_blocks[count.index], "rule", "_")][2], null))
}
`)},
	}
	res, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"SG_ADMIN_PORT_OPEN module.web_sg.aws_security_group.this modules/sg/main.tf:22",
		"SG_DATA_PORT_OPEN module.web_sg.aws_security_group.this modules/sg/main.tf:22",
	}
	if got := outcome(res); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
