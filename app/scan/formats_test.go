package scan

import (
	"os"
	"strings"
	"testing"
	"time"
)

// testNow is the time suppressions' expiry is judged against in tests.
var testNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func scanAt(t *testing.T, input []byte) *Result {
	t.Helper()
	res, err := ScanWith(input, Options{Now: testNow})
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	return res
}

// findingLines renders findings as "RULE resource path [via linked]".
func findingLines(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		s := f.Rule + " " + f.Resource.Type + " " + f.Resource.Name + " @ " + f.Path
		if f.Source.Linked != nil {
			s += " via " + f.Source.Linked.Name
		}
		out = append(out, s)
	}
	return out
}

func notCheckedLines(nc []NotChecked) []string {
	out := []string{}
	for _, n := range nc {
		out = append(out, n.Type+" "+strings.Join(n.Addresses, ",")+": "+n.Reason)
	}
	return out
}

// TestFormats scans the realistic documents of testdata/ and expects
// exactly the findings a reviewer expects, on the resource a person would
// fix; every resource not named here is deliberately clean.
func TestFormats(t *testing.T) {
	cases := []struct {
		file, format string
		findings     []string
		suppressed   []string
		notChecked   []string
	}{{
		file: "plan.json", format: FormatTerraformPlan,
		findings: []string{
			`S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.site @ aws_s3_bucket_acl.site.acl via aws_s3_bucket_acl.site`,
			// for_each: the ACL of each key lands on the bucket of that key;
			// ["internal"] has a public ACL too, outweighed by its access block.
			`S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.assets["public"] @ aws_s3_bucket_acl.assets["public"].acl via aws_s3_bucket_acl.assets["public"]`,
			`S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.exports @ aws_s3_bucket_policy.exports.policy.Statement[0] via aws_s3_bucket_policy.exports`,
			`IAM_FULL_ADMIN aws_iam_policy aws_iam_policy.admin @ aws_iam_policy.admin.policy.Statement[0].Action`,
			`SG_ADMIN_PORT_OPEN aws_security_group module.net.aws_security_group.bastion @ module.net.aws_security_group.bastion.ingress[0]`,
			// count: the rule's security_group_id is unknown until apply; the
			// configuration's references link it.
			`SG_ADMIN_PORT_OPEN aws_security_group module.net.aws_security_group.bastion @ module.net.aws_security_group_rule.bastion_rdp[0] via module.net.aws_security_group_rule.bastion_rdp[0]`,
			`DB_PUBLIC aws_db_instance module.db.aws_db_instance.main @ module.db.aws_db_instance.main.publicly_accessible`,
			`SG_DATA_PORT_OPEN aws_security_group module.net.aws_security_group.db @ module.net.aws_vpc_security_group_ingress_rule.db_public via module.net.aws_vpc_security_group_ingress_rule.db_public`,
			`DB_UNENCRYPTED aws_db_instance module.db.aws_db_instance.main @ module.db.aws_db_instance.main.storage_encrypted`,
			// Left out: the provider's default (false), and the message says so.
			`DB_UNENCRYPTED aws_rds_cluster module.db.aws_rds_cluster.analytics @ module.db.aws_rds_cluster.analytics.storage_encrypted`,
			// Not here: staging's storage_encrypted and app's CIDRs are
			// unknown until apply; ci's policy too.
		},
		suppressed: []string{},
		notChecked: []string{"aws_lambda_function aws_lambda_function.api: the scanner has no rules for this type"},
	}, {
		file: "state.json", format: FormatTerraformState,
		findings: []string{
			// Linked by the bucket name in the state (an IAM policy of the same name
			// does not make it ambiguous).
			`S3_PUBLIC_READ aws_s3_bucket aws_s3_bucket.reports @ aws_s3_bucket_acl.reports.acl via aws_s3_bucket_acl.reports`,
			// The bucket is not in this state: the finding lands on the policy.
			`S3_PUBLIC_READ aws_s3_bucket_policy aws_s3_bucket_policy.partner @ aws_s3_bucket_policy.partner.policy.Statement[0]`,
			`SG_ADMIN_PORT_OPEN aws_security_group aws_security_group.ssh @ aws_security_group_rule.ssh_in via aws_security_group_rule.ssh_in`,
			`IAM_WILDCARD_ACTION aws_iam_user_policy aws_iam_user_policy.ops @ aws_iam_user_policy.ops.policy.Statement[0].Action[0]`,
			`DB_UNENCRYPTED aws_rds_cluster module.app[0].aws_rds_cluster.main @ module.app[0].aws_rds_cluster.main.storage_encrypted`,
			// Not here: archive's inline public ACL is replaced by its private
			// aws_s3_bucket_acl; media's public ACL is outweighed by its access
			// block; the serverless cluster is always encrypted.
		},
		suppressed: []string{},
		notChecked: []string{
			"aws_instance aws_instance.web: the scanner has no rules for this type",
			"aws_sqs_queue module.app[0].aws_sqs_queue.jobs: the scanner has no rules for this type",
		},
	}, {
		file: "template.yaml", format: FormatCloudFormationYAML,
		findings: []string{
			`S3_PUBLIC_READ AWS::S3::Bucket LogsBucket @ Resources.LogsBucketPolicy.Properties.PolicyDocument.Statement[0] via LogsBucketPolicy`,
			// OpenAdmin depends on a parameter without a default: both
			// outcomes are checked, and one opens SSH to the world.
			`SG_ADMIN_PORT_OPEN AWS::EC2::SecurityGroup WebSecurityGroup @ Resources.WebSecurityGroup.Properties.SecurityGroupIngress[1]`,
			`IAM_FULL_ADMIN AWS::IAM::ManagedPolicy AdminPolicy @ Resources.AdminPolicy.Properties.PolicyDocument.Statement[0].Action`,
			`SG_DATA_PORT_OPEN AWS::EC2::SecurityGroup DbSecurityGroup @ Resources.DbPublicIngress.Properties via DbPublicIngress`,
			`DB_UNENCRYPTED AWS::RDS::DBInstance Database @ Resources.Database.Properties.StorageEncrypted`,
			// The trust policy's sts:* and the Deny statement are not grants.
			`IAM_SERVICE_WILDCARD AWS::IAM::Role AppRole @ Resources.AppRole.Properties.Policies[0].PolicyDocument.Statement[0].Action[0]`,
		},
		suppressed: []string{`S3_PUBLIC_READ AWS::S3::Bucket SiteBucket @ Resources.SiteBucket.Properties.AccessControl`},
		notChecked: []string{
			"AWS::RDS::DBInstance DevDatabase: its condition IsDev is false with the parameters' defaults: not created",
			"AWS::SQS::Queue Queue: the scanner has no rules for this type",
		},
	}, {
		file: "template.json", format: FormatCloudFormationJSON,
		findings: []string{
			`SG_ALL_PORTS_OPEN AWS::EC2::SecurityGroup WorkerSecurityGroup @ Resources.WorkerSecurityGroup.Properties.SecurityGroupIngress[0]`,
			`IAM_WILDCARD_ACTION AWS::IAM::Policy IamAdminPolicy @ Resources.IamAdminPolicy.Properties.PolicyDocument.Statement[0].Action[0]`,
			`IAM_WILDCARD_RESOURCE AWS::IAM::Policy IamAdminPolicy @ Resources.IamAdminPolicy.Properties.PolicyDocument.Statement[0].Resource`,
		},
		suppressed: []string{},
		notChecked: []string{"AWS::SNS::Topic Topic: the scanner has no rules for this type"},
	}}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res := scanAt(t, readTestdata(t, c.file))
			if res.Format != c.format {
				t.Errorf("format %q, want %q", res.Format, c.format)
			}
			equalStrings(t, "findings", findingLines(res.Findings), c.findings)
			var sup []Finding
			for _, s := range res.Suppressed {
				sup = append(sup, s.Finding)
			}
			equalStrings(t, "suppressed", findingLines(sup), c.suppressed)
			equalStrings(t, "not checked", notCheckedLines(res.NotChecked), c.notChecked)
			for _, f := range res.Findings {
				if f.Source.Format != c.format || f.Fingerprint == "" {
					t.Errorf("%s on %s: source %+v, fingerprint %q", f.Rule, f.Resource.Name, f.Source, f.Fingerprint)
				}
			}
		})
	}
}

