package scan

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestEncodings: files as Windows tools save them give the same result as
// plain UTF-8.
func TestEncodings(t *testing.T) {
	for _, file := range []string{"plan.json", "template.yaml"} {
		text := string(readTestdata(t, file))
		want := findingLines(scanAt(t, []byte(text)).Findings)
		for name, input := range map[string][]byte{
			"utf-8 bom": append([]byte{0xEF, 0xBB, 0xBF}, text...),
			"utf-16 le": utf16Bytes(text, false),
			"utf-16 be": utf16Bytes(text, true),
		} {
			equalStrings(t, file+" "+name, findingLines(scanAt(t, input).Findings), want)
		}
	}
	// Our own format too, and with a non-ASCII name.
	res := scanAt(t, utf16Bytes(`{"resources":[{"type":"s3_bucket","name":"données","public_read":true}]}`, false))
	if len(res.Findings) != 1 || res.Findings[0].Resource.Name != "données" {
		t.Errorf("utf-16 own format: %+v", res.Findings)
	}
	var se *SyntaxError
	if _, err := Scan([]byte{0xFF, 0xFE, '{'}); !errors.As(err, &se) || !strings.Contains(se.Msg, "odd number of bytes") {
		t.Errorf("odd UTF-16: %v", err)
	}
}

