package scan

import "testing"

// TestCloudFormationLinksByName: a bucket policy naming its bucket by the
// bucket's name (Bucket: acme-data, or the same parameter's default as
// the bucket's BucketName) instead of a Ref is read with its bucket, as a
// plan's linker falls back to names: on its own it was reported as a
// public bucket named after the policy, even when the bucket's
// PublicAccessBlockConfiguration blocks public policies. So is an ingress
// rule naming a default VPC's group by GroupName.
func TestCloudFormationLinksByName(t *testing.T) {
	res := mustScan(t, `Parameters:
  Name:
    Type: String
    Default: acme-site
Resources:
  Data:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: acme-data
      PublicAccessBlockConfiguration:
        BlockPublicPolicy: true
        RestrictPublicBuckets: true
  DataPolicy:
    Type: AWS::S3::BucketPolicy
    Properties:
      Bucket: acme-data
      PolicyDocument:
        Statement:
          - {Effect: Allow, Principal: "*", Action: "s3:GetObject", Resource: "arn:aws:s3:::acme-data/*"}
  Site:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Ref Name
  SitePolicy:
    Type: AWS::S3::BucketPolicy
    Properties:
      Bucket: !Ref Name
      PolicyDocument:
        Statement:
          - {Effect: Allow, Principal: "*", Action: "s3:GetObject", Resource: !Sub "arn:aws:s3:::${Name}/*"}
  Web:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      GroupName: web
  WebSSH:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupName: web
      IpProtocol: tcp
      FromPort: 22
      ToPort: 22
      CidrIp: 0.0.0.0/0
`)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+" "+f.Path)
	}
	equalStrings(t, "findings", got, []string{
		"S3_PUBLIC_READ Site Resources.SitePolicy.Properties.PolicyDocument.Statement[0]",
		"SG_ADMIN_PORT_OPEN Web Resources.WebSSH.Properties",
	})
}
