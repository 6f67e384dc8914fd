package scan

import (
	"errors"
	"strings"
	"testing"
)

// TestRawStateFile: a raw terraform.tfstate (format 4) is read: managed
// resources of every module, one per instance with its count or for_each
// key in the address, data sources left out, linked by the name or id
// their attributes hold, each finding on the line of its instance. It was
// refused with a message that named only `terraform show -json`.
func TestRawStateFile(t *testing.T) {
	state := `{
  "version": 4,
  "terraform_version": "1.9.5",
  "serial": 12,
  "lineage": "5e3c1c2a-0000-4000-8000-000000000000",
  "outputs": {},
  "resources": [
    {"mode": "data", "type": "aws_iam_policy_document", "name": "any", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
     "instances": [{"schema_version": 0, "attributes": {"json": "{\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}"}}]},
    {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]", "each": "map",
     "instances": [
       {"index_key": "logs", "schema_version": 0, "attributes": {"id": "acme-logs", "bucket": "acme-logs"}, "sensitive_attributes": []},
       {"index_key": "site", "schema_version": 0, "attributes": {"id": "acme-site", "bucket": "acme-site"}, "sensitive_attributes": []}
     ]},
    {"mode": "managed", "type": "aws_s3_bucket_acl", "name": "site", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "acme-site,public-read", "bucket": "acme-site", "acl": "public-read"}, "dependencies": ["aws_s3_bucket.b"]}]},
    {"module": "module.net[0]", "mode": "managed", "type": "aws_security_group", "name": "web", "each": "list",
     "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
     "instances": [
       {"index_key": 0, "schema_version": 1, "attributes": {"id": "sg-1", "name": "web", "ingress": [
         {"cidr_blocks": ["0.0.0.0/0"], "ipv6_cidr_blocks": [], "from_port": 22, "to_port": 22, "protocol": "tcp", "self": false}]}}
     ]},
    {"module": "module.db", "mode": "managed", "type": "aws_db_instance", "name": "main",
     "instances": [{"schema_version": 2, "attributes": {"id": "db-1", "publicly_accessible": true, "storage_encrypted": true},
       "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]]}]},
    {"mode": "managed", "type": "google_compute_instance", "name": "g", "provider": "provider[\"registry.terraform.io/hashicorp/google\"]",
     "instances": [{"schema_version": 0, "attributes": {"name": "g"}}]}
  ],
  "check_results": null
}
`
	res := scanAt(t, []byte(state))
	if res.Format != FormatTerraformState || res.Summary.Resources != 6 {
		t.Fatalf("format %s, %d resources", res.Format, res.Summary.Resources)
	}
	equalStrings(t, "findings", findingLines(res.Findings), []string{
		`S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.b["site"] @ aws_s3_bucket_acl.site.acl via aws_s3_bucket_acl.site`,
		"SG_ADMIN_PORT_OPEN aws_security_group module.net[0].aws_security_group.web[0] @ module.net[0].aws_security_group.web[0].ingress[0]",
		"DB_PUBLIC aws_db_instance module.db.aws_db_instance.main @ module.db.aws_db_instance.main.publicly_accessible",
	})
	lines := map[string]int{}
	for _, f := range res.Findings {
		lines[f.Resource.Name] = f.Line
	}
	if lines[`aws_s3_bucket.b["site"]`] != 13 || lines["module.net[0].aws_security_group.web[0]"] != 20 || lines["module.db.aws_db_instance.main"] != 24 {
		t.Errorf("lines %v", lines)
	}
	if len(res.NotChecked) != 1 || res.NotChecked[0].Type != "google_compute_instance" {
		t.Errorf("not checked %+v", res.NotChecked)
	}

	// Sorted keys (resources before terraform_version), as tools write it.
	sorted := `{"check_results":null,"lineage":"x","outputs":{},"resources":[{"mode":"managed","type":"aws_security_group","name":"web",` +
		`"instances":[{"attributes":{"id":"sg-1","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":3389,"to_port":3389,"protocol":"tcp"}]}}]}],"serial":3,"terraform_version":"1.6.6","version":4}`
	equalStrings(t, "sorted", findingLines(scanAt(t, []byte(sorted)).Findings), []string{
		"SG_ADMIN_PORT_OPEN aws_security_group aws_security_group.web @ aws_security_group.web.ingress[0]"})

	// An empty state is a state with nothing in it.
	if res := scanAt(t, []byte(`{"version":4,"terraform_version":"1.9.5","serial":1,"lineage":"x","outputs":{},"resources":[],"check_results":null}`)); res.Format != FormatTerraformState || res.Summary.Resources != 0 {
		t.Errorf("empty state: %+v", res)
	}
}

// TestOldStateFileRefused: a state of format 3 (Terraform 0.11) has
// flattened attributes the families cannot read; it is refused with what
// to send instead.
func TestOldStateFileRefused(t *testing.T) {
	old := `{"version":3,"terraform_version":"0.11.14","serial":2,"lineage":"x","modules":[{"path":["root"],"outputs":{},` +
		`"resources":{"aws_s3_bucket.b":{"type":"aws_s3_bucket","primary":{"id":"b","attributes":{"acl":"public-read"}}}}}]}`
	_, err := ScanWith([]byte(old), Options{Now: testNow})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Problems[0].Path != "version" || !strings.Contains(ve.Error(), "format 3 (Terraform 0.11 or earlier)") ||
		!strings.Contains(ve.Error(), "terraform show -json") {
		t.Errorf("got %v", err)
	}
}

// TestEmptyStateOutput: `terraform show -json` with no state prints only
// {"format_version":"1.0"}; the scan used to answer that a plan needs
// planned_values and to send `terraform show -json`, which is what the
// user had done. Now the problem says what the document is and why.
func TestEmptyStateOutput(t *testing.T) {
	got := problemsOf(t, `{"format_version":"1.0"}`)
	if len(got) != 1 || !strings.Contains(got[0], "what `terraform show -json` prints when it finds no state") {
		t.Errorf("problems %q", got)
	}
}
