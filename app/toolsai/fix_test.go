package toolsai

import (
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/gateway"
)

const cfnYAML = `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: logs-prod
      AccessControl: PublicRead

  DB:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: postgres
      MasterUserPassword: Sup3rS3cretMaster!
      StorageEncrypted: true
Outputs:
  Name:
    Value: !Ref Logs
`

func envelope(t *testing.T, doc string, fps ...string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"document": doc, "fingerprints": fps})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// plan scans doc and plans the fix of its findings of rules.
func plan(t *testing.T, doc string, rules ...string) *Fix {
	t.Helper()
	if _, err := PlanFix(envelope(t, doc, "x")); err == nil || !strings.Contains(err.Error(), "no finding") {
		t.Fatalf("an unknown fingerprint: %v", err)
	}
	f, err := PlanFix(envelope(t, doc, fingerprints(t, doc, rules...)...))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func fingerprints(t *testing.T, doc string, rules ...string) []string {
	t.Helper()
	res, err := scanText(&Fix{}, doc)
	if err != nil {
		t.Fatal(err)
	}
	var fps []string
	for _, fd := range res.Findings {
		for _, r := range rules {
			if fd.Rule == r {
				fps = append(fps, fd.Fingerprint)
			}
		}
	}
	if len(fps) == 0 {
		t.Fatalf("no finding of %v in %s", rules, doc)
	}
	return fps
}

func TestFixVerdicts(t *testing.T) {
	fixed := "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties:\n  BucketName: logs-prod\n```\nRemoved the public ACL."
	cases := []struct {
		name, answer, verdict, reason string
	}{
		{"acl removed", fixed, Verified, ""},
		{"finding left", "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties:\n  BucketName: logs-prod2\n  AccessControl: PublicRead\n```", NotVerified, "the finding is still there"},
		{"broken yaml", "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties: [\n```", NotVerified, "does not parse as YAML"},
		{"another resource", fixed + "\n\nResource: DB\n```yaml\nType: AWS::RDS::DBInstance\nProperties:\n  Engine: mysql\n```", NotVerified, `also changes "DB"`},
		{"type changed", "Resource: Logs\n```yaml\nType: AWS::S3::AccessPoint\nProperties:\n  Bucket: logs-prod\n```", NotVerified, "changes Type"},
		{"attribute added", "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nDeletionPolicy: Delete\nProperties:\n  BucketName: logs-prod\n```", NotVerified, "adds DeletionPolicy"},
		{"no answer", "I cannot help with that.", NotVerified, "no corrected Logs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := plan(t, cfnYAML, "S3_PUBLIC_READ")
			if strings.Contains(f.User, "Sup3rS3cretMaster") || !strings.Contains(f.User, "AccessControl: PublicRead") || strings.Contains(f.User, "Engine: postgres") {
				t.Fatalf("prompt holds more or less than the resource:\n%s", f.User)
			}
			res := f.Apply(tc.answer)
			v := res.Findings[0]
			if v.Verdict != tc.verdict || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("verdict %s %q, want %s %q", v.Verdict, v.Reason, tc.verdict, tc.reason)
			}
			if tc.verdict == Verified {
				want := "@@ -4,7 +4,6 @@\n     Type: AWS::S3::Bucket\n     Properties:\n       BucketName: logs-prod\n-      AccessControl: PublicRead\n"
				if !strings.Contains(res.Diff, want) || !strings.Contains(res.Document, "MasterUserPassword: Sup3rS3cretMaster!") || !strings.Contains(res.Document, "\n  DB:\n") {
					t.Errorf("diff:\n%s\ndocument:\n%s", res.Diff, res.Document)
				}
			}
			if tc.name == "another resource" && strings.Contains(res.Document, "mysql") {
				t.Error("the other resource was changed")
			}
		})
	}
}

// A Windows document keeps its line ends: the diff shows only the fix.
func TestFixCRLF(t *testing.T) {
	doc := strings.ReplaceAll(cfnYAML, "\n", "\r\n")
	res := plan(t, doc, "S3_PUBLIC_READ").Apply("Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties:\n  BucketName: logs-prod\n```")
	hunks := res.Diff[strings.Index(res.Diff, "@@"):]
	if res.Findings[0].Verdict != Verified || strings.Count(hunks, "\n-") != 1 || strings.Contains(hunks, "\n+") ||
		strings.Count(res.Document, "\n") != strings.Count(res.Document, "\r\n") {
		t.Errorf("%+v\n%q", res.Findings, res.Diff)
	}
}

