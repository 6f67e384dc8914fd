package scan

import "testing"

// TestCloudFormationPathsCountNoValue: a list element that is AWS::NoValue
// (!If [Cond, {...}, !Ref AWS::NoValue]) is gone once the template is
// read, but a finding's path names the element as the template writes
// it: the SSH rule second in SecurityGroupIngress was reported as [0],
// which is the rule the condition removes. An element whose presence an
// undecided condition leaves open keeps the path as read from there on.
func TestCloudFormationPathsCountNoValue(t *testing.T) {
	paths := func(input string) []string {
		var out []string
		for _, f := range mustScan(t, input).Findings {
			out = append(out, f.Rule+" "+f.Path)
		}
		return out
	}
	equalStrings(t, "decided", paths(`Parameters:
  Env:
    Type: String
    Default: prod
    AllowedValues: [dev, prod]
Conditions:
  IsDev: !Equals [!Ref Env, dev]
  IsProd: !Not [!Condition IsDev]
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If
          - IsDev
          - {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}
          - !Ref AWS::NoValue
        - !If [IsProd, {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}, !Ref AWS::NoValue]
        - !Ref AWS::NoValue
        - {IpProtocol: tcp, FromPort: 6379, ToPort: 6379, CidrIp: 0.0.0.0/0}
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
      ManagedPolicyArns:
        - !If [IsDev, arn:aws:iam::aws:policy/ReadOnlyAccess, !Ref AWS::NoValue]
        - arn:aws:iam::aws:policy/AdministratorAccess
      Policies:
        - !If [IsDev, {PolicyName: dev, PolicyDocument: {Statement: []}}, !Ref AWS::NoValue]
        - PolicyName: ops
          PolicyDocument:
            Statement:
              - !If [IsDev, {Effect: Allow, Action: "s3:GetObject", Resource: "*"}, !Ref AWS::NoValue]
              - {Effect: Allow, Action: "ec2:*", Resource: "arn:aws:ec2:*:*:instance/i-1"}
`), []string{
		"SG_ADMIN_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[1]",
		"IAM_FULL_ADMIN Resources.Role.Properties.ManagedPolicyArns[1]",
		"SG_DATA_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[3]",
		"IAM_SERVICE_WILDCARD Resources.Role.Properties.Policies[1].PolicyDocument.Statement[1].Action",
	})

	// Undecided: which of the first two elements is there depends on
	// the deployment, but one always is, so SSH is the template's third
	// in every outcome; Redis, read second when IsOpen holds, is the
	// template's second.
	equalStrings(t, "undecided", paths(`Parameters:
  Open:
    Type: String
Conditions:
  IsOpen: !Equals [!Ref Open, "yes"]
Resources:
  SG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If [IsOpen, {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}, !Ref AWS::NoValue]
        - !If [IsOpen, !Ref AWS::NoValue, {IpProtocol: tcp, FromPort: 80, ToPort: 80, CidrIp: 10.0.0.0/8}]
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
  Cache:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: x
      SecurityGroupIngress:
        - !If [IsOpen, {IpProtocol: tcp, FromPort: 8080, ToPort: 8080, CidrIp: 10.0.0.0/8}, !Ref AWS::NoValue]
        - {IpProtocol: tcp, FromPort: 6379, ToPort: 6379, CidrIp: 0.0.0.0/0}
`), []string{
		"SG_ADMIN_PORT_OPEN Resources.SG.Properties.SecurityGroupIngress[2]",
		"SG_DATA_PORT_OPEN Resources.Cache.Properties.SecurityGroupIngress[1]",
	})
}
