package scan

import (
	"slices"
	"testing"
)

func TestStorageChecks(t *testing.T) {
	tests := []struct {
		resource string
		want     []string
	}{
		{`{"type":"s3_bucket","name":"b","public_read":true,"encrypted":true}`,
			[]string{`S3_PUBLIC_READ resources[0].public_read: bucket "b" allows public read (public_read is true): anyone on the internet can list and download its objects`}},
		{`{"type":"s3_bucket","name":"b","public_read":false,"encrypted":false}`,
			[]string{`S3_UNENCRYPTED resources[0].encrypted: bucket "b" is not encrypted at rest (encrypted is false)`}},
		{`{"type":"s3_bucket","name":"b","public_read":false,"encrypted":true}`, nil},
		{`{"type":"s3_bucket","name":"b"}`, nil}, // absent: not assumed insecure
		{`{"type":"database","name":"d","publicly_accessible":true,"encrypted":false}`, []string{
			`DB_PUBLIC resources[0].publicly_accessible: database "d" is publicly accessible (publicly_accessible is true): it has an endpoint reachable from the internet`,
			`DB_UNENCRYPTED resources[0].encrypted: database "d" is not encrypted at rest (encrypted is false): its storage, backups and snapshots are readable without a key`,
		}},
		{`{"type":"database","name":"d","publicly_accessible":false,"encrypted":true}`, nil},
		{`{"type":"database","name":"d","publicly_accessible":null}`, nil},
		// A database's fields on a bucket mean nothing, and the reverse.
		{`{"type":"s3_bucket","name":"b","publicly_accessible":true}`, nil},
		{`{"type":"database","name":"d","public_read":true}`, nil},
	}
	for _, tt := range tests {
		res := mustScan(t, doc(tt.resource))
		equalStrings(t, tt.resource, summarize(res.Findings), tt.want)
	}
}

func TestSecurityGroupChecks(t *testing.T) {
	const (
		admin = "SG_ADMIN_PORT_OPEN resources[0].ingress[0]: "
		data  = "SG_DATA_PORT_OPEN resources[0].ingress[0]: "
		all   = "SG_ALL_PORTS_OPEN resources[0].ingress[0]: "
		low   = "SG_PORT_OPEN resources[0].ingress[0]: "
	)
	tests := []struct {
		ingress string
		want    []string
	}{
		{`{"port":22,"cidr":"0.0.0.0/0"}`, []string{admin + "port 22 (SSH) is open to 0.0.0.0/0"}},
		{`{"port":22,"cidr":"::/0"}`, []string{admin + "port 22 (SSH) is open to ::/0"}},
		{`{"port":3389,"cidr":"0.0.0.0/0"}`, []string{admin + "port 3389 (RDP) is open to 0.0.0.0/0"}},
		{`{"port":3389,"protocol":"udp","cidr":"0.0.0.0/0"}`, []string{admin + "port 3389 (RDP) is open to 0.0.0.0/0 over udp"}},
		// Any /0 is the whole internet, whatever the address.
		{`{"port":22,"cidr":"10.0.0.0/0"}`, []string{admin + "port 22 (SSH) is open to 10.0.0.0/0 (prefix length 0: every IPv4 address)"}},
		{`{"port":22,"cidr":"2001:db8::/0"}`, []string{admin + "port 22 (SSH) is open to 2001:db8::/0 (prefix length 0: every IPv6 address)"}},
		// Half the internet is not the whole internet; private ranges are not.
		{`{"port":22,"cidr":"0.0.0.0/1"}`, nil},
		{`{"port":22,"cidr":"::/1"}`, nil},
		{`{"port":22,"cidr":"10.0.0.0/8"}`, nil},
		// A range covers every port in it.
		{`{"port":20,"to_port":30,"cidr":"::/0"}`, []string{
			admin + "ports 20-30 (tcp) include 22 (SSH), open to ::/0",
			data + "ports 20-30 (tcp) include 20 (FTP data), 21 (FTP) and 23 (Telnet), open to ::/0",
		}},
		{`{"port":3000,"to_port":4000,"cidr":"0.0.0.0/0"}`, []string{
			admin + "ports 3000-4000 (tcp) include 3389 (RDP), open to 0.0.0.0/0",
			data + "ports 3000-4000 (tcp) include 3306 (MySQL), open to 0.0.0.0/0",
		}},
		{`{"port":2,"to_port":65535,"cidr":"0.0.0.0/0"}`, []string{
			admin + "ports 2-65535 (tcp) include 22 (SSH) and 3389 (RDP), open to 0.0.0.0/0",
			data + "ports 2-65535 (tcp) include 20 (FTP data), 21 (FTP), 23 (Telnet), 111 (RPC portmapper) and 36 more, open to 0.0.0.0/0",
		}},
		// Every port: one finding, not one per port class.
		{`{"port":0,"to_port":65535,"cidr":"0.0.0.0/0"}`, []string{all + "every tcp port (0-65535) is open to 0.0.0.0/0"}},
		{`{"port":1,"to_port":65535,"protocol":"udp","cidr":"::/0"}`, []string{all + "every udp port (1-65535) is open to ::/0"}},
		{`{"protocol":"all","cidr":"0.0.0.0/0"}`, []string{all + "all traffic (every protocol and port) is open to 0.0.0.0/0"}},
		{`{"protocol":"-1","port":0,"to_port":0,"cidr":"0.0.0.0/0"}`, []string{all + "all traffic (every protocol and port) is open to 0.0.0.0/0"}},
		{`{"protocol":"ALL","port":22,"cidr":"10.0.0.0/8"}`, nil},
		// ICMP has no ports.
		{`{"protocol":"icmp","port":8,"to_port":0,"cidr":"0.0.0.0/0"}`, nil},
		{`{"protocol":"icmpv6","port":-1,"cidr":"::/0"}`, nil},
		// Data ports, on tcp and udp.
		{`{"port":5432,"cidr":"0.0.0.0/0"}`, []string{data + "port 5432 (PostgreSQL) is open to 0.0.0.0/0"}},
		{`{"port":11211,"protocol":"udp","cidr":"0.0.0.0/0"}`, []string{data + "port 11211 (Memcached) is open to 0.0.0.0/0 over udp"}},
		{`{"port":80,"to_port":443,"cidr":"0.0.0.0/0"}`, []string{
			data + "ports 80-443 (tcp) include 111 (RPC portmapper), 135 (Microsoft RPC), 137 (NetBIOS name service), 138 (NetBIOS datagram) and 1 more, open to 0.0.0.0/0",
		}},
		// Web ports alone are meant to be public.
		{`{"port":443,"cidr":"0.0.0.0/0"}`, nil},
		{`{"port":80,"to_port":80,"cidr":"::/0"}`, nil},
		// Anything else is worth a look.
		{`{"port":8080,"cidr":"0.0.0.0/0"}`, []string{low + "port 8080 is open to 0.0.0.0/0"}},
		{`{"port":0,"cidr":"0.0.0.0/0"}`, []string{low + "port 0 is open to 0.0.0.0/0"}},
		{`{"port":8000,"to_port":8080,"cidr":"0.0.0.0/0"}`, []string{low + "ports 8000-8080 (tcp) are open to 0.0.0.0/0"}},
		{`{"port":442,"to_port":444,"cidr":"0.0.0.0/0"}`, []string{low + "ports 442-444 (tcp) are open to 0.0.0.0/0"}},
		{`{"port":8080,"cidr":"192.168.0.0/16"}`, nil},
	}
	for _, tt := range tests {
		res := mustScan(t, doc(sg(tt.ingress)))
		equalStrings(t, tt.ingress, summarize(res.Findings), tt.want)
	}
}

