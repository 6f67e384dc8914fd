package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"parapet/app/apptest"
)

// multipartFiles builds a multipart/form-data body, one part per file, the
// filename its path as given.
func multipartFiles(t *testing.T, files map[string]string) (body, contentType string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for name, data := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
		h.Set("Content-Type", "text/plain")
		p, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte(data))
	}
	w.Close()
	return b.String(), w.FormDataContentType()
}

// corpusRepo reads a repository of the scanner's HCL corpus.
func corpusRepo(t *testing.T, name string) map[string]string {
	t.Helper()
	root := filepath.Join("..", "scan", "testdata", "hcl", name)
	files := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "expected.txt" || d.Name() == "plan.json" {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, _ := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return files
}

// TestScanAPIMultipart: a directory of Terraform source, a file per part,
// scans with each finding's file and range; bad paths and limits are
// refused naming them; 20 requests at once get the same answer.
func TestScanAPIMultipart(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scanhcl@example.com")
		c := env.Client()
		post := func(files map[string]string, query string) *apptest.Response {
			body, ct := multipartFiles(t, files)
			return c.Do("POST", scanPath+query, body, append(bearer(s.Key), "Content-Type", ct)...)
		}
		res := post(corpusRepo(t, "aws_app"), "")
		if res.StatusCode != 200 {
			t.Fatalf("%d %s", res.StatusCode, res.Body)
		}
		var out struct {
			Data struct {
				Format   string
				Findings []struct {
					Rule     string
					Resource struct{ Name string }
					Location *struct {
						File  string
						Start int `json:"start_line"`
					}
				}
			}
		}
		json.Unmarshal([]byte(res.Body), &out)
		if out.Data.Format != "terraform_hcl" || len(out.Data.Findings) != 7 {
			t.Fatalf("format %s, %d findings: %s", out.Data.Format, len(out.Data.Findings), res.Body)
		}
		inModule := false
		for _, f := range out.Data.Findings {
			if f.Location == nil || f.Location.File == "" || f.Location.Start < 1 {
				t.Errorf("%s on %s: location %+v", f.Rule, f.Resource.Name, f.Location)
			}
			inModule = inModule || f.Location != nil && f.Location.File == "modules/net/main.tf" && strings.HasPrefix(f.Resource.Name, "module.net.")
		}
		if !inModule {
			t.Error("no finding located in modules/net/main.tf")
		}
		sarif := post(corpusRepo(t, "aws_app"), "?format=sarif")
		if sarif.StatusCode != 200 || !strings.Contains(sarif.Body, `"uri":"modules/net/main.tf"`) || !strings.Contains(sarif.Body, `"startColumn"`) {
			t.Errorf("sarif: %d %.300s", sarif.StatusCode, sarif.Body)
		}

		// A syntax error names the file and line.
		e := scanExpectError(t, "syntax", post(map[string]string{"main.tf": "resource \"a\" \"b\" {\n  x = \n}\n"}, ""), 400, "invalid_request")
		if !strings.Contains(e.Error.Message, "main.tf") || !strings.Contains(e.Error.Message, "line 2") {
			t.Errorf("syntax message %q", e.Error.Message)
		}
		for _, p := range []string{"../main.tf", "/etc/main.tf", "a/../../main.tf"} {
			scanExpectError(t, "path "+p, post(map[string]string{p: "locals {}"}, ""), 400, "invalid_request")
		}
		deep := strings.Repeat("d/", 17) + "main.tf"
		if e := scanExpectError(t, "depth", post(map[string]string{deep: "locals {}"}, ""), 413, "payload_too_large"); !strings.Contains(e.Error.Message, "limit is 16") {
			t.Errorf("depth message %q", e.Error.Message)
		}
		many := map[string]string{}
		for i := range 1001 {
			many[fmt.Sprintf("f%d.tf", i)] = ""
		}
		if e := scanExpectError(t, "files", post(many, ""), 413, "payload_too_large"); !strings.Contains(e.Error.Message, "1000 files") {
			t.Errorf("files message %q", e.Error.Message)
		}
		self := map[string]string{"main.tf": `module "again" { source = "./" }`}
		if e := scanExpectError(t, "module depth", post(self, ""), 413, "payload_too_large"); !strings.Contains(e.Error.Message, "limit is 16") {
			t.Errorf("module depth message %q", e.Error.Message)
		}

		// Concurrent scans of the same directory agree.
		var wg sync.WaitGroup
		bodies := make([]string, 20)
		body, ct := multipartFiles(t, corpusRepo(t, "aws_split"))
		for i := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := c.Do("POST", scanPath, body, append(bearer(s.Key), "Content-Type", ct)...)
				bodies[i] = fmt.Sprint(r.StatusCode, len(r.Body))
			}()
		}
		wg.Wait()
		for i := range bodies {
			if bodies[i] != bodies[0] || !strings.HasPrefix(bodies[0], "200") {
				t.Fatalf("concurrent answers differ: %v", bodies)
			}
		}
	})
}
