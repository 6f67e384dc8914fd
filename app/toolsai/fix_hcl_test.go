package toolsai

import (
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/gateway"
	"parapet/app/scan"
)

const tfSource = `resource "aws_s3_bucket" "logs" {
  bucket = "logs-prod"
}

resource "aws_s3_bucket_acl" "logs" {
  bucket = aws_s3_bucket.logs.id
  acl    = "public-read"
}

resource "aws_db_instance" "main" {
  engine              = "postgres"
  username            = "app"
  password            = "Sup3rS3cretMaster!"
  publicly_accessible = true
  storage_encrypted   = true
}

resource "aws_security_group" "web" {
  name = "web"

  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}
`

// aclFixed is a correct answer for the public bucket: its ACL resource,
// made private.
const aclFixed = "Resource: aws_s3_bucket_acl.logs\n```hcl\nresource \"aws_s3_bucket_acl\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  acl    = \"private\"\n}\n```\nMade the ACL private."

func TestFixHCLVerdicts(t *testing.T) {
	cases := []struct {
		name, answer, verdict, reason string
	}{
		{"acl private", aclFixed, Verified, ""},
		{"finding left", strings.Replace(aclFixed, `"private"`, `"public-read-write"`, 1), NotVerified, "still there"},
		{"broken hcl", "Resource: aws_s3_bucket_acl.logs\n```hcl\nresource \"aws_s3_bucket_acl\" \"logs\" {\n  acl = \"private\"\n```", NotVerified, "does not parse as HCL"},
		{"renamed", strings.Replace(aclFixed, `"aws_s3_bucket_acl" "logs"`, `"aws_s3_bucket_acl" "logs2"`, 1), NotVerified, "keeps the resource's type and name"},
		{"new resource", strings.Replace(aclFixed, "}\n```", "}\n\nresource \"aws_s3_bucket\" \"other\" {\n  bucket = \"x\"\n}\n```", 1), NotVerified, "may not add a resource"},
		{"another block", aclFixed + "\n\nResource: aws_db_instance.main\n```hcl\nresource \"aws_db_instance\" \"main\" {\n  engine = \"mysql\"\n}\n```", NotVerified, `also changes "aws_db_instance.main"`},
		{"meta-argument", strings.Replace(aclFixed, "  bucket =", "  count  = 0\n  bucket =", 1), NotVerified, "changes count"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := plan(t, tfSource, "S3_PUBLIC_READ")
			for _, want := range []string{`resource "aws_s3_bucket" "logs"`, `acl    = "public-read"`, `format="hcl"`} {
				if !strings.Contains(f.User, want) {
					t.Fatalf("prompt lacks %q:\n%s", want, f.User)
				}
			}
			if strings.Contains(f.User, "aws_db_instance") || strings.Contains(f.User, "aws_security_group") {
				t.Fatalf("prompt holds other resources:\n%s", f.User)
			}
			res := f.Apply(tc.answer)
			v := res.Findings[0]
			if v.Verdict != tc.verdict || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("verdict %s %q, want %s %q", v.Verdict, v.Reason, tc.verdict, tc.reason)
			}
			if tc.verdict == Verified {
				want := "--- a/document\n+++ b/document\n@@ -4,7 +4,7 @@\n \n resource \"aws_s3_bucket_acl\" \"logs\" {\n   bucket = aws_s3_bucket.logs.id\n-  acl    = \"public-read\"\n+  acl    = \"private\"\n }\n \n resource \"aws_db_instance\" \"main\" {\n"
				if res.Diff != want || res.Document != strings.Replace(tfSource, `"public-read"`, `"private"`, 1) {
					t.Errorf("diff:\n%s\ndocument:\n%s", res.Diff, res.Document)
				}
			} else if strings.Contains(res.Document, "mysql") || strings.Contains(res.Document, "logs2") || strings.Contains(res.Document, "other") {
				t.Errorf("a refused answer was applied:\n%s", res.Document)
			}
		})
	}
}

