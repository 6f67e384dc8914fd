package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"parapet/app/apptest"
)

const fixTemplate = `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: logs-prod
      AccessControl: PublicRead

  DB:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: postgres
      MasterUserPassword: Sup3rS3cretMaster!
      StorageEncrypted: true
`

type fixOut struct {
	Data struct {
		Format   string
		Document string
		Diff     string
		Answer   string
		Findings []struct {
			Fingerprint, Rule, Verdict, Reason string
		}
		Usage struct {
			InputTokens int `json:"input_tokens"`
		} `json:"usage"`
	} `json:"data"`
}

// publicBucket is the fingerprint of fixTemplate's public bucket finding.
func publicBucket(t *testing.T, c *apptest.Client, key string) string {
	t.Helper()
	var res struct {
		Data struct {
			Findings []struct{ Rule, Fingerprint string }
		}
	}
	r := c.Do("POST", "/scan/v1/scan", fixTemplate, "Content-Type", "application/yaml", "Authorization", "Bearer "+key)
	r.JSON(t, &res)
	for _, f := range res.Data.Findings {
		if f.Rule == "S3_PUBLIC_READ" {
			return f.Fingerprint
		}
	}
	t.Fatalf("no public bucket finding: %s", r.Body)
	return ""
}

func fixBody(t *testing.T, doc string, fps ...string) string {
	b, err := json.Marshal(map[string]any{"document": doc, "fingerprints": fps})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFixThroughGateway(t *testing.T) {
	fixed := "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties:\n  BucketName: logs-prod\n```\nRemoved the public ACL."
	cases := []struct {
		name, answer, verdict, reason string
	}{
		{"acl removed", fixed, "verified", ""},
		{"finding left", "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties:\n  BucketName: logs-prod-2\n  AccessControl: PublicRead\n```", "not_verified", "the finding is still there"},
		{"broken document", "Resource: Logs\n```yaml\nType: AWS::S3::Bucket\nProperties: {BucketName: [\n```", "not_verified", "does not parse as YAML"},
		{"another resource", fixed + "\nResource: DB\n```yaml\nType: AWS::RDS::DBInstance\nProperties:\n  Engine: mysql\n```", "not_verified", `also changes "DB"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			up := fakeModel(t, tc.answer)
			env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
			c := env.Client()
			fp := publicBucket(t, c, s.Key)
			r := c.PostJSON("/scan/v1/fix", fixBody(t, fixTemplate, fp), "Authorization", "Bearer "+s.Key)
			if r.StatusCode != 200 {
				t.Fatalf("%d %s", r.StatusCode, r.Body)
			}
			var out fixOut
			r.JSON(t, &out)
			f := out.Data.Findings
			if len(f) != 1 || f[0].Fingerprint != fp || f[0].Verdict != tc.verdict || !strings.Contains(f[0].Reason, tc.reason) {
				t.Errorf("findings %+v", f)
			}
			if tc.verdict == "verified" && (!strings.Contains(out.Data.Diff, "\n-      AccessControl: PublicRead\n") || strings.Contains(out.Data.Document, "PublicRead")) {
				t.Errorf("diff:\n%s", out.Data.Diff)
			}
			if strings.Contains(out.Data.Document, "mysql") || !strings.Contains(out.Data.Document, "MasterUserPassword: Sup3rS3cretMaster!") {
				t.Errorf("document:\n%s", out.Data.Document)
			}
			p := strings.Join(up.prompts(), "\n")
			if strings.Contains(p, "Sup3rS3cretMaster") || strings.Contains(p, "Engine: postgres") || !strings.Contains(p, "AccessControl: PublicRead") {
				t.Errorf("the prompt holds other resources or secrets:\n%s", p)
			}
			if evs := auditOf(t, env); len(evs) != 1 || !strings.HasPrefix(evs[0].Target, "scan.fix") || *evs[0].InputTokens != 120 {
				t.Errorf("audit %+v", evs)
			}
		})
	}
}

// With the built-in demo upstream the fix comes from the table of known
// remediations, labelled, and is verified; a Terraform plan's finding is
// not sent at all.
func TestFixDemo(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	c := env.Client()
	r := c.PostJSON("/scan/v1/fix", fixBody(t, fixTemplate, publicBucket(t, c, s.Key)), "Authorization", "Bearer "+s.Key)
	var out fixOut
	r.JSON(t, &out)
	if r.StatusCode != 200 || len(out.Data.Findings) != 1 || out.Data.Findings[0].Verdict != "verified" || !strings.HasPrefix(out.Data.Answer, "**Demo fix**") {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[{"address":"aws_db_instance.a","mode":"managed","type":"aws_db_instance","name":"a","values":{"publicly_accessible":true,"storage_encrypted":true}}]}}}`
	var res struct {
		Data struct {
			Findings []struct{ Fingerprint string }
		}
	}
	c.PostJSON("/scan/v1/scan", plan, "Authorization", "Bearer "+s.Key).JSON(t, &res)
	if len(res.Data.Findings) == 0 {
		t.Fatal("the plan has no finding")
	}
	before := len(auditOf(t, env))
	r = c.PostJSON("/scan/v1/fix", fixBody(t, plan, res.Data.Findings[0].Fingerprint), "Authorization", "Bearer "+s.Key)
	out = fixOut{}
	r.JSON(t, &out)
	if r.StatusCode != 200 || out.Data.Findings[0].Verdict != "not_verified" || !strings.Contains(out.Data.Findings[0].Reason, "Terraform source") {
		t.Errorf("%d %s", r.StatusCode, r.Body)
	}
	if len(auditOf(t, env)) != before {
		t.Error("a fix that could not be sent was a gateway call")
	}
	for _, tc := range []struct{ body, msg string }{
		{`{"document":{"resources":[]},"fingerprints":["x"]}`, "no finding"},
		{`{"fingerprints":["x"]}`, "document or files is required"},
		{`{"document":"a: [","fingerprints":["x"]}`, "malformed YAML"},
		{`{"document":{"resources":[]},"fingerprints":[],"extra":1}`, "unknown field"},
	} {
		r := c.PostJSON("/scan/v1/fix", tc.body, "Authorization", "Bearer "+s.Key)
		var e apiError
		r.JSON(t, &e)
		if r.StatusCode != http.StatusBadRequest || e.Error.Code != "invalid_request" || !strings.Contains(e.Error.Message, tc.msg) {
			t.Errorf("%s: %d %s", tc.body, r.StatusCode, r.Body)
		}
	}
}
