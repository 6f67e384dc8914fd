package scan

import "testing"

// TestPlanLinksThroughModuleInputs: a rule resource in a module names its
// group (an ACL its bucket) by an input variable, whose argument in the
// module call names the resource in the caller, directly, by another
// module's output, or by the caller's own variable in turn. The plan's
// configuration gives each argument's references, and the rule is read
// with its group as the Terraform source links it: the plan reported it
// on its own address, so the same resources gave other findings and
// fingerprints from the plan than from the source. A for_each call's
// argument naming aws_s3_bucket.b[each.key] takes the instance of the
// call's key.
func TestPlanLinksThroughModuleInputs(t *testing.T) {
	plan := `{"format_version":"1.2","terraform_version":"1.9.8",
"planned_values":{"root_module":{"resources":[
  {"address":"aws_s3_bucket.b[\"pub\"]","mode":"managed","type":"aws_s3_bucket","name":"b","index":"pub","values":{"bucket":"acme-pub"}},
  {"address":"aws_s3_bucket.b[\"priv\"]","mode":"managed","type":"aws_s3_bucket","name":"b","index":"priv","values":{"bucket":"acme-priv"}}],
 "child_modules":[
  {"address":"module.net","resources":[
    {"address":"module.net.aws_security_group.this[0]","mode":"managed","type":"aws_security_group","name":"this","index":0,"values":{"name":"web","ingress":[]}}],
   "child_modules":[
    {"address":"module.net.module.rules[\"db\"]","resources":[
      {"address":"module.net.module.rules[\"db\"].aws_security_group_rule.this","mode":"managed","type":"aws_security_group_rule","name":"this",
       "values":{"type":"ingress","from_port":5432,"to_port":5432,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"]}}]}]},
  {"address":"module.acl[\"pub\"]","resources":[
    {"address":"module.acl[\"pub\"].aws_s3_bucket_acl.this","mode":"managed","type":"aws_s3_bucket_acl","name":"this","values":{"acl":"public-read"}}]},
  {"address":"module.acl[\"priv\"]","resources":[
    {"address":"module.acl[\"priv\"].aws_s3_bucket_acl.this","mode":"managed","type":"aws_s3_bucket_acl","name":"this","values":{"acl":"private"}}]}]}},
"resource_changes":[
  {"address":"module.net.module.rules[\"db\"].aws_security_group_rule.this","mode":"managed","type":"aws_security_group_rule","name":"this",
   "change":{"actions":["create"],"after":{"type":"ingress","from_port":5432,"to_port":5432,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"]},
   "after_unknown":{"id":true,"security_group_id":true}}},
  {"address":"module.acl[\"pub\"].aws_s3_bucket_acl.this","mode":"managed","type":"aws_s3_bucket_acl","name":"this",
   "change":{"actions":["create"],"after":{"acl":"public-read"},"after_unknown":{"id":true,"bucket":true}}},
  {"address":"module.acl[\"priv\"].aws_s3_bucket_acl.this","mode":"managed","type":"aws_s3_bucket_acl","name":"this",
   "change":{"actions":["create"],"after":{"acl":"private"},"after_unknown":{"id":true,"bucket":true}}}],
"configuration":{"root_module":{
  "resources":[{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","name":"b","for_each_expression":{"references":["local.buckets"]}}],
  "module_calls":{
   "net":{"source":"./modules/net","module":{
     "resources":[{"address":"aws_security_group.this","mode":"managed","type":"aws_security_group","name":"this","count_expression":{"constant_value":1}}],
     "module_calls":{"rules":{"source":"./rules","for_each_expression":{"constant_value":{"db":{}}},
       "expressions":{"sg_id":{"references":["module.sg_id.value","module.sg_id"]}},
       "module":{"variables":{"sg_id":{}},
         "resources":[{"address":"aws_security_group_rule.this","mode":"managed","type":"aws_security_group_rule","name":"this",
           "expressions":{"security_group_id":{"references":["var.sg_id"]},"type":{"constant_value":"ingress"}}}]}},
      "sg_id":{"source":"./id","expressions":{"id":{"references":["aws_security_group.this[0].id","aws_security_group.this[0]","aws_security_group.this"]}},"module":{"outputs":{"value":{"expression":{"references":["var.id"]}}}}}},
     "outputs":{}},
    "expressions":{}},
   "acl":{"source":"./modules/acl","for_each_expression":{"references":["local.buckets"]},
     "expressions":{"bucket":{"references":["aws_s3_bucket.b","each.key"]}},
     "module":{"resources":[{"address":"aws_s3_bucket_acl.this","mode":"managed","type":"aws_s3_bucket_acl","name":"this",
       "expressions":{"bucket":{"references":["var.bucket"]},"acl":{"references":["var.acl"]}}}]}}}}}}`
	// module.net's sg_id argument of rules is module.sg_id's output, which
	// is that module's input id, which is module.net's group.
	res := mustScan(t, plan)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+" via "+f.Path)
	}
	equalStrings(t, "plan", got, []string{
		`S3_PUBLIC_READ aws_s3_bucket.b["pub"] via module.acl["pub"].aws_s3_bucket_acl.this.acl`,
		`SG_DATA_PORT_OPEN module.net.aws_security_group.this[0] via module.net.module.rules["db"].aws_security_group_rule.this`,
	})

	// The source of the group and its rule: the same finding and
	// fingerprint.
	src, err := ScanFiles([]File{
		{Path: "main.tf", Data: []byte(`module "net" {
  source = "./modules/net"
}
`)},
		{Path: "modules/net/main.tf", Data: []byte(`resource "aws_security_group" "this" {
  count = 1
  name  = "web"
}
module "sg_id" {
  source = "./id"
  id     = aws_security_group.this[0].id
}
module "rules" {
  source   = "./rules"
  for_each = { db = {} }
  sg_id    = module.sg_id.value
}
`)},
		{Path: "modules/net/id/main.tf", Data: []byte(`variable "id" {}
output "value" {
  value = var.id
}
`)},
		{Path: "modules/net/rules/main.tf", Data: []byte(`variable "sg_id" {}
resource "aws_security_group_rule" "this" {
  type              = "ingress"
  from_port         = 5432
  to_port           = 5432
  protocol          = "tcp"
  cidr_blocks       = ["0.0.0.0/0"]
  security_group_id = var.sg_id
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Findings) != 1 || src.Findings[0].Fingerprint != res.Findings[1].Fingerprint {
		t.Errorf("source findings %v: want the plan's %s %s", summarize(src.Findings), res.Findings[1].Resource.Name, res.Findings[1].Fingerprint)
	}
}