// A fix of source sent as files returns the files it changed, each
// whole, and a diff naming them; the bucket's ACL is in another file.
func TestFixHCLFiles(t *testing.T) {
	files := []SourceFile{
		{"main.tf", "resource \"aws_s3_bucket\" \"logs\" {\n  bucket = \"logs-prod\"\n}\n"},
		{"acl.tf", "resource \"aws_s3_bucket_acl\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  acl    = \"public-read\"\n}\n"},
		{"modules/x/README.md", "not configuration"},
	}
	sf := make([]scan.File, len(files))
	for i, f := range files {
		sf[i] = scan.File{Path: f.Path, Data: []byte(f.Content)}
	}
	before, err := scan.ScanFiles(sf, scan.Options{})
	if err != nil || len(before.Findings) != 1 {
		t.Fatalf("%v %+v", err, before)
	}
	body, _ := json.Marshal(map[string]any{"files": files, "fingerprints": []string{before.Findings[0].Fingerprint}})
	f, err := PlanFix(body)
	if err != nil {
		t.Fatal(err)
	}
	res := f.Apply(aclFixed)
	if v := res.Findings[0]; v.Verdict != Verified {
		t.Fatalf("%+v", v)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "acl.tf" || !strings.Contains(res.Files[0].Content, `acl    = "private"`) || res.Document != "" ||
		!strings.HasPrefix(res.Diff, "--- a/acl.tf\n+++ b/acl.tf\n@@ -1,4 +1,4 @@\n") {
		t.Errorf("%+v\n%s", res.Files, res.Diff)
	}
	both, _ := json.Marshal(map[string]any{"files": files, "document": "x", "fingerprints": []string{"x"}})
	if _, err := PlanFix(both); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("document and files: %v", err)
	}
}

// The password in the .tf never reaches the provider; a fix that keeps
// its placeholder in place gets the value back, one that moves it is
// refused.
func TestFixHCLSecrets(t *testing.T) {
	f := plan(t, tfSource, "DB_PUBLIC")
	if strings.Contains(f.User, "Sup3rS3cretMaster") || len(f.Masked) != 1 {
		t.Fatalf("prompt %s masked %v", f.User, f.Masked)
	}
	ph := f.Masked[0].Placeholder
	kept := "Resource: aws_db_instance.main\n```hcl\nresource \"aws_db_instance\" \"main\" {\n  engine              = \"postgres\"\n  username            = \"app\"\n  password            = \"" + ph + "\"\n  publicly_accessible = false\n  storage_encrypted   = true\n}\n```"
	res := f.Apply(kept)
	if res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, `password            = "Sup3rS3cretMaster!"`) || strings.Contains(res.Document, "REDACTED") {
		t.Errorf("%+v\n%s", res.Findings, res.Document)
	}
	moved := strings.Replace(kept, `username            = "app"`, `username            = "`+ph+`"`, 1)
	res = plan(t, tfSource, "DB_PUBLIC").Apply(moved)
	if v := res.Findings[0]; v.Verdict != NotVerified || !strings.Contains(v.Reason, "where it did not stand") || strings.Contains(res.Document, `username            = "Sup3r`) {
		t.Errorf("%+v", v)
	}
}

// The demo's table fixes Terraform source too: the public ACL, the open
// ingress, the public and unencrypted database, all verified, and the
// demo upstream never sees the password.
func TestDemoFixHCL(t *testing.T) {
	doc := strings.Replace(tfSource, "storage_encrypted   = true", "storage_encrypted   = false", 1)
	f := plan(t, doc, "S3_PUBLIC_READ", "SG_ADMIN_PORT_OPEN", "DB_PUBLIC", "DB_UNENCRYPTED")
	if strings.Contains(f.User, "Sup3rS3cretMaster") {
		t.Fatal("the password is in the prompt")
	}
	answer, ok := demoAnswer(&gateway.Request{System: f.System, Messages: []gateway.ChatMessage{{Role: "user", Content: f.User}}})
	if !ok || !strings.HasPrefix(answer, "**Demo fix**") {
		t.Fatalf("demo answer %v %q", ok, answer)
	}
	res := f.Apply(answer)
	if len(res.Findings) != 4 {
		t.Fatalf("%+v", res.Findings)
	}
	for _, v := range res.Findings {
		if v.Verdict != Verified {
			t.Errorf("%s: %s %s\n%s", v.Rule, v.Verdict, v.Reason, answer)
		}
	}
	if !strings.Contains(answer, "S3_PUBLIC_READ on aws_s3_bucket.logs (in aws_s3_bucket_acl.logs)") {
		t.Errorf("no note on the ACL:\n%s", answer)
	}
	for _, want := range []string{`acl    = "private"`, `cidr_blocks = ["10.0.0.0/8"]`, "publicly_accessible = false", "storage_encrypted   = true", `password            = "Sup3rS3cretMaster!"`} {
		if !strings.Contains(res.Document, want) {
			t.Errorf("document lacks %q:\n%s", want, res.Document)
		}
	}
}

