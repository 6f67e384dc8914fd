package scan

import "testing"

// TestCloudFormationLanguageExtensionsRefs: AWS::LanguageExtensions
// declares no names, so a template using it alone is checked for Refs to
// names it does not declare, as a template without a Transform is (it was
// not, like a SAM template, whose transform declares names of its own).
// The names are those of the expanded template: the Outputs' Fn::ForEach
// loops are expanded for it, so their identifiers (Ref Property) are not
// taken for undeclared names, and a loop left unexpanded is not checked.
func TestCloudFormationLanguageExtensionsRefs(t *testing.T) {
	res := mustScan(t, `AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::LanguageExtensions
Parameters:
  Names:
    Type: CommaDelimitedList
    Default: "a,b"
  Unset:
    Type: CommaDelimitedList
Resources:
  Fn::ForEach::Buckets:
    - Id
    - !Ref Names
    - Bucket${Id}:
        Type: AWS::S3::Bucket
        Properties:
          BucketName: !Sub "acme-${Id}"
          LoggingConfiguration:
            DestinationBucketName: !Ref LogBuckt
Outputs:
  Fn::ForEach::Arns:
    - Id
    - !Ref Names
    - Fn::ForEach::Props:
        - Property
        - [Arn, DomainName]
        - Bucket${Id}${Property}:
            Value: !GetAtt [!Sub "Bucket${Id}", !Ref Property]
  Fn::ForEach::Unknown:
    - Id
    - !Ref Unset
    - Out${Id}:
        Value: !Ref Id
  First:
    Value: !Ref Bucketa
`)
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %+v: want the one of LogBuckt", res.Warnings)
	}
	w := res.Warnings[0]
	equalStrings(t, "warning", append([]string{w.Message}, w.Resources...), []string{
		"Ref to a name the template does not declare (LogBuckt): CloudFormation refuses the template; the scan read it as unknown",
		"Bucketa", "Bucketb",
	})

	sam := mustScan(t, `Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Role: !Ref FnRole
`)
	if len(sam.Warnings) != 0 {
		t.Errorf("SAM: warnings %+v", sam.Warnings)
	}
}