func TestYAMLLimitsAndErrors(t *testing.T) {
	// An alias bomb: nine levels of ten aliases would be 10^9 values.
	var b strings.Builder
	b.WriteString("Resources:\n  X:\n    Type: AWS::S3::Bucket\nBomb:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		p := "*a" + itoa(i-1)
		b.WriteString("  a" + itoa(i) + ": &a" + itoa(i) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	var le *LimitError
	if _, err := Scan([]byte(b.String())); !errors.As(err, &le) || le.Limit != "yaml_nodes" {
		t.Errorf("alias bomb: %v", err)
	}
	// Many cheap aliases.
	many := "Resources:\n  X:\n    Type: AWS::S3::Bucket\nA: &a x\nL: [" + strings.Repeat("*a, ", MaxYAMLAliases) + "*a]\n"
	if _, err := Scan([]byte(many)); !errors.As(err, &le) || le.Limit != "yaml_aliases" {
		t.Errorf("aliases: %v", err)
	}
	// Under the limits, aliases are expanded and read.
	ok := "Resources:\n  X:\n    Type: AWS::S3::Bucket\n    Properties: &p\n      AccessControl: PublicRead\n  Y:\n    Type: AWS::S3::Bucket\n    Properties: *p\n"
	if res := scanAt(t, []byte(ok)); len(res.Findings) != 2 {
		t.Errorf("aliased properties: %v", findingLines(res.Findings))
	}
	// Too deep.
	deep := "Resources:\n  X:\n    Type: AWS::S3::Bucket\n    Properties:\n      Tags: " + strings.Repeat("[", MaxDocumentDepth) + strings.Repeat("]", MaxDocumentDepth) + "\n"
	if _, err := Scan([]byte(deep)); !errors.As(err, &le) || le.Limit != "depth" {
		t.Errorf("deep YAML: %v", err)
	}
	// Deeper than the YAML parser's own bound (10,000): the same limit,
	// not "malformed YAML".
	deeper := "Resources:\n  X: " + strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001) + "\n"
	if _, err := Scan([]byte(deeper)); !errors.As(err, &le) || le.Limit != "depth" || le.Message != "YAML nesting is deeper than 128 levels; the limit is 128" {
		t.Errorf("deeper YAML: %v", err)
	}
	// Syntax error with its line; a duplicate key; a template without Resources.
	var se *SyntaxError
	if _, err := Scan([]byte("Resources:\n  X:\n    Type: [unclosed\n")); !errors.As(err, &se) || se.Line < 2 || !strings.Contains(se.Msg, "invalid YAML") {
		t.Errorf("syntax: %v", err)
	}
	var ve *ValidationError
	if _, err := Scan([]byte("Resources:\n  X:\n    Type: AWS::S3::Bucket\n  X:\n    Type: AWS::S3::Bucket\n")); !errors.As(err, &ve) || !strings.Contains(ve.Error(), "Resources.X: appears more than once") {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := Scan([]byte("Description: nothing\n")); !errors.As(err, &ve) || !strings.Contains(ve.Error(), "Resources") {
		t.Errorf("no resources: %v", err)
	}
	// A bad in-place suppression is a problem with its path.
	bad := "Resources:\n  X:\n    Type: AWS::S3::Bucket\n    Metadata:\n      parapet:\n        suppress:\n          - rule: DB_PUBLIC\n            reason: nope\n"
	if _, err := Scan([]byte(bad)); !errors.As(err, &ve) || !strings.Contains(ve.Error(), "Resources.X.Metadata.parapet.suppress[0].rule: rule DB_PUBLIC does not apply") {
		t.Errorf("bad suppression: %v", err)
	}
}

func TestDocumentLimits(t *testing.T) {
	var le *LimitError
	// Terraform nests deeper than our format: MaxDocumentDepth applies.
	deep := `{"format_version":"1.2","planned_values":{"root_module":{"resources":[{"address":"a.b","mode":"managed","type":"a","name":"b","values":{"x":` +
		strings.Repeat("[", MaxDocumentDepth) + strings.Repeat("]", MaxDocumentDepth) + `}}]}}}`
	if _, err := Scan([]byte(deep)); !errors.As(err, &le) || le.Limit != "depth" || le.Max != MaxDocumentDepth {
		t.Errorf("deep plan: %v", err)
	}
	shallow := strings.Replace(deep, strings.Repeat("[", MaxDocumentDepth)+strings.Repeat("]", MaxDocumentDepth), strings.Repeat("[", 40)+strings.Repeat("]", 40), 1)
	if _, err := Scan([]byte(shallow)); err != nil {
		t.Errorf("40 levels in a plan: %v", err)
	}
	// Size: the same limit for every format; tools can lift it.
	big := []byte(`{"format_version":"1.2","planned_values":{"root_module":{}},"pad":"` + strings.Repeat("x", MaxInputBytes) + `"}`)
	if _, err := Scan(big); !errors.As(err, &le) || le.Limit != "input_bytes" {
		t.Errorf("big plan: %v", err)
	}
	if _, err := ScanWith(big, Options{NoSizeLimit: true}); err != nil {
		t.Errorf("big plan without the size limit: %v", err)
	}
	// Resources.
	var sb strings.Builder
	sb.WriteString(`{"format_version":"1.2","values":{"root_module":{"resources":[`)
	for i := 0; i <= MaxResources; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"address":"aws_sqs_queue.q` + itoa(i) + `","mode":"managed","type":"aws_sqs_queue","name":"q"}`)
	}
	sb.WriteString(`]}}}`)
	if _, err := ScanWith([]byte(sb.String()), Options{NoSizeLimit: true}); !errors.As(err, &le) || le.Limit != "resources" {
		t.Errorf("too many resources: %v", err)
	}
	// The same resource limit for a template.
	sb.Reset()
	sb.WriteString(`{"Resources":{`)
	for i := 0; i <= MaxResources; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"Q` + itoa(i) + `":{"Type":"AWS::SQS::Queue"}`)
	}
	sb.WriteString(`}}`)
	if _, err := ScanWith([]byte(sb.String()), Options{NoSizeLimit: true}); !errors.As(err, &le) || le.Limit != "resources" {
		t.Errorf("too many template resources: %v", err)
	}
	// Suppressions in an envelope.
	one := `{"rule":"DB_PUBLIC","resource":"x","reason":"r"}`
	many := `{"document":{"resources":[]},"suppressions":[` + strings.Repeat(one+",", MaxSuppressions) + one + `]}`
	if _, err := Scan([]byte(many)); !errors.As(err, &le) || le.Limit != "suppressions" {
		t.Errorf("too many suppressions: %v", err)
	}
	atLimit := `{"document":{"resources":[]},"suppressions":[` + strings.Repeat(one+",", MaxSuppressions-1) + one + `]}`
	if _, err := Scan([]byte(atLimit)); err != nil {
		t.Errorf("%d suppressions: %v", MaxSuppressions, err)
	}
	// A syntax error in a plan has its line and column.
	var se *SyntaxError
	if _, err := Scan([]byte("{\"format_version\":\"1.2\",\n\"values\": {,}}")); !errors.As(err, &se) || se.Line != 2 {
		t.Errorf("plan syntax: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
