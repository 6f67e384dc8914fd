package scan

import "testing"

// TestCloudFormationForEachInProperties: a Fn::ForEach loop in a
// resource's properties sets the keys it makes in the mapping that holds
// it, and one among the Conditions makes conditions. The bucket whose
// four public access settings a loop turns on is not public through its
// policy (it was reported public: the settings were not read), and the
// group whose condition a loop makes (Isprod, false with Env=dev) is not
// created (it was reported, the condition undecided). A loop over a
// parameter without a default is named in a warning.
func TestCloudFormationForEachInProperties(t *testing.T) {
	const template = `AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::LanguageExtensions
Parameters:
  Env:
    Type: String
    Default: dev
  Extra:
    Type: CommaDelimitedList
Conditions:
  Fn::ForEach::EnvConds:
    - E
    - [dev, prod]
    - Is${E}: !Equals [!Ref Env, !Ref E]
Resources:
  Assets:
    Type: AWS::S3::Bucket
    Properties:
      PublicAccessBlockConfiguration:
        Fn::ForEach::Block:
          - Setting
          - [BlockPublicAcls, BlockPublicPolicy, IgnorePublicAcls, RestrictPublicBuckets]
          - ${Setting}: true
  AssetsPolicy:
    Type: AWS::S3::BucketPolicy
    Properties:
      Bucket: !Ref Assets
      PolicyDocument:
        Statement:
          - Effect: Allow
            Principal: "*"
            Action: s3:GetObject
            Resource: !Sub "${Assets.Arn}/*"
  Logs:
    Type: AWS::S3::Bucket
    Properties:
      PublicAccessBlockConfiguration:
        Fn::ForEach::Block:
          - Setting
          - [BlockPublicAcls, IgnorePublicAcls]
          - ${Setting}: !If [Isdev, false, true]
      AccessControl: PublicRead
  ProdOpen:
    Type: AWS::EC2::SecurityGroup
    Condition: Isprod
    Properties:
      GroupDescription: ssh
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
  Tagged:
    Type: AWS::SNS::Topic
    Properties:
      Fn::ForEach::Extra:
        - X
        - !Ref Extra
        - ${X}: "1"
`
	equalStrings(t, "outcome", cfnOutcome(t, template), []string{
		"S3_PUBLIC_READ Logs line 33",
		"warning: properties or conditions made by Fn::ForEach (AWS::LanguageExtensions) not read: the loop's collection is not known (a parameter without a default) or the loop is malformed: Tagged",
	})
}