func TestSecurityGroupOneFindingPerCause(t *testing.T) {
	res := mustScan(t, doc(sg(`
		{"port":22,"cidr":"0.0.0.0/0"},
		{"port":22,"cidr":"0.0.0.0/0"},
		{"port":22,"cidr":"10.0.0.0/0"},
		{"port":22,"cidr":"::/0"},
		{"port":20,"to_port":30,"cidr":"0.0.0.0/0"},
		{"protocol":"all","cidr":"0.0.0.0/0"},
		{"protocol":"-1","cidr":"0.0.0.0/0"},
		{"port":0,"to_port":65535,"cidr":"0.0.0.0/0"},
		{"port":1,"to_port":65535,"cidr":"0.0.0.0/0"}`)))
	equalStrings(t, "findings", summarize(res.Findings), []string{
		// Identical entries, and 10.0.0.0/0 (the same addresses as 0.0.0.0/0), are one cause.
		"SG_ADMIN_PORT_OPEN resources[0].ingress[0]: port 22 (SSH) is open to 0.0.0.0/0",
		// Another family, another range: other causes.
		"SG_ADMIN_PORT_OPEN resources[0].ingress[3]: port 22 (SSH) is open to ::/0",
		"SG_ADMIN_PORT_OPEN resources[0].ingress[4]: ports 20-30 (tcp) include 22 (SSH), open to 0.0.0.0/0",
		"SG_ALL_PORTS_OPEN resources[0].ingress[5]: all traffic (every protocol and port) is open to 0.0.0.0/0",
		"SG_ALL_PORTS_OPEN resources[0].ingress[7]: every tcp port (0-65535) is open to 0.0.0.0/0",
		"SG_DATA_PORT_OPEN resources[0].ingress[4]: ports 20-30 (tcp) include 20 (FTP data), 21 (FTP) and 23 (Telnet), open to 0.0.0.0/0",
	})
}

