package scan

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestDuplicateKeysInEveryFormat: a key given twice is refused wherever
// the engine reads JSON or YAML, with its path, line and column: in a
// template sent as YAML (which the API's JSON check does not see), in a
// template inside an envelope's string, in a state, in the envelope
// itself and in a YAML mapping. Each was read before, the last copy
// winning: "AccessControl": "PublicRead", "AccessControl": "Private" was
// a private bucket.
func TestDuplicateKeysInEveryFormat(t *testing.T) {
	cfn := "{\n  \"AWSTemplateFormatVersion\": \"2010-09-09\",\n  \"Resources\": {\n" +
		`    "B": {"Type": "AWS::S3::Bucket", "Properties": {"AccessControl": "PublicRead", "AccessControl": "Private"}}` + "\n  }\n}\n"
	quoted := strings.ReplaceAll(strings.ReplaceAll(cfn, `"`, `\"`), "\n", `\n`)
	const dup = "appears more than once (parsers disagree on which copy counts)"
	for _, c := range []struct{ name, input, want string }{
		{"template", cfn, "Resources.B.Properties.AccessControl: " + dup + " (line 4, column 84)"},
		{"template in an envelope's string", `{"document": "` + quoted + `"}`, "Resources.B.Properties.AccessControl: " + dup + " (line 4, column 84)"},
		{"state", `{"format_version":"1.0","values":{"root_module":{"resources":[` + "\n" +
			`{"address":"aws_security_group.a","mode":"managed","type":"aws_security_group","values":{"ingress":[{"cidr_blocks":["0.0.0.0/0"],"cidr_blocks":[]}]}}]}}}`,
			"values.root_module.resources[0].values.ingress[0].cidr_blocks: " + dup + " (line 2, column 130)"},
		{"plan, twice planned_values", `{"format_version":"1.2","planned_values":{},"planned_values":{"root_module":{}}}`,
			"planned_values: " + dup + " (line 1, column 45)"},
		{"envelope", `{"document":{"resources":[]},"document":{"resources":[{"type":"s3_bucket","name":"b","public_read":true}]}}`,
			"document: " + dup + " (line 1, column 30)"},
		{"envelope's suppression", `{"document":{"resources":[]},"suppressions":[{"rule":"S3_PUBLIC_READ","resource":"b","resource":"*","reason":"r"}]}`,
			"suppressions[0].resource: " + dup + " (line 1, column 86)"},
		{"yaml", "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      AccessControl: PublicRead\n      AccessControl: Private\n",
			"Resources.B.Properties.AccessControl: " + dup + " (line 6, column 7)"},
	} {
		_, err := ScanWith([]byte(c.input), Options{Now: testNow})
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestInvalidUTF8: bytes that are not UTF-8 are refused at the first one,
// with its line and column, in JSON and YAML alike (JSON was read with
// U+FFFD in their place; YAML was refused at line 1, column 1).
func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		name, input string
		line, col   int
		msg         string
	}{
		{"json", `{"Resources":{"B":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":"caf` + "\xe9" + `"}}}}`, 1, 76,
			"invalid UTF-8 (byte 0xe9): send the document as UTF-8 text"},
		{"yaml", "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: \"caf\xe9\"\n", 5, 23,
			"invalid YAML: invalid UTF-8 (byte 0xe9): send the document as UTF-8 text"},
		{"after other text", "Description: \"déjà\"\nResources: {B: {Type: \"\xff\"}}\n", 2, 24,
			"invalid YAML: invalid UTF-8 (byte 0xff): send the document as UTF-8 text"},
	} {
		_, err := Scan([]byte(c.input))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != c.line || se.Column != c.col || se.Msg != c.msg {
			t.Errorf("%s: got %v, want line %d, column %d: %s", c.name, err, c.line, c.col, c.msg)
		}
	}
}

