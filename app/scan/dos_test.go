package scan

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// The tests of this file send small documents that once cost seconds of
// CPU or gigabytes of memory. They assert what a user gets (the refusal,
// or the answer) and bound the memory the scan allocates, never the time
// it takes: allocation is deterministic, wall-clock time is not.

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// scanLimited scans input, expecting a *LimitError of the given limit, and
// fails when the scan allocated more than maxMiB.
func scanLimited(t *testing.T, name string, input []byte, limit string, maxMiB uint64) *LimitError {
	t.Helper()
	var err error
	n := allocated(func() { _, err = ScanWith(input, Options{Now: testNow}) })
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Errorf("%s: got %T %v, want the %s limit", name, err, err, limit)
	}
	if n > maxMiB<<20 {
		t.Errorf("%s: allocated %d MiB, want at most %d", name, n>>20, maxMiB)
	}
	return le
}

// scanBounded scans input, which must be answered, and fails when the
// scan allocated more than maxMiB.
func scanBounded(t *testing.T, name string, input []byte, maxMiB uint64) *Result {
	t.Helper()
	var res *Result
	var err error
	n := allocated(func() { res, err = ScanWith(input, Options{Now: testNow}) })
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if n > maxMiB<<20 {
		t.Errorf("%s: allocated %d MiB, want at most %d", name, n>>20, maxMiB)
	}
	return res
}

