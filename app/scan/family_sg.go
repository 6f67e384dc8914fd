package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// Security groups: the inline ingress of the group and its linked rule
// resources all become ingress entries of the group, so the checks of
// check_security_group.go apply unchanged. An egress rule is not ingress
// and is not read. A value unknown until apply (a CIDR from another
// resource, a port from a variable) leaves that entry out: it may be open,
// but the scanner only reports what it can see. One end of a port range
// unknown, the other known, is the exception: whatever the unknown end,
// the range holds the known one (a valid range has from <= to), so that
// port is reported, and the message says the range may hold more.

// ingressSpec names the fields of one ingress entry in one format.
type ingressSpec struct {
	proto, from, to string
	lists           []string // fields holding lists of CIDRs
	singles         []string // fields holding one CIDR
	until           string   // when an unknown value is known, for messages
}

var (
	tfIngress  = ingressSpec{proto: "protocol", from: "from_port", to: "to_port", lists: []string{"cidr_blocks", "ipv6_cidr_blocks"}, until: "apply"}
	vpcIngress = ingressSpec{proto: "ip_protocol", from: "from_port", to: "to_port", singles: []string{"cidr_ipv4", "cidr_ipv6"}, until: "apply"}
	cfnIngress = ingressSpec{proto: "IpProtocol", from: "FromPort", to: "ToPort", singles: []string{"CidrIp", "CidrIpv6"}, until: "deployment"}
)

func (b *builder) securityGroup(r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any) {
	b.ruleNode(r, n, attrs, nil)
	for _, c := range linked {
		b.ruleNode(r, c, attrsOf(c), linkedOf(c))
	}
}

// ruleNode reads the ingress a group or a rule resource carries.
func (b *builder) ruleNode(r *resource, n *node, attrs map[string]any, via *Linked) {
	switch n.typ {
	case "aws_security_group", "aws_default_security_group":
		for i, in := range listOf(attrs["ingress"]) {
			b.ingress(r, mapOf(in), tfIngress, n.base+".ingress["+strconv.Itoa(i)+"]", i, via)
		}
	case "AWS::EC2::SecurityGroup":
		for i, in := range listOf(attrs["SecurityGroupIngress"]) {
			b.ingress(r, mapOf(in), cfnIngress, n.base+".SecurityGroupIngress["+strconv.Itoa(i)+"]", i, via)
		}
	case "aws_security_group_rule":
		if t, _ := attrs["type"].(string); t == "ingress" {
			b.ingress(r, attrs, tfIngress, n.base, 0, via)
		}
	case "aws_vpc_security_group_ingress_rule":
		b.ingress(r, attrs, vpcIngress, n.base, 0, via)
	case "AWS::EC2::SecurityGroupIngress":
		b.ingress(r, attrs, cfnIngress, n.base, 0, via)
	}
}

// ingress adds one entry per CIDR of an ingress object.
func (b *builder) ingress(r *resource, m map[string]any, f ingressSpec, path string, index int, via *Linked) {
	if m == nil {
		return
	}
	proto, ok := protocolOf(m[f.proto])
	if !ok {
		return
	}
	from, to := 0, 65535
	var openEnd string
	if proto == protoTCP || proto == protoUDP {
		var okF, okT bool
		from, okF = intOf(m[f.from])
		to, okT = intOf(m[f.to])
		switch {
		case !okF && !okT:
			return // unknown or absent ports
		case !okF:
			from = to
			if isUnknown(m[f.from]) {
				openEnd = "; " + f.from + " is unknown until " + f.until + ", so the range, which ends at " + strconv.Itoa(to) + ", may open more ports"
			}
		case !okT:
			to = from
			if isUnknown(m[f.to]) {
				openEnd = "; " + f.to + " is unknown until " + f.until + ", so the range, which starts at " + strconv.Itoa(from) + ", may open more ports"
			}
		}
		if from == -1 || to == -1 { // -1 is "every port" in the EC2 API
			from, to, openEnd = 0, 65535, ""
		}
		if from < 0 || to > 65535 || to < from {
			return
		}
	}
	var cidrs []string
	for _, k := range f.lists {
		for _, c := range listOf(m[k]) {
			if s, ok := c.(string); ok {
				cidrs = append(cidrs, s)
			}
		}
	}
	for _, k := range f.singles {
		if s, ok := m[k].(string); ok {
			cidrs = append(cidrs, s)
		}
	}
	for _, c := range cidrs {
		p, err := netip.ParsePrefix(strings.TrimSpace(c))
		if err != nil {
			continue
		}
		r.ingress = append(r.ingress, ingressRule{index: index, offset: b.next(), protocol: proto, from: from, to: to,
			cidr: p, cidrText: c, path: path, via: via, openEnd: openEnd})
	}
}

// protocolOf reads a protocol by name or IANA number, as AWS accepts it.
// Protocols other than tcp, udp, icmp and all have no ports and are not
// read.
func protocolOf(v any) (protocol, bool) {
	s, ok := strOf(v)
	if !ok {
		return 0, false
	}
	var p protocol
	switch strings.ToLower(s) {
	case "6":
		return protoTCP, true
	case "17":
		return protoUDP, true
	case "1", "58":
		return protoICMP, true
	}
	if parseProtocol([]byte(s), &p) {
		return p, true
	}
	return 0, false
}