// TestFindingsSayWhy: a default and an undecided condition are said in the
// message.
func TestFindingsSayWhy(t *testing.T) {
	messages := func(file string) string {
		var all []string
		for _, f := range scanAt(t, readTestdata(t, file)).Findings {
			all = append(all, f.Resource.Name+": "+f.Message)
		}
		return strings.Join(all, "\n")
	}
	plan, yaml := messages("plan.json"), messages("template.yaml")
	for _, want := range []string{
		`module.db.aws_rds_cluster.analytics: database "module.db.aws_rds_cluster.analytics" is not encrypted at rest (storage_encrypted is not set; the AWS provider's default is false)`,
		`(set in module.net.aws_security_group_rule.bastion_rdp[0])`,
		`the bucket policy allows "s3:GetObject" to principal "*"`,
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan messages lack %q:\n%s", want, plan)
		}
	}
	for _, want := range []string{
		"WebSecurityGroup: port 22 (SSH) is open to 0.0.0.0/0 (condition OpenAdmin could not be decided; both outcomes were checked)",
		"Database: database \"Database\" is not encrypted at rest (StorageEncrypted is not set; CloudFormation's default is false)",
	} {
		if !strings.Contains(yaml, want) {
			t.Errorf("template messages lack %q:\n%s", want, yaml)
		}
	}
}

