package api_test

import (
	"encoding/json"
	"fmt"
	"net"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/openapi"
	"parapet/app/scan"
)

const scanPath = "/scan/v1/scan"

// scanAPIError is the spec's error shape with our details extension.
type scanAPIError struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		RequestID string `json:"request_id"`
		Details   []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"details"`
	} `json:"error"`
}

// scanExpectError checks an error response: status, code, the spec's
// shape with the request id, and the rate-limit headers.
func scanExpectError(t *testing.T, name string, res *apptest.Response, status int, code string) scanAPIError {
	t.Helper()
	var e scanAPIError
	res.JSON(t, &e)
	if res.StatusCode != status || e.Error.Code != code || e.Error.Message == "" {
		t.Errorf("%s: %d %s %q, want %d %s", name, res.StatusCode, e.Error.Code, e.Error.Message, status, code)
	}
	if e.Error.RequestID == "" || e.Error.RequestID != res.Header.Get("X-Request-Id") {
		t.Errorf("%s: request_id %q, X-Request-Id %q", name, e.Error.RequestID, res.Header.Get("X-Request-Id"))
	}
	scanExpectRateHeaders(t, name, res)
	return e
}

func scanExpectRateHeaders(t *testing.T, name string, res *apptest.Response) {
	t.Helper()
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if _, err := strconv.Atoi(res.Header.Get(h)); err != nil {
			t.Errorf("%s: header %s = %q", name, h, res.Header.Get(h))
		}
	}
}

func keysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

var severityRank = map[string]int{"critical": 0, "high": 1, "medium": 2, "low": 3}

func TestScanAPI(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan@example.com")
		c := env.Client()

		// The sample: ranked findings with exactly the documented keys.
		res := c.PostJSON(scanPath, scan.Sample(), bearer(s.Key)...)
		if res.StatusCode != 200 {
			t.Fatalf("sample scan: %d %s", res.StatusCode, res.Body)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("content type %q", ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q, want no-store", cc)
		}
		scanExpectRateHeaders(t, "sample", res)
		var body map[string]any
		res.JSON(t, &body)
		if got := keysOf(body); !reflect.DeepEqual(got, []string{"data"}) {
			t.Fatalf("envelope keys %v", got)
		}
		data := body["data"].(map[string]any)
		if got := keysOf(data); !reflect.DeepEqual(got, []string{"expired_suppressions", "findings", "format", "not_checked", "skipped", "summary", "suppressed"}) {
			t.Errorf("data keys %v", got)
		}
		summary := data["summary"].(map[string]any)
		if got := keysOf(summary); !reflect.DeepEqual(got, []string{"by_severity", "findings", "resources", "skipped", "suppressed"}) {
			t.Errorf("summary keys %v", got)
		}
		bySev := summary["by_severity"].(map[string]any)
		if got := keysOf(bySev); !reflect.DeepEqual(got, []string{"critical", "high", "low", "medium"}) {
			t.Errorf("by_severity keys %v", got)
		}
		findings := data["findings"].([]any)
		if len(findings) == 0 || float64(len(findings)) != summary["findings"] {
			t.Fatalf("%d findings, summary says %v", len(findings), summary["findings"])
		}
		counts := map[string]float64{}
		last := -1
		for i, f := range findings {
			f := f.(map[string]any)
			if got := keysOf(f); !reflect.DeepEqual(got, []string{"fingerprint", "message", "path", "references", "remediation", "resource", "rule", "severity", "source", "title"}) {
				t.Errorf("finding %d keys %v", i, got)
			}
			if got := keysOf(f["resource"].(map[string]any)); !reflect.DeepEqual(got, []string{"index", "name", "type"}) {
				t.Errorf("finding %d resource keys %v", i, got)
			}
			sev := f["severity"].(string)
			rank, ok := severityRank[sev]
			if !ok || rank < last {
				t.Errorf("finding %d has severity %q after rank %d: not ranked", i, sev, last)
			}
			last = rank
			counts[sev]++
			if !strings.HasPrefix(f["path"].(string), "resources[") || f["message"] == "" || f["remediation"] == "" || f["title"] == "" {
				t.Errorf("finding %d: %v", i, f)
			}
		}
		if findings[0].(map[string]any)["severity"] != "critical" {
			t.Errorf("first finding is %v, want critical", findings[0].(map[string]any)["severity"])
		}
		for sev, n := range counts {
			if bySev[sev] != n {
				t.Errorf("by_severity.%s = %v, %v findings", sev, bySev[sev], n)
			}
		}
		if sup := data["suppressed"].([]any); len(sup) != 1 || sup[0].(map[string]any)["reason"] == "" {
			t.Errorf("suppressed %v", sup)
		}
		if sk := data["skipped"].([]any); len(sk) != 1 || !reflect.DeepEqual(keysOf(sk[0].(map[string]any)), []string{"index", "name", "reason", "type"}) {
			t.Errorf("skipped %v", sk)
		}
		// The body is the engine's result, nothing added or lost.
		want, _ := scan.Scan([]byte(scan.Sample()))
		wantBody, _ := json.Marshal(map[string]any{"data": want})
		if strings.TrimSpace(res.Body) != string(wantBody) {
			t.Error("the API's body is not the engine's result in the data envelope")
		}
		// format=json is the default, spelled out.
		if res := c.PostJSON(scanPath+"?format=json", scan.Sample(), bearer(s.Key)...); res.StatusCode != 200 || strings.TrimSpace(res.Body) != string(wantBody) {
			t.Errorf("format=json: %d", res.StatusCode)
		}
		// A clean document has no findings, with arrays, not nulls.
		res = c.PostJSON(scanPath, `{"resources":[{"type":"s3_bucket","name":"ok","public_read":false,"encrypted":true}]}`, bearer(s.Key)...)
		if res.StatusCode != 200 || strings.TrimSpace(res.Body) != `{"data":{"format":"parapet","summary":{"resources":1,"findings":0,"by_severity":{"critical":0,"high":0,"medium":0,"low":0},"suppressed":0,"skipped":0},"findings":[],"suppressed":[],"skipped":[],"not_checked":[],"expired_suppressions":[]}}` {
			t.Errorf("clean document: %d %s", res.StatusCode, res.Body)
		}

		// Nothing of the input reaches the logs, whatever the outcome.
		for _, doc := range []string{
			`{"resources":[{"type":"s3_bucket","name":"zz-log-marker","public_read":true}]}`,
			`{"resources":[{"type":"s3_bucket","name":"zz-log-marker","public_read":"zz-log-marker"}]}`,
			`{"resources":[{"type":"s3_bucket","name":"zz-log-marker",]}`,
		} {
			c.PostJSON(scanPath+"?format=sarif", doc, bearer(s.Key)...)
		}
		if strings.Contains(env.Logs.String(), "zz-log-marker") {
			t.Error("the scanned input appears in the logs")
		}

		// Authentication: the key is required, and errors carry the headers.
		scanExpectError(t, "no key", c.PostJSON(scanPath, scan.Sample()), 401, "missing_api_key")
		scanExpectError(t, "unknown key", c.PostJSON(scanPath, scan.Sample(), bearer("ppk_notarealkeynotarealkeynotarealkeyxx")...), 401, "invalid_api_key")
		scanExpectError(t, "basic auth", c.PostJSON(scanPath, scan.Sample(), "Authorization", "Basic dXNlcjpwYXNz"), 401, "missing_api_key")

		// Content type.
		scanExpectError(t, "text/plain", c.Do("POST", scanPath, scan.Sample(), append(bearer(s.Key), "Content-Type", "text/plain")...), 415, "unsupported_media_type")
		scanExpectError(t, "no content type", c.Do("POST", scanPath, scan.Sample(), bearer(s.Key)...), 415, "unsupported_media_type")
		if res := c.Do("POST", scanPath, scan.Sample(), append(bearer(s.Key), "Content-Type", "application/json; charset=utf-8")...); res.StatusCode != 200 {
			t.Errorf("JSON with a charset: %d", res.StatusCode)
		}

		// Malformed JSON names the line and column.
		e := scanExpectError(t, "malformed", c.PostJSON(scanPath, "{\"resources\": [\n  {\"type\": \"s3_bucket\",, \"name\": \"x\"}\n]}", bearer(s.Key)...), 400, "invalid_request")
		if !strings.HasPrefix(e.Error.Message, "malformed JSON at line 2, column 24: ") {
			t.Errorf("malformed message %q", e.Error.Message)
		}
		e = scanExpectError(t, "empty body", c.PostJSON(scanPath, "", bearer(s.Key)...), 400, "invalid_request")
		if !strings.Contains(e.Error.Message, "line 1, column 1") {
			t.Errorf("empty body message %q", e.Error.Message)
		}

		// An invalid document: every problem with its path in details, the
		// first in the message.
		invalid := `{"resources": [
			{"type": "s3_bucket", "public_read": "yes"},
			{"type": "security_group", "name": "sg", "ingress": [{"port": 22, "cidr": "1.2.3.4"}]},
			{"type": "iam_policy", "name": "p", "actions": ["*"], "resources": "*"}
		]}`
		e = scanExpectError(t, "invalid", c.PostJSON(scanPath, invalid, bearer(s.Key)...), 400, "invalid_request")
		var paths []string
		for _, d := range e.Error.Details {
			paths = append(paths, d.Path)
			if d.Message == "" {
				t.Errorf("detail %s has no message", d.Path)
			}
		}
		wantPaths := []string{"resources[0].name", "resources[0].public_read", "resources[1].ingress[0].cidr", "resources[2].resources"}
		if !reflect.DeepEqual(paths, wantPaths) {
			t.Errorf("detail paths %v, want %v", paths, wantPaths)
		}
		if len(e.Error.Details) > 0 && !strings.HasPrefix(e.Error.Message, e.Error.Details[0].Path+": "+e.Error.Details[0].Message) {
			t.Errorf("message %q does not name the first problem %+v", e.Error.Message, e.Error.Details[0])
		}
		if !strings.Contains(e.Error.Message, "and 3 more problems") {
			t.Errorf("message %q does not count the others", e.Error.Message)
		}
		e = scanExpectError(t, "not an object", c.PostJSON(scanPath, `[1,2]`, bearer(s.Key)...), 400, "invalid_request")
		if len(e.Error.Details) != 1 || !strings.Contains(e.Error.Message, `"resources" array`) {
			t.Errorf("top-level array: %+v", e.Error)
		}

		// Limits: the body (5 MiB + 1 byte), the number of resources, depth.
		big := `{"resources":[],"pad":"` + strings.Repeat("x", scan.MaxInputBytes) + `"}`
		big = big[:scan.MaxInputBytes+1]
		e = scanExpectError(t, "5 MiB + 1", c.PostJSON(scanPath, big, bearer(s.Key)...), 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "5 MiB") {
			t.Errorf("size limit message %q does not name the limit", e.Error.Message)
		}
		exact := `{"resources":[],"pad":"` + strings.Repeat("x", scan.MaxInputBytes-25) + `"}`
		if len(exact) != scan.MaxInputBytes {
			t.Fatalf("exact is %d bytes", len(exact))
		}
		if res := c.PostJSON(scanPath, exact, bearer(s.Key)...); res.StatusCode != 200 {
			t.Errorf("exactly 5 MiB: %d %.200s", res.StatusCode, res.Body)
		}
		many := `{"resources":[` + strings.TrimSuffix(strings.Repeat(`{"type":"x","name":"a"},`, scan.MaxResources+1), ",") + `]}`
		e = scanExpectError(t, "too many resources", c.PostJSON(scanPath, many, bearer(s.Key)...), 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "50000") {
			t.Errorf("resources limit message %q", e.Error.Message)
		}
		deep := `{"resources":[{"type":"x","name":"a","extra":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}]}`
		e = scanExpectError(t, "too deep", c.PostJSON(scanPath, deep, bearer(s.Key)...), 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "nesting") {
			t.Errorf("depth limit message %q", e.Error.Message)
		}

		// Formats.
		e = scanExpectError(t, "unknown format", c.PostJSON(scanPath+"?format=xml", scan.Sample(), bearer(s.Key)...), 400, "invalid_request")
		if !strings.Contains(e.Error.Message, "sarif") {
			t.Errorf("unknown format message %q", e.Error.Message)
		}
		scanExpectError(t, "bad artifact", c.PostJSON(scanPath+"?format=sarif&artifact=a%0Ab", scan.Sample(), bearer(s.Key)...), 400, "invalid_request")
	})
}

// The SARIF output has what SARIF 2.1.0 requires and what GitHub code
// scanning reads: rules in tool.driver.rules with security-severity,
// results pointing at their rule by id and index, levels and locations.
func TestScanAPISARIF(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "sarif@example.com")
		res := env.Client().PostJSON(scanPath+"?format=sarif&artifact=infra/prod%20resources.json", scan.Sample(), bearer(s.Key)...)
		if res.StatusCode != 200 {
			t.Fatalf("%d %s", res.StatusCode, res.Body)
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/sarif+json" {
			t.Errorf("content type %q", ct)
		}
		scanExpectRateHeaders(t, "sarif", res)
		checkSARIF(t, []byte(res.Body), "infra/prod%20resources.json", env.URL("/scan/app"))
	})
}

// checkSARIF checks a log against the structure the SARIF 2.1.0 schema
// requires of what we emit, and GitHub's conventions.
func checkSARIF(t *testing.T, raw []byte, wantURI, wantInfo string) {
	t.Helper()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name           string `json:"name"`
					InformationURI string `json:"informationUri"`
					Version        string `json:"version"`
					Rules          []struct {
						ID                   string                `json:"id"`
						Name                 string                `json:"name"`
						ShortDescription     struct{ Text string } `json:"shortDescription"`
						FullDescription      struct{ Text string } `json:"fullDescription"`
						Help                 struct{ Text string } `json:"help"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Invocations []struct {
				ExecutionSuccessful *bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results *[]struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
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
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Suppressions        []struct {
					Kind          string `json:"kind"`
					Justification string `json:"justification"`
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
		t.Fatalf("version %q $schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name == "" || d.Version == "" {
		t.Errorf("driver %q %q", d.Name, d.Version)
	}
	if d.InformationURI != wantInfo {
		t.Errorf("informationUri %q, want %q", d.InformationURI, wantInfo)
	}
	if len(d.Rules) != len(scan.Rules()) {
		t.Errorf("%d rules, the catalogue has %d", len(d.Rules), len(scan.Rules()))
	}
	levels := map[string]bool{"error": true, "warning": true, "note": true}
	for i, r := range d.Rules {
		if r.ID == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || !levels[r.DefaultConfiguration.Level] {
			t.Errorf("rule %d: %+v", i, r)
		}
		sev, _ := r.Properties["security-severity"].(string)
		if f, err := strconv.ParseFloat(sev, 64); err != nil || f <= 0 || f > 10 {
			t.Errorf("rule %s: security-severity %q is not a score in (0, 10] as a string", r.ID, sev)
		}
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil || !*run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations %+v", run.Invocations)
	}
	if run.Results == nil {
		t.Fatal("runs[0].results is missing")
	}
	want, _ := scan.Scan([]byte(scan.Sample()))
	if len(*run.Results) != len(want.Findings)+len(want.Suppressed) {
		t.Errorf("%d results for %d findings and %d suppressed", len(*run.Results), len(want.Findings), len(want.Suppressed))
	}
	suppressed := 0
	for i, r := range *run.Results {
		if r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(d.Rules) || d.Rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex %v does not point at rule %s", i, r.RuleIndex, r.RuleID)
		}
		if !levels[r.Level] || r.Message.Text == "" || len(r.Locations) == 0 || len(r.PartialFingerprints) == 0 {
			t.Errorf("result %d: %+v", i, r)
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != wantURI || loc.Region.StartLine < 1 {
			t.Errorf("result %d location %+v", i, loc)
		}
		if i < len(want.Findings) {
			f := want.Findings[i]
			wantLevel := map[scan.Severity]string{scan.Critical: "error", scan.High: "error", scan.Medium: "warning", scan.Low: "note"}[f.Severity]
			if r.RuleID != f.Rule || r.Level != wantLevel || r.Message.Text != f.Message {
				t.Errorf("result %d is %s/%s, finding is %s/%s", i, r.RuleID, r.Level, f.Rule, f.Severity)
			}
		}
		if len(r.Suppressions) > 0 {
			suppressed++
			if r.Suppressions[0].Kind != "external" || r.Suppressions[0].Justification == "" {
				t.Errorf("result %d suppression %+v", i, r.Suppressions)
			}
		}
	}
	if suppressed != len(want.Suppressed) {
		t.Errorf("%d suppressed results, want %d", suppressed, len(want.Suppressed))
	}
}

// The scanner has its own per-key budget: exhausting it gives 429 with
// Retry-After and leaves the key's /v1 budget alone.
func TestScanAPIRateLimit(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "scan-limit@example.com")
	c := env.Client()
	small := `{"resources":[]}`
	for i := 0; i < 60; i++ {
		if res := c.PostJSON(scanPath, small, bearer(s.Key)...); res.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i+1, res.StatusCode, res.Body)
		}
	}
	res := c.PostJSON(scanPath, small, bearer(s.Key)...)
	scanExpectError(t, "61st", res, 429, "rate_limited")
	if res.Header.Get("Retry-After") == "" || res.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("429 headers: Retry-After %q Remaining %q", res.Header.Get("Retry-After"), res.Header.Get("X-RateLimit-Remaining"))
	}
	if res := c.Get("/v1/products", bearer(s.Key)...); res.StatusCode != 200 {
		t.Errorf("/v1 after the scan budget is spent: %d", res.StatusCode)
	}
}

