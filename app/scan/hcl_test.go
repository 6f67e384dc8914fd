package scan

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// readRepo reads a corpus repository of testdata/hcl as the front doors
// send it: every file but the test's own (expected.txt, plan.json).
func readRepo(t testing.TB, name string) []File {
	t.Helper()
	root := filepath.Join("testdata", "hcl", name)
	var files []File
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "expected.txt" || d.Name() == "plan.json" {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		files = append(files, File{Path: filepath.ToSlash(rel), Data: b})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// outcome writes a result as expected.txt has it: a line per finding
// (rule, address, file:line) and per module not evaluated, sorted.
func outcome(res *Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%s %s %s:%d", f.Rule, f.Resource.Name, f.Location.File, f.Location.StartLine))
	}
	for _, w := range res.Warnings {
		for _, r := range w.Resources {
			out = append(out, "not-evaluated "+r)
		}
	}
	for _, n := range res.NotChecked {
		for _, a := range n.Addresses {
			out = append(out, "not-checked "+a)
		}
	}
	slices.Sort(out)
	return out
}

// TestHCLCorpus: each hand-written repository of testdata/hcl gives
// exactly the findings its expected.txt lists, with Terraform addresses
// and the line to change, and nothing for clean resources or values
// known only after apply.
func TestHCLCorpus(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "hcl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "hcl", d.Name(), "expected.txt"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := ScanFiles(readRepo(t, d.Name()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != FormatTerraformHCL {
				t.Errorf("format %s", res.Format)
			}
			var lines []string
			for _, l := range strings.Split(string(want), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					lines = append(lines, l)
				}
			}
			slices.Sort(lines)
			if got := outcome(res); !slices.Equal(got, lines) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(lines, "\n"))
			}
		})
	}
}

