package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// Terraform source sent as files: the finding's bucket and its ACL (in
// another file) go to the model, and the public database in a third
// file without its password; the fixed ACL comes back as its file,
// verified by a second scan, with a diff naming it, and the database the
// answer left is not verified.
func TestFixHCLFilesThroughGateway(t *testing.T) {
	answer := "Resource: aws_s3_bucket_acl.logs\n```hcl\nresource \"aws_s3_bucket_acl\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  acl    = \"private\"\n}\n```\nMade the ACL private."
	up := fakeModel(t, answer)
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	files := []map[string]string{
		{"path": "main.tf", "content": "resource \"aws_s3_bucket\" \"logs\" {\n  bucket = \"logs-prod\"\n}\n"},
		{"path": "acl.tf", "content": "resource \"aws_s3_bucket_acl\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  acl    = \"public-read\"\n}\n"},
		{"path": "db.tf", "content": "resource \"aws_db_instance\" \"main\" {\n  engine   = \"postgres\"\n  password = \"Sup3rS3cretMaster!\"\n  storage_encrypted = true\n  publicly_accessible = true\n}\n"},
	}
	// The same files as the scanner's multipart body, for the fingerprint.
	var mp strings.Builder
	for _, f := range files {
		mp.WriteString("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + f["path"] + "\"\r\n\r\n" + f["content"] + "\r\n")
	}
	mp.WriteString("--b--\r\n")
	var scanned struct {
		Data struct {
			Findings []struct{ Rule, Fingerprint string }
		}
	}
	c.Do("POST", "/scan/v1/scan", mp.String(), "Content-Type", "multipart/form-data; boundary=b", "Authorization", "Bearer "+s.Key).JSON(t, &scanned)
	var fps []string
	for _, f := range scanned.Data.Findings {
		fps = append(fps, f.Fingerprint)
	}
	if len(fps) != 2 {
		t.Fatalf("%+v", scanned)
	}
	body, _ := json.Marshal(map[string]any{"files": files, "fingerprints": fps})
	r := c.PostJSON("/scan/v1/fix", string(body), "Authorization", "Bearer "+s.Key)
	var out struct {
		Data struct {
			Format, Diff string
			Files        []struct{ Path, Content string }
			Findings     []struct{ Rule, Verdict, Reason string }
		}
	}
	r.JSON(t, &out)
	if r.StatusCode != 200 || out.Data.Format != "terraform_hcl" || len(out.Data.Findings) != 2 {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	for _, f := range out.Data.Findings {
		if want := map[string]string{"S3_PUBLIC_READ": "verified", "DB_PUBLIC": "not_verified"}[f.Rule]; f.Verdict != want {
			t.Errorf("%s: %s %s, want %s", f.Rule, f.Verdict, f.Reason, want)
		}
	}
	if len(out.Data.Files) != 1 || out.Data.Files[0].Path != "acl.tf" || !strings.Contains(out.Data.Files[0].Content, `acl    = "private"`) ||
		!strings.Contains(out.Data.Diff, "--- a/acl.tf\n+++ b/acl.tf\n") || !strings.Contains(out.Data.Diff, "\n-  acl    = \"public-read\"\n+  acl    = \"private\"\n") {
		t.Errorf("files %+v diff:\n%s", out.Data.Files, out.Data.Diff)
	}
	// A path that leaves the root is refused as the multipart scan refuses it.
	bad, _ := json.Marshal(map[string]any{"files": []map[string]string{{"path": "../main.tf", "content": files[0]["content"]}}, "fingerprints": fps})
	if r := c.PostJSON("/scan/v1/fix", string(bad), "Authorization", "Bearer "+s.Key); r.StatusCode != 400 || !strings.Contains(string(r.Body), "invalid file path") {
		t.Errorf("../main.tf: %d %s", r.StatusCode, r.Body)
	}
	p := strings.Join(up.prompts(), "\n")
	if strings.Contains(p, "Sup3rS3cretMaster") || !strings.Contains(p, "password = \"<REDACTED_PASSWORD_1>\"") || !strings.Contains(p, `acl    = "public-read"`) || !strings.Contains(p, `resource "aws_s3_bucket" "logs"`) {
		t.Errorf("the prompt holds other resources or secrets, or lacks the bucket and its ACL:\n%s", p)
	}
}

// A plan's finding is answered not verified, without a call, with a
// reason that sends the user to the .tf source.
func TestFixPlanSaysFixTheSource(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[{"address":"aws_s3_bucket_acl.a","mode":"managed","type":"aws_s3_bucket_acl","name":"a","values":{"bucket":"b","acl":"public-read"}}]}}}`
	var res struct {
		Data struct {
			Findings []struct{ Fingerprint string }
		}
	}
	c.PostJSON("/scan/v1/scan", plan, "Authorization", "Bearer "+s.Key).JSON(t, &res)
	if len(res.Data.Findings) == 0 {
		t.Fatal("the plan has no finding")
	}
	body, _ := json.Marshal(map[string]any{"document": plan, "fingerprints": []string{res.Data.Findings[0].Fingerprint}})
	var out struct {
		Data struct {
			Findings []struct{ Verdict, Reason string }
			Answer   string
		}
	}
	r := c.PostJSON("/scan/v1/fix", string(body), "Authorization", "Bearer "+s.Key)
	r.JSON(t, &out)
	if r.StatusCode != 200 || out.Data.Answer != "" || out.Data.Findings[0].Verdict != "not_verified" ||
		!strings.Contains(out.Data.Findings[0].Reason, "not edited by hand") || !strings.Contains(out.Data.Findings[0].Reason, "scan the .tf files") {
		t.Errorf("%d %s", r.StatusCode, r.Body)
	}
}