// Every documented response of POST /scan/v1/scan matches what the server
// returns (status, content type, body schema, rate-limit headers), the
// examples match their schemas, the request example scans to exactly the
// response example, and the documented rule ids are the catalogue's.
func TestScanOpenAPI(t *testing.T) {
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	sc := schemaCheck{schemas: doc.Components.Schemas}
	op, ok := doc.Paths[scanPath]["post"]
	if !ok {
		t.Fatalf("%s is not documented", scanPath)
	}
	tagged := false
	for _, tag := range doc.Tags {
		tagged = tagged || tag.Name == "Config scanner"
	}
	if !tagged || !slices.Equal(op.Tags, []string{"Config scanner"}) {
		t.Errorf("tags %v; the document's tags include Config scanner: %v", op.Tags, tagged)
	}

	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "scan-openapi@example.com")
	post := func(path, body string, headers ...string) func() *apptest.Response {
		return func() *apptest.Response { return env.Client().Do("POST", path, body, headers...) }
	}
	jsonKey := append([]string{"Content-Type", "application/json"}, bearer(s.Key)...)
	cases := map[string][]func() *apptest.Response{
		"200": {post(scanPath, scan.Sample(), jsonKey...), post(scanPath, scanTestdata(t, "plan.json"), jsonKey...),
			post(scanPath, scanTestdata(t, "template.yaml"), append([]string{"Content-Type", "application/yaml"}, bearer(s.Key)...)...),
			post(scanPath, scanBaselineEnvelope(t, scanTestdata(t, "state.json")), jsonKey...), post(scanPath+"?fail_on=none", scan.Sample(), jsonKey...)},
		"400": {post(scanPath, `{"resources":[{"type":"s3_bucket"}]}`, jsonKey...), post(scanPath, `{`, jsonKey...), post(scanPath+"?format=csv", `{}`, jsonKey...)},
		"401": {post(scanPath, scan.Sample(), "Content-Type", "application/json")},
		"403": {post(scanPath, scan.Sample(), append([]string{"Content-Type", "application/json"}, bearer(scopedKey(t, env, s.OrgID, "logs"))...)...)},
		"413": {post(scanPath, strings.Repeat(" ", scan.MaxInputBytes+1), jsonKey...)},
		"415": {post(scanPath, scan.Sample(), append([]string{"Content-Type", "text/plain"}, bearer(s.Key)...)...),
			post(scanPath, scan.Sample(), append([]string{"Content-Type", "application/json; charset=utf-16"}, bearer(s.Key)...)...)},
		"422": {post(scanPath+"?fail_on=any", scan.Sample(), jsonKey...), post(scanPath+"?fail_on=new", scanBaselineEnvelope(t, scanTestdata(t, "state.json")), jsonKey...)},
		"429": {func() *apptest.Response {
			key, _ := env.SeedKey(t, s.OrgID, "exhaust")
			c := env.Client()
			for i := 0; i < 60; i++ {
				c.PostJSON(scanPath, `{"resources":[]}`, bearer(key)...)
			}
			return c.PostJSON(scanPath, `{"resources":[]}`, bearer(key)...)
		}},
		"503": {func() *apptest.Response {
			busy := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("ANALYSIS_CONCURRENCY", "1"), apptest.WithEnv("ANALYSIS_WAIT", "50ms"))
			key, _ := busy.SeedKey(t, busy.Seed(t, "scan-busy@example.com").OrgID, "busy")
			holdAnalysisSlot(t, busy, scanPath, key)
			// Once the slow request holds the slot (it may not yet on the
			// first try), a scan waits 50 ms for room and is refused.
			var res *apptest.Response
			apptest.WaitFor(t, 5*time.Second, "a scan refused as busy", func() bool {
				res = busy.Client().PostJSON(scanPath, scan.Sample(), bearer(key)...)
				return res.StatusCode == 503
			})
			return res
		}},
	}
	for code := range op.Responses {
		if cases[code] == nil {
			t.Errorf("documented response %s has no test case", code)
		}
	}
	for code, runs := range cases {
		r, ok := op.Responses[code]
		if !ok {
			t.Errorf("response %s is not documented", code)
			continue
		}
		r = doc.Resolve(r)
		mt, ok := r.Content["application/json"]
		if !ok {
			t.Errorf("%s: no application/json content", code)
			continue
		}
		for i, run := range runs {
			res := run()
			name := fmt.Sprintf("%s #%d", code, i)
			if strconv.Itoa(res.StatusCode) != code {
				t.Errorf("%s: status %d: %.300s", name, res.StatusCode, res.Body)
				continue
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: content type %q", name, ct)
			}
			scanExpectRateHeaders(t, name, res)
			var body any
			if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
				t.Fatalf("%s: not JSON: %.300s", name, res.Body)
			}
			for _, e := range sc.validate("body", mt.Schema, body) {
				t.Errorf("%s: %s", name, e)
			}
		}
		if len(mt.Example) > 0 {
			var ex any
			_ = json.Unmarshal(mt.Example, &ex)
			for _, e := range sc.validate("example", mt.Schema, ex) {
				t.Errorf("%s: the example does not match its schema: %s", code, e)
			}
		}
	}

	// SARIF: documented, and the real output matches its schema.
	ok200 := doc.Resolve(op.Responses["200"])
	sarifMT, ok := ok200.Content["application/sarif+json"]
	if !ok {
		t.Fatal("200 does not document application/sarif+json")
	}
	res := env.Client().PostJSON(scanPath+"?format=sarif", scan.Sample(), bearer(s.Key)...)
	var sarif any
	res.JSON(t, &sarif)
	for _, e := range sc.validate("sarif", sarifMT.Schema, sarif) {
		t.Error(e)
	}

	// The request example is valid input whose scan is the response example.
	if op.RequestBody == nil {
		t.Fatal("no request body documented")
	}
	var reqMT struct {
		Schema  json.RawMessage `json:"schema"`
		Example json.RawMessage `json:"example"`
	}
	if err := json.Unmarshal(op.RequestBody.Content["application/json"], &reqMT); err != nil || len(reqMT.Example) == 0 {
		t.Fatalf("request body: %v", err)
	}
	var reqEx any
	_ = json.Unmarshal(reqMT.Example, &reqEx)
	for _, e := range sc.validate("request example", reqMT.Schema, reqEx) {
		t.Error(e)
	}
	res = env.Client().PostJSON(scanPath, string(reqMT.Example), bearer(s.Key)...)
	var got, want any
	res.JSON(t, &got)
	_ = json.Unmarshal(ok200.Content["application/json"].Example, &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scanning the request example does not give the response example:\n got %s", res.Body)
	}

	// The documented rule ids are the catalogue's.
	var finding struct {
		Properties struct {
			Rule struct {
				Enum []string `json:"enum"`
			} `json:"rule"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(doc.Components.Schemas["ScanFinding"], &finding)
	var ids []string
	for _, r := range scan.Rules() {
		ids = append(ids, r.ID)
	}
	if !reflect.DeepEqual(finding.Properties.Rule.Enum, ids) {
		t.Errorf("documented rules %v, catalogue %v", finding.Properties.Rule.Enum, ids)
	}
}

// scanBaselineEnvelope wraps doc with suppressions (one expired) and a
// baseline in which one finding is gone and one is new, so every field of
// a result appears.
func scanBaselineEnvelope(t *testing.T, doc string) string {
	t.Helper()
	res, err := scan.Scan([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	gone := res.Findings[0]
	gone.Fingerprint, gone.Resource.Name = strings.Repeat("ab", 16), "aws_s3_bucket.deleted"
	res.Findings = append(res.Findings[1:], gone)
	b, _ := json.Marshal(map[string]any{
		"document": json.RawMessage(doc),
		"suppressions": []map[string]string{
			{"rule": "IAM_WILDCARD_ACTION", "resource": "*", "reason": "ops", "expires": "2999-12-31"},
			{"rule": "DB_UNENCRYPTED", "resource": "*", "reason": "old", "expires": "2001-01-01"},
		},
		"baseline": map[string]any{"data": res},
	})
	return string(b)
}

// holdAnalysisSlot sends a YAML template whose body never finishes
// arriving (YAML skips the JSON check, which would read the body before
// the slot is taken): it takes an analysis slot and holds it until the
// test ends.
func holdAnalysisSlot(t *testing.T, env *apptest.Env, path, key string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.Server.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/yaml\r\nContent-Length: 1000\r\n\r\n{", path, key)
}
