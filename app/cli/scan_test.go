package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parapet/app/cli"
)

// scanRun runs parapet scan with no environment: it needs no database.
func scanRun(args ...string) (code int, stdout, stderr string) {
	var out, errOut strings.Builder
	code = cli.Run(append([]string{"scan"}, args...), strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	return code, out.String(), errOut.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestScanCommand: parapet scan on a directory exits 1 with a critical
// finding and --fail-on critical, 0 when clean, 2 on a syntax error with
// the file and line; its JSON is the API's data object and its SARIF
// points at the files.
func TestScanCommand(t *testing.T) {
	corpus := filepath.Join("..", "scan", "testdata", "hcl", "aws_app")
	code, out, errOut := scanRun(corpus, "--fail-on", "critical")
	if code != 1 || !strings.Contains(out, "main.tf:16:3: CRITICAL S3_PUBLIC_READ") || !strings.Contains(errOut, "6 finding(s) at or above critical") {
		t.Errorf("critical: %d\n%s\n%s", code, out, errOut)
	}
	if code, _, _ := scanRun(corpus, "--fail-on", "none"); code != 0 {
		t.Errorf("--fail-on none: exit %d", code)
	}

	clean := writeFiles(t, map[string]string{
		"main.tf":          "module \"b\" {\n  source = \"./modules/b\"\n}\n",
		"modules/b/b.tf":   "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"private\"\n}\n",
		"modules/b/acl.tf": "resource \"aws_s3_bucket_acl\" \"b\" {\n  bucket = aws_s3_bucket.b.id\n  acl    = \"private\"\n}\n",
	})
	if code, out, errOut := scanRun(clean, "--fail-on", "low"); code != 0 || !strings.Contains(out, "2 resources, 0 findings") {
		t.Errorf("clean: %d\n%s\n%s", code, out, errOut)
	}

	bad := writeFiles(t, map[string]string{"main.tf": "locals {\n  x = \n}\n"})
	if code, _, errOut := scanRun(bad); code != 2 || !strings.Contains(errOut, filepath.Join(bad, "main.tf")+":2:") {
		t.Errorf("syntax error: %d %s", code, errOut)
	}
	if code, _, errOut := scanRun(filepath.Join(bad, "missing")); code != 2 || errOut == "" {
		t.Errorf("missing path: %d %s", code, errOut)
	}
	if code, _, _ := scanRun(corpus, "--format", "xml"); code != 2 {
		t.Errorf("unknown format: exit %d", code)
	}

	code, out, _ = scanRun(corpus, "--format", "json", "--fail-on", "none")
	var data struct {
		Format   string
		Findings []struct {
			Rule     string
			Location struct{ File string }
		}
	}
	if err := json.Unmarshal([]byte(out), &data); err != nil || code != 0 || data.Format != "terraform_hcl" || len(data.Findings) != 7 {
		t.Fatalf("json: %d %v %+v", code, err, data)
	}
	if f := filepath.ToSlash(filepath.Join(corpus, "modules", "net", "main.tf")); !strings.Contains(out, `"file": "`+f+`"`) {
		t.Errorf("json locations are not relative to the current directory (%s)", f)
	}

	// A baseline of this very result: nothing new, nothing fails.
	base := filepath.Join(t.TempDir(), "base.sarif")
	_, sarif, _ := scanRun(corpus, "--format", "sarif", "--fail-on", "none")
	os.WriteFile(base, []byte(sarif), 0o644)
	if code, _, errOut := scanRun(corpus, "--baseline", base); code != 0 {
		t.Errorf("with its own baseline: exit %d %s", code, errOut)
	}
	sup := filepath.Join(t.TempDir(), "sup.json")
	os.WriteFile(sup, []byte(`[{"rule":"SG_ADMIN_PORT_OPEN","resource":"*","reason":"bastion"},{"rule":"S3_PUBLIC_READ","resource":"*","reason":"site"},`+
		`{"rule":"DB_PUBLIC","resource":"*","reason":"x"},{"rule":"IAM_FULL_ADMIN","resource":"*","reason":"x"},{"rule":"SG_ALL_PORTS_OPEN","resource":"*","reason":"x"}]`), 0o644)
	if code, out, _ := scanRun(corpus, "--suppressions", sup, "--fail-on", "critical"); code != 0 || !strings.Contains(out, "1 findings") {
		t.Errorf("suppressions: exit %d\n%s", code, out)
	}
}
