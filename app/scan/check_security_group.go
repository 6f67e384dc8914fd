package scan

import "strconv"

// checkSecurityGroup looks at each ingress entry open to the whole
// internet: a CIDR of prefix length 0, whatever its address (10.0.0.0/0 is
// every IPv4 address too, a classic typo for /8). A /1 is half the internet
// but not all of it, and is not reported.
//
// Per entry, the most specific findings win, so one cause is not counted
// several times:
//   - every port (protocol all or -1, or a range 0-65535 or 1-65535):
//     SG_ALL_PORTS_OPEN only; it already says that SSH, databases and
//     everything else are open;
//   - otherwise SG_ADMIN_PORT_OPEN when the range covers 22 or 3389, and
//     SG_DATA_PORT_OPEN when it covers a data port; both can fire, as they
//     are different risks with different fixes;
//   - SG_PORT_OPEN only when the entry fired neither: its message names the
//     whole range, so the other ports are not lost.
//
// ICMP entries are not reported: ICMP has no ports, and allowing ping and
// path-MTU discovery from anywhere is normal. tcp and udp are treated alike:
// a data service on udp (Memcached on 11211) is as exposed as on tcp.
func (e *evaluator) checkSecurityGroup(r *resource) {
	for k := range r.ingress {
		in := &r.ingress[k]
		if in.cidr.Bits() != 0 || in.protocol == protoICMP {
			continue
		}
		path := e.at(r, "ingress", in.index, in.path)
		// All /0 prefixes of a family are the same addresses: one cause.
		world := "0.0.0.0/0"
		if in.cidr.Addr().Is6() {
			world = "::/0"
		}
		src := source(in)
		switch {
		case in.protocol == protoAll:
			e.report(r, ruleSGAllPortsOpen, path, in.offset, "all "+world,
				"all traffic (every protocol and port) is open to "+src, in.via)
			continue
		case isAllPorts(in.from, in.to):
			e.report(r, ruleSGAllPortsOpen, path, in.offset, in.protocol.String()+" all "+world,
				"every "+in.protocol.String()+" port ("+portRange(in)+") is open to "+src, in.via)
			continue
		}
		cause := in.protocol.String() + " " + portRange(in) + " " + world
		admin := servicesIn(adminPorts, in.from, in.to)
		data := servicesIn(dataPorts, in.from, in.to)
		if len(admin) > 0 {
			e.report(r, ruleSGAdminPortOpen, path, in.offset, cause, exposure(in, admin, src), in.via)
		}
		if len(data) > 0 {
			e.report(r, ruleSGDataPortOpen, path, in.offset, cause, exposure(in, data, src), in.via)
		}
		if len(admin) == 0 && len(data) == 0 && hasOtherPort(in.from, in.to) {
			e.report(r, ruleSGPortOpen, path, in.offset, cause, exposure(in, nil, src), in.via)
		}
	}
}

// exposure says what is open to what: "port 22 (SSH) is open to 0.0.0.0/0",
// "ports 20-30 (tcp) include 22 (SSH), open to ::/0", and that the range
// may hold more when one of its ends is unknown.
func exposure(in *ingressRule, services []service, src string) string {
	return exposureOf(in, services, src) + in.openEnd
}

// exposureOf is exposure for the range as known.
func exposureOf(in *ingressRule, services []service, src string) string {
	if in.from == in.to {
		s := "port " + strconv.Itoa(in.from)
		if len(services) == 1 {
			s += " (" + services[0].name + ")"
		}
		s += " is open to " + src
		switch {
		case in.anyProtocol:
			s += " over any protocol"
		case in.protocol == protoUDP:
			s += " over udp"
		}
		return s
	}
	ports := "ports " + portRange(in) + " (" + protocolName(in) + ")"
	if len(services) == 0 {
		return ports + " are open to " + src
	}
	return ports + " include " + listServices(services) + ", open to " + src
}

// source names the CIDR as written, explaining odd /0 forms that look
// private but are not.
func source(in *ingressRule) string {
	if in.named || in.cidrText == "0.0.0.0/0" || in.cidrText == "::/0" {
		return in.cidrText
	}
	family := "IPv4"
	if in.cidr.Addr().Is6() {
		family = "IPv6"
	}
	return in.cidrText + " (prefix length 0: every " + family + " address)"
}

// protocolName is the protocol as a message says it. The finding's cause
// keeps in.protocol's name, so that fingerprints do not change.
func protocolName(in *ingressRule) string {
	if in.anyProtocol {
		return "any protocol"
	}
	return in.protocol.String()
}

func portRange(in *ingressRule) string { return strconv.Itoa(in.from) + "-" + strconv.Itoa(in.to) }