// TestFormatLines: every finding of the other formats has the line of its
// resource, as SARIF viewers and GitHub need one.
func TestFormatLines(t *testing.T) {
	for file, want := range map[string]map[string]int{
		"plan.json":     {"aws_s3_bucket.site": 13, "module.net.aws_security_group.bastion": 57},
		"template.yaml": {"LogsBucket": 54, "WebSecurityGroup": 72},
		"template.json": {"WorkerSecurityGroup": 8, "IamAdminPolicy": 26},
	} {
		for _, f := range scanAt(t, readTestdata(t, file)).Findings {
			if f.Line < 1 {
				t.Errorf("%s: %s %s has no line", file, f.Rule, f.Resource.Name)
			}
			if l, ok := want[f.Resource.Name]; ok && f.Line != l {
				t.Errorf("%s: %s %s on line %d, want %d", file, f.Rule, f.Resource.Name, f.Line, l)
			}
		}
	}
}

func TestTerraformAddresses(t *testing.T) {
	for _, c := range []struct{ addr, module, local, index, config string }{
		{"aws_s3_bucket.b", "", "aws_s3_bucket.b", "", "aws_s3_bucket.b"},
		{`aws_s3_bucket.b["a.b[1]"]`, "", `aws_s3_bucket.b["a.b[1]"]`, `["a.b[1]"]`, "aws_s3_bucket.b"},
		{"module.net.aws_security_group.db", "module.net.", "aws_security_group.db", "", "module.net.aws_security_group.db"},
		{`module.net[0].module.db["eu.west"].aws_db_instance.x[2]`, `module.net[0].module.db["eu.west"].`, "aws_db_instance.x[2]", "[2]", "module.net.module.db.aws_db_instance.x"},
	} {
		module, local, index := splitAddress(c.addr)
		if module != c.module || local != c.local || index != c.index || stripModuleIndex(module)+stripIndex(local) != c.config {
			t.Errorf("%s: %q %q %q %q", c.addr, module, local, index, stripModuleIndex(module)+stripIndex(local))
		}
	}
}

// TestModuleInstances: a rule in each instance of a counted module links to
// the group of its own instance, through the configuration's references.
func TestModuleInstances(t *testing.T) {
	sg := func(i string) string {
		return `{"address":"module.env[` + i + `].aws_security_group.web","mode":"managed","type":"aws_security_group","name":"web","values":{"name":"web"}},` +
			`{"address":"module.env[` + i + `].aws_security_group_rule.ssh","mode":"managed","type":"aws_security_group_rule","name":"ssh","values":{"type":"ingress","from_port":22,"to_port":22,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"]}}`
	}
	plan := `{"format_version":"1.2","planned_values":{"root_module":{"child_modules":[
		{"address":"module.env[0]","resources":[` + sg("0") + `]},{"address":"module.env[1]","resources":[` + sg("1") + `]}]}},
		"configuration":{"root_module":{"module_calls":{"env":{"module":{"resources":[
		{"address":"aws_security_group_rule.ssh","mode":"managed","expressions":{"security_group_id":{"references":["aws_security_group.web.id","aws_security_group.web"]}}}]}}}}}}`
	equalStrings(t, "findings", findingLines(scanAt(t, []byte(plan)).Findings), []string{
		"SG_ADMIN_PORT_OPEN aws_security_group module.env[0].aws_security_group.web @ module.env[0].aws_security_group_rule.ssh via module.env[0].aws_security_group_rule.ssh",
		"SG_ADMIN_PORT_OPEN aws_security_group module.env[1].aws_security_group.web @ module.env[1].aws_security_group_rule.ssh via module.env[1].aws_security_group_rule.ssh",
	})
}

