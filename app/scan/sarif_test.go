package scan

import (
	"encoding/json"
	"strings"
	"testing"
)

// sarifOf renders the sample as SARIF and decodes it generically, so the
// test sees exactly what a SARIF consumer sees.
func sarifOf(t *testing.T, res *Result, opts SARIFOptions) map[string]any {
	t.Helper()
	b, err := SARIF(res, opts)
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// get walks a decoded JSON value: get(v, "runs", 0, "tool").
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok || m[k] == nil {
				t.Fatalf("no %q in %v", k, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("no [%d] in %v", k, v)
			}
			v = a[k]
		}
	}
	return v
}

func TestSARIF(t *testing.T) {
	res := mustScan(t, Sample())
	log := sarifOf(t, res, SARIFOptions{InformationURI: "https://parapet.example/scan/app"})

	if get(t, log, "version") != "2.1.0" || !strings.Contains(get(t, log, "$schema").(string), "sarif-2.1.0") {
		t.Errorf("version/$schema: %v %v", log["version"], log["$schema"])
	}
	driver := get(t, log, "runs", 0, "tool", "driver")
	if get(t, driver, "name") != "Parapet Config Scanner" || get(t, driver, "version") != Version ||
		get(t, driver, "informationUri") != "https://parapet.example/scan/app" {
		t.Errorf("driver: %v", driver)
	}
	rules := get(t, driver, "rules").([]any)
	if len(rules) != len(Rules()) {
		t.Fatalf("%d rules", len(rules))
	}
	for k, r := range Rules() {
		rule := rules[k]
		if get(t, rule, "id") != r.ID || get(t, rule, "shortDescription", "text") != r.Title ||
			get(t, rule, "fullDescription", "text") != r.Description ||
			!strings.HasPrefix(get(t, rule, "help", "text").(string), r.Remediation) ||
			get(t, rule, "defaultConfiguration", "level") != sarifLevel(r.Severity) ||
			get(t, rule, "properties", "security-severity") != securitySeverity(r.Severity) ||
			get(t, rule, "properties", "tags", 0) != "security" {
			t.Errorf("rule %d: %v", k, rule)
		}
	}
	if get(t, rules[0], "name") != "S3PublicRead" {
		t.Errorf("rule name %v", get(t, rules[0], "name"))
	}

	results := get(t, log, "runs", 0, "results").([]any)
	if len(results) != len(res.Findings)+len(res.Suppressed) {
		t.Fatalf("%d results for %d findings and %d suppressed", len(results), len(res.Findings), len(res.Suppressed))
	}
	levels := map[Severity]string{Critical: "error", High: "error", Medium: "warning", Low: "note"}
	for k, f := range res.Findings {
		r := results[k]
		idx := int(get(t, r, "ruleIndex").(float64))
		if get(t, r, "ruleId") != f.Rule || get(t, rules[idx], "id") != f.Rule {
			t.Errorf("result %d: ruleId %v, ruleIndex %d points at %v", k, r.(map[string]any)["ruleId"], idx, get(t, rules[idx], "id"))
		}
		if get(t, r, "level") != levels[f.Severity] || get(t, r, "message", "text") != f.Message {
			t.Errorf("result %d: %v", k, r)
		}
		loc := get(t, r, "locations", 0)
		if get(t, loc, "physicalLocation", "artifactLocation", "uri") != "resources.json" ||
			int(get(t, loc, "physicalLocation", "region", "startLine").(float64)) != f.Line ||
			get(t, loc, "logicalLocations", 0, "name") != f.Resource.Name ||
			get(t, loc, "logicalLocations", 0, "fullyQualifiedName") != resourcePath(f.Resource.Index) {
			t.Errorf("result %d location: %v", k, loc)
		}
		if fp := get(t, r, "partialFingerprints", "parapetFinding/v1").(string); len(fp) != 32 {
			t.Errorf("result %d fingerprint %q", k, fp)
		}
		if _, ok := r.(map[string]any)["suppressions"]; ok {
			t.Errorf("result %d is not suppressed", k)
		}
	}
	last := results[len(results)-1]
	if get(t, last, "suppressions", 0, "kind") != "external" || get(t, last, "suppressions", 0, "justification") != res.Suppressed[0].Reason {
		t.Errorf("suppressed result: %v", last)
	}
	note := get(t, log, "runs", 0, "invocations", 0, "toolExecutionNotifications", 0)
	if get(t, note, "level") != "warning" || !strings.Contains(get(t, note, "message", "text").(string), "thumbnail-resizer") {
		t.Errorf("skipped notification: %v", note)
	}
	if get(t, log, "runs", 0, "invocations", 0, "executionSuccessful") != true {
		t.Error("executionSuccessful")
	}
}

func TestSARIFFingerprintIgnoresLines(t *testing.T) {
	a := mustScan(t, doc(sg(`{"port":22,"cidr":"0.0.0.0/0"}`)))
	b := mustScan(t, "\n\n"+doc(`{"type":"lambda_function","name":"x"}`, sg(`{"port":80,"cidr":"10.0.0.0/8"},{"port":22,"cidr":"0.0.0.0/0"}`)))
	fp := func(res *Result) any {
		return get(t, sarifOf(t, res, SARIFOptions{}), "runs", 0, "results", 0, "partialFingerprints", "parapetFinding/v1")
	}
	if fp(a) != fp(b) {
		t.Error("the same finding moved in the document changed its fingerprint")
	}
}

func TestSARIFOfEmptyAndForeignResults(t *testing.T) {
	log := sarifOf(t, mustScan(t, doc()), SARIFOptions{ArtifactURI: "prod.json"})
	if results := get(t, log, "runs", 0, "results").([]any); len(results) != 0 {
		t.Errorf("results %v", results)
	}
	if _, ok := get(t, log, "runs", 0, "tool", "driver").(map[string]any)["informationUri"]; ok {
		t.Error("informationUri without a URL")
	}
	// A Result decoded from the API's JSON has no lines: no region then.
	var res Result
	b, _ := json.Marshal(mustScan(t, Sample()))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	loc := get(t, sarifOf(t, &res, SARIFOptions{ArtifactURI: "prod.json"}), "runs", 0, "results", 0, "locations", 0, "physicalLocation")
	if _, ok := loc.(map[string]any)["region"]; ok || get(t, loc, "artifactLocation", "uri") != "prod.json" {
		t.Errorf("location %v", loc)
	}
	res.Findings[0].Rule = "NOT_A_RULE"
	if _, err := SARIF(&res, SARIFOptions{}); err == nil || !strings.Contains(err.Error(), "NOT_A_RULE") {
		t.Errorf("unknown rule: %v", err)
	}
}
