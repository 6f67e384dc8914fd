package scan

import (
	"errors"
	"os"
	"testing"
)

// Fuzz tests of the parsers added for the other formats. Each checks that
// a scan never panics, fails only with the documented error types, and
// that what it returns is consistent (counts, fingerprints, SARIF).

func checkScan(t *testing.T, data []byte) {
	res, err := ScanWith(data, Options{Now: testNow})
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
	bs := res.Summary.BySeverity
	if res.Summary.Findings != len(res.Findings) || bs.Critical+bs.High+bs.Medium+bs.Low != len(res.Findings) {
		t.Fatalf("summary %+v for %d findings", res.Summary, len(res.Findings))
	}
	for _, f := range res.Findings {
		if f.Fingerprint == "" || f.Resource.Name == "" && res.Format != FormatParapet {
			t.Fatalf("finding without fingerprint or name: %+v", f)
		}
	}
	if _, err := SARIF(res, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
}

func seed(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzTerraform fuzzes the plan and state adapter (terraform.go).
func FuzzTerraform(f *testing.F) {
	seed(f, "plan.json", "state.json", "clouds/gcp_plan.json", "clouds/gcp_state.json", "clouds/azure_plan.json", "clouds/azure_state.json")
	f.Add([]byte(`{"format_version":"1.2","planned_values":{"root_module":{"resources":[{"address":"module.a[\"x\"].aws_security_group_rule.r[0]","mode":"managed","type":"aws_security_group_rule","values":{"type":"ingress","from_port":-1,"to_port":-1,"protocol":"-1","cidr_blocks":["0.0.0.0/0"]}}]}},"resource_changes":[{"address":"x","mode":"managed","change":{"after_unknown":{"a":[true,{"b":true}]}}}]}`))
	f.Add([]byte(`{"values":{"root_module":{"child_modules":[{"child_modules":[{}]}]}}}`))
	f.Add([]byte(`{"version":4,"terraform_version":"1.9.5","lineage":"x","resources":[{"module":"module.m[\"k\"]","mode":"managed","type":"aws_s3_bucket_acl","name":"a","instances":[{"index_key":"k","attributes":{"bucket":"b","acl":"authenticated-read"}},{"index_key":1,"attributes_flat":{"acl":"public-read","grant.#":"0"}}]},{"mode":"managed","type":"aws_s3_bucket","name":"b","instances":[{"attributes":{"bucket":"b"}}]}]}`))
	f.Add([]byte(`{"version":3,"modules":[{"path":["root"],"resources":{}}]}`))
	f.Fuzz(checkScan)
}

// FuzzCloudFormation fuzzes the template adapter (cloudformation.go) and
// the YAML reader (yaml.go).
func FuzzCloudFormation(f *testing.F) {
	seed(f, "template.yaml", "template.json")
	f.Add([]byte("Conditions:\n  A: !Equals [!Ref P, !Condition A]\nResources:\n  X:\n    Type: AWS::EC2::SecurityGroup\n    Condition: A\n    Properties:\n      SecurityGroupIngress: !If [A, [{IpProtocol: -1, CidrIp: !Sub '${P}'}], !Ref AWS::NoValue]\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte(`{"Resources":{"X":{"Type":"AWS::IAM::Role","Properties":{"Policies":[{"PolicyDocument":{"Fn::Join":["",["{\"Statement\":",{"Fn::Select":[0,[1]]},"}"]]}}]}}}}`))
	f.Fuzz(checkScan)
}

// FuzzEnvelope fuzzes the envelope, its suppressions and the baseline
// reader (envelope.go, baseline.go).
func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(`{"document":{"resources":[{"type":"s3_bucket","name":"b","public_read":true}]},"suppressions":[{"rule":"S3_PUBLIC_READ","resource":"*","reason":"r","expires":"2026-01-01"}]}`))
	f.Add([]byte(`{"document":"Resources:\n  X:\n    Type: AWS::S3::Bucket\n","baseline":{"runs":[{"results":[{"ruleId":"S3_PUBLIC_READ","partialFingerprints":{"parapetFinding/v1":"ab"}}]}]}}`))
	f.Add([]byte(`{"document":{"resources":[]},"baseline":"{\"data\":{\"findings\":[{\"fingerprint\":\"x\",\"rule\":\"DB_PUBLIC\"}]}}"}`))
	f.Add([]byte("document:\n  resources: []\nsuppressions: []\n"))
	f.Fuzz(checkScan)
}
