package scan

import "testing"

// TestTerraformDeposedObjects: a create_before_destroy replacement that
// did not finish leaves a deposed object, which shares its instance's
// address. In a plan its change (the deletion, after_unknown {}) came
// after the instance's and replaced its after_unknown, so a value unknown
// until apply (storage_encrypted from a KMS key made in the plan) read as
// absent, as the provider's default false: a false DB_UNENCRYPTED. In a
// state it was read as the instance, repeating its findings under the
// same name and fingerprint; it is listed in not_checked under its own
// name, as Terraform destroys it at the next apply.
func TestTerraformDeposedObjects(t *testing.T) {
	plan := `{"format_version":"1.2","terraform_version":"1.9.8",
"planned_values":{"root_module":{"resources":[
  {"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db",
   "values":{"identifier":"db","publicly_accessible":false}}]}},
"resource_changes":[
  {"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db",
   "change":{"actions":["create"],"after":{"identifier":"db","publicly_accessible":false},"after_unknown":{"id":true,"storage_encrypted":true}}},
  {"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db","deposed":"00000001",
   "change":{"actions":["delete"],"before":{"identifier":"db","publicly_accessible":true,"storage_encrypted":false},"after":null,"after_unknown":{}},
   "action_reason":"delete_because_deposed"}],
"configuration":{"root_module":{"resources":[{"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db",
  "expressions":{"storage_encrypted":{"references":["var.encrypted"]}}}]}}}`
	if res := mustScan(t, plan); len(res.Findings) != 0 {
		t.Errorf("plan: findings %v: storage_encrypted is unknown until apply", summarize(res.Findings))
	}

	state := `{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{"resources":[
  {"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db","values":{"publicly_accessible":false,"storage_encrypted":true}},
  {"address":"aws_db_instance.db","mode":"managed","type":"aws_db_instance","name":"db","deposed_key":"00000001","values":{"publicly_accessible":true,"storage_encrypted":false}}]}}}`
	raw := `{"version":4,"terraform_version":"1.9.8","serial":3,"lineage":"x","outputs":{},"resources":[
  {"mode":"managed","type":"aws_db_instance","name":"db","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[
    {"schema_version":2,"attributes":{"publicly_accessible":false,"storage_encrypted":true}},
    {"schema_version":2,"deposed":"00000001","attributes":{"publicly_accessible":true,"storage_encrypted":false}}]}]}`
	for name, doc := range map[string]string{"state": state, "raw state": raw} {
		res := mustScan(t, doc)
		if len(res.Findings) != 0 {
			t.Errorf("%s: findings %v: the deposed object is not checked", name, summarize(res.Findings))
		}
		if len(res.NotChecked) != 1 || len(res.NotChecked[0].Addresses) != 1 ||
			res.NotChecked[0].Addresses[0] != "aws_db_instance.db (deposed object 00000001)" {
			t.Errorf("%s: not_checked %+v", name, res.NotChecked)
		}
	}
}
