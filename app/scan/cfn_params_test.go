package scan

import "testing"

// TestCloudFormationListParameter: a Ref to a CommaDelimitedList or
// List<...> parameter reads its default as a list (members
// space-trimmed), as CloudFormation passes it, so !Select on it picks an
// element; it read as one string, and the SSH rule open to the internet
// was not reported.
func TestCloudFormationListParameter(t *testing.T) {
	got := cfnOutcome(t, `Parameters:
  AdminCidrs:
    Type: CommaDelimitedList
    Default: "10.0.0.0/8, 0.0.0.0/0"
  Ports:
    Type: List<Number>
    Default: "5432,22"
Resources:
  Group:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: admin
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: !Select [1, !Ref Ports]
          ToPort: !Select [1, !Ref Ports]
          CidrIp: !Select [1, !Ref AdminCidrs]
`)
	equalStrings(t, "list parameter", got, []string{"SG_ADMIN_PORT_OPEN Group line 9"})
}
