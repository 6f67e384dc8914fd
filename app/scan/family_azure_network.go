package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// Azure network security groups: the inline security_rule blocks of an
// azurerm_network_security_group and the separate
// azurerm_network_security_rule resources linked to it (by
// network_security_group_name) become ingress entries of the group,
// graded by checkSecurityGroup as AWS ingress is. A rule counts when its
// direction is Inbound and its access Allow, from a source that is the
// internet: "*" (any source), the service tags Internet and Any, or a
// prefix of length 0. Priorities are not evaluated: each Allow is judged
// alone, as AWS ingress entries are (a Deny of higher priority may hide
// it). Protocol "*" with every port ("*") is all traffic; with some ports
// it is graded as tcp (tcp and udp are graded alike) and its message says
// "any protocol"; Icmp, Esp and Ah
// have no ports and are not reported. A value unknown until apply leaves
// the rule out, but a destination_port_ranges list with one unknown
// element still opens its known ports, and their findings say so.

// azureAnySource are the sources that include the whole internet.
var azureAnySource = map[string]string{
	"*":        `"*" (any source, the internet included)`,
	"internet": `the service tag "Internet" (every address outside the virtual network)`,
	"any":      `"Any" (any source, the internet included)`,
}

func (b *builder) azureNSG(r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any) {
	b.azureRules(r, n, attrs, nil)
	for _, c := range linked {
		b.azureRules(r, c, attrsOf(c), linkedOf(c))
	}
}

// azureRules reads the rules a group or a rule resource carries.
func (b *builder) azureRules(r *resource, n *node, attrs map[string]any, via *Linked) {
	if n.typ == "azurerm_network_security_rule" {
		b.azureRule(r, attrs, n.base, 0, via)
		return
	}
	for i, rule := range listOf(attrs["security_rule"]) {
		b.azureRule(r, mapOf(rule), n.base+".security_rule["+strconv.Itoa(i)+"]", i, via)
	}
}

func (b *builder) azureRule(r *resource, m map[string]any, path string, index int, via *Linked) {
	dir, _ := m["direction"].(string)
	access, _ := m["access"].(string)
	if !strings.EqualFold(dir, "Inbound") || !strings.EqualFold(access, "Allow") {
		return
	}
	var sources []fwSource
	for _, v := range append([]any{m["source_address_prefix"]}, listOf(m["source_address_prefixes"])...) {
		s, ok := v.(string)
		if !ok {
			continue
		}
		s = strings.TrimSpace(s)
		if note, any := azureAnySource[strings.ToLower(s)]; any {
			sources = append(sources, fwSource{text: s, note: note, prefix: netip.MustParsePrefix("0.0.0.0/0")})
		} else if p, err := netip.ParsePrefix(s); err == nil && p.Bits() == 0 {
			sources = append(sources, fwSource{text: s})
		}
	}
	if len(sources) == 0 {
		return
	}
	proto, ok := azureProtocol(m["protocol"])
	if !ok {
		return
	}
	var spans [][2]int
	note := unknownElement(m["destination_port_ranges"], "destination_port_ranges")
	for _, v := range append([]any{m["destination_port_range"]}, listOf(m["destination_port_ranges"])...) {
		if from, to, ok := portSpan(v); ok {
			spans = append(spans, [2]int{from, to})
		}
	}
	for _, sp := range spans {
		p := proto
		if p == protoAll && !isAllPorts(sp[0], sp[1]) {
			p = protoTCP // "*" on some ports: graded as tcp, which is graded as udp is
		}
		first := len(r.ingress)
		b.openEntries(r, p, sp[0], sp[1], sources, path, index, via)
		for i := first; i < len(r.ingress); i++ {
			r.ingress[i].anyProtocol = proto == protoAll
		}
		setOpenEnd(r, first, note)
	}
}

// azureProtocol reads a security rule's protocol; Icmp, Esp and Ah have no
// ports and are not read.
func azureProtocol(v any) (protocol, bool) {
	s, _ := v.(string)
	switch strings.ToLower(s) {
	case "tcp":
		return protoTCP, true
	case "udp":
		return protoUDP, true
	case "*":
		return protoAll, true
	}
	return 0, false
}
