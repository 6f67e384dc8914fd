package web_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// sourceForm is the scanner form with Terraform files chosen as a folder:
// a "source" part per file, named by its path in the folder.
func sourceForm(t *testing.T, files map[string]string) (body, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("resources", "")
	for name, data := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="source"; filename=%q`, name))
		h.Set("Content-Type", "application/octet-stream")
		p, _ := w.CreatePart(h)
		p.Write([]byte(data))
	}
	w.Close()
	return buf.String(), w.FormDataContentType()
}

// TestScanPageSource: a folder of Terraform source scans with its local
// module; each finding shows its file and line and the lines around it,
// the decisive one marked and the source escaped; a path leaving the
// folder is refused on the page.
func TestScanPageSource(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := scanSignedIn(t, env)
	token := c.CSRF("/scan/app")
	body, ct := sourceForm(t, map[string]string{
		"infra/main.tf": "# <script>alert(1)</script>\nmodule \"site\" {\n  source = \"./modules/site\"\n  acl    = \"public-read\"\n}\n",
		"infra/modules/site/main.tf": "variable \"acl\" {\n  type = string\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  bucket = \"site\"\n}\n\n" +
			"resource \"aws_s3_bucket_acl\" \"b\" {\n  bucket = aws_s3_bucket.b.id\n  acl    = var.acl # <b>not bold</b>\n}\n",
		"infra/README.md": "not Terraform",
	})
	res := c.Do("POST", "/scan/app", body, "Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", token)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, res.Body)
	}
	doc := res.Doc(t)
	rows := doc.Find("[data-testid=finding-row]")
	if rows.Length() != 1 || !strings.Contains(rows.Find("[data-testid=finding-resource]").Text(), "module.site.aws_s3_bucket.b") {
		t.Fatalf("rows: %d %q", rows.Length(), rows.Text())
	}
	if got := rows.Find("[data-testid=source-location]").Text(); got != "infra/modules/site/main.tf:11:3" {
		t.Errorf("location %q", got)
	}
	mark := rows.Find("[data-testid=source-mark]").Text()
	if !strings.Contains(mark, `acl    = var.acl # <b>not bold</b>`) || !strings.HasPrefix(mark, "11") {
		t.Errorf("marked line %q", mark)
	}
	if strings.Contains(res.Body, "<b>not bold</b>") || rows.Find("[data-testid=source-excerpt] .src-line").Length() != 4 {
		t.Errorf("excerpt not escaped or not 4 lines: %s", rows.Find("[data-testid=source-excerpt]").Text())
	}
	if !strings.Contains(doc.Find("[data-testid=scan-format]").Text(), "Terraform source") {
		t.Errorf("format %q", doc.Find("[data-testid=scan-format]").Text())
	}

	body, ct = sourceForm(t, map[string]string{"../main.tf": "locals {}"})
	res = c.Do("POST", "/scan/app", body, "Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", token)
	if p := res.Doc(t).Find("[data-testid=input-problem]").Text(); !strings.Contains(p, `".." is not allowed`) {
		t.Errorf("traversal: %d %q", res.StatusCode, p)
	}

	// A .tf pasted alone shows its excerpt too.
	res = scanHTMX(t, c, token, "resource \"aws_db_instance\" \"d\" {\n  publicly_accessible = true\n  storage_encrypted   = true\n}\n")
	if m := res.Doc(t).Find("[data-testid=source-mark]").Text(); !strings.Contains(m, "publicly_accessible = true") {
		t.Errorf("pasted: mark %q", m)
	}
}
