package scan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// envelopeOf wraps a document (raw JSON) with suppressions and a baseline.
func envelopeOf(t *testing.T, document json.RawMessage, suppressions []EnvelopeSuppression, baseline json.RawMessage) []byte {
	t.Helper()
	m := map[string]any{"document": document}
	if suppressions != nil {
		m["suppressions"] = suppressions
	}
	if baseline != nil {
		m["baseline"] = baseline
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEnvelopeSuppressions(t *testing.T) {
	plan := readTestdata(t, "plan.json")
	res := scanAt(t, envelopeOf(t, plan, []EnvelopeSuppression{
		// A glob over every instance of a for_each resource.
		{Rule: "S3_PUBLIC_READ", Resource: `aws_s3_bucket.assets[*]`, Reason: "CDN origin, reviewed in SEC-88", Expires: "2026-12-31"},
		// Expired yesterday (testNow is 2026-06-01 12:00 UTC): no longer applies.
		{Rule: "DB_PUBLIC", Resource: "module.db.*", Reason: "migration window", Expires: "2026-05-31"},
		// Still valid for a few hours, as an RFC 3339 time.
		{Rule: "IAM_FULL_ADMIN", Resource: "aws_iam_policy.admin", Reason: "break-glass, MFA only", Expires: "2026-06-01T18:00:00Z"},
		// No expiry; matches nothing in this plan.
		{Rule: "SG_PORT_OPEN", Resource: "module.legacy.*", Reason: "legacy"},
	}, nil))
	var sup []string
	for _, s := range res.Suppressed {
		sup = append(sup, s.Rule+" "+s.Resource.Name+" | "+s.Reason+" | "+s.Expires)
	}
	equalStrings(t, "suppressed", sup, []string{
		`S3_PUBLIC_READ aws_s3_bucket.assets["public"] | CDN origin, reviewed in SEC-88 | 2026-12-31`,
		`IAM_FULL_ADMIN aws_iam_policy.admin | break-glass, MFA only | 2026-06-01T18:00:00Z`,
	})
	if len(res.ExpiredSuppressions) != 1 || res.ExpiredSuppressions[0].Rule != "DB_PUBLIC" {
		t.Errorf("expired %+v", res.ExpiredSuppressions)
	}
	// The expired suppression's finding is still a finding.
	found := false
	for _, f := range res.Findings {
		found = found || f.Rule == "DB_PUBLIC" && f.Resource.Name == "module.db.aws_db_instance.main"
	}
	if !found || res.Summary.Findings != 8 || res.Summary.Suppressed != 2 {
		t.Errorf("DB_PUBLIC still found: %v; summary %+v", found, res.Summary)
	}
}

// TestMetadataAndEnvelopeSuppressions: a CloudFormation template as a YAML
// string in the envelope, with its in-place suppression and one of the
// envelope.
func TestMetadataAndEnvelopeSuppressions(t *testing.T) {
	text, _ := json.Marshal(string(readTestdata(t, "template.yaml")))
	res := scanAt(t, envelopeOf(t, text, []EnvelopeSuppression{
		{Rule: "IAM_FULL_ADMIN", Resource: "Admin?olicy", Reason: "org admin role", Expires: "2027-01-01"},
	}, nil))
	if res.Format != FormatCloudFormationYAML {
		t.Errorf("format %s", res.Format)
	}
	var sup []string
	for _, s := range res.Suppressed {
		sup = append(sup, s.Rule+" "+s.Resource.Name+" | "+s.Reason)
	}
	equalStrings(t, "suppressed", sup, []string{
		"S3_PUBLIC_READ SiteBucket | Public website assets, no customer data (SEC-231)",
		"IAM_FULL_ADMIN AdminPolicy | org admin role",
	})
}

func TestEnvelopeProblems(t *testing.T) {
	for _, c := range []struct{ name, input, want string }{
		{"no document", `{"suppressions":[]}`, "document: is required"},
		{"unknown field", `{"document":{"resources":[]},"supressions":[]}`, `unknown field "supressions"`},
		{"bad rule", `{"document":{"resources":[]},"suppressions":[{"rule":"S3_PUBLIC","resource":"x","reason":"r"}]}`, "suppressions[0].rule: unknown rule"},
		{"no reason", `{"document":{"resources":[]},"suppressions":[{"rule":"S3_PUBLIC_READ","resource":"x"}]}`, "suppressions[0].reason: is required"},
		{"bad expiry", `{"document":{"resources":[]},"suppressions":[{"rule":"S3_PUBLIC_READ","resource":"x","reason":"r","expires":"31/12/2026"}]}`, `suppressions[0].expires: "31/12/2026" is not a date`},
		{"bad baseline", `{"document":{"resources":[]},"baseline":{"x":1}}`, "baseline: must be an earlier result"},
		{"nested", `{"document":{"document":{"resources":[]}}}`, "an envelope cannot hold another envelope"},
	} {
		_, err := ScanWith([]byte(c.input), Options{Now: testNow})
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(ve.Error(), c.want) {
			t.Errorf("%s: got %v, want a problem with %q", c.name, err, c.want)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"*", "anything", true},
		{`aws_s3_bucket.b["x"]`, `aws_s3_bucket.b["x"]`, true},
		{`aws_s3_bucket.b[*]`, `aws_s3_bucket.b["x"]`, true},
		{`aws_s3_bucket.b[*]`, `aws_s3_bucket.b`, false},
		{"module.*.aws_security_group.db", "module.net.aws_security_group.db", true},
		{"module.*.aws_security_group.db", "module.net.aws_security_group.dbx", false},
		{"?b", "éb", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
	} {
		if got := glob(c.pattern, c.name); got != c.want {
			t.Errorf("glob(%q, %q) = %v", c.pattern, c.name, got)
		}
	}
}

// TestBaseline: re-scanning an unchanged plan with the first SARIF as
// baseline marks every result unchanged; adding one open security group
// marks exactly one new; removing a finding lists it as absent.
func TestBaseline(t *testing.T) {
	plan := readTestdata(t, "plan.json")
	first := scanAt(t, plan)
	sarif, err := SARIF(first, SARIFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// SARIF carries the JSON result's fingerprints.
	var fps struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &fps); err != nil {
		t.Fatal(err)
	}
	for k, f := range first.Findings {
		if got := fps.Runs[0].Results[k].PartialFingerprints["parapetFinding/v1"]; got != f.Fingerprint {
			t.Errorf("result %d: SARIF fingerprint %q, JSON %q", k, got, f.Fingerprint)
		}
	}
	again := scanAt(t, envelopeOf(t, plan, nil, sarif))
	if again.Baseline == nil || again.Baseline.New != 0 || again.Baseline.Unchanged != len(first.Findings) || len(again.Baseline.Absent) != 0 {
		t.Fatalf("unchanged plan: %+v", again.Baseline)
	}
	for _, f := range again.Findings {
		if f.BaselineState != "unchanged" {
			t.Errorf("%s %s: %s", f.Rule, f.Resource.Name, f.BaselineState)
		}
	}

	// One more open group, and the plan reordered: the rest stay unchanged.
	var doc map[string]any
	if err := json.Unmarshal(plan, &doc); err != nil {
		t.Fatal(err)
	}
	net := doc["planned_values"].(map[string]any)["root_module"].(map[string]any)["child_modules"].([]any)[0].(map[string]any)
	resources := net["resources"].([]any)
	for i, j := 0, len(resources)-1; i < j; i, j = i+1, j-1 {
		resources[i], resources[j] = resources[j], resources[i]
	}
	net["resources"] = append(resources, map[string]any{
		"address": "module.net.aws_security_group.debug", "mode": "managed", "type": "aws_security_group", "name": "debug",
		"values": map[string]any{"name": "debug", "ingress": []any{map[string]any{
			"cidr_blocks": []any{"0.0.0.0/0"}, "from_port": 9200, "to_port": 9200, "protocol": "tcp"}}},
	})
	changed, _ := json.Marshal(doc)
	res := scanAt(t, envelopeOf(t, changed, nil, sarif))
	var news []string
	for _, f := range res.Findings {
		if f.BaselineState == "new" {
			news = append(news, f.Rule+" "+f.Resource.Name)
		}
	}
	equalStrings(t, "new", news, []string{"SG_DATA_PORT_OPEN module.net.aws_security_group.debug"})
	if res.Baseline.New != 1 || res.Baseline.Unchanged != len(first.Findings) {
		t.Errorf("baseline %+v", res.Baseline)
	}

	// The JSON result works as a baseline too; a fixed finding is absent,
	// and SARIF lists it with baselineState absent.
	jsonBaseline, _ := json.Marshal(map[string]any{"data": res})
	fixed := strings.Replace(string(changed), `"publicly_accessible":true`, `"publicly_accessible":false`, 1)
	res = scanAt(t, envelopeOf(t, json.RawMessage(fixed), nil, jsonBaseline))
	if len(res.Baseline.Absent) != 1 || res.Baseline.Absent[0].Rule != "DB_PUBLIC" || res.Baseline.Absent[0].Resource.Name != "module.db.aws_db_instance.main" {
		t.Fatalf("absent %+v", res.Baseline.Absent)
	}
	log, _ := SARIF(res, SARIFOptions{})
	var parsed struct {
		Runs []struct {
			Results []struct {
				RuleID        string `json:"ruleId"`
				BaselineState string `json:"baselineState"`
				Kind          string `json:"kind"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(log, &parsed); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, r := range parsed.Runs[0].Results {
		states[r.BaselineState]++
		if r.BaselineState == "absent" && (r.RuleID != "DB_PUBLIC" || r.Kind != "pass") {
			t.Errorf("absent result %+v", r)
		}
	}
	if states["absent"] != 1 || states["new"] != 0 || states["unchanged"] != len(res.Findings) {
		t.Errorf("SARIF baseline states %v", states)
	}
}

// TestFingerprintStable: the same finding has the same fingerprint across
// formats' reordering and unrelated changes, and different findings differ.
func TestFingerprintStable(t *testing.T) {
	a := scanAt(t, readTestdata(t, "template.yaml"))
	edited := "# moved down by a comment\n\n" + strings.Replace(string(readTestdata(t, "template.yaml")), "Storefront stack", "Storefront stack v2", 1)
	b := scanAt(t, []byte(edited))
	fps := map[string]string{}
	for _, f := range a.Findings {
		fps[f.Rule+" "+f.Resource.Name+" "+f.Path] = f.Fingerprint
	}
	seen := map[string]bool{}
	for _, f := range b.Findings {
		if fps[f.Rule+" "+f.Resource.Name+" "+f.Path] != f.Fingerprint {
			t.Errorf("%s %s: fingerprint changed", f.Rule, f.Resource.Name)
		}
		if seen[f.Fingerprint] {
			t.Errorf("fingerprint %s twice", f.Fingerprint)
		}
		seen[f.Fingerprint] = true
	}
}

// TestEnvelopeForms: an envelope in YAML, and one around our own format.
func TestEnvelopeForms(t *testing.T) {
	yamlEnvelope := "suppressions:\n  - {rule: SG_ALL_PORTS_OPEN, resource: Worker*, reason: batch workers behind a NAT}\n" +
		"document:\n" + indent(string(readTestdata(t, "template.json")), "  ")
	res := scanAt(t, []byte(yamlEnvelope))
	// JSON is YAML: the template, written in the YAML envelope, is read as
	// YAML, with the envelope's lines (its resource, on line 8 of the
	// template, is 3 lines lower).
	if res.Format != FormatCloudFormationYAML || len(res.Suppressed) != 1 || res.Suppressed[0].Resource.Name != "WorkerSecurityGroup" ||
		res.Suppressed[0].Line != 8+3 {
		t.Errorf("YAML envelope: %s, suppressed %+v", res.Format, res.Suppressed)
	}
	own := `{"suppressions":[{"rule":"DB_PUBLIC","resource":"orders-*","reason":"read replica for BI"}],` +
		`"document":{"resources":[{"type":"database","name":"orders-bi","publicly_accessible":true},{"type":"database","name":"billing","publicly_accessible":true}]}}`
	res = scanAt(t, []byte(own))
	if len(res.Suppressed) != 1 || res.Suppressed[0].Resource.Name != "orders-bi" || len(res.Findings) != 1 || res.Findings[0].Resource.Name != "billing" {
		t.Errorf("own format in an envelope: findings %v", findingLines(res.Findings))
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix) + "\n"
}

// TestYAMLEnvelopeKeepsLocations: a template in a YAML envelope is read as
// the YAML it is, with the envelope's lines: the same findings, in the
// same (template) order, each on its resource's line, as the template on
// its own, a line lower for "document:" and the suppression above it. It
// was re-encoded as JSON: format cloudformation_json, no lines (SARIF
// startLine 1), findings in logical-id order.
func TestYAMLEnvelopeKeepsLocations(t *testing.T) {
	tmpl := readTestdata(t, "template.yaml")
	alone := scanAt(t, tmpl)
	envelope := "suppressions:\n  - {rule: DB_PUBLIC, resource: nothing-here, reason: none}\ndocument:\n" + indent(string(tmpl), "  ")
	res := scanAt(t, []byte(envelope))
	if res.Format != FormatCloudFormationYAML {
		t.Errorf("format %s", res.Format)
	}
	equalStrings(t, "findings", findingLines(res.Findings), findingLines(alone.Findings))
	for k, f := range res.Findings {
		if k < len(alone.Findings) && f.Line != alone.Findings[k].Line+3 {
			t.Errorf("%s %s on line %d, want %d", f.Rule, f.Resource.Name, f.Line, alone.Findings[k].Line+3)
		}
	}
	sarif := sarifOf(t, res, SARIFOptions{})
	if uri := get(t, sarif, "runs", 0, "results", 0, "locations", 0, "physicalLocation", "artifactLocation", "uri"); uri != "template.yaml" {
		t.Errorf("SARIF artifact %v", uri)
	}
	if line := get(t, sarif, "runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"); line != float64(alone.Findings[0].Line+3) {
		t.Errorf("SARIF startLine %v, want %d", line, alone.Findings[0].Line+3)
	}
	// The envelope's own problems, as in JSON.
	for _, c := range []struct{ input, want string }{
		{"document:\n  Resources: {}\nsupressions: []\n", `unknown field "supressions"; an envelope has document, suppressions and baseline`},
		{"suppressions: []\n", "document: is required"},
		{"document:\n  Resources: {}\nsuppressions: nope\n", "suppressions: must be a list of suppressions"},
		{"document:\n  Resources: {}\nsuppressions:\n  - {rule: NOPE, resource: x, reason: r}\n", "suppressions[0].rule: unknown rule"},
		{"document:\n  document:\n    Resources: {}\n", "an envelope cannot hold another envelope"},
	} {
		_, err := ScanWith([]byte(c.input), Options{Now: testNow})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.input, err, c.want)
		}
	}
}
