package scan

import "testing"

// TestCloudFormationPolicyTextWithUnknownParts: a policy document written
// as a JSON string that Fn::Sub or Fn::Join builds names the template's
// resources and pseudo parameters (${Bucket.Arn}, ${AWS::AccountId}),
// known only at deployment: the whole text was unknown, so the policy
// was not read at all. It is read with those parts as a placeholder, as
// Terraform source reads jsonencode; a string holding one is the
// placeholder as a whole, so "${Service}:*" is no service wildcard.
func TestCloudFormationPolicyTextWithUnknownParts(t *testing.T) {
	yaml := `Parameters:
  Service:
    Type: String
Resources:
  Bucket:
    Type: AWS::S3::Bucket
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
      Policies:
        - PolicyName: data
          PolicyDocument: !Sub |
            {
              "Version": "2012-10-17",
              "Statement": [
                {"Effect": "Allow", "Action": "dynamodb:*", "Resource": "arn:aws:dynamodb:${AWS::Region}:${AWS::AccountId}:table/*"},
                {"Effect": "Allow", "Action": "${Service}:*", "Resource": "${Bucket.Arn}/*"},
                {"Effect": "Allow", "Action": "s3:GetObject", "Resource": "${Bucket.Arn}/*"}
              ]
            }
        - PolicyName: logs
          PolicyDocument: !Sub
            - '{"Statement": [{"Effect": "Allow", "Action": "logs:*", "Resource": "${Arn}"}]}'
            - Arn: !GetAtt Bucket.Arn
`
	equalStrings(t, "sub", summarize(mustScan(t, yaml).Findings), []string{
		`IAM_SERVICE_WILDCARD Resources.Role.Properties.Policies[0].PolicyDocument.Statement[0].Action: policy "Role" allows "dynamodb:*": every dynamodb action, including destructive and permission-changing ones`,
		`IAM_SERVICE_WILDCARD Resources.Role.Properties.Policies[1].PolicyDocument.Statement[0].Action: policy "Role" allows "logs:*": every logs action, including destructive and permission-changing ones`,
	})

	json := `{"Resources": {
  "Bucket": {"Type": "AWS::S3::Bucket"},
  "Policy": {"Type": "AWS::S3::BucketPolicy", "Properties": {
    "Bucket": {"Ref": "Bucket"},
    "PolicyDocument": {"Fn::Join": ["", [
      "{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::",
      {"Ref": "Bucket"},
      "/*\"}]}"]]}}}}}`
	equalStrings(t, "join", summarize(mustScan(t, json).Findings), []string{
		`S3_PUBLIC_READ Resources.Policy.Properties.PolicyDocument.Statement[0]: bucket "Bucket" allows public read (the bucket policy allows "s3:GetObject" to principal "*"): anyone on the internet can list and download its objects (set in Policy)`,
	})

	// Elsewhere such a text is unknown, as before: a condition on it is
	// undecided, a CIDR built so is not read.
	equalStrings(t, "elsewhere", summarize(mustScan(t, `Conditions:
  East: !Equals [!Sub "${AWS::Region}", us-east-1]
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Condition: East
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: !Sub "${AWS::Region}/0"}
        - {IpProtocol: tcp, FromPort: 3389, ToPort: 3389, CidrIp: 0.0.0.0/0}
`).Findings), []string{
		`SG_ADMIN_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[1]: port 3389 (RDP) is open to 0.0.0.0/0 (condition East could not be decided; checked as if it were true)`,
	})
}