// aliasLadder is a YAML mapping of an anchored string of size bytes and
// levels of ten aliases each to the level below: 10^levels copies.
func aliasLadder(size, levels int, indent string) string {
	var b strings.Builder
	b.WriteString(indent + "s: &s \"" + strings.Repeat("A", size) + "\"\n")
	prev := "*s"
	for i := 1; i <= levels; i++ {
		name := "l" + itoa(i)
		b.WriteString(indent + name + ": &" + name + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
		prev = "*" + name
	}
	return b.String()
}

// TestYAMLAliasBytes: an anchored string of 100 KB repeated a thousand
// times by three levels of ten aliases is 30 aliases and about a thousand
// values, under those limits, but 100 MB of text. It was re-encoded as
// JSON for an envelope (7 s, 1.2 GB for this input), and joined by !Join
// in a template (2.8 GB for a 100 KB one); it is refused.
func TestYAMLAliasBytes(t *testing.T) {
	envelope := aliasLadder(100_000, 3, "") + "document:\n  resources: []\n  pad: *l3\n"
	le := scanLimited(t, "envelope", []byte(envelope), "yaml_alias_bytes", 16)
	if le != nil && le.Message != "the YAML document's aliases repeat more than 5242880 bytes of text (5 MiB); the limit is 5242880" {
		t.Errorf("message %q", le.Message)
	}
	join := "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      Tags:\n" +
		"        - {Key: s, Value: &s \"" + strings.Repeat("A", 100_000) + "\"}\n" +
		"        - {Key: j1, Value: &j1 !Join [\"\", [*s,*s,*s,*s,*s,*s,*s,*s,*s,*s]]}\n" +
		"        - {Key: j2, Value: &j2 !Join [\"\", [*j1,*j1,*j1,*j1,*j1,*j1,*j1,*j1,*j1,*j1]]}\n" +
		"        - {Key: j3, Value: !Join [\"\", [*j2,*j2,*j2,*j2,*j2,*j2,*j2,*j2,*j2,*j2]]}\n"
	scanLimited(t, "nested !Join of aliases", []byte(join), "yaml_alias_bytes", 16)
	// A policy of 100 KB given once and aliased in 100 roles is 10 MB of
	// policies to parse: refused.
	var pol strings.Builder
	pol.WriteString("Resources:\n  R0:\n    Type: AWS::IAM::Role\n    Properties: &p\n      Policies:\n        - PolicyName: p\n          PolicyDocument: '" +
		`{"Statement":[` + strings.Repeat(`{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::b/x"},`, 1400) + `{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}` + "'\n")
	for i := 1; i < 100; i++ {
		pol.WriteString("  R" + itoa(i) + ": {Type: AWS::IAM::Role, Properties: *p}\n")
	}
	scanLimited(t, "aliased policy", []byte(pol.String()), "yaml_alias_bytes", 16)
	// Aliases that repeat a little are read.
	small := aliasLadder(100, 2, "") + "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      Tags: *l2\n      AccessControl: PublicRead\n"
	if res := scanBounded(t, "small aliases", []byte(small), 16); len(res.Findings) != 1 {
		t.Errorf("small aliases: %v", findingLines(res.Findings))
	}
}

// TestIntrinsicOutputBounded: without any alias, a template can multiply
// a long parameter default by referring to it: Fn::Join of a hundred Refs
// to a 1 MB default in fifty resources was 5 GB of strings, and a 1 MB
// policy default referred to by a thousand policies was parsed a thousand
// times. Both are refused; the same template with a short default is read.
func TestIntrinsicOutputBounded(t *testing.T) {
	join := func(def string) []byte {
		var b strings.Builder
		b.WriteString(`{"Parameters":{"P":{"Type":"String","Default":"` + def + `"}},"Resources":{`)
		for i := 0; i < 50; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"B` + itoa(i) + `":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":{"Fn::Join":["",[` +
				strings.TrimSuffix(strings.Repeat(`{"Ref":"P"},`, 100), ",") + `]]}}}`)
		}
		b.WriteString(`}}`)
		return []byte(b.String())
	}
	le := scanLimited(t, "join", join(strings.Repeat("A", 1<<20)), "cloudformation_expansion", 16)
	if le != nil && !strings.Contains(le.Message, "intrinsic functions (Ref, Fn::Join, Fn::Sub, Fn::FindInMap, Fn::Split) produce more than 20971520 bytes") {
		t.Errorf("message %q", le.Message)
	}
	scanBounded(t, "short join", join("abc"), 16)

	sub := `{"Parameters":{"P":{"Type":"String","Default":"` + strings.Repeat("A", 1<<20) + `"}},"Resources":{"B":{"Type":"AWS::S3::Bucket",` +
		`"Properties":{"BucketName":{"Fn::Sub":"` + strings.Repeat("${P}", 30) + `"}}}}}`
	scanLimited(t, "sub", []byte(sub), "cloudformation_expansion", 16)

	policy := func(statements int) []byte {
		doc := `{\"Statement\":[` + strings.Repeat(`{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::b/x\"},`, statements) +
			`{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}`
		var b strings.Builder
		b.WriteString(`{"Parameters":{"P":{"Type":"String","Default":"` + doc + `"}},"Resources":{`)
		for i := 0; i < 1000; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"P` + itoa(i) + `":{"Type":"AWS::IAM::Policy","Properties":{"PolicyDocument":{"Ref":"P"}}}`)
		}
		b.WriteString(`}}`)
		return []byte(b.String())
	}
	scanLimited(t, "policy", policy(15_000), "cloudformation_expansion", 32)
	if res := scanBounded(t, "short policy", policy(1), 32); len(res.Findings) != 1000 {
		t.Errorf("short policy: %d findings", len(res.Findings))
	}
}

// globReference is glob as the definition says, by dynamic programming
// over runes: slow, obviously right.
func globReference(pattern, name string) bool {
	p, n := []rune(pattern), []rune(name)
	// ok[j] reports whether p[:i] matches n[:j], for the current i.
	ok := make([]bool, len(n)+1)
	ok[0] = true
	for i := range p {
		next := make([]bool, len(n)+1)
		for j := 0; j <= len(n); j++ {
			switch {
			case p[i] == '*':
				next[j] = ok[j] || j > 0 && next[j-1]
			case j > 0:
				next[j] = ok[j-1] && (p[i] == '?' || p[i] == n[j-1])
			}
		}
		ok = next
	}
	return ok[len(n)]
}

// TestGlobMatchesReference compares glob with globReference on every
// pattern and name of a small alphabet, up to a few characters, and on
// patterns whose states span several words.
func TestGlobMatchesReference(t *testing.T) {
	alphabet := []string{"a", "b", "é", "*", "?"}
	var words func(n int) []string
	words = func(n int) []string {
		if n == 0 {
			return []string{""}
		}
		var out []string
		for _, w := range words(n - 1) {
			for _, c := range alphabet {
				out = append(out, w+c)
			}
		}
		return out
	}
	var patterns, names []string
	for n := 0; n <= 4; n++ {
		patterns = append(patterns, words(n)...)
	}
	for _, n := range patterns {
		if !strings.ContainsAny(n, "*?") && len(n) <= 6 {
			names = append(names, n)
		}
	}
	for _, p := range patterns {
		g := compileGlob(p)
		for _, n := range names {
			work := 0
			if got, want := g.match(n, &work), globReference(p, n); got != want {
				t.Fatalf("glob(%q, %q) = %v, want %v", p, n, got, want)
			}
		}
	}
	long := []struct{ pattern, name string }{
		{"*" + strings.Repeat("a", 100) + "b*", strings.Repeat("a", 150) + "b"},
		{"*" + strings.Repeat("a", 100) + "b*", strings.Repeat("a", 150)},
		{"x" + strings.Repeat("?a", 120) + "*y", "x" + strings.Repeat("ba", 120) + "zzy"},
		{"x" + strings.Repeat("?a", 120) + "*y", "x" + strings.Repeat("ba", 119) + "zzy"},
		{strings.Repeat("*a", 127) + "*", strings.Repeat("ba", 127)},
		{strings.Repeat("*a", 127) + "*", strings.Repeat("ba", 126)},
	}
	for _, c := range long {
		if got, want := glob(c.pattern, c.name), globReference(c.pattern, c.name); got != want {
			t.Errorf("glob(%.20q…, %.20q…) = %v, want %v", c.pattern, c.name, got, want)
		}
	}
}

// TestSuppressionMatchingBounded: a thousand suppressions of 1,005-byte
// patterns ("*aaa…ab0") against twenty resources of 2,001-character names
// took 22 s; patterns are now at most 256 bytes (400 past that), matched
// in time linear in the name, and the matching work of a scan is bounded.
func TestSuppressionMatchingBounded(t *testing.T) {
	envelope := func(resources int, pattern func(i int) string) []byte {
		var b strings.Builder
		b.WriteString(`{"document":{"resources":[`)
		for i := 0; i < resources; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"type":"s3_bucket","name":"` + strings.Repeat("a", 2000) + itoa(i) + `","public_read":true}`)
		}
		b.WriteString(`]},"suppressions":[`)
		for i := 0; i < MaxSuppressions; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"rule":"S3_PUBLIC_READ","resource":"` + pattern(i) + `","reason":"r"}`)
		}
		b.WriteString(`]}`)
		return []byte(b.String())
	}
	// The probe's patterns are too long: 400, naming the first.
	_, err := ScanWith(envelope(20, func(i int) string { return "*" + strings.Repeat("a", 1000) + "b" + itoa(i%10) }), Options{Now: testNow})
	var ve *ValidationError
	if !errors.As(err, &ve) || !strings.HasPrefix(ve.Error(), "suppressions[0].resource: is 1003 bytes; a resource pattern may have at most 256 (let * stand for the rest)") {
		t.Errorf("long patterns: %v", err)
	}
	// At the length limit, with wildcards at both ends so no literal text
	// decides them: ten resources are answered (about 10 s of
	// backtracking before), twenty are more matching than a scan may do.
	middle := func(i int) string { return "*" + strings.Repeat("a", 250) + "b*" }
	res := scanBounded(t, "ten resources", envelope(10, middle), 64)
	if len(res.Findings) != 10 || len(res.Suppressed) != 0 {
		t.Errorf("ten resources: %d findings, %d suppressed", len(res.Findings), len(res.Suppressed))
	}
	le := scanLimited(t, "twenty resources", envelope(20, middle), "suppression_matching", 64)
	if le != nil && !strings.Contains(le.Message, "start or end the patterns with literal text") {
		t.Errorf("message %q", le.Message)
	}
	// Patterns that literal text decides cost a step each, however many.
	res = scanBounded(t, "literal ends", envelope(1000, func(i int) string { return "*" + strings.Repeat("a", 250) + "b" + itoa(i%10) }), 64)
	if len(res.Findings) != 1000 {
		t.Errorf("literal ends: %d findings", len(res.Findings))
	}
}

// TestFindingsBounded: one security group of 130,000 one-port ingress
// entries (4 MB) was 130,000 findings, a 60 MB answer and a 110 MB page;
// past MaxFindings the scan is refused before the findings are built,
// and the benchmark's document, at the limit, is still answered.
func TestFindingsBounded(t *testing.T) {
	group := func(entries int) []byte {
		var b strings.Builder
		b.WriteString(`{"resources":[{"type":"security_group","name":"g","ingress":[`)
		for i := range entries {
			if i > 0 {
				b.WriteByte(',')
			}
			cidr := "0.0.0.0/0"
			if i%2 == 1 {
				cidr = "::/0"
			}
			b.WriteString(`{"port":` + itoa(1024+i/2) + `,"cidr":"` + cidr + `"}`)
		}
		b.WriteString(`]}]}`)
		return []byte(b.String())
	}
	if res := scanBounded(t, "at the limit", group(MaxFindings), 160); len(res.Findings) != MaxFindings {
		t.Errorf("at the limit: %d findings, want %d", len(res.Findings), MaxFindings)
	}
	le := scanLimited(t, "one more", group(MaxFindings+1), "findings", 140)
	if le != nil && le.Message != "the document has more than 60000 findings; the limit is 60000 per scan: split the document, or fix the causes that repeat" {
		t.Errorf("message %q", le.Message)
	}
	res := scanBounded(t, "benchmark document", benchDocument(t), 60)
	if n := len(res.Findings) + len(res.Suppressed); n != MaxFindings {
		t.Errorf("benchmark document: %d findings and suppressed, want %d", n, MaxFindings)
	}
}

// TestHCLTemplateCopiesBounded: a string template copies each value it
// interpolates, and a %{ for } directive copies what it repeats; 1 MiB
// interpolated 3,000 times asked 3 GiB before the values were counted.
// Now the parts are counted before they are joined, and the scan is
// refused with the evaluation limit.
func TestHCLTemplateCopiesBounded(t *testing.T) {
	big := `locals {
  big  = "` + strings.Repeat("a", 1<<20) + `"
  list = split(",", "` + strings.Repeat("x,", 3000) + `x")
}

