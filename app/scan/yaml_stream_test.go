package scan

import (
	"errors"
	"testing"
)

// TestYAMLStreams: templates joined with --- were read as the first one,
// the others' resources dropped without a word; a second document is a
// syntax error at its line. A --- that only starts or ends the stream, or
// a ... ending it, is not a second document.
func TestYAMLStreams(t *testing.T) {
	const bucket = "Resources:\n  A: {Type: AWS::S3::Bucket, Properties: {AccessControl: PublicRead}}\n"
	tests := []struct {
		name, input string
		line        int // of the syntax error; 0 for a scan
	}{
		{"one document", bucket, 0},
		{"started with ---", "---\n" + bucket, 0},
		{"ended with ---", bucket + "---\n", 0},
		{"ended with ...", bucket + "...\n", 0},
		{"ended with --- and a comment", bucket + "--- # end\n", 0},
		{"two templates", bucket + "---\nResources:\n  B: {Type: AWS::S3::Bucket}\n", 3},
		{"a second document of a scalar", bucket + "--- x\n", 3},
		{"an envelope and a template", "document:\n  resources: []\n---\n" + bucket, 3},
	}
	for _, tt := range tests {
		res, err := Scan([]byte(tt.input))
		var se *SyntaxError
		switch {
		case tt.line == 0 && (err != nil || len(res.Findings) != 1):
			t.Errorf("%s: %v, %+v", tt.name, err, res)
		case tt.line != 0 && (!errors.As(err, &se) || se.Line != tt.line ||
			se.Msg != "invalid YAML: a second document starts here (---): send one template or envelope at a time"):
			t.Errorf("%s: got %v, want the second document refused at line %d", tt.name, err, tt.line)
		}
	}
}

// TestYAMLMergeKeys: a merge key (<<) adds the keys of its mapping, or of
// each mapping of its list (the first winning), that the mapping does not
// write itself; a resource written as <<: *base was refused as one
// without a Type.
func TestYAMLMergeKeys(t *testing.T) {
	const base = "Base: &public {Type: AWS::S3::Bucket, Properties: {AccessControl: PublicRead}}\n" +
		"Private: &private {Properties: {AccessControl: Private}}\nResources:\n"
	tests := []struct {
		name, input string
		want        []string
	}{
		{"a resource from a base", base + "  A:\n    <<: *public\n",
			[]string{"S3_PUBLIC_READ AWS::S3::Bucket A @ Resources.A.Properties.AccessControl"}},
		{"its own keys win", base + "  A:\n    <<: *public\n    Properties: {AccessControl: Private}\n", nil},
		{"its own keys win, written first", base + "  A:\n    Properties: {AccessControl: Private}\n    <<: *public\n", nil},
		{"the first of a list wins", base + "  A:\n    <<: [*private, *public]\n", nil},
		{"a list in the other order", base + "  A:\n    <<: [*public, *private]\n",
			[]string{"S3_PUBLIC_READ AWS::S3::Bucket A @ Resources.A.Properties.AccessControl"}},
		{"a quoted << is a key", base + "  A:\n    Type: AWS::S3::Bucket\n    '<<': *public\n", nil},
	}
	for _, tt := range tests {
		equalStrings(t, tt.name, findingLines(scanAt(t, []byte(tt.input)).Findings), tt.want)
	}
	_, err := Scan([]byte("Resources:\n  A:\n    Type: AWS::S3::Bucket\n    <<: [x]\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 4 || se.Msg != "invalid YAML: a merge key (<<) takes a mapping or a list of mappings" {
		t.Errorf("a merge of a scalar: %v", err)
	}
}
