package api_test

import (
	"strconv"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/app/scan"
)

// TestScanAPIAmplification: small documents that multiply what they say
// (YAML aliases, intrinsic functions) are refused with 413 and a message
// naming the limit, instead of taking gigabytes and seconds.
func TestScanAPIAmplification(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan-dos@example.com")
		c := env.Client()
		key := bearer(s.Key)
		yamlType := append([]string{"Content-Type", "application/yaml"}, key...)

		// A YAML envelope whose document repeats a 100 KB string a
		// thousand times through three levels of aliases.
		ladder := "s: &s \"" + strings.Repeat("A", 100_000) + "\"\n" +
			"l1: &l1 [*s, *s, *s, *s, *s, *s, *s, *s, *s, *s]\n" +
			"l2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]\n"
		e := scanExpectError(t, "yaml alias bytes", c.Do("POST", scanPath, ladder+"document:\n  resources: []\n  pad: [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]\n", yamlType...),
			413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "aliases repeat more than 5242880 bytes") {
			t.Errorf("alias bytes message %q", e.Error.Message)
		}

		// A JSON template joining a 1 MB default with itself, without a
		// single alias.
		var b strings.Builder
		b.WriteString(`{"Parameters":{"P":{"Type":"String","Default":"` + strings.Repeat("A", 1<<20) + `"}},"Resources":{"B":{"Type":"AWS::S3::Bucket","Properties":{"BucketName":{"Fn::Join":["",[`)
		b.WriteString(strings.TrimSuffix(strings.Repeat(`{"Ref":"P"},`, 30), ","))
		b.WriteString(`]]}}}}}`)
		e = scanExpectError(t, "intrinsic output", c.PostJSON(scanPath, b.String(), key...), 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "intrinsic functions") || !strings.Contains(e.Error.Message, "20971520") {
			t.Errorf("intrinsic message %q", e.Error.Message)
		}

		// A security group of one-port entries, more findings than a scan
		// reports (each a finding of its own, in about 30 bytes).
		var g strings.Builder
		g.WriteString(`{"resources":[{"type":"security_group","name":"g","ingress":[`)
		for p := range scan.MaxFindings + 1 {
			g.WriteString(`{"port":` + strconv.Itoa(p%60000+1024) + `,"cidr":"` + [2]string{"0.0.0.0/0", "::/0"}[p/60000] + `"},`)
		}
		e = scanExpectError(t, "findings", c.PostJSON(scanPath, strings.TrimSuffix(g.String(), ",")+`]}]}`, key...), 413, "payload_too_large")
		if !strings.HasPrefix(e.Error.Message, "the document has more than 60000 findings") {
			t.Errorf("findings message %q", e.Error.Message)
		}

		// A suppression pattern over 256 bytes is a problem of the
		// envelope, named with its path.
		long := `{"document":{"resources":[{"type":"s3_bucket","name":"b","public_read":true}]},"suppressions":[` +
			`{"rule":"S3_PUBLIC_READ","resource":"*` + strings.Repeat("a", 300) + `","reason":"r"}]}`
		e = scanExpectError(t, "long pattern", c.PostJSON(scanPath, long, key...), 400, "invalid_request")
		if len(e.Error.Details) != 1 || e.Error.Details[0].Path != "suppressions[0].resource" ||
			e.Error.Details[0].Message != "is 301 bytes; a resource pattern may have at most 256 (let * stand for the rest)" {
			t.Errorf("long pattern details %+v", e.Error.Details)
		}
	})
}