resource "aws_s3_bucket" "b" {
  bucket = `
	for name, expr := range map[string]string{
		"interpolations":          `"` + strings.Repeat("${local.big}", 3000) + `"`,
		"directive":               `"%{for x in local.list}${local.big}%{endfor}"`,
		"directive over a string": `"%{for x in local.list}` + strings.Repeat("b", 1<<20) + `%{endfor}"`,
	} {
		scanLimited(t, name, []byte(big+expr+"\n}\n"), "terraform_evaluation", 200)
	}
}

// TestHCLTemplateFileBounded: templatefile's templates are metered as the
// configuration's own: a template repeating a 1 MiB variable 3,000 times
// is refused with the evaluation limit, and one calling templatefile
// itself is unknown, as Terraform refuses it.
func TestHCLTemplateFileBounded(t *testing.T) {
	files := func(template string) []File {
		return []File{{Path: "main.tf", Data: []byte(`resource "aws_iam_policy" "p" {
  policy = templatefile("p.tpl", { big = "` + strings.Repeat("a", 1<<20) + `" })
}
`)}, {Path: "p.tpl", Data: []byte(template)}}
	}
	var err error
	n := allocated(func() { _, err = ScanFiles(files(strings.Repeat("${big}", 3000)), Options{}) })
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "terraform_evaluation" || n > 200<<20 {
		t.Errorf("repeated variable: %v, allocated %d MiB; want the terraform_evaluation limit within 200 MiB", err, n>>20)
	}
	res, err := ScanFiles(files(`${templatefile("p.tpl", {big = big})}`), Options{})
	if err != nil || len(res.Findings) != 0 {
		t.Errorf("recursive template: %v, %v", res, err)
	}
}

// TestHCLJSONTemplateCopiesBounded: the templates in the strings of HCL's
// JSON form are metered as the native form's are; they used to be parsed
// only as HCL evaluated them, out of the meter's reach, and 400 KiB
// repeated 1,000 times asked 400 MB (a 1 MiB value 3,000 times, gigabytes).
func TestHCLJSONTemplateCopiesBounded(t *testing.T) {
	for name, value := range map[string]string{
		"interpolations": strings.Repeat("${local.big}", 1000),
		"directive":      "%{for x in local.list}${local.big}%{endfor}",
		"in an object":   "", // tags below
	} {
		bucket := map[string]any{"bucket": value}
		if value == "" {
			bucket = map[string]any{"tags": map[string]string{"a": strings.Repeat("${local.big}", 1000)}}
		}
		doc, _ := json.Marshal(map[string]any{
			"locals":   map[string]string{"big": strings.Repeat("a", 400<<10), "list": `${split(",", "` + strings.Repeat("x,", 1000) + `x")}`},
			"resource": map[string]any{"aws_s3_bucket": map[string]any{"b": bucket}},
		})
		var err error
		n := allocated(func() { _, err = ScanFiles([]File{{Path: "main.tf.json", Data: doc}}, Options{}) })
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "terraform_evaluation" || n > 200<<20 {
			t.Errorf("%s: %v, allocated %d MiB; want the terraform_evaluation limit within 200 MiB", name, err, n>>20)
		}
	}
}

// TestHCLSetProductBounded: setproduct of ten lists of ten elements asks
// for 10^10 tuples; the size is reckoned before they are built and the
// scan is refused with the evaluation limit.
func TestHCLSetProductBounded(t *testing.T) {
	src := `locals {
  l = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
}

resource "aws_s3_bucket" "b" {
  bucket = length(setproduct(` + strings.TrimSuffix(strings.Repeat("local.l, ", 10), ", ") + `))
}
`
	scanLimited(t, "ten lists of ten", []byte(src), "terraform_evaluation", 200)
}
