package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// TestScanAPIYAMLEnvelope: a template in a YAML envelope keeps its format
// and its lines, in the JSON result and in SARIF (it was re-encoded as
// JSON: cloudformation_json, template.json, startLine 1).
func TestScanAPIYAMLEnvelope(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan-yaml-envelope@example.com")
		c := env.Client()
		yamlType := append([]string{"Content-Type", "application/yaml"}, bearer(s.Key)...)
		body := "suppressions:\n  - {rule: DB_PUBLIC, resource: nothing, reason: none}\ndocument:\n" +
			"  Resources:\n    Logs:\n      Type: AWS::S3::Bucket\n" +
			"    Site:\n      Type: AWS::S3::Bucket\n      Properties:\n        AccessControl: PublicRead\n"

		d := scanOK(t, "json", c.Do("POST", scanPath, body, yamlType...), 200)
		if d.Data.Format != "cloudformation_yaml" || len(d.Data.Findings) != 1 || d.Data.Findings[0].Resource.Name != "Site" {
			t.Errorf("json result: %+v", d.Data)
		}

		res := c.Do("POST", scanPath+"?format=sarif", body, yamlType...)
		if res.StatusCode != 200 {
			t.Fatalf("sarif: %d %s", res.StatusCode, res.Body)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
							Region struct {
								StartLine int `json:"startLine"`
							} `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(res.Body), &log); err != nil {
			t.Fatal(err)
		}
		if len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
			t.Fatalf("sarif results: %.300s", res.Body)
		}
		loc := log.Runs[0].Results[0].Locations[0].PhysicalLocation
		if want := 1 + strings.Count(body[:strings.Index(body, "    Site:")], "\n"); loc.ArtifactLocation.URI != "template.yaml" || loc.Region.StartLine != want {
			t.Errorf("sarif location %s line %d, want template.yaml line %d", loc.ArtifactLocation.URI, loc.Region.StartLine, want)
		}
	})
}
