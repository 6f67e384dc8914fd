package scan

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestYAMLSyntaxErrorLine: a YAML template's syntax error names the
// 1-based line an editor marks, the one the parser could not read. The
// parser's errors came out one line early and at the line where the
// enclosing mapping or list began (line 3 for a key mis-indented on
// line 7); the scanner's errors were already right and stay so.
func TestYAMLSyntaxErrorLine(t *testing.T) {
	const head = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n"
	for _, tc := range []struct {
		name, body string
		line       int
		msg        string
	}{
		{"key mis-indented", "      BucketName: x\n     Tags: []\n", 7, "did not find expected key"},
		{"unclosed list", "      BucketName: [x, y\n      Other: 1\n", 6, "did not find expected ',' or ']'"},
		{"unclosed map", "      BucketName: {a: 1\n", 6, "did not find expected ',' or '}'"},
		{"key among list items", "      Tags:\n        - Key: a\n          Value: b\n        Key: c\n", 9, "did not find expected '-' indicator"},
		{"after a multi-line list", "      A: [1,\n        2]\n      B: 3\n    C: 4\n   D: 5\n", 10, "did not find expected key"},
		{"mapping value (scanner)", "      A: b: c\n", 6, "mapping values are not allowed in this context"},
		{"tab (scanner)", "\tA: 1\n", 6, "found character that cannot start any token"},
	} {
		_, err := Scan([]byte(head + tc.body))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tc.line || se.Msg != "invalid YAML: "+tc.msg {
			t.Errorf("%s: got %v, want line %d: invalid YAML: %s", tc.name, err, tc.line, tc.msg)
		}
	}
}

// TestYAMLSyntaxErrorLineBounded: finding the line reads at most
// yamlSearchBytes of text (cuts of a 4.9 MB template would be parsed
// twenty times, seconds on the error path); past that the line is where
// the enclosing mapping began, 1-based (line 3, where Bucket's keys
// begin; a key is mis-indented at the end).
func TestYAMLSyntaxErrorLineBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n")
	for i := 0; b.Len() < 4_900_000; i++ {
		b.WriteString("      K" + strconv.Itoa(i) + ": v\n")
	}
	b.WriteString("     Bad: 1\n")
	_, err := Scan([]byte(b.String()))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || se.Msg != "invalid YAML: did not find expected key" {
		t.Errorf("got %v, want line 3: invalid YAML: did not find expected key", err)
	}
}

// TestYAMLUnknownAliasLine: an alias to an anchor not defined before it
// is reported at the alias's line and column, which the library does not
// give (it came out at line 1, column 1): past a *name in a comment or
// inside a scalar above it, in block and flow style, for a merge key too.
func TestYAMLUnknownAliasLine(t *testing.T) {
	const head = "AWSTemplateFormatVersion: '2010-09-09'\n# Properties reuse *props, defined below\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n"
	for _, tc := range []struct {
		name, body string
		line, col  int
		alias      string
	}{
		{"block value", "    Metadata: {Note: 'see *props'}\n    Properties: *props\n", 7, 17, "props"},
		{"merge key", "    Properties:\n      Description: a *base here\n      <<: *base\n", 8, 11, "base"},
		{"flow list", "    DependsOn: [A, \"*tags\"]\n    Properties: {Tags: [*tags]}\n", 7, 25, "tags"},
		{"defined after", "    Properties: *later\n  Other: &later\n    Type: AWS::SNS::Topic\n", 6, 17, "later"},
	} {
		_, err := Scan([]byte(head + tc.body))
		var se *SyntaxError
		want := "invalid YAML: unknown anchor '" + tc.alias + "' referenced (the alias *" + tc.alias + " needs an anchor &" + tc.alias + " earlier in the document)"
		if !errors.As(err, &se) || se.Line != tc.line || se.Column != tc.col || se.Msg != want {
			t.Errorf("%s: got %v, want line %d, column %d: %s", tc.name, err, tc.line, tc.col, want)
		}
	}
}

// TestYAMLControlCharacterLine: a control character YAML does not allow
// (one pasted from a terminal, a C1 control from a mis-decoded file) is
// reported where it is, and named; the library gives no line for it and
// it came out at line 1, column 1.
func TestYAMLControlCharacterLine(t *testing.T) {
	const head = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n"
	for _, tc := range []struct {
		name, body string
		line, col  int
		char       string
	}{
		{"C0 in a quoted scalar", "      BucketName: \"logs\x01\"\n", 6, 24, "U+0001"},
		{"C1 after an accent", "      BucketName: café \u009b\n", 6, 24, "U+009B"},
		{"escape in a comment", "      # \x1b[31m red\n      BucketName: x\n", 6, 9, "U+001B"},
	} {
		_, err := Scan([]byte(head + tc.body))
		var se *SyntaxError
		want := "invalid YAML: control characters are not allowed (" + tc.char + " here): YAML text takes tab, line feed and carriage return, no other control character"
		if !errors.As(err, &se) || se.Line != tc.line || se.Column != tc.col || se.Msg != want {
			t.Errorf("%s: got %v, want line %d, column %d: %s", tc.name, err, tc.line, tc.col, want)
		}
	}
}

// TestYAMLAliasInsideItsAnchor: an alias inside the value its own anchor
// names (in a list, or through a merge key) is a value without end; it
// was refused as nesting deeper than 128 levels, which does not say what
// is wrong. It is now a syntax error at the alias. An alias to an
// anchor outside it still reads.
func TestYAMLAliasInsideItsAnchor(t *testing.T) {
	const head = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n"
	for _, tc := range []struct {
		name, body string
		line, col  int
		alias      string
	}{
		{"in a list", "    Properties: &props\n      Tags: [*props]\n", 6, 14, "props"},
		{"merge key", "    Properties: &p\n      Nested:\n        <<: *p\n", 7, 13, "p"},
	} {
		_, err := Scan([]byte(head + tc.body))
		var se *SyntaxError
		want := "invalid YAML: the alias *" + tc.alias + " is inside the value its anchor &" + tc.alias + " names, so that value would never end"
		if !errors.As(err, &se) || se.Line != tc.line || se.Column != tc.col || se.Msg != want {
			t.Errorf("%s: got %v, want line %d, column %d: %s", tc.name, err, tc.line, tc.col, want)
		}
	}
	res := mustScan(t, head+"    Properties: &public\n      AccessControl: PublicRead\n  Other:\n    Type: AWS::S3::Bucket\n    Properties: *public\n")
	equalStrings(t, "findings", summarize(res.Findings), []string{
		`S3_PUBLIC_READ Resources.Bucket.Properties.AccessControl: bucket "Bucket" allows public read (AccessControl is "PublicRead"): anyone on the internet can list and download its objects`,
		`S3_PUBLIC_READ Resources.Other.Properties.AccessControl: bucket "Other" allows public read (AccessControl is "PublicRead"): anyone on the internet can list and download its objects`,
	})
}