// TestUndecidedAndUnknown: an undecided condition is checked both ways
// (here the insecure outcome is the false branch), and an access block
// unknown until apply does not hide a public ACL but is mentioned.
func TestUndecidedAndUnknown(t *testing.T) {
	tmpl := "Parameters:\n  Private: {Type: String}\nConditions:\n  IsPrivate: !Equals [!Ref Private, 'yes']\nResources:\n" +
		"  Db:\n    Type: AWS::RDS::DBCluster\n    Properties:\n      StorageEncrypted: !If [IsPrivate, true, false]\n"
	res := scanAt(t, []byte(tmpl))
	if len(res.Findings) != 1 || res.Findings[0].Rule != "DB_UNENCRYPTED" ||
		!strings.Contains(res.Findings[0].Message, "condition IsPrivate could not be decided; both outcomes were checked") {
		t.Errorf("undecided: %v", res.Findings)
	}
	plan := `{"format_version":"1.2","planned_values":{"root_module":{"resources":[
		{"address":"aws_s3_bucket.b","mode":"managed","type":"aws_s3_bucket","values":{"bucket":"b","acl":"public-read"}},
		{"address":"aws_s3_bucket_public_access_block.b","mode":"managed","type":"aws_s3_bucket_public_access_block","values":{"bucket":"b","block_public_acls":false}}]}},
		"resource_changes":[{"address":"aws_s3_bucket_public_access_block.b","mode":"managed","change":{"after_unknown":{"ignore_public_acls":true}}}]}`
	res = scanAt(t, []byte(plan))
	if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Message, "aws_s3_bucket_public_access_block.b.ignore_public_acls is unknown until apply") {
		t.Errorf("unknown access block: %v", res.Findings)
	}
}

// TestNotActionAndNotResource: an Allow with NotAction allows every action
// but the listed ones, and one with NotResource every resource but the
// listed ones; both are read in CloudFormation and Terraform alike.
func TestNotActionAndNotResource(t *testing.T) {
	cfn := `AWSTemplateFormatVersion: "2010-09-09"
Resources:
  PowerUser:
    Type: AWS::IAM::ManagedPolicy
    Properties:
      PolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            NotAction: ["iam:*", "organizations:*"]
            Resource: "*"
          - Effect: Deny
            NotAction: "s3:GetObject"
            Resource: "*"
  AllButOne:
    Type: AWS::IAM::Policy
    Properties:
      PolicyName: all-but-one
      PolicyDocument:
        Statement:
          - Effect: Allow
            Action: s3:GetObject
            NotResource: arn:aws:s3:::secrets/*
`
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[
{"address":"aws_iam_policy.power","mode":"managed","type":"aws_iam_policy","name":"power","values":{"name":"power",
"policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"NotAction\":\"iam:*\",\"Resource\":\"*\"}]}"}}]}}}`
	want := map[string][]string{
		cfn: {
			`PowerUser: policy "PowerUser" allows every action except iam:* and organizations:* (NotAction) on *`,
			`AllButOne: policy "AllButOne" applies s3:GetObject to every resource except arn:aws:s3:::secrets/* (NotResource)`,
		},
		plan: {`aws_iam_policy.power: policy "aws_iam_policy.power" allows every action except iam:* (NotAction) on *`},
	}
	for input, lines := range want {
		var got []string
		for _, f := range scanAt(t, []byte(input)).Findings {
			got = append(got, f.Resource.Name+": "+f.Message)
		}
		if strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
	}
}
