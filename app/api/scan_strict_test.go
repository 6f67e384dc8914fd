package api_test

import (
	"strings"
	"testing"

	"parapet/app/apptest"
)

// TestScanAPIStrictInput: what the JSON check refuses in an
// application/json body is refused by the engine too when the body comes
// as YAML: a key given twice, and bytes that are not UTF-8, with where.
// And the order of top-level keys does not change the format read.
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

		// Sent as JSON, every repeated key is named, with its path and
		// line (the API's JSON check named the first one only).
		two := "{\"Resources\": {\n\"A\": {\"Type\": \"AWS::S3::Bucket\", \"Type\": \"AWS::S3::Bucket\"},\n" +
			"\"B\": {\"Type\": \"AWS::S3::Bucket\", \"Properties\": {\"AccessControl\": \"PublicRead\", \"AccessControl\": \"Private\"}}}}"
		e = scanExpectError(t, "duplicate keys as json", c.PostJSON(scanPath, two, bearer(s.Key)...), 400, "invalid_request")
		if len(e.Error.Details) != 2 || e.Error.Details[0].Path != "Resources.A.Type" || e.Error.Details[1].Path != "Resources.B.Properties.AccessControl" ||
			!strings.HasSuffix(e.Error.Details[1].Message, "(line 3, column 80)") || !strings.HasSuffix(e.Error.Message, "(and 1 more problem)") {
			t.Errorf("duplicate keys as json: %q %+v", e.Error.Message, e.Error.Details)
		}

		bad := "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: \"caf\xe9\"\n"
		e = scanExpectError(t, "invalid utf-8 yaml", c.Do("POST", scanPath, bad, yamlType...), 400, "invalid_request")
		if want := "malformed YAML at line 5, column 23: invalid UTF-8 (byte 0xe9): send the document as UTF-8 text"; e.Error.Message != want {
			t.Errorf("invalid utf-8: %q, want %q", e.Error.Message, want)
		}

		// A raw state file with its keys sorted (resources first) is a
		// Terraform state, read as one: not a resource list with nothing
		// in it, nor refused.
		sorted := `{"check_results":null,"lineage":"x","outputs":{},"resources":[{"mode":"managed","type":"aws_security_group","name":"web",` +
			`"instances":[{"attributes":{"id":"sg-1","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":22,"to_port":22,"protocol":"tcp"}]}}]}],"serial":3,"terraform_version":"1.6.6","version":4}`
		res := c.PostJSON(scanPath, sorted, bearer(s.Key)...)
		if res.StatusCode != 200 || !strings.Contains(res.Body, `"format":"terraform_state"`) || !strings.Contains(res.Body, `"rule":"SG_ADMIN_PORT_OPEN"`) {
			t.Errorf("sorted raw state: %d %.400s", res.StatusCode, res.Body)
		}
	})
}
