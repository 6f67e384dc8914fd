package scan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestRanking(t *testing.T) {
	res := mustScan(t, doc(
		`{"type":"security_group","name":"grafana","ingress":[{"port":3000,"cidr":"0.0.0.0/0"}]}`,
		`{"type":"s3_bucket","name":"logs","encrypted":false,"public_read":true}`,
		`{"type":"database","name":"db","encrypted":false}`,
		`{"type":"security_group","name":"mixed","ingress":[
			{"port":8080,"cidr":"0.0.0.0/0"},{"port":3389,"cidr":"0.0.0.0/0"},{"port":22,"cidr":"0.0.0.0/0"},{"port":6379,"cidr":"0.0.0.0/0"}]}`,
	))
	var got []string
	for _, f := range res.Findings {
		got = append(got, string(f.Severity)+" "+f.Rule+" "+f.Path)
	}
	equalStrings(t, "ranking", got, []string{
		// Severity first, then resource order, then where the cause is in the resource.
		"critical S3_PUBLIC_READ resources[1].public_read",
		"critical SG_ADMIN_PORT_OPEN resources[3].ingress[1]",
		"critical SG_ADMIN_PORT_OPEN resources[3].ingress[2]",
		"high DB_UNENCRYPTED resources[2].encrypted",
		"high SG_DATA_PORT_OPEN resources[3].ingress[3]",
		"medium S3_UNENCRYPTED resources[1].encrypted",
		"low SG_PORT_OPEN resources[0].ingress[0]",
		"low SG_PORT_OPEN resources[3].ingress[0]",
	})
	want := Summary{Resources: 4, Findings: 8, BySeverity: BySeverity{Critical: 3, High: 2, Medium: 1, Low: 2}}
	if res.Summary != want {
		t.Errorf("summary %+v, want %+v", res.Summary, want)
	}
}

func TestSuppression(t *testing.T) {
	res := mustScan(t, doc(
		`{"type":"security_group","name":"bastion","ingress":[{"port":22,"cidr":"0.0.0.0/0"},{"port":22,"cidr":"::/0"},{"port":5432,"cidr":"0.0.0.0/0"}],
		  "suppress":[{"rule":"SG_ADMIN_PORT_OPEN","reason":"bastion, MFA-gated (SEC-7)"},{"rule":"SG_PORT_OPEN","reason":"fires nothing here"}]}`,
		`{"type":"s3_bucket","name":"site","public_read":true,"suppress":[{"rule":"S3_PUBLIC_READ","reason":"static site"}]}`,
	))
	equalStrings(t, "findings", summarize(res.Findings), []string{
		"SG_DATA_PORT_OPEN resources[0].ingress[2]: port 5432 (PostgreSQL) is open to 0.0.0.0/0",
	})
	var got []string
	for _, s := range res.Suppressed {
		got = append(got, s.Rule+" "+s.Path+" "+s.Reason)
	}
	// A suppression covers every cause of its rule on that resource; the
	// suppressed list is ranked like findings.
	equalStrings(t, "suppressed", got, []string{
		"SG_ADMIN_PORT_OPEN resources[0].ingress[0] bastion, MFA-gated (SEC-7)",
		"SG_ADMIN_PORT_OPEN resources[0].ingress[1] bastion, MFA-gated (SEC-7)",
		"S3_PUBLIC_READ resources[1].public_read static site",
	})
	if s := res.Summary; s.Findings != 1 || s.Suppressed != 3 || s.BySeverity != (BySeverity{High: 1}) {
		t.Errorf("summary %+v", s)
	}
}

