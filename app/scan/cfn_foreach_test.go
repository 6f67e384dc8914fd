package scan

import (
	"strconv"
	"strings"
	"testing"
)

// cfnOutcome renders a template's findings as "RULE resource line N" and
// its warnings as "warning: message: resources".
func cfnOutcome(t *testing.T, template string) []string {
	t.Helper()
	var out []string
	res := mustScan(t, template)
	for _, f := range res.Findings {
		out = append(out, f.Rule+" "+f.Resource.Name+" line "+strconv.Itoa(f.Line))
	}
	for _, w := range res.Warnings {
		out = append(out, "warning: "+w.Message+": "+strings.Join(w.Resources, ", "))
	}
	return out
}

// TestCloudFormationForEach: the resources a Fn::ForEach loop makes are
// checked, named as CloudFormation names them (${Name}, and &{Cidr}
// without its dots and slash), at the line of their OutputKey; they were
// not read at all. The collection is a list or a CommaDelimitedList
// parameter's default (space-trimmed), loops nest, and in a resource a
// Ref to the identifier and its ${} in a Fn::Sub read the element, so
// the bucket policy lands on its bucket.
func TestCloudFormationForEach(t *testing.T) {
	got := cfnOutcome(t, `AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::LanguageExtensions
Parameters:
  Sites:
    Type: CommaDelimitedList
    Default: "docs, blog"
Resources:
  Fn::ForEach::Sites:
    - Site
    - !Ref Sites
    - ${Site}Bucket:
        Type: AWS::S3::Bucket
        Properties:
          BucketName: !Sub "acme-${Site}"
      ${Site}Policy:
        Type: AWS::S3::BucketPolicy
        Properties:
          Bucket: !Ref
            Fn::Sub: "${Site}Bucket"
          PolicyDocument:
            Statement:
              - Effect: Allow
                Principal: "*"
                Action: s3:GetObject
                Resource: !Sub "arn:aws:s3:::acme-${Site}/*"
  Web:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
  Fn::ForEach::Ports:
    - Port
    - ["22", "443"]
    - Fn::ForEach::Cidrs:
        - Cidr
        - ["0.0.0.0/0", "10.0.0.0/8"]
        - Open&{Cidr}Port${Port}:
            Type: AWS::EC2::SecurityGroupIngress
            Properties:
              GroupId: !Ref Web
              IpProtocol: tcp
              FromPort: !Ref Port
              ToPort: !Ref Port
              CidrIp: !Ref Cidr
      Fn::ForEach::Roles:
        - Role
        - [Admin]
        - ${Role}Port${Port}:
            Type: AWS::IAM::ManagedPolicy
            Properties:
              PolicyDocument:
                Statement:
                  - {Effect: Allow, Action: "*", Resource: "*"}
`)
	equalStrings(t, "for each", got, []string{
		"S3_PUBLIC_READ blogBucket line 11",
		"S3_PUBLIC_READ docsBucket line 11",
		"SG_ADMIN_PORT_OPEN Web line 26",
		"IAM_FULL_ADMIN AdminPort22 line 47",
		"IAM_FULL_ADMIN AdminPort443 line 47",
	})
}

// TestCloudFormationForEachJSON: a JSON template's loops are expanded
// alike, each resource at its OutputKey's line, nested loops' too.
func TestCloudFormationForEachJSON(t *testing.T) {
	got := cfnOutcome(t, `{
  "Transform": "AWS::LanguageExtensions",
  "Resources": {
    "Fn::ForEach::Teams": ["Team", ["Ops", "Dev"], {
      "Fn::ForEach::Envs": ["Env", ["Prod"], {
        "${Team}${Env}Db": {
          "Type": "AWS::RDS::DBInstance",
          "Properties": {"PubliclyAccessible": true, "StorageEncrypted": true}
        }
      }],
      "${Team}Admin": {
        "Type": "AWS::IAM::ManagedPolicy",
        "Properties": {"PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}}
      }
    }]
  }
}`)
	equalStrings(t, "for each json", got, []string{
		"DB_PUBLIC DevProdDb line 6",
		"DB_PUBLIC OpsProdDb line 6",
		"IAM_FULL_ADMIN DevAdmin line 11",
		"IAM_FULL_ADMIN OpsAdmin line 11",
	})
}

// TestCloudFormationForEachUnknown: a loop over a parameter without a
// default is not expanded (its resources cannot be named), and a warning
// says so; the template's other resources are checked.
func TestCloudFormationForEachUnknown(t *testing.T) {
	got := cfnOutcome(t, `Transform: AWS::LanguageExtensions
Parameters:
  Names:
    Type: CommaDelimitedList
Resources:
  Fn::ForEach::Queues:
    - Name
    - !Ref Names
    - ${Name}Bucket:
        Type: AWS::S3::Bucket
        Properties:
          AccessControl: PublicRead
  Site:
    Type: AWS::S3::Bucket
    Properties:
      AccessControl: PublicRead
`)
	equalStrings(t, "unknown collection", got, []string{
		"S3_PUBLIC_READ Site line 13",
		"warning: resources made by Fn::ForEach (AWS::LanguageExtensions) not read: the loop's collection is not known " +
			"(a parameter without a default) or the loop is malformed: Fn::ForEach::Queues",
	})
}

// TestCloudFormationForEachBound: nested loops multiply (three lists of
// 30 make 27,000 resources); expansion stops at MaxLoopResources, the
// resources made so far are checked, and a warning names the loop cut
// short.
func TestCloudFormationForEachBound(t *testing.T) {
	var list []string
	for i := range 30 {
		list = append(list, "v"+strconv.Itoa(i))
	}
	l := "[" + strings.Join(list, ", ") + "]"
	res := mustScan(t, `Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::A:
    - A
    - `+l+`
    - Fn::ForEach::B:
        - B
        - `+l+`
        - Fn::ForEach::C:
            - C
            - `+l+`
            - Q${A}${B}${C}:
                Type: AWS::SQS::Queue
`)
	n := 0
	for _, nc := range res.NotChecked {
		n += nc.Count
	}
	if n != MaxLoopResources || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "past 5000 not read") ||
		strings.Join(res.Warnings[0].Resources, ",") != "Fn::ForEach::A" {
		t.Errorf("got %d resources and warnings %+v, want %d and one warning naming Fn::ForEach::A", n, res.Warnings, MaxLoopResources)
	}
}

// TestCloudFormationForEachEmptyInner: loops nested over long lists whose
// innermost collection is empty make nothing, but would visit every
// combination (10^10 here): the elements visited are bounded as well,
// and the loop is named as cut short.
func TestCloudFormationForEachEmptyInner(t *testing.T) {
	var list []string
	for i := range 100_000 {
		list = append(list, strconv.Itoa(i))
	}
	l := "[" + strings.Join(list, ",") + "]"
	res := mustScan(t, `{"Transform": "AWS::LanguageExtensions", "Resources": {
  "Fn::ForEach::A": ["A", `+l+`, {"Fn::ForEach::B": ["B", `+l+`, {"Fn::ForEach::C": ["C", [], {"Q${A}${B}${C}": {"Type": "AWS::SQS::Queue"}}]}]}]}}`)
	if len(res.Warnings) != 1 || strings.Join(res.Warnings[0].Resources, ",") != "Fn::ForEach::A" {
		t.Errorf("warnings %+v, want one naming Fn::ForEach::A", res.Warnings)
	}
}
