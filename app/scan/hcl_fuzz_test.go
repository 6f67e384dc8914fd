package scan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzHCL checks the Terraform source front door: a file, or two split at
// a NUL byte (a root and a module it may call), never panics, fails only
// with the documented error types, and every finding it makes points at a
// line of a file that was sent.
func FuzzHCL(f *testing.F) {
	for _, name := range []string{"aws_app/main.tf", "aws_split/main.tf", "aws_app/modules/net/main.tf"} {
		b, err := os.ReadFile(filepath.Join("testdata", "hcl", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"module \"m\" {\n  source = \"./m\"\n  x = 1\n}\n\x00variable \"x\" {}\nresource \"aws_db_instance\" \"d\" {\n  count = var.x\n  publicly_accessible = true\n}\n",
		`locals { a = local.b, b = local.a }`,
		`resource "aws_security_group" "g" { dynamic "ingress" { for_each = {a = 22} content { from_port = ingress.value } } }`,
		`resource "aws_s3_bucket" "b" { for_each = toset(["a", "b"]) bucket = each.key }`,
		`x = "${jsonencode(jsondecode("[[[1]]]"))}"`,
		`locals { x = cidrsubnet("10.0.0.0/8", 8, 300) }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files := []File{{Path: "main.tf", Data: data}}
		if k := bytes.IndexByte(data, 0); k >= 0 {
			files = []File{{Path: "main.tf", Data: data[:k]}, {Path: "m/main.tf", Data: data[k+1:]}}
		}
		res, err := ScanFiles(files, Options{})
		if err != nil {
			var se *SyntaxError
			var ve *ValidationError
			var le *LimitError
			if !errors.As(err, &se) && !errors.As(err, &ve) && !errors.As(err, &le) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		lines := map[string]int{}
		for _, f := range files {
			lines[f.Path] = bytes.Count(f.Data, []byte("\n")) + 1
		}
		for _, f := range res.Findings {
			l := f.Location
			if l == nil || l.StartLine < 1 || l.StartLine > lines[l.File] {
				t.Fatalf("%s on %s: location %+v outside the files", f.Rule, f.Resource.Name, l)
			}
		}
	})
}