// A Windows .tf file keeps its line ends: the diff shows only the fix.
func TestFixHCLCRLF(t *testing.T) {
	doc := strings.ReplaceAll(tfSource, "\n", "\r\n")
	res := plan(t, doc, "S3_PUBLIC_READ").Apply(aclFixed)
	hunks := res.Diff[strings.Index(res.Diff, "@@"):]
	if res.Findings[0].Verdict != Verified || strings.Count(hunks, "\n-") != 1 || strings.Count(hunks, "\n+") != 1 ||
		strings.Count(res.Document, "\n") != strings.Count(res.Document, "\r\n") {
		t.Errorf("%+v\n%q", res.Findings, res.Diff)
	}
}

// A secret-named attribute set from another resource (masked whole, so
// the block sent is no longer HCL as it stands) is still fixed: the
// placeholder kept in place gets the reference back.
func TestFixHCLBareMask(t *testing.T) {
	doc := strings.Replace(tfSource, `password            = "Sup3rS3cretMaster!"`, `password            = random_password.db.result`, 1)
	f := plan(t, doc, "DB_PUBLIC")
	if strings.Contains(f.User, "random_password") || len(f.Masked) != 1 {
		t.Fatalf("prompt %s masked %v", f.User, f.Masked)
	}
	ph := f.Masked[0].Placeholder
	answer := "Resource: aws_db_instance.main\n```hcl\nresource \"aws_db_instance\" \"main\" {\n  engine              = \"postgres\"\n  username            = \"app\"\n  password            = " + ph + "\n  publicly_accessible = false\n  storage_encrypted   = true\n}\n```"
	res := f.Apply(answer)
	if res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, "password            = random_password.db.result\n") {
		t.Errorf("%+v\n%s", res.Findings, res.Document)
	}
	f = plan(t, doc, "DB_PUBLIC")
	demo, _ := demoAnswer(&gateway.Request{System: f.System, Messages: []gateway.ChatMessage{{Role: "user", Content: f.User}}})
	if res := f.Apply(demo); res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, "= random_password.db.result\n") {
		t.Errorf("demo: %+v\n%s", res.Findings, demo)
	}
	bare := strings.Replace(answer, ph, "_"+ph[1:len(ph)-1]+"_", 1)
	if v := plan(t, doc, "DB_PUBLIC").Apply(bare).Findings[0]; v.Verdict != NotVerified || !strings.Contains(v.Reason, "without its angle brackets") {
		t.Errorf("%+v", v)
	}
}

// A heredoc password is masked line by line and put back by a fix that
// keeps its placeholder in the heredoc.
func TestFixHCLHeredocSecret(t *testing.T) {
	doc := strings.Replace(tfSource, `password            = "Sup3rS3cretMaster!"`, "password            = <<-EOT\n    HeredocSecretPw123\n  EOT", 1)
	f := plan(t, doc, "DB_PUBLIC")
	if strings.Contains(f.User, "HeredocSecretPw123") || len(f.Masked) != 1 {
		t.Fatalf("prompt %s masked %v", f.User, f.Masked)
	}
	ph := f.Masked[0].Placeholder
	kept := "Resource: aws_db_instance.main\n```hcl\nresource \"aws_db_instance\" \"main\" {\n  engine              = \"postgres\"\n  username            = \"app\"\n  password            = <<-EOT\n    " + ph + "\n  EOT\n  publicly_accessible = false\n  storage_encrypted   = true\n}\n```"
	res := f.Apply(kept)
	if res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, "password            = <<-EOT\n    HeredocSecretPw123\n  EOT\n") || strings.Contains(res.Document, "REDACTED") {
		t.Errorf("%+v\n%s", res.Findings, res.Document)
	}
}