// Masked values go back only where they stood.
func TestFixPlaceholders(t *testing.T) {
	doc := `{"Resources": {"DB": {"Type": "AWS::RDS::DBInstance", "Properties": {"Engine": "postgres", "PubliclyAccessible": true, "MasterUserPassword": "Sup3rS3cretMaster!", "StorageEncrypted": true}}}}`
	f := plan(t, doc, "DB_PUBLIC")
	if strings.Contains(f.User, "Sup3rS3cretMaster") || len(f.Masked) != 1 {
		t.Fatalf("prompt %s masked %v", f.User, f.Masked)
	}
	ph := f.Masked[0].Placeholder
	kept := "Resource: DB\n```json\n" + `{"Type": "AWS::RDS::DBInstance", "Properties": {"Engine": "postgres", "PubliclyAccessible": false, "MasterUserPassword": "` + ph + `", "StorageEncrypted": true}}` + "\n```"
	res := f.Apply(kept)
	if res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, `"MasterUserPassword":"Sup3rS3cretMaster!"`) || strings.Contains(res.Document, "REDACTED") {
		t.Errorf("%+v\n%s", res.Findings, res.Document)
	}
	moved := strings.Replace(kept, `"Engine": "postgres"`, `"Engine": "`+ph+`"`, 1)
	res = plan(t, doc, "DB_PUBLIC").Apply(moved)
	if res.Findings[0].Verdict != NotVerified || !strings.Contains(res.Findings[0].Reason, "where it did not stand") || strings.Contains(res.Document, `"Engine":"Sup3r`) {
		t.Errorf("%+v", res.Findings)
	}
}

// The demo's table fixes what it knows, in each format, and is verified.
func TestDemoFix(t *testing.T) {
	ours := `{"resources": [
  {"type": "s3_bucket", "name": "assets", "public_read": true, "encrypted": false},
  {"type": "security_group", "name": "web", "ingress": [{"port": 22, "cidr": "0.0.0.0/0"}]},
  {"type": "database", "name": "main", "publicly_accessible": true, "encrypted": false},
  {"type": "iam_policy", "name": "admin", "actions": ["*"], "resources": ["*"]}
]}`
	for _, tc := range []struct {
		doc       string
		rules     []string
		unchanged string // a rule the table cannot fix
	}{
		{cfnYAML, []string{"S3_PUBLIC_READ"}, ""},
		{ours, []string{"S3_PUBLIC_READ", "S3_UNENCRYPTED", "SG_ADMIN_PORT_OPEN", "DB_PUBLIC", "DB_UNENCRYPTED", "IAM_FULL_ADMIN"}, "IAM_FULL_ADMIN"},
	} {
		f := plan(t, tc.doc, tc.rules...)
		answer, ok := demoAnswer(&gateway.Request{System: f.System, Messages: []gateway.ChatMessage{{Role: "user", Content: f.User}}})
		if !ok || !strings.HasPrefix(answer, "**Demo fix**") {
			t.Fatalf("demo answer %v %q", ok, answer)
		}
		res := f.Apply(answer)
		for _, v := range res.Findings {
			if want := Verified; v.Rule == tc.unchanged {
				if v.Verdict != NotVerified {
					t.Errorf("%s: %s", v.Rule, v.Verdict)
				}
			} else if v.Verdict != want {
				t.Errorf("%s: %s %s\n%s", v.Rule, v.Verdict, v.Reason, answer)
			}
		}
		if res.Diff == "" {
			t.Error("no diff")
		}
	}
}

func TestFixTerraformNotSent(t *testing.T) {
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[{"address":"aws_s3_bucket_acl.a","mode":"managed","type":"aws_s3_bucket_acl","name":"a","values":{"bucket":"b","acl":"public-read"}}]}}}`
	res, err := scanText(&Fix{}, plan)
	if err != nil || len(res.Findings) == 0 {
		t.Skipf("the plan has no finding: %v", err)
	}
	f, err := PlanFix(envelope(t, plan, res.Findings[0].Fingerprint))
	if err != nil {
		t.Fatal(err)
	}
	if f.NeedsModel() {
		t.Fatal("a terraform plan's finding would be sent")
	}
	if v := f.NotSent().Findings[0]; v.Verdict != NotVerified || !strings.Contains(v.Reason, "Terraform source") {
		t.Errorf("%+v", v)
	}
}

func TestDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	b := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	want := "--- a/document\n+++ b/document\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n"
	if got := Diff(a, b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A block scalar password is masked and put back by a fix that keeps its
// placeholder in the block.
func TestFixYAMLBlockSecret(t *testing.T) {
	doc := strings.Replace(cfnYAML, "MasterUserPassword: Sup3rS3cretMaster!", "PubliclyAccessible: true\n      MasterUserPassword: |\n        YamlBlockSecretPw1", 1)
	f := plan(t, doc, "DB_PUBLIC")
	if strings.Contains(f.User, "YamlBlockSecretPw1") || len(f.Masked) != 1 {
		t.Fatalf("prompt %s masked %v", f.User, f.Masked)
	}
	ph := f.Masked[0].Placeholder
	kept := "Resource: DB\n```yaml\nType: AWS::RDS::DBInstance\nProperties:\n  Engine: postgres\n  PubliclyAccessible: false\n  MasterUserPassword: |\n    " + ph + "\n  StorageEncrypted: true\n```"
	res := f.Apply(kept)
	if res.Findings[0].Verdict != Verified || !strings.Contains(res.Document, "      MasterUserPassword: |\n        YamlBlockSecretPw1\n") || strings.Contains(res.Document, "REDACTED") {
		t.Errorf("%+v\n%s", res.Findings, res.Document)
	}
}
