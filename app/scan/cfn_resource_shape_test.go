package scan

import (
	"strconv"
	"strings"
	"testing"
)

// TestCloudFormationResourceShape: a resource whose Type is not a string,
// or that is not a mapping, was refused as "Type: is required" although
// it had one; the problem now says what is there.
func TestCloudFormationResourceShape(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
	}{
		{"no Type", "Resources:\n  A: {Properties: {}}\n", []string{"Resources.A.Type: is required"}},
		{"an empty Type", "Resources:\n  A: {Type: ''}\n", []string{"Resources.A.Type: must not be empty"}},
		{"a number", "Resources:\n  A: {Type: 5}\n", []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got number 5"}},
		{"an infinite number", `{"Resources":{"A":{"Type":1e999}}}`, []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got number +Inf"}},
		{"a list", "Resources:\n  A: {Type: [AWS::S3::Bucket]}\n", []string{"Resources.A.Type: must be a string naming the resource type (AWS::S3::Bucket), got an array"}},
		{"a resource that is a string", "Resources:\n  A: AWS::S3::Bucket\n", []string{`Resources.A: must be a mapping with a Type, got string "AWS::S3::Bucket"`}},
		{"a null resource", `{"Resources":{"A":null}}`, []string{"Resources.A: must be a mapping with a Type, got null"}},
	}
	for _, tt := range tests {
		equalStrings(t, tt.name, problemsOf(t, tt.input), tt.want)
	}
}

// TestCloudFormationIncludeInResources: a Fn::Transform among the
// resources (AWS::Include of a snippet) was refused as a resource with no
// Type, and the whole template went unchecked. Now the template's own
// resources are checked and a warning names the snippet not read.
func TestCloudFormationIncludeInResources(t *testing.T) {
	for _, input := range []string{`Resources:
  Fn::Transform:
    Name: AWS::Include
    Parameters:
      Location: s3://acme-templates/common.yaml
  Web:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
`, `{"Resources": {
  "Fn::Transform": {"Name": "AWS::Include", "Parameters": {"Location": "s3://acme-templates/common.yaml"}},
  "Web": {"Type": "AWS::EC2::SecurityGroup", "Properties": {"GroupDescription": "web",
    "SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 22, "ToPort": 22, "CidrIp": "0.0.0.0/0"}]}}
}}`} {
		res := mustScan(t, input)
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Rule+" "+f.Resource.Name+" line "+strconv.Itoa(f.Line))
		}
		for _, w := range res.Warnings {
			got = append(got, w.Message+": "+strings.Join(w.Resources, ", "))
		}
		line := map[bool]string{true: "6", false: "3"}[strings.HasPrefix(input, "Resources")]
		equalStrings(t, "include", got, []string{"SG_ADMIN_PORT_OPEN Web line " + line,
			"resources included by Fn::Transform not read: the snippet is not in the template: s3://acme-templates/common.yaml"})
	}
}

// TestCloudFormationForEachInResources: a Fn::ForEach loop of
// AWS::LanguageExtensions among the resources (an array, not a resource)
// refused the whole template, so its other resources went unchecked. Now
// they are checked, and so are the loop's (cfn_foreach_test.go).
func TestCloudFormationForEachInResources(t *testing.T) {
	res := mustScan(t, `Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Buckets:
    - Name
    - [Logs, Site]
    - ${Name}Bucket:
        Type: AWS::S3::Bucket
        Properties:
          AccessControl: PublicRead
  Admin:
    Type: AWS::IAM::ManagedPolicy
    Properties:
      PolicyDocument:
        Statement:
          - {Effect: Allow, Action: "*", Resource: "*"}
`)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+" line "+strconv.Itoa(f.Line))
	}
	for _, w := range res.Warnings {
		got = append(got, w.Message+": "+strings.Join(w.Resources, ", "))
	}
	equalStrings(t, "for each", got, []string{"S3_PUBLIC_READ LogsBucket line 6", "S3_PUBLIC_READ SiteBucket line 6", "IAM_FULL_ADMIN Admin line 10"})
}
