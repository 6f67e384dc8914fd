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
