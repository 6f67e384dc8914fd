package scan

import (
	"bytes"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Validation of one resource's fields. The syntax of every value was
// checked while the resource was read, so re-reading a value here cannot
// fail; what can fail is its JSON type or its meaning.
//
// Rules of the format, as users see them:
//   - absent and null mean the same: "not given";
//   - a boolean field that is not given produces no finding, because the
//     scanner only reports what it can see (see doc.go);
//   - a wrong JSON type is a problem, never a guess: "true" (a string) is
//     not true;
//   - fields that don't belong to the resource's type are ignored, like any
//     unknown field.

// validate checks the fields of resource i and, while the whole document is
// still clean, hands a supported resource to the checks.
func (p *parser) validate(i, offset int, f *[numFields]span) {
	typ, kind, typeOK := p.resourceType(i, f[fieldType])
	name, nameOK := p.requiredString(i, "name", f[fieldName])

	r := &p.res
	*r = resource{
		index: i, typ: kind, name: name,
		ingress: r.ingress[:0], actions: r.actions[:0], targets: r.targets[:0], suppress: r.suppress[:0],
	}
	p.suppressions(i, f[fieldSuppress], kind, r)
	switch kind {
	case typeS3Bucket:
		r.publicRead = p.flag(i, fieldPublicRead, f)
		r.encrypted = p.flag(i, fieldEncrypted, f)
	case typeDatabase:
		r.publiclyAccessible = p.flag(i, fieldPubliclyAccessible, f)
		r.encrypted = p.flag(i, fieldEncrypted, f)
	case typeSecurityGroup:
		p.ingress(i, f[fieldIngress], r)
	case typeIAMPolicy:
		r.actions = p.stringList(i, "actions", f[fieldActions], r.actions)
		r.targets = p.stringList(i, "resources", f[fieldResources], r.targets)
	default:
		if typeOK && nameOK {
			reason, ok := p.reasons[typ]
			if !ok {
				reason = unsupportedType(typ)
				if p.reasons == nil {
					p.reasons = map[string]string{}
				}
				p.reasons[typ] = reason
			}
			p.skipped = append(p.skipped, Skipped{Index: i, Type: typ, Name: name, Reason: reason, offset: offset})
		}
		return
	}
	if p.clean() {
		p.visit(r)
	}
}

// resourceType returns the type as written and, for a supported type, its
// constant (so the common case allocates nothing).
func (p *parser) resourceType(i int, s span) (typ, kind string, ok bool) {
	b, ok := p.requiredBytes(i, "type", s)
	if !ok {
		return "", "", false
	}
	for _, t := range supportedTypes {
		if string(b) == t {
			return t, t, true
		}
	}
	return string(b), "", true
}

func unsupportedType(typ string) string {
	for _, t := range supportedTypes {
		if strings.EqualFold(t, typ) {
			return fmt.Sprintf("unsupported resource type %s (did you mean %q?)", quoteShort(typ), t)
		}
	}
	return fmt.Sprintf("unsupported resource type %s; the scanner checks %s", quoteShort(typ), joinAnd(supportedTypes))
}

func (p *parser) requiredString(i int, field string, s span) (string, bool) {
	b, ok := p.requiredBytes(i, field, s)
	return string(b), ok
}

// requiredBytes returns a required, non-empty string field; the bytes are
// valid until the next string read.
func (p *parser) requiredBytes(i int, field string, s span) ([]byte, bool) {
	switch {
	case !s.present() || p.data[s.start] == 'n':
		p.problem(fieldPath(i, field), "is required")
	case p.data[s.start] != '"':
		p.problem(fieldPath(i, field), "must be a string, got "+p.describe(s))
	default:
		if b := p.stringAt(s); len(b) > 0 {
			return b, true
		}
		p.problem(fieldPath(i, field), "must not be empty")
	}
	return nil, false
}

// stringAt decodes the string value at s; the bytes are valid until the
// next call.
func (p *parser) stringAt(s span) []byte {
	if s.plain {
		return p.data[s.start+1 : s.end-1]
	}
	r := reader{data: p.data, pos: s.start, scratch: p.strBuf}
	b := r.str()
	p.strBuf = r.scratch
	return b
}

func (p *parser) describe(s span) string { return describe(p.data[s.start:s.end]) }

func (p *parser) flag(i, field int, f *[numFields]span) flag {
	s := f[field]
	if !s.present() {
		return flag{}
	}
	switch p.data[s.start] {
	case 't':
		return flag{set: true, on: true, offset: s.start}
	case 'f':
		return flag{set: true, offset: s.start}
	case 'n':
		return flag{}
	}
	p.problem(fieldPath(i, fieldNames[field]), "must be a boolean, got "+p.describe(s))
	return flag{}
}

// openArray positions p.sub inside the array at s. It returns false when
// the field is not given, and reports a problem when it is not an array.
func (p *parser) openArray(i int, field, want string, s span) bool {
	if !s.present() || p.data[s.start] == 'n' {
		return false
	}
	if p.data[s.start] != '[' {
		p.problem(fieldPath(i, field), "must be "+want+", got "+p.describe(s))
		return false
	}
	p.sub.pos, p.sub.depth = s.start, 0
	p.sub.enter()
	return true
}

// stringList reads an array of strings, appending to dst.
func (p *parser) stringList(i int, field string, s span, dst []item) []item {
	if !p.openArray(i, field, "an array of strings", s) {
		return dst
	}
	sub := &p.sub
	for j, first := 0, true; sub.arrayNext(first); j, first = j+1, false {
		c := sub.valueStart()
		start := sub.pos
		if c != '"' {
			sub.skip()
			p.problem(elemPath(i, field, j), "must be a string, got "+describe(p.data[start:sub.pos]))
			continue
		}
		dst = append(dst, item{value: string(sub.str()), index: j, offset: start})
	}
	return dst
}

// loc names element j of array field of resource i, for problem paths.
type loc struct {
	i     int
	field string
	j     int
}

func (l loc) path() string { return elemPath(l.i, l.field, l.j) }

func (l loc) at(name string) string { return l.path() + "." + name }

// objects iterates the array at s (already opened with openArray), reading
// each object's named fields into spans and calling fn with them. Elements
// that are not objects are problems.
func (p *parser) objects(i int, field string, names []string, fn func(l loc, offset int, spans []span)) {
	sub := &p.sub
	spans := p.spans[:len(names)]
	for j, first := 0, true; sub.arrayNext(first); j, first = j+1, false {
		l := loc{i, field, j}
		sub.ws()
		start := sub.pos
		if sub.valueStart() != '{' {
			sub.skip()
			p.problem(l.path(), "must be an object, got "+describe(p.data[start:sub.pos]))
			continue
		}
		clear(spans)
		sub.enter()
		for first := true; ; first = false {
			key, ok := sub.objectKey(first)
			if !ok {
				break
			}
			k := indexOf(names, key)
			at := sub.keyStart
			v := sub.value()
			switch {
			case k < 0:
			case spans[k].present():
				p.problem(l.at(names[k]), duplicateKeyAt(p.data, at))
			default:
				spans[k] = v
			}
		}
		fn(l, start, spans)
	}
}

func indexOf(names []string, key []byte) int {
	for k, n := range names {
		if string(key) == n {
			return k
		}
	}
	return -1
}

// The fields of an ingress entry. to_port and protocol are documented
// extensions of SPEC 2.6 (which has only port and cidr).
var ingressFields = []string{"port", "to_port", "protocol", "cidr"}

const (
	ingressPort = iota
	ingressToPort
	ingressProtocol
	ingressCIDR
)

func (p *parser) ingress(i int, s span, r *resource) {
	if !p.openArray(i, "ingress", "an array", s) {
		return
	}
	p.objects(i, "ingress", ingressFields, func(l loc, offset int, g []span) {
		if rule, ok := p.ingressRule(l, offset, g); ok {
			r.ingress = append(r.ingress, rule)
		}
	})
}

// ingressRule validates one ingress entry.
//
// protocol is tcp when not given, the usual case in exports that omit it.
// For tcp and udp, port is required and to_port, if given, makes the range
// [port, to_port]. For icmp the port fields are ICMP type and code, and for
// all (or -1) they are ignored (AWS writes 0 or -1 there), so for those only
// their JSON type is checked.
func (p *parser) ingressRule(l loc, offset int, g []span) (ingressRule, bool) {
	ok := true
	proto, protoKnown := protoTCP, true
	if s := g[ingressProtocol]; s.present() && p.data[s.start] != 'n' {
		if p.data[s.start] != '"' {
			p.problem(l.at("protocol"), "must be a string, got "+p.describe(s))
			ok, protoKnown = false, false
		} else if b := p.stringAt(s); !parseProtocol(b, &proto) {
			p.problem(l.at("protocol"), fmt.Sprintf("unknown protocol %s (use tcp, udp, icmp, icmpv6, all or -1)", quoteShort(string(b))))
			ok, protoKnown = false, false
		}
	}

	port, hasPort, portOK := p.optionalInt(l, "port", g[ingressPort])
	to, hasTo, toOK := p.optionalInt(l, "to_port", g[ingressToPort])
	ok = ok && portOK && toOK
	if protoKnown && (proto == protoTCP || proto == protoUDP) {
		switch {
		case !hasPort:
			if portOK {
				p.problem(l.at("port"), "is required for protocol "+proto.String())
				ok = false
			}
		case !validPort(port):
			p.problem(l.at("port"), string(p.data[g[ingressPort].start:g[ingressPort].end])+" is not a port number (0-65535)")
			ok = false
		}
		switch {
		case !hasTo:
			to = port
		case !validPort(to):
			p.problem(l.at("to_port"), string(p.data[g[ingressToPort].start:g[ingressToPort].end])+" is not a port number (0-65535)")
			ok = false
		case hasPort && validPort(port) && to < port:
			p.problem(l.at("to_port"), fmt.Sprintf("%d is less than port %d", to, port))
			ok = false
		}
	}

	var prefix netip.Prefix
	var text string
	switch s := g[ingressCIDR]; {
	case !s.present() || p.data[s.start] == 'n':
		p.problem(l.at("cidr"), "is required")
		ok = false
	case p.data[s.start] != '"':
		p.problem(l.at("cidr"), "must be a string, got "+p.describe(s))
		ok = false
	default:
		text = string(p.stringAt(s))
		var err error
		if prefix, err = netip.ParsePrefix(text); err != nil {
			p.problem(l.at("cidr"), notCIDR(text))
			ok = false
		}
	}
	if !ok {
		return ingressRule{}, false
	}
	return ingressRule{index: l.j, offset: offset, protocol: proto, from: port, to: to, cidr: prefix, cidrText: text}, true
}

func validPort(n int) bool { return 0 <= n && n <= 65535 }

// parseProtocol accepts the documented names in any case: the AWS API
// writes "tcp", some exports "TCP".
func parseProtocol(b []byte, proto *protocol) bool {
	switch strings.ToLower(string(b)) {
	case "tcp":
		*proto = protoTCP
	case "udp":
		*proto = protoUDP
	case "icmp", "icmpv6":
		*proto = protoICMP
	case "all", "-1":
		*proto = protoAll
	default:
		return false
	}
	return true
}

// notCIDR explains a cidr that net/netip cannot parse. A bare address is
// refused rather than read as /32: AWS refuses it too, and guessing would
// hide a typo such as a missing "/16".
func notCIDR(text string) string {
	if addr, err := netip.ParseAddr(text); err == nil && addr.Zone() == "" {
		return fmt.Sprintf("%s is not a CIDR: it has no prefix length (write %q for this one address)",
			quoteShort(text), netip.PrefixFrom(addr, addr.BitLen()).String())
	}
	return quoteShort(text) + " is not a CIDR"
}

// optionalInt reads an optional integer field. has is false when it is not
// given; ok is false (and a problem recorded) when it is not an integer.
func (p *parser) optionalInt(l loc, field string, s span) (n int, has, ok bool) {
	if !s.present() || p.data[s.start] == 'n' {
		return 0, false, true
	}
	raw := p.data[s.start:s.end]
	if n, isInt := parseInt(raw); isInt {
		return n, true, true
	}
	p.problem(l.at(field), "must be an integer, got "+describe(raw))
	return 0, false, false
}

// parseInt reads a JSON number that is an integer (no fraction, no
// exponent: 22.0 is refused, as encoding/json refuses it for an int).
// Values beyond 9 digits are clamped to ±1e9, outside every range we check.
func parseInt(raw []byte) (int, bool) {
	digits := raw
	if raw[0] == '-' {
		digits = raw[1:]
	}
	if !isDigit(raw[0]) && raw[0] != '-' || bytes.ContainsAny(raw, ".eE") {
		return 0, false
	}
	n := 1_000_000_000
	if len(digits) <= 9 {
		n = 0
		for _, d := range digits {
			n = n*10 + int(d-'0')
		}
	}
	if raw[0] == '-' {
		n = -n
	}
	return n, true
}

var suppressFields = []string{"rule", "reason"}

// suppressions reads "suppress": each entry names a rule of the catalogue
// that applies to the resource's type, and the reason it is accepted.
func (p *parser) suppressions(i int, s span, kind string, r *resource) {
	if !p.openArray(i, "suppress", "an array", s) {
		return
	}
	p.objects(i, "suppress", suppressFields, func(l loc, _ int, g []span) {
		id, ruleOK := p.suppressedRule(l, g[0], kind)
		reason, reasonOK := p.suppressReason(l, g[1])
		if ruleOK && reasonOK {
			r.suppress = append(r.suppress, suppression{rule: id, reason: reason})
		}
	})
}

func (p *parser) suppressedRule(l loc, s span, kind string) (ruleID, bool) {
	switch {
	case !s.present() || p.data[s.start] == 'n':
		p.problem(l.at("rule"), "is required")
		return 0, false
	case p.data[s.start] != '"':
		p.problem(l.at("rule"), "must be a string, got "+p.describe(s))
		return 0, false
	}
	name := string(p.stringAt(s))
	id, known := ruleByID(name)
	switch {
	case !known:
		p.problem(l.at("rule"), unknownRule(name, kind))
	case kind != "" && catalogue[id].ResourceType != kind:
		p.problem(l.at("rule"), fmt.Sprintf("rule %s does not apply to %s resources; %s", name, kind, rulesFor(kind)))
	default:
		return id, true
	}
	return 0, false
}

func unknownRule(name, kind string) string {
	msg := "unknown rule " + quoteShort(name)
	for _, r := range catalogue {
		if strings.EqualFold(r.ID, name) {
			return msg + fmt.Sprintf(" (did you mean %q?)", r.ID)
		}
	}
	if kind == "" {
		ids := make([]string, len(catalogue))
		for k, r := range catalogue {
			ids[k] = r.ID
		}
		return msg + "; known rules: " + strings.Join(ids, ", ")
	}
	return msg + "; " + rulesFor(kind)
}

func rulesFor(kind string) string {
	var ids []string
	for _, r := range catalogue {
		if r.ResourceType == kind {
			ids = append(ids, r.ID)
		}
	}
	return "rules for " + kind + ": " + strings.Join(ids, ", ")
}

func (p *parser) suppressReason(l loc, s span) (string, bool) {
	const why = ": say why the finding is accepted"
	switch {
	case !s.present() || p.data[s.start] == 'n':
		p.problem(l.at("reason"), "is required"+why)
	case p.data[s.start] != '"':
		p.problem(l.at("reason"), "must be a string, got "+p.describe(s))
	default:
		reason := string(p.stringAt(s))
		if strings.TrimSpace(reason) != "" {
			return reason, true
		}
		p.problem(l.at("reason"), "must not be empty"+why)
	}
	return "", false
}

// describe names the JSON type of a raw value for messages, with the value
// itself when it is short: `string "yes"`, `number 22.5`, `an object`.
func describe(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		r := reader{data: raw}
		return "string " + quoteShort(string(r.str()))
	case 't', 'f':
		return "boolean " + string(raw)
	case 'n':
		return "null"
	}
	return "number " + shorten(string(raw))
}

// quoteShort quotes s for a message, cut to 40 characters: a message
// should point at the value, not repeat a pasted blob.
func quoteShort(s string) string { return strconv.Quote(shorten(s)) }

func shorten(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for k := range s {
		if n == max {
			return s[:k] + "…"
		}
		n++
	}
	return s
}

// joinAnd joins words as "a, b, c and d".
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
