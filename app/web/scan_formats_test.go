package web_test

import (
	"bytes"
	"mime/multipart"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/scan"
)

func scanFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../scan/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scanUpload posts the form as htmx does with a chosen file, and the text
// the page's script put in the textarea.
func scanUpload(t *testing.T, c *apptest.Client, token, text, fileName string, file []byte) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("resources", text); err != nil {
		t.Fatal(err)
	}
	fw, err := w.CreateFormFile("file", fileName)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	w.Close()
	res := c.Do("POST", "/scan/app", buf.String(), "Content-Type", w.FormDataContentType(), "HX-Request", "true", "X-CSRF-Token", token)
	if res.StatusCode != 200 {
		t.Fatalf("upload: %d %.300s", res.StatusCode, res.Body)
	}
	return res.Doc(t)
}

func texts(doc *goquery.Document, sel string) []string {
	var out []string
	doc.Find(sel).Each(func(_ int, s *goquery.Selection) { out = append(out, strings.TrimSpace(s.Text())) })
	return out
}

func TestScanPageFormats(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := scanSignedIn(t, env)
		token := c.CSRF("/scan/app")

		// A pasted Terraform plan: the format is shown, findings are on
		// addresses, a linked rule is named, the unchecked type is listed.
		doc := scanHTMX(t, c, token, string(scanFixture(t, "plan.json"))).Doc(t)
		if got := strings.Join(strings.Fields(doc.Find("[data-testid=scan-format]").Text()), " "); got != "Format: Terraform plan (JSON)" {
			t.Errorf("format %q", got)
		}
		if n := doc.Find("[data-testid=finding-row]").Length(); n != 10 {
			t.Errorf("%d finding rows, want 10", n)
		}
		names := strings.Join(texts(doc, "[data-testid=finding-resource]"), "\n")
		if !strings.Contains(names, `aws_s3_bucket.assets["public"]`) || !strings.Contains(names, "module.net.aws_security_group.bastion") {
			t.Errorf("finding resources:\n%s", names)
		}
		if via := texts(doc, "[data-testid=finding-linked]"); !strings.Contains(strings.Join(via, "\n"), "via module.net.aws_security_group_rule.bastion_rdp[0]") {
			t.Errorf("linked %v", via)
		}
		if rows := texts(doc, "[data-testid=not-checked-row]"); len(rows) != 1 || !strings.Contains(rows[0], "aws_lambda_function.api") {
			t.Errorf("not checked rows %v", rows)
		}

		// A YAML template saved as UTF-16 by a Windows editor, chosen as a
		// file: the script decodes it into the textarea as the server reads
		// the file; the file's own bytes are what is scanned.
		yaml := string(scanFixture(t, "template.yaml"))
		file := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(yaml)) {
			file = append(file, byte(u), byte(u>>8))
		}
		doc = scanUpload(t, c, token, yaml, "stack.yaml", file)
		if got := strings.Join(strings.Fields(doc.Find("[data-testid=scan-format]").Text()), " "); got != "Format: CloudFormation template (YAML) · file stack.yaml" {
			t.Errorf("format %q", got)
		}
		if n := doc.Find("[data-testid=finding-row]").Length(); n != 6 {
			t.Errorf("%d finding rows from the UTF-16 file, want 6", n)
		}
		if sup := texts(doc, "[data-testid=suppressed-row]"); len(sup) != 1 || !strings.Contains(sup[0], "SEC-231") {
			t.Errorf("suppressed rows %v", sup)
		}
		if rows := texts(doc, "[data-testid=not-checked-row]"); len(rows) != 2 || !strings.Contains(rows[0], "condition IsDev is false") {
			t.Errorf("not checked rows %v", rows)
		}

		// Text edited after choosing a file: the text is scanned.
		doc = scanUpload(t, c, token, `{"resources":[{"type":"database","name":"edited","publicly_accessible":true}]}`, "stack.yaml", file)
		if got := texts(doc, "[data-testid=finding-resource]"); len(got) != 1 || got[0] != "edited" {
			t.Errorf("edited text: %v", got)
		}

		// A chosen file over the limit is refused with the limit named.
		doc = scanUpload(t, c, token, "", "huge.json", bytes.Repeat([]byte(" "), scan.MaxInputBytes+1))
		if p := doc.Find("[data-testid=input-problem]").Text(); !strings.Contains(p, "5 MiB") {
			t.Errorf("huge file: %q", p)
		}

		// A YAML mistake shows its line.
		doc = scanHTMX(t, c, token, "Resources:\n  X: [unclosed\n").Doc(t)
		if p := doc.Find("[data-testid=input-problem]").Text(); !strings.Contains(p, "invalid YAML") || !strings.Contains(doc.Find("h2").Text(), "JSON or YAML") {
			t.Errorf("YAML problem %q", p)
		}
	})
}
