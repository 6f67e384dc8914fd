package scan

import (
	"cmp"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzScan checks that Scan never panics, fails only with its documented
// error types, and, for our own format, that every finding, suppressed finding and skipped
// resource names a resource that exists in the input with that type and
// name, as encoding/json reads it.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		Sample(), doc(), `{}`, `[]`, `{"resources":{}}`,
		doc(sg(`{"port":20,"to_port":30,"cidr":"::/0"},{"protocol":"-1","cidr":"10.0.0.0/0"},{"protocol":"icmp","cidr":"0.0.0.0/0"}`)),
		doc(`{"type":"iam_policy","name":"p","actions":["*:*","S3:*","iam:*"],"resources":["*"]}`),
		doc(`{"type":"s3_bucket","name":"n\u00e9","public_read":true,"suppress":[{"rule":"S3_PUBLIC_READ","reason":"r"}]}`),
		doc(`{"type":"database","name":"d","publicly_accessible":true,"encrypted":false}`, `{"type":"x","name":"y"}`),
		`{"resources":[{"type":"s3_bucket","name":"b","public_read":tru`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Scan(data)
		if err != nil {
			var se *SyntaxError
			var ve *ValidationError
			var le *LimitError
			if !errors.As(err, &se) && !errors.As(err, &ve) && !errors.As(err, &le) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			if ve != nil && (len(ve.Problems) == 0 || len(ve.Problems) > MaxProblems) {
				t.Fatalf("%d problems", len(ve.Problems))
			}
			return
		}
		if res.Format != FormatParapet {
			return // the other formats' fuzz tests are in fuzz_formats_test.go
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			t.Fatalf("we accept a document encoding/json rejects: %v", err)
		}
		if _, isEnvelope := top["document"]; isEnvelope {
			return
		}
		var resources []map[string]any
		if err := json.Unmarshal(top["resources"], &resources); err != nil {
			t.Fatalf("resources: %v", err)
		}
		if res.Summary.Resources != len(resources) {
			t.Fatalf("summary counts %d resources, the input has %d", res.Summary.Resources, len(resources))
		}
		check := func(what string, index int, typ, name string) {
			if index < 0 || index >= len(resources) {
				t.Fatalf("%s names resource %d of %d", what, index, len(resources))
			}
			if r := resources[index]; r["type"] != typ || r["name"] != name {
				t.Fatalf("%s names %q %q, resource %d is %q %q", what, typ, name, index, r["type"], r["name"])
			}
		}
		for _, f := range res.Findings {
			check("finding "+f.Rule, f.Resource.Index, f.Resource.Type, f.Resource.Name)
		}
		for _, s := range res.Suppressed {
			check("suppressed "+s.Rule, s.Resource.Index, s.Resource.Type, s.Resource.Name)
		}
		for _, s := range res.Skipped {
			check("skipped", s.Index, s.Type, s.Name)
		}
		bs := res.Summary.BySeverity
		if res.Summary.Findings != len(res.Findings) || bs.Critical+bs.High+bs.Medium+bs.Low != len(res.Findings) {
			t.Fatalf("summary %+v for %d findings", res.Summary, len(res.Findings))
		}
		for k := 1; k < len(res.Findings); k++ {
			if rank(res.Findings[k-1], res.Findings[k]) > 0 {
				t.Fatalf("findings %d and %d out of order", k-1, k)
			}
		}
		if _, err := SARIF(res, SARIFOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// rank is the order Scan promises: severity, then resource
// order, then where the cause is within the resource.
func rank(a, b Finding) int {
	if c := cmp.Compare(a.Severity.rank(), b.Severity.rank()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Resource.Index, b.Resource.Index); c != 0 {
		return c
	}
	return cmp.Compare(a.offset, b.offset)
}
