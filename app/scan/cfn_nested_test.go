package scan

import "testing"

// TestCloudFormationNestedStackNotChecked: a nested stack (and a SAR
// application) is a template the input does not hold; the result said
// "the scanner has no rules for this type", as if there were nothing in
// it to check. It now says its template is not read and to scan it on
// its own; other types keep their reason.
func TestCloudFormationNestedStackNotChecked(t *testing.T) {
	res := mustScan(t, `AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: https://s3.amazonaws.com/acme/network.yaml
  Auth:
    Type: AWS::Serverless::Application
    Properties:
      Location: {ApplicationId: arn:aws:serverlessrepo:us-east-1:123456789012:applications/auth, SemanticVersion: 1.0.0}
  Queue:
    Type: AWS::SQS::Queue
`)
	var got []string
	for _, n := range res.NotChecked {
		for _, a := range n.Addresses {
			got = append(got, n.Type+" "+a+": "+n.Reason)
		}
	}
	equalStrings(t, "not checked", got, []string{
		"AWS::CloudFormation::Stack Network: a nested stack: its template (TemplateURL) is not in the input, so its resources are not checked; scan that template on its own",
		"AWS::SQS::Queue Queue: the scanner has no rules for this type",
		"AWS::Serverless::Application Auth: a nested application: its template (Location) is not in the input, so its resources are not checked; scan that template on its own",
	})
}