func TestResultJSON(t *testing.T) {
	res := mustScan(t, doc())
	b, _ := json.Marshal(res)
	want := `{"format":"parapet","summary":{"resources":0,"findings":0,"by_severity":{"critical":0,"high":0,"medium":0,"low":0},"suppressed":0,"skipped":0},"findings":[],"suppressed":[],"skipped":[],"not_checked":[],"expired_suppressions":[]}`
	if string(b) != want {
		t.Errorf("empty result:\n got %s\nwant %s", b, want)
	}

	res = mustScan(t, doc(
		`{"type":"database","name":"orders","publicly_accessible":true,"suppress":[]}`,
		`{"type":"database","name":"billing","encrypted":false,"suppress":[{"rule":"DB_UNENCRYPTED","reason":"migrating in Q3"}]}`,
		`{"type":"lambda_function","name":"fn"}`,
	))
	b, _ = json.Marshal(res)
	// The fingerprints are literal: they must not change between versions,
	// or every CI baseline would mark every finding new.
	want = `{"format":"parapet","summary":{"resources":3,"findings":1,"by_severity":{"critical":1,"high":0,"medium":0,"low":0},"suppressed":1,"skipped":1},` +
		`"findings":[{"rule":"DB_PUBLIC","severity":"critical","title":"Database is publicly accessible",` +
		`"message":"database \"orders\" is publicly accessible (publicly_accessible is true): it has an endpoint reachable from the internet",` +
		`"remediation":` + jsonString(catalogue[ruleDBPublic].Remediation) + `,"resource":{"type":"database","name":"orders","index":0},` +
		`"path":"resources[0].publicly_accessible","references":[{"source":"CIS AWS Foundations Benchmark v3.0.0","id":"2.3.3"},{"source":"Checkov","id":"CKV_AWS_17"},{"source":"Trivy","id":"AVD-AWS-0180"}],"source":{"format":"parapet"},"fingerprint":"f8bb0a00dc6283ef0ce6e507277a1480"}],` +
		`"suppressed":[{"rule":"DB_UNENCRYPTED","severity":"high","title":"Database is not encrypted at rest",` +
		`"message":"database \"billing\" is not encrypted at rest (encrypted is false): its storage, backups and snapshots are readable without a key",` +
		`"remediation":` + jsonString(catalogue[ruleDBUnencrypted].Remediation) + `,"resource":{"type":"database","name":"billing","index":1},` +
		`"path":"resources[1].encrypted","references":[{"source":"CIS AWS Foundations Benchmark v3.0.0","id":"2.3.1"},{"source":"Checkov","id":"CKV_AWS_16"},{"source":"Trivy","id":"AVD-AWS-0080"}],"source":{"format":"parapet"},"fingerprint":"e52755cd3f324390c0b299ae6043ea92","reason":"migrating in Q3"}],` +
		`"skipped":[{"index":2,"type":"lambda_function","name":"fn","reason":"unsupported resource type \"lambda_function\"; the scanner checks s3_bucket, security_group, iam_policy and database"}],"not_checked":[],"expired_suppressions":[]}`
	if string(b) != want {
		t.Errorf("result:\n got %s\nwant %s", b, want)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestLines(t *testing.T) {
	input := "{\n \"resources\": [\n  {\"type\": \"s3_bucket\", \"name\": \"a\",\n   \"public_read\": true},\n" +
		"  {\"type\": \"security_group\", \"name\": \"sg\", \"ingress\": [\n    {\"port\": 8080, \"cidr\": \"0.0.0.0/0\"},\n    {\"port\": 22, \"cidr\": \"0.0.0.0/0\"}]},\n" +
		"  {\"type\": \"queue\", \"name\": \"q\"}\n ]\n}"
	res := mustScan(t, input)
	lines := map[string]int{}
	for _, f := range res.Findings {
		lines[f.Path] = f.Line
	}
	want := map[string]int{"resources[0].public_read": 4, "resources[1].ingress[0]": 6, "resources[1].ingress[1]": 7}
	for path, line := range want {
		if lines[path] != line {
			t.Errorf("%s: line %d, want %d", path, lines[path], line)
		}
	}
	if res.Skipped[0].Line != 8 {
		t.Errorf("skipped: line %d, want 8", res.Skipped[0].Line)
	}
}

func TestSample(t *testing.T) {
	res := mustScan(t, Sample())
	fired := map[string]bool{}
	for _, f := range res.Findings {
		fired[f.Rule] = true
	}
	for _, r := range Rules() {
		if !fired[r.ID] {
			t.Errorf("the sample does not trigger %s", r.ID)
		}
	}
	if len(res.Suppressed) != 1 || res.Suppressed[0].Reason == "" {
		t.Errorf("suppressed: %+v", res.Suppressed)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Type != "lambda_function" {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	clean := map[int]bool{}
	for k := 0; k < res.Summary.Resources; k++ {
		clean[k] = true
	}
	for _, f := range res.Findings {
		delete(clean, f.Resource.Index)
	}
	for _, s := range res.Suppressed {
		delete(clean, s.Resource.Index)
	}
	if n := res.Summary.Resources; n < 15 || n > 25 || len(clean) < 4 {
		t.Errorf("%d resources, %d clean or skipped", n, len(clean))
	}
}

func TestInputSizeLimit(t *testing.T) {
	input := []byte(`{"resources":[]}` + strings.Repeat(" ", MaxInputBytes-16))
	if _, err := Scan(input); err != nil {
		t.Fatalf("%d bytes: %v", len(input), err)
	}
	_, err := Scan(append(input, ' '))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "input_bytes" || le.Max != MaxInputBytes {
		t.Fatalf("want input_bytes LimitError, got %T %v", err, err)
	}
	if want := "the input is 5242881 bytes; the limit is 5242880 bytes (5 MiB)"; le.Error() != want {
		t.Errorf("got %q, want %q", le.Error(), want)
	}
}

func TestResourceCountLimit(t *testing.T) {
	one := `{"type":"s3_bucket","name":"b"}`
	many := func(n int) []byte { return []byte(doc(strings.TrimSuffix(strings.Repeat(one+",", n), ","))) }
	res, err := Scan(many(MaxResources))
	if err != nil || res.Summary.Resources != MaxResources {
		t.Fatalf("%d resources: %v", MaxResources, err)
	}
	_, err = Scan(many(MaxResources + 1))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "resources" || le.Max != MaxResources {
		t.Fatalf("want resources LimitError, got %T %v", err, err)
	}
	if want := "the document has more than 50000 resources; the limit is 50000 per scan"; le.Error() != want {
		t.Errorf("got %q, want %q", le.Error(), want)
	}
}

// A document that is both invalid and has a syntax error later on reports
// the syntax error: problems of a document that is not JSON are moot.
func TestSyntaxErrorWinsOverProblems(t *testing.T) {
	_, err := Scan([]byte(`{"resources":[{"type":5}, }`))
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("want *SyntaxError, got %T %v", err, err)
	}
}