func TestIAMChecks(t *testing.T) {
	policy := func(actions, resources string) string {
		return `{"type":"iam_policy","name":"p","actions":` + actions + `,"resources":` + resources + `}`
	}
	tests := []struct {
		actions, resources string
		want               []string
	}{
		{`["*"]`, `["*"]`, []string{`IAM_FULL_ADMIN resources[0].actions[0]: policy "p" allows action "*" on resource "*": full administrator access to every service and resource`}},
		{`["s3:GetObject","*:*"]`, `["arn:aws:s3:::b","*"]`, []string{`IAM_FULL_ADMIN resources[0].actions[1]: policy "p" allows action "*:*" on resource "*": full administrator access to every service and resource`}},
		// Full admin says it all: no wildcard findings on top for the same policy.
		{`["*","iam:*","s3:*"]`, `["*"]`, []string{`IAM_FULL_ADMIN resources[0].actions[0]: policy "p" allows action "*" on resource "*": full administrator access to every service and resource`}},
		{`["*"]`, `["arn:aws:s3:::b/*"]`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows action "*": every action of every AWS service on arn:aws:s3:::b/*`}},
		{`["*","s3:*"]`, `["arn:aws:s3:::a","arn:aws:s3:::b"]`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows action "*": every action of every AWS service on arn:aws:s3:::a and 1 more resource`}},
		{`["*"]`, `null`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows action "*": every action of every AWS service`}},
		{`["iam:*"]`, `["arn:aws:iam::123456789012:role/app"]`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows "iam:*": every IAM action, including creating and attaching policies, so the holder can make itself administrator`}},
		{`["IAM:*"]`, `[]`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows "IAM:*": every IAM action, including creating and attaching policies, so the holder can make itself administrator`}},
		{`["sts:*"]`, `[]`, []string{`IAM_WILDCARD_ACTION resources[0].actions[0]: policy "p" allows "sts:*": every STS action, including assuming any role whose trust policy lets it`}},
		{`["s3:*"]`, `["arn:aws:s3:::b"]`, []string{`IAM_SERVICE_WILDCARD resources[0].actions[0]: policy "p" allows "s3:*": every s3 action, including destructive and permission-changing ones`}},
		// Case-insensitive: one cause.
		{`["S3:*","s3:*"]`, `["arn:aws:s3:::b"]`, []string{`IAM_SERVICE_WILDCARD resources[0].actions[0]: policy "p" allows "S3:*": every S3 action, including destructive and permission-changing ones`}},
		{`["s3:*"]`, `["*"]`, []string{
			`IAM_SERVICE_WILDCARD resources[0].actions[0]: policy "p" allows "s3:*": every s3 action, including destructive and permission-changing ones`,
			`IAM_WILDCARD_RESOURCE resources[0].resources[0]: policy "p" applies s3:* to resource "*": every resource in the account`,
		}},
		{`["s3:GetObject"]`, `["*"]`, []string{`IAM_WILDCARD_RESOURCE resources[0].resources[0]: policy "p" applies s3:GetObject to resource "*": every resource in the account`}},
		{`["a:A","b:B","c:C","d:D","e:E"]`, `["arn:x","*"]`, []string{`IAM_WILDCARD_RESOURCE resources[0].resources[1]: policy "p" applies a:A, b:B, c:C and 2 more actions to resource "*": every resource in the account`}},
		// Not reported: partial wildcards, specific grants, no actions.
		{`["s3:Get*","iam:Pass*","*:Get*"]`, `["arn:aws:s3:::b"]`, nil},
		{`["s3:GetObject"]`, `["arn:aws:s3:::b/*"]`, nil},
		{`[]`, `["*"]`, nil},
		{`null`, `["*"]`, nil},
	}
	for _, tt := range tests {
		res := mustScan(t, doc(policy(tt.actions, tt.resources)))
		equalStrings(t, tt.actions+" on "+tt.resources, summarize(res.Findings), tt.want)
	}
}

func TestEveryRuleHasItsFields(t *testing.T) {
	rules := Rules()
	if len(rules) != 12 {
		t.Fatalf("%d rules", len(rules))
	}
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.ID] || r.Title == "" || r.Description == "" || r.Remediation == "" || r.References == nil || r.Severity.rank() == 3 && r.Severity != Low {
			t.Errorf("rule %+v", r)
		}
		seen[r.ID] = true
		if !slices.Contains(supportedTypes, r.ResourceType) {
			t.Errorf("rule %s: resource type %q", r.ID, r.ResourceType)
		}
	}
	// Rules returns a copy.
	rules[0].References[0].ID = "changed"
	if Rules()[0].References[0].ID == "changed" {
		t.Error("Rules() shares the catalogue")
	}
}

func TestPortLists(t *testing.T) {
	lists := map[string][]service{"admin": adminPorts, "data": dataPorts, "web": webPorts}
	owner := map[int]string{}
	for name, list := range lists {
		for k, s := range list {
			if k > 0 && list[k-1].port >= s.port {
				t.Errorf("%s ports not sorted at %d", name, s.port)
			}
			if other, dup := owner[s.port]; dup {
				t.Errorf("port %d in %s and %s", s.port, name, other)
			}
			owner[s.port] = name
		}
	}
}
