package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// Google Cloud firewall rules (google_compute_firewall). Each allow block
// of an INGRESS rule (direction's default) becomes an ingress entry per
// source range, graded by checkSecurityGroup as AWS ingress is. A rule
// with no source at all (no source_ranges, source_tags or
// source_service_accounts) applies to every source: GCP's default
// 0.0.0.0/0. Source tags and service accounts add sources; they do not
// narrow the ranges. An allow block without ports opens every port of its
// protocol, "all" every protocol. Deny blocks, EGRESS rules and disabled
// rules (disabled = true) open nothing; priorities are not evaluated, as
// AWS has none (each allow is judged alone). A value unknown until apply
// that would open something (direction, a range, a port) leaves the rule
// or entry out; an unknown disabled is not taken as disabled, and the
// findings say it is unknown. A ports list with an unknown element still
// opens its known ports, and their findings say the list may open more.

func (b *builder) gcpFirewall(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	if v := attrs["disabled"]; isUnknown(v) {
		// Not taken as disabled, as an unknown S3 access block is not
		// taken as blocking: the findings say so.
		r.note = n.addr + ".disabled is unknown until apply"
	} else if off, _ := boolOf(v); off {
		return
	}
	switch d := attrs["direction"].(type) {
	case nil:
	case string:
		if !strings.EqualFold(d, "INGRESS") {
			return
		}
	default:
		return // unknown until apply
	}
	var sources []fwSource
	ranges := attrs["source_ranges"]
	switch {
	case isUnknown(ranges):
		return
	case given(attrs, "source_ranges"):
		for _, c := range listOf(ranges) {
			if s, ok := c.(string); ok {
				sources = append(sources, fwSource{text: s})
			}
		}
	case isUnknown(attrs["source_tags"]) || isUnknown(attrs["source_service_accounts"]):
		return // whether GCP's default source applies is unknown
	case !given(attrs, "source_tags") && !given(attrs, "source_service_accounts"):
		sources = append(sources, fwSource{text: "0.0.0.0/0", note: "0.0.0.0/0 (no source given: GCP's default)"})
	}
	for i, a := range listOf(attrs["allow"]) {
		m := mapOf(a)
		proto, ok := gcpProtocol(m["protocol"])
		if !ok {
			continue
		}
		path := n.base + ".allow[" + strconv.Itoa(i) + "]"
		ports := m["ports"]
		if proto == protoAll || proto == protoICMP || !given(m, "ports") {
			b.openEntries(r, proto, 0, 65535, sources, path, i, nil)
			continue
		}
		note := unknownElement(ports, "ports")
		for _, p := range listOf(ports) {
			if from, to, ok := portSpan(p); ok {
				first := len(r.ingress)
				b.openEntries(r, proto, from, to, sources, path, i, nil)
				setOpenEnd(r, first, note)
			}
		}
	}
}

// unknownElement says, for messages, that a list of ports holds a value
// unknown until apply (["22", var.port]) besides those it knows: the
// known ports are reported, and the finding says the list may open more.
// Empty when the list holds none.
func unknownElement(list any, field string) string {
	for _, v := range listOf(list) {
		if isUnknown(v) {
			return "; " + field + " also holds a value unknown until apply, which may open more ports"
		}
	}
	return ""
}

// setOpenEnd sets the note of the entries r.ingress[first:].
func setOpenEnd(r *resource, first int, note string) {
	if note == "" {
		return
	}
	for i := first; i < len(r.ingress); i++ {
		r.ingress[i].openEnd = note
	}
}

// fwSource is one source of a firewall or security rule: its text (a
// CIDR), and what to call it in messages when not its text.
type fwSource struct {
	text, note string
	prefix     netip.Prefix // set by the caller when text is not a CIDR (an Azure tag)
}

// openEntries adds an ingress entry of r for each source that parses.
func (b *builder) openEntries(r *resource, proto protocol, from, to int, sources []fwSource, path string, index int, via *Linked) {
	for _, s := range sources {
		p := s.prefix
		if !p.IsValid() {
			var err error
			if p, err = netip.ParsePrefix(strings.TrimSpace(s.text)); err != nil {
				continue
			}
		}
		text := s.text
		if s.note != "" {
			text = s.note
		}
		r.ingress = append(r.ingress, ingressRule{index: index, offset: b.next(), protocol: proto, from: from, to: to,
			cidr: p, cidrText: text, named: s.note != "", path: path, via: via})
	}
}

// gcpProtocol reads a firewall protocol: a name or an IANA number.
// Protocols other than tcp, udp, icmp and all are not read.
func gcpProtocol(v any) (protocol, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	switch strings.ToLower(s) {
	case "tcp", "6":
		return protoTCP, true
	case "udp", "17":
		return protoUDP, true
	case "icmp", "1", "ipv6-icmp", "58":
		return protoICMP, true
	case "all":
		return protoAll, true
	}
	return 0, false
}

// portSpan reads a port or a range ("22", "8000-9000"; Azure's "*" is
// every port).
func portSpan(v any) (from, to int, ok bool) {
	s, isStr := v.(string)
	if !isStr {
		if n, isInt := intOf(v); isInt {
			s, isStr = strconv.Itoa(n), true
		}
	}
	s = strings.TrimSpace(s)
	if !isStr || s == "" {
		return 0, 0, false
	}
	if s == "*" {
		return 0, 65535, true
	}
	a, z, isRange := strings.Cut(s, "-")
	from, errA := strconv.Atoi(strings.TrimSpace(a))
	to, errZ := from, error(nil)
	if isRange {
		to, errZ = strconv.Atoi(strings.TrimSpace(z))
	}
	if errA != nil || errZ != nil || from < 0 || to > 65535 || to < from {
		return 0, 0, false
	}
	return from, to, true
}
