package scan

import "testing"

// TestUndecidedConditionNote: when a condition cannot be decided both
// outcomes are checked, and only the findings that one outcome has and the
// other has not say so; a finding both outcomes have does not depend on
// the condition. A resource's own undecided Condition (checked as if true)
// is still said on each of its findings.
func TestUndecidedConditionNote(t *testing.T) {
	tmpl := `Parameters:
  OpenAdmin: {Type: String}
  Stage: {Type: String}
Conditions:
  AdminOpen: !Equals [!Ref OpenAdmin, "yes"]
  IsProd: !Equals [!Ref Stage, prod]
Resources:
  WebSG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0}
        - !If
          - AdminOpen
          - {IpProtocol: tcp, FromPort: 3389, ToPort: 3389, CidrIpv6: "::/0"}
          - !Ref AWS::NoValue
        - {IpProtocol: tcp, FromPort: 5432, ToPort: 5432, CidrIp: !If [AdminOpen, 0.0.0.0/0, 0.0.0.0/0]}
  DbIngress:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupId: !GetAtt WebSG.GroupId
      IpProtocol: "-1"
      CidrIp: 0.0.0.0/0
  Cluster:
    Type: AWS::RDS::DBCluster
    Properties:
      StorageEncrypted: !If [AdminOpen, true, false]
  ProdOnly:
    Type: AWS::RDS::DBInstance
    Condition: IsProd
    Properties:
      PubliclyAccessible: true
      StorageEncrypted: !If [AdminOpen, false, true]
`
	const undecided = "condition AdminOpen could not be decided; both outcomes were checked"
	var got []string
	for _, f := range scanAt(t, []byte(tmpl)).Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+": "+f.Message)
	}
	equalStrings(t, "findings", got, []string{
		"SG_ADMIN_PORT_OPEN WebSG: port 22 (SSH) is open to 0.0.0.0/0",
		"SG_ADMIN_PORT_OPEN WebSG: port 3389 (RDP) is open to ::/0 (" + undecided + ")",
		"SG_ALL_PORTS_OPEN WebSG: all traffic (every protocol and port) is open to 0.0.0.0/0 (set in DbIngress)",
		`DB_PUBLIC ProdOnly: database "ProdOnly" is publicly accessible (PubliclyAccessible is true): it has an endpoint reachable from the internet (condition IsProd could not be decided; checked as if it were true)`,
		"SG_DATA_PORT_OPEN WebSG: port 5432 (PostgreSQL) is open to 0.0.0.0/0",
		`DB_UNENCRYPTED Cluster: database "Cluster" is not encrypted at rest (StorageEncrypted is false): its storage, backups and snapshots are readable without a key (` + undecided + ")",
		`DB_UNENCRYPTED ProdOnly: database "ProdOnly" is not encrypted at rest (StorageEncrypted is false): its storage, backups and snapshots are readable without a key (condition IsProd could not be decided; checked as if it were true; ` + undecided + ")",
	})
}

// Over more than two readings (a parameter with three allowed values), a
// finding every reading has carries no note, and one that some reading
// lacks names the undecided conditions.
func TestUndecidedConditionNoteReadings(t *testing.T) {
	tmpl := `Parameters:
  Tier: {Type: String, AllowedValues: [a, b, c]}
Conditions:
  IsA: !Equals [!Ref Tier, a]
  IsB: !Equals [!Ref Tier, b]
Resources:
  WebSG:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: web
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: !If [IsA, 0.0.0.0/0, !If [IsB, 0.0.0.0/0, 0.0.0.0/0]]}
        - {IpProtocol: tcp, FromPort: 3389, ToPort: 3389, CidrIp: !If [IsA, 10.0.0.0/8, !If [IsB, 10.0.0.0/8, 0.0.0.0/0]]}
        - {IpProtocol: tcp, FromPort: 5432, ToPort: 5432, CidrIp: !If [IsA, !If [IsB, 10.0.0.0/8, 0.0.0.0/0], 0.0.0.0/0]}
`
	const undecided = "condition IsA and IsB could not be decided; both outcomes were checked"
	var got []string
	for _, f := range scanAt(t, []byte(tmpl)).Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+": "+f.Message)
	}
	equalStrings(t, "findings", got, []string{
		"SG_ADMIN_PORT_OPEN WebSG: port 22 (SSH) is open to 0.0.0.0/0",
		"SG_ADMIN_PORT_OPEN WebSG: port 3389 (RDP) is open to 0.0.0.0/0 (" + undecided + ")",
		"SG_DATA_PORT_OPEN WebSG: port 5432 (PostgreSQL) is open to 0.0.0.0/0", // IsA and IsB are never both true
	})
}
