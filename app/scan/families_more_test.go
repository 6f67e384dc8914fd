package scan

import "testing"

// TestMoreTypes: types real documents carry that were listed as not
// checked although their rules apply: a SAM function's inline policies,
// an Aurora cluster's instance made public, a VPC's default security group
// opened to the internet.
func TestMoreTypes(t *testing.T) {
	sam := "Transform: AWS::Serverless-2016-10-31\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n" +
		"      Handler: app.handler\n      Policies:\n        - AWSLambdaBasicExecutionRole\n        - S3ReadPolicy: {BucketName: b}\n" +
		"        - Statement: [{Effect: Allow, Action: '*', Resource: '*'}]\n" +
		"  Machine:\n    Type: AWS::Serverless::StateMachine\n    Properties:\n      Policies: {Statement: [{Effect: Allow, Action: 'iam:*', Resource: 'arn:aws:iam::1:role/x'}]}\n" +
		"  Quiet:\n    Type: AWS::Serverless::Function\n    Properties: {Handler: x, Policies: [AmazonS3ReadOnlyAccess]}\n"
	equalStrings(t, "sam", findingLines(scanAt(t, []byte(sam)).Findings), []string{
		"IAM_FULL_ADMIN AWS::Serverless::Function Fn @ Resources.Fn.Properties.Policies[2].Statement[0].Action",
		"IAM_WILDCARD_ACTION AWS::Serverless::StateMachine Machine @ Resources.Machine.Properties.Policies.Statement[0].Action",
	})
	state := tfState(
		tfRes("aws_rds_cluster.c", `{"id":"c","storage_encrypted":true,"engine":"aurora-postgresql"}`),
		tfRes("aws_rds_cluster_instance.i", `{"id":"i","cluster_identifier":"c","publicly_accessible":true,"engine":"aurora-postgresql"}`),
		tfRes("aws_rds_cluster_instance.j", `{"id":"j","cluster_identifier":"c","publicly_accessible":false}`),
		tfRes("aws_default_security_group.d", `{"id":"sg-d","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":0,"to_port":0,"protocol":"-1"}]}`))
	equalStrings(t, "state", findingLines(scanAt(t, state).Findings), []string{
		"DB_PUBLIC aws_rds_cluster_instance aws_rds_cluster_instance.i @ aws_rds_cluster_instance.i.publicly_accessible",
		"SG_ALL_PORTS_OPEN aws_default_security_group aws_default_security_group.d @ aws_default_security_group.d.ingress[0]",
	})
}
