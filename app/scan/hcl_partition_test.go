package scan

import "testing"

// TestSourcePartitionNamesManagedPolicy: the ARN of an AWS managed policy
// is often built with data "aws_partition" (as CDK and SAM build it with
// AWS::Partition), which was unknown in source, so attaching
// AdministratorAccess so went unreported; the partition reads as aws.
func TestSourcePartitionNamesManagedPolicy(t *testing.T) {
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`data "aws_partition" "current" {}

resource "aws_iam_role" "ci" {
  name               = "ci"
  assume_role_policy = "{}"
}

resource "aws_iam_role_policy_attachment" "admin" {
  role       = aws_iam_role.ci.name
  policy_arn = "arn:${data.aws_partition.current.partition}:iam::aws:policy/AdministratorAccess"
}

resource "aws_iam_role_policy_attachment" "read" {
  role       = aws_iam_role.ci.name
  policy_arn = "arn:${data.aws_partition.current.partition}:iam::aws:policy/ReadOnlyAccess"
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+" "+f.Path)
	}
	equalStrings(t, "findings", got, []string{
		"IAM_FULL_ADMIN aws_iam_role_policy_attachment.admin aws_iam_role_policy_attachment.admin.policy_arn",
	})
}

// TestSourceManagedPolicyByName: data "aws_iam_policy" looking up an AWS
// managed policy the rules read by its name has that policy's ARN, as a
// plan (which reads the data source) has it; unknown, attaching
// AdministratorAccess so went unreported from source.
func TestSourceManagedPolicyByName(t *testing.T) {
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`data "aws_iam_policy" "admin" {
  name = "AdministratorAccess"
}
data "aws_iam_policy" "custom" {
  name = "acme-deploy"
}
resource "aws_iam_role_policy_attachment" "admin" {
  role       = "ci"
  policy_arn = data.aws_iam_policy.admin.arn
}
resource "aws_iam_role_policy_attachment" "custom" {
  role       = "ci"
  policy_arn = data.aws_iam_policy.custom.arn
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name)
	}
	equalStrings(t, "findings", got, []string{"IAM_FULL_ADMIN aws_iam_role_policy_attachment.admin"})
}