// TestDetectionReadsEveryKey: the format does not depend on the order of
// the top-level keys. A raw state file sorted by key (resources before
// terraform_version) was read as our own format and passed with nothing
// checked; it is read as the state it is, as the unsorted one.
func TestDetectionReadsEveryKey(t *testing.T) {
	state := `"resources":[{"mode":"managed","type":"aws_security_group","name":"web","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",` +
		`"instances":[{"attributes":{"id":"sg-1","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":22,"to_port":22,"protocol":"tcp"}]}}]}]`
	for _, c := range []struct{ name, input, format, problem string }{
		{"raw state", `{"version":4,"terraform_version":"1.6.6","serial":3,"lineage":"x","outputs":{},` + state + `}`, FormatTerraformState, ""},
		{"raw state, sorted", `{"check_results":null,"lineage":"x","outputs":{},` + state + `,"serial":3,"terraform_version":"1.6.6","version":4}`, FormatTerraformState, ""},
		{"state after resources", `{"resources":[],"format_version":"1.0","values":{"root_module":{}}}`, FormatTerraformState, ""},
		{"our format with values", `{"values":{"x":1},"resources":[{"type":"s3_bucket","name":"b"}]}`, FormatParapet, ""},
		{"our format, values after", `{"resources":[{"type":"s3_bucket","name":"b"}],"configuration":{}}`, FormatParapet, ""},
		{"envelope key after resources", `{"resources":[],"suppressions":[]}`, "", `unknown field "resources"`},
		{"template key after resources", `{"resources":[],"Resources":{"B":{"Type":"AWS::S3::Bucket"}}}`, FormatCloudFormationJSON, ""},
	} {
		res, err := ScanWith([]byte(c.input), Options{Now: testNow})
		switch {
		case c.problem != "":
			if err == nil || !strings.Contains(err.Error(), c.problem) {
				t.Errorf("%s: got %v, want a problem with %q", c.name, err, c.problem)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case res.Format != c.format:
			t.Errorf("%s: format %s, want %s", c.name, res.Format, c.format)
		}
	}
}

// TestEveryDuplicateKeyReported: every key given twice is reported with
// its path and line, not only the first (the read stopped there, so a
// block pasted twice took one round trip per key); past MaxDuplicateKeys
// the others are counted.
func TestEveryDuplicateKeyReported(t *testing.T) {
	const dup = "appears more than once (parsers disagree on which copy counts)"
	plan := "{\"format_version\":\"1.2\",\"planned_values\":{\"root_module\":{\"resources\":[\n" +
		`{"address":"aws_s3_bucket.a","mode":"managed","type":"aws_s3_bucket","values":{"acl":"private","acl":"public-read"}},` + "\n" +
		`{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","mode":"managed","values":{}}` + "\n]}}}"
	yml := "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Type: AWS::S3::Bucket\n  C:\n    Type: AWS::S3::Bucket\n    Properties: {AccessControl: Private, AccessControl: PublicRead}\n"
	for _, c := range []struct {
		name, input string
		want        []Problem
	}{
		{"plan", plan, []Problem{
			{"planned_values.root_module.resources[0].values.acl", dup + " (line 2, column 96)"},
			{"planned_values.root_module.resources[1].mode", dup + " (line 3, column 70)"}}},
		{"yaml", yml, []Problem{
			{"Resources.B.Type", dup + " (line 4, column 5)"},
			{"Resources.C.Properties.AccessControl", dup + " (line 7, column 42)"}}},
	} {
		_, err := ScanWith([]byte(c.input), Options{Now: testNow})
		var ve *ValidationError
		if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Problems, c.want) || ve.Omitted != 0 {
			t.Errorf("%s: got %#v, want %#v", c.name, err, c.want)
		}
	}

	var b strings.Builder
	b.WriteString(`{"AWSTemplateFormatVersion":"2010-09-09","Resources":{`)
	for i := range MaxDuplicateKeys + 5 {
		fmt.Fprintf(&b, "\n\"R%d\":{\"Type\":\"AWS::S3::Bucket\",\"Type\":\"AWS::S3::Bucket\"},", i)
	}
	b.WriteString("\n\"Last\":{\"Type\":\"AWS::S3::Bucket\"}}}")
	_, err := ScanWith([]byte(b.String()), Options{Now: testNow})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != MaxDuplicateKeys || ve.Omitted != 5 {
		t.Fatalf("many: got %v", err)
	}
	if p := ve.Problems[MaxDuplicateKeys-1]; p.Path != "Resources.R19.Type" || p.Message != dup+" (line 21, column 33)" {
		t.Errorf("the last listed: %+v", p)
	}
	if want := fmt.Sprintf("(and %d more problems)", MaxDuplicateKeys+4); !strings.HasSuffix(ve.Error(), want) {
		t.Errorf("message %q, want it to end with %q", ve.Error(), want)
	}
}
