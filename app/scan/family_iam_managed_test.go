package scan

import (
	"strings"
	"testing"
)

// TestManagedPolicies: attaching the AWS managed policy AdministratorAccess
// (or PowerUserAccess, IAMFullAccess) grants what its document says, by
// ARN in any partition (also built with AWS::Partition, as CDK and SAM
// write it), in every way Terraform and CloudFormation attach one, and by
// name in SAM; scoped managed policies, customer policies and
// ARNs unknown until apply are not flagged.
func TestManagedPolicies(t *testing.T) {
	const admin = "arn:aws:iam::aws:policy/AdministratorAccess"
	cfn := func(typ, props string) []byte {
		return []byte("Resources:\n  R:\n    Type: " + typ + "\n    Properties:\n" + props)
	}
	tests := []struct {
		name  string
		input []byte
		want  []string
	}{
		{"role policy attachment", tfState(tfRes("aws_iam_role_policy_attachment.a", `{"role":"r","policy_arn":"`+admin+`"}`)),
			[]string{"IAM_FULL_ADMIN aws_iam_role_policy_attachment aws_iam_role_policy_attachment.a @ aws_iam_role_policy_attachment.a.policy_arn"}},
		{"user attachment in GovCloud", tfState(tfRes("aws_iam_user_policy_attachment.a", `{"user":"u","policy_arn":"arn:aws-us-gov:iam::aws:policy/AdministratorAccess"}`)),
			[]string{"IAM_FULL_ADMIN aws_iam_user_policy_attachment aws_iam_user_policy_attachment.a @ aws_iam_user_policy_attachment.a.policy_arn"}},
		{"group attachment of PowerUserAccess", tfState(tfRes("aws_iam_group_policy_attachment.a", `{"group":"g","policy_arn":"arn:aws:iam::aws:policy/PowerUserAccess"}`)),
			[]string{"IAM_WILDCARD_ACTION aws_iam_group_policy_attachment aws_iam_group_policy_attachment.a @ aws_iam_group_policy_attachment.a.policy_arn"}},
		{"exclusive attachment of IAMFullAccess", tfState(tfRes("aws_iam_policy_attachment.a", `{"name":"a","roles":["r"],"policy_arn":"arn:aws:iam::aws:policy/IAMFullAccess"}`)),
			[]string{"IAM_WILDCARD_ACTION aws_iam_policy_attachment aws_iam_policy_attachment.a @ aws_iam_policy_attachment.a.policy_arn",
				"IAM_WILDCARD_RESOURCE aws_iam_policy_attachment aws_iam_policy_attachment.a @ aws_iam_policy_attachment.a.policy_arn"}},
		{"a role's managed_policy_arns", tfState(tfRes("aws_iam_role.r", `{"name":"r","managed_policy_arns":["arn:aws:iam::aws:policy/ReadOnlyAccess","`+admin+`"]}`)),
			[]string{"IAM_FULL_ADMIN aws_iam_role aws_iam_role.r @ aws_iam_role.r.managed_policy_arns[1]"}},
		{"a role's exclusive policy_arns", tfState(tfRes("aws_iam_role_policy_attachments_exclusive.r", `{"role_name":"r","policy_arns":["`+admin+`"]}`)),
			[]string{"IAM_FULL_ADMIN aws_iam_role_policy_attachments_exclusive aws_iam_role_policy_attachments_exclusive.r @ aws_iam_role_policy_attachments_exclusive.r.policy_arns[0]"}},
		{"a scoped managed policy", tfState(tfRes("aws_iam_role_policy_attachment.a", `{"role":"r","policy_arn":"arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"}`)), nil},
		{"a customer policy of the same name", tfState(tfRes("aws_iam_role_policy_attachment.a", `{"role":"r","policy_arn":"arn:aws:iam::123456789012:policy/AdministratorAccess"}`)), nil},
		{"a bare name is not an ARN in Terraform", tfState(tfRes("aws_iam_role_policy_attachment.a", `{"role":"r","policy_arn":"AdministratorAccess"}`)), nil},
		{"an ARN unknown until deploy", cfn("AWS::IAM::Role", "      ManagedPolicyArns: [!ImportValue AdminArn]\n"), nil},
		{"CloudFormation role", cfn("AWS::IAM::Role", "      ManagedPolicyArns:\n        - "+admin+"\n"),
			[]string{"IAM_FULL_ADMIN AWS::IAM::Role R @ Resources.R.Properties.ManagedPolicyArns[0]"}},
		{"CloudFormation user, ARN in a Join", cfn("AWS::IAM::User", "      ManagedPolicyArns: [!Join ['', ['arn:aws:iam::aws:policy/', AdministratorAccess]]]\n"),
			[]string{"IAM_FULL_ADMIN AWS::IAM::User R @ Resources.R.Properties.ManagedPolicyArns[0]"}},
		{"CDK's ARN, joined with the partition", []byte(`{"Resources":{"R":{"Type":"AWS::IAM::Role","Properties":{"ManagedPolicyArns":[` +
			`{"Fn::Join":["",["arn:",{"Ref":"AWS::Partition"},":iam::aws:policy/AdministratorAccess"]]}]}}}}`),
			[]string{"IAM_FULL_ADMIN AWS::IAM::Role R @ Resources.R.Properties.ManagedPolicyArns[0]"}},
		{"SAM's ARN, substituting the partition", cfn("AWS::IAM::Group", "      ManagedPolicyArns: [!Sub 'arn:${AWS::Partition}:iam::aws:policy/PowerUserAccess']\n"),
			[]string{"IAM_WILDCARD_ACTION AWS::IAM::Group R @ Resources.R.Properties.ManagedPolicyArns[0]"}},
		{"another pseudo parameter is still unknown", cfn("AWS::IAM::Role", "      ManagedPolicyArns: [!Sub 'arn:${AWS::Region}:iam::aws:policy/AdministratorAccess']\n"), nil},
		{"SAM function, by name", cfn("AWS::Serverless::Function", "      Handler: x\n      Policies: AdministratorAccess\n"),
			[]string{"IAM_FULL_ADMIN AWS::Serverless::Function R @ Resources.R.Properties.Policies"}},
		{"SAM function, by ARN in a list", cfn("AWS::Serverless::Function", "      Handler: x\n      Policies: [AWSLambdaBasicExecutionRole, "+admin+"]\n"),
			[]string{"IAM_FULL_ADMIN AWS::Serverless::Function R @ Resources.R.Properties.Policies[1]"}},
	}
	for _, tt := range tests {
		equalStrings(t, tt.name, findingLines(scanAt(t, tt.input).Findings), tt.want)
	}
	res := scanAt(t, tfState(tfRes("aws_iam_role_policy_attachment.a", `{"role":"r","policy_arn":"`+admin+`"}`)))
	if msg := res.Findings[0].Message; !strings.HasPrefix(msg, `the AWS managed policy AdministratorAccess attached by "aws_iam_role_policy_attachment.a" allows action "*" on resource "*"`) {
		t.Errorf("message %q does not name the managed policy", msg)
	}
}
