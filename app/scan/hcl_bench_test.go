package scan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// hclBenchRepo is a Terraform repository of n resources (n a multiple of
// 100): a root module calling a local module with for_each over n/100
// services, each instance 100 resources of every family, linked split
// resources, dynamic ingress blocks, locals and variables, clean and
// failing.
func hclBenchRepo(n int) []File {
	var svc strings.Builder
	svc.WriteString(`variable "name" { type = string }
variable "public" { type = bool }
variable "ports" {
  type    = list(number)
  default = [443, 8443]
}
locals {
  prefix = "${var.name}-svc"
  tags   = merge({ service = var.name }, { managed = "terraform" })
}
`)
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&svc, `
resource "aws_s3_bucket" "b%[1]d" {
  bucket = "${local.prefix}-%[1]d"
  tags   = local.tags
}
resource "aws_s3_bucket_acl" "b%[1]d" {
  bucket = aws_s3_bucket.b%[1]d.id
  acl    = var.public && %[1]d == 0 ? "public-read" : "private"
}
resource "aws_s3_bucket_public_access_block" "b%[1]d" {
  bucket                  = aws_s3_bucket.b%[1]d.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = false
}
resource "aws_security_group" "g%[1]d" {
  name = "${local.prefix}-g%[1]d"
  dynamic "ingress" {
    for_each = var.ports
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}
resource "aws_security_group_rule" "g%[1]d" {
  type              = "ingress"
  from_port         = 22
  to_port           = 22
  protocol          = "tcp"
  cidr_blocks       = ["10.0.0.0/8"]
  security_group_id = aws_security_group.g%[1]d.id
}
resource "aws_iam_policy" "p%[1]d" {
  name = "${local.prefix}-p%[1]d"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = ["s3:GetObject"], Resource = "arn:aws:s3:::${local.prefix}-%[1]d/*" }]
  })
}
resource "aws_db_instance" "d%[1]d" {
  identifier          = "${local.prefix}-d%[1]d"
  engine              = "postgres"
  publicly_accessible = false
  storage_encrypted   = true
}
resource "aws_rds_cluster" "c%[1]d" {
  cluster_identifier = "${local.prefix}-c%[1]d"
  engine             = "aurora-postgresql"
  storage_encrypted  = true
}
resource "aws_instance" "i%[1]d" {
  ami           = "ami-123"
  instance_type = "t3.micro"
  tags          = local.tags
}
resource "aws_s3_bucket" "l%[1]d" {
  count  = 1
  bucket = "${local.prefix}-logs-%[1]d"
}
`, i)
	}
	var root strings.Builder
	root.WriteString("variable \"services\" {\n  type = map(bool)\n}\n\nmodule \"svc\" {\n  source   = \"./modules/svc\"\n  for_each = var.services\n  name     = each.key\n  public   = each.value\n}\n")
	var vars strings.Builder
	vars.WriteString("services = {\n")
	for i := 0; i < n/100; i++ {
		fmt.Fprintf(&vars, "  s%d = %v\n", i, i%4 == 0)
	}
	vars.WriteString("}\n")
	return []File{{Path: "main.tf", Data: []byte(root.String())}, {Path: "terraform.tfvars", Data: []byte(vars.String())},
		{Path: "modules/svc/main.tf", Data: []byte(svc.String())}}
}

// planOf writes the resources a source scan evaluated as a plan of the
// same resources (addresses, values, unknowns, link references), so the
// plan adapter reads exactly what the source gave.
func planOf(tb testing.TB, files []File) []byte {
	tb.Helper()
	set, err := newSourceSet(files, true)
	if err != nil {
		tb.Fatal(err)
	}
	ev := newHCLEval(set)
	root, _ := ev.module(set.root)
	ev.tfvars, _ = set.readTFVars()
	mi := newInst(ev, root, "", 0)
	mi.run()
	mi.collect(ev.g)
	type res struct {
		Address string         `json:"address"`
		Mode    string         `json:"mode"`
		Type    string         `json:"type"`
		Values  map[string]any `json:"values"`
	}
	type change struct {
		Address string `json:"address"`
		Mode    string `json:"mode"`
		Change  struct {
			AfterUnknown map[string]any `json:"after_unknown"`
		} `json:"change"`
	}
	type conf struct {
		Address     string                    `json:"address"`
		Mode        string                    `json:"mode"`
		Expressions map[string]map[string]any `json:"expressions"`
	}
	var planned []res
	var changes []change
	var configs []conf
	for _, n := range ev.g.nodes {
		values, unknowns := map[string]any{}, map[string]any{}
		for k, v := range n.attrs {
			if isUnknown(v) {
				unknowns[k] = true
			} else {
				values[k] = v
			}
		}
		planned = append(planned, res{n.addr, "managed", n.typ, values})
		c := change{Address: n.addr, Mode: "managed"}
		c.Change.AfterUnknown = unknowns
		changes = append(changes, c)
	}
	for addr, c := range ev.config {
		e := map[string]map[string]any{}
		for k, x := range c.Expressions {
			e[k] = map[string]any{"references": x.References}
		}
		configs = append(configs, conf{addr, "managed", e})
	}
	b, err := json.Marshal(map[string]any{
		"format_version":    "1.2",
		"planned_values":    map[string]any{"root_module": map[string]any{"resources": planned}},
		"resource_changes":  changes,
		"configuration":     map[string]any{"root_module": map[string]any{"resources": configs}},
		"terraform_version": "1.9.0",
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkHCLVsPlan scans a 2,000-resource repository with modules as
// source, and the same resources as a plan; it prints the ratio of the
// two, and the source scan's milliseconds.
func BenchmarkHCLVsPlan(b *testing.B) {
	files := hclBenchRepo(2000)
	plan := planOf(b, files)
	var src, pl time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := ScanFiles(files, Options{})
		if err != nil || res.Summary.Resources != 2000 {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := ScanWith(plan, Options{NoSizeLimit: true}); err != nil {
			b.Fatal(err)
		}
		src += t1.Sub(t0)
		pl += time.Since(t1)
	}
	b.ReportMetric(float64(src.Milliseconds())/float64(b.N), "source-ms")
	b.ReportMetric(float64(src)/float64(pl), "source/plan")
}

// TestHCLBenchRepoSameAsPlan: the benchmark's repository gives the same
// findings as source and as the plan of its resources.
func TestHCLBenchRepoSameAsPlan(t *testing.T) {
	files := hclBenchRepo(200)
	fromSource, err := ScanFiles(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromPlan, err := Scan(planOf(t, files))
	if err != nil {
		t.Fatal(err)
	}
	key := func(r *Result) string {
		var out []string
		for _, f := range r.Findings {
			out = append(out, f.Fingerprint)
		}
		return strings.Join(out, ",")
	}
	if len(fromSource.Findings) == 0 || key(fromSource) != key(fromPlan) {
		t.Errorf("source %d findings, plan %d", len(fromSource.Findings), len(fromPlan.Findings))
	}
}
