package api_test

import (
	"testing"

	"parapet/app/apptest"
)

// TestScanAPIStrictInput: what the JSON check refuses in an
// application/json body is refused by the engine too when the body comes
// as YAML: a key given twice, and bytes that are not UTF-8, with where.
func TestScanAPIStrictInput(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan-strict@example.com")
		c := env.Client()
		yamlType := append([]string{"Content-Type", "application/yaml"}, bearer(s.Key)...)

		dup := `{"Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {"AccessControl": "PublicRead", "AccessControl": "Private"}}}}`
		e := scanExpectError(t, "duplicate key as yaml", c.Do("POST", scanPath, dup, yamlType...), 400, "invalid_request")
		want := "Resources.B.Properties.AccessControl: appears more than once (parsers disagree on which copy counts) (line 1, column 95)"
		if e.Error.Message != want || len(e.Error.Details) != 1 || e.Error.Details[0].Path != "Resources.B.Properties.AccessControl" {
			t.Errorf("duplicate key: %q %+v, want %q", e.Error.Message, e.Error.Details, want)
		}

		bad := "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: \"caf\xe9\"\n"
		e = scanExpectError(t, "invalid utf-8 yaml", c.Do("POST", scanPath, bad, yamlType...), 400, "invalid_request")
		if want := "malformed YAML at line 5, column 23: invalid UTF-8 (byte 0xe9): send the document as UTF-8 text"; e.Error.Message != want {
			t.Errorf("invalid utf-8: %q, want %q", e.Error.Message, want)
		}
	})
}