// TestHCLSameAsPlan: the same resources as source and as a plan give the
// same findings (rule, resource, linked resource, message).
func TestHCLSameAsPlan(t *testing.T) {
	for _, name := range []string{"aws_split"} {
		plan, err := os.ReadFile(filepath.Join("testdata", "hcl", name, "plan.json"))
		if err != nil {
			t.Fatal(err)
		}
		fromPlan, err := Scan(plan)
		if err != nil {
			t.Fatal(err)
		}
		fromSource, err := ScanFiles(readRepo(t, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		key := func(res *Result) []string {
			var out []string
			for _, f := range res.Findings {
				via := ""
				if f.Source.Linked != nil {
					via = f.Source.Linked.Name
				}
				out = append(out, f.Rule+" "+f.Resource.Name+" "+via+" "+f.Message+" "+f.Fingerprint)
			}
			slices.Sort(out)
			return out
		}
		if a, b := key(fromPlan), key(fromSource); len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%s: plan:\n%s\nsource:\n%s", name, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	}
}

// TestHCLSARIFSchema: SARIF from source validates against the OASIS
// schema, and each result points at the file and a region with a line.
func TestHCLSARIFSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join("..", "..", "..", "shared", "data", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ScanFiles(readRepo(t, "aws_app"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := SARIF(res, SARIFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	results := log.Runs[0].Results
	if len(results) != len(res.Findings) || len(results) == 0 {
		t.Fatalf("%d results for %d findings", len(results), len(res.Findings))
	}
	files := map[string]bool{}
	for i, r := range results {
		pl := r.Locations[0].PhysicalLocation
		if pl.Region == nil || pl.Region.StartLine < 1 || pl.Region.StartColumn < 1 || pl.Region.EndLine < pl.Region.StartLine {
			t.Errorf("result %d: region %+v", i, pl.Region)
		}
		files[pl.ArtifactLocation.URI] = true
	}
	if !files["main.tf"] || !files["modules/net/main.tf"] {
		t.Errorf("artifacts %v: want main.tf and modules/net/main.tf", files)
	}
}

// TestHCLPastedAlone: one .tf file pasted is read as Terraform source.
func TestHCLPastedAlone(t *testing.T) {
	res, err := Scan([]byte("# a bucket\nresource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n}\n\nresource \"aws_s3_bucket_acl\" \"a\" {\n  bucket = aws_s3_bucket.b.id\n  acl    = \"public-read\"\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := outcome(res); !slices.Equal(got, []string{"S3_PUBLIC_READ aws_s3_bucket.b main.tf:8"}) {
		t.Errorf("got %v", got)
	}
	_, err = Scan([]byte("resource \"aws_s3_bucket\" \"b\" {\n  bucket = \n}\n"))
	var syn *SyntaxError
	if !errors.As(err, &syn) || syn.File != "main.tf" || syn.Line != 2 {
		t.Errorf("syntax error: %v", err)
	}
}

// TestHCLLimits: inputs past a documented limit are refused with the
// limit named, and a self-calling module ends.
func TestHCLLimits(t *testing.T) {
	self := []File{{Path: "main.tf", Data: []byte(`module "again" { source = "./" }`)}}
	deep := strings.Repeat("[", MaxDocumentDepth+1)
	for name, c := range map[string]struct {
		files []File
		limit string
	}{
		"self-calling module": {self, "module_depth"},
		"count too large":     {[]File{{Path: "main.tf", Data: []byte(`resource "aws_s3_bucket" "b" { count = 100000000 }`)}}, "resources"},
		"too many files":      {make([]File, MaxFiles+1), "files"},
		"path depth":          {[]File{{Path: strings.Repeat("d/", MaxPathDepth+1) + "main.tf", Data: []byte("")}}, "path_depth"},
		"nesting":             {[]File{{Path: "main.tf", Data: []byte("locals { x = " + deep + " }")}}, "depth"},
		"doubling locals":     {[]File{{Path: "main.tf", Data: []byte(doublingLocals(40))}}, "terraform_evaluation"},
		// Chains the parser would recurse on until the stack overflows.
		"unary chain":       {[]File{{Path: "main.tf", Data: []byte("locals {\n  x = " + strings.Repeat("!", 1<<20) + "true\n}\n")}}, "expression_operators"},
		"conditional chain": {[]File{{Path: "main.tf", Data: []byte("locals {\n  x = " + strings.Repeat("true ? 1 : ", 1<<16) + "1\n}\n")}}, "expression_operators"},
		"chain in parens":   {[]File{{Path: "main.tf", Data: []byte("locals {\n  x = (" + strings.Repeat("1 +\n", 1<<12) + "1)\n}\n")}}, "expression_operators"},
		"json template":     {[]File{{Path: "main.tf.json", Data: []byte(`{"locals": {"x": "${` + strings.Repeat("-", 1<<16) + `1}"}}`)}}, "expression_operators"},
		"interpolations":    {[]File{{Path: "main.tf", Data: []byte("locals {\n  x = " + strings.Repeat(`"${`, 200) + "1" + strings.Repeat(`}"`, 200) + "\n}\n")}}, "depth"},
		// A for expression in another iterates the product of their lists.
		"nested for": {[]File{{Path: "main.tf", Data: []byte("locals {\n  big = [" + strings.Repeat("1, ", 4000) + "1]\n  x = [for a in local.big : [for b in local.big : b]]\n}\n" +
			"resource \"aws_s3_bucket\" \"b\" {\n  bucket = length(local.x)\n}\n")}}, "terraform_evaluation"},
		// Functions whose result or work is a product of their arguments:
		// a gigabyte of spaces, 10^8 comparisons.
		"indent": {[]File{{Path: "main.tf", Data: []byte("locals {\n  t = join(\"\\n\", range(1000))\n  x = indent(100000000, local.t)\n}\n" +
			"resource \"aws_s3_bucket\" \"b\" {\n  bucket = local.x\n}\n")}}, "terraform_evaluation"},
		"matchkeys": {[]File{{Path: "main.tf", Data: []byte("locals {\n  l = flatten([for a in range(1000) : range(10)])\n  x = matchkeys(local.l, local.l, local.l)\n}\n" +
			"resource \"aws_s3_bucket\" \"b\" {\n  bucket = length(local.x)\n}\n")}}, "terraform_evaluation"},
	} {
		_, err := ScanFiles(c.files, Options{})
		var lim *LimitError
		if !errors.As(err, &lim) || lim.Limit != c.limit {
			t.Errorf("%s: %v, want limit %s", name, err, c.limit)
		}
	}
	for _, p := range []string{"../etc/passwd", "/etc/passwd", "a/../../b.tf", `a\b.tf`} {
		var val *ValidationError
		if _, err := ScanFiles([]File{{Path: p, Data: []byte("")}}, Options{}); !errors.As(err, &val) {
			t.Errorf("path %q: %v, want a validation error", p, err)
		}
	}
}

// doublingLocals makes n locals each twice the one before.
func doublingLocals(n int) string {
	var b strings.Builder
	b.WriteString("locals {\n  l0 = \"xxxxxxxxxxxxxxxx\"\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  l%d = \"${local.l%d}${local.l%d}\"\n", i, i-1, i-1)
	}
	b.WriteString("}\nresource \"aws_s3_bucket\" \"b\" { bucket = local.l" + fmt.Sprint(n-1) + " }\n")
	return b.String()
}

// TestHCL10000Blocks: a file of 10,000 resource blocks is scanned within
// the limits.
func TestHCL10000Blocks(t *testing.T) {
	var b strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&b, "resource \"aws_security_group\" \"g%d\" {\n  ingress {\n    from_port = 22\n    to_port = 22\n    protocol = \"tcp\"\n    cidr_blocks = [\"10.0.0.0/8\"]\n  }\n}\n", i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(b.String())}}, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Resources != 10_000 || len(res.Findings) != 0 {
		t.Errorf("%d resources, %d findings", res.Summary.Resources, len(res.Findings))
	}
	// What the scan allocated in all (HCL's lexer grows its token slice
	// by doubling), against the input's size: linear, where a quadratic
	// cost would pass the bound. The peak heap is SourceMemoryPerByte.
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes of source, %d MB allocated (%dx)", b.Len(), alloc>>20, alloc/uint64(b.Len()))
	if alloc > 4*SourceMemoryPerByte*uint64(b.Len()) {
		t.Errorf("allocated %d MB for %d bytes of source", alloc>>20, b.Len())
	}
}
