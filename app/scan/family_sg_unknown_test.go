package scan

import (
	"strconv"
	"testing"
)

// TestSGOneEndUnknown: an ingress range with one end unknown (from a
// variable without a value, after_unknown in a plan, a parameter without
// a default) holds its known end whatever the other is, so that port is
// reported, and the message says the range is not known instead of
// calling it "port 22" alone. An end that is absent, not unknown, still
// reads as the other.
func TestSGOneEndUnknown(t *testing.T) {
	render := func(res *Result) []string {
		var out []string
		for _, f := range res.Findings {
			out = append(out, f.Rule+" "+f.Resource.Name+" line "+strconv.Itoa(f.Line)+": "+f.Message)
		}
		return out
	}
	plan := `{"format_version":"1.2","terraform_version":"1.7.0",
"planned_values":{"root_module":{"resources":[
 {"address":"aws_security_group.web","mode":"managed","type":"aws_security_group","name":"web",
  "values":{"name":"web","ingress":[{"from_port":null,"to_port":22,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"]}]}},
 {"address":"aws_security_group_rule.db","mode":"managed","type":"aws_security_group_rule","name":"db",
  "values":{"type":"ingress","from_port":5432,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"],"security_group_id":"sg-1"}}]}},
"resource_changes":[
 {"address":"aws_security_group.web","mode":"managed","type":"aws_security_group","name":"web","change":{"actions":["create"],
  "after":{"name":"web","ingress":[{"from_port":null,"to_port":22,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"]}]},
  "after_unknown":{"id":true,"ingress":[{"from_port":true}]}}},
 {"address":"aws_security_group_rule.db","mode":"managed","type":"aws_security_group_rule","name":"db","change":{"actions":["create"],
  "after":{"type":"ingress","from_port":5432,"protocol":"tcp","cidr_blocks":["0.0.0.0/0"],"security_group_id":"sg-1"},
  "after_unknown":{"id":true,"to_port":true}}}]}`
	equalStrings(t, "plan", render(mustScan(t, plan)), []string{
		"SG_ADMIN_PORT_OPEN aws_security_group.web line 3: port 22 (SSH) is open to 0.0.0.0/0; from_port is unknown until apply, so the range, which ends at 22, may open more ports",
		"SG_DATA_PORT_OPEN aws_security_group_rule.db line 5: port 5432 (PostgreSQL) is open to 0.0.0.0/0; to_port is unknown until apply, so the range, which starts at 5432, may open more ports",
	})

	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`variable "from" {
  type = number
}
resource "aws_security_group" "web" {
  name = "web"
}
resource "aws_vpc_security_group_ingress_rule" "rdp" {
  security_group_id = aws_security_group.web.id
  from_port         = var.from
  to_port           = 3389
  ip_protocol       = "tcp"
  cidr_ipv4         = "0.0.0.0/0"
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalStrings(t, "source", render(res), []string{
		"SG_ADMIN_PORT_OPEN aws_security_group.web line 12: port 3389 (RDP) is open to 0.0.0.0/0; from_port is unknown until apply, so the range, which ends at 3389, may open more ports (set in aws_vpc_security_group_ingress_rule.rdp)",
	})

	equalStrings(t, "template", render(mustScan(t, `Parameters:
  Low:
    Type: Number
Resources:
  Admin:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: admin
      SecurityGroupIngress:
        - {IpProtocol: tcp, FromPort: !Ref Low, ToPort: 22, CidrIp: 0.0.0.0/0}
        - {IpProtocol: tcp, ToPort: 3389, CidrIp: 0.0.0.0/0}
`)), []string{
		"SG_ADMIN_PORT_OPEN Admin line 5: port 22 (SSH) is open to 0.0.0.0/0; FromPort is unknown until deployment, so the range, which ends at 22, may open more ports",
		"SG_ADMIN_PORT_OPEN Admin line 5: port 3389 (RDP) is open to 0.0.0.0/0",
	})
}
