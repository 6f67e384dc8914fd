package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// Cloud SQL (google_sql_database_instance). An instance is public when it
// has a public IPv4 address (settings.ip_configuration.ipv4_enabled, the
// Google provider's default true) and an authorized network of prefix
// length 0: anyone on the internet may then connect to it. A public IP
// without such a network is reachable only through the Cloud SQL Auth
// Proxy and connectors, with IAM credentials, and is not reported. An
// ipv4_enabled or network value unknown until apply is not judged. Cloud
// SQL always encrypts at rest: DB_UNENCRYPTED never fires.

func (b *builder) cloudSQL(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	settings := listOf(attrs["settings"])
	if len(settings) == 0 {
		return
	}
	ipc := listOf(mapOf(settings[0])["ip_configuration"])
	if len(ipc) == 0 {
		return // no authorized network: nothing is open to the internet
	}
	ip := mapOf(ipc[0])
	const at = "settings[0].ip_configuration[0]."
	ipv4 := "ipv4_enabled is not set (the Google provider's default is true: a public IPv4 address)"
	switch v, ok := attr(ip, "ipv4_enabled"); {
	case !ok:
	case isUnknown(v):
		return
	default:
		if on, known := boolOf(v); !known || !on {
			return
		}
		ipv4 = "ipv4_enabled is true"
	}
	for j, nw := range listOf(ip["authorized_networks"]) {
		s, ok := mapOf(nw)["value"].(string)
		if !ok {
			continue
		}
		if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil && p.Bits() == 0 {
			path := n.base + "." + at + "authorized_networks[" + strconv.Itoa(j) + "]"
			r.publiclyAccessible = flag{set: true, on: true, offset: b.next(), path: path,
				why: "authorized network " + strconv.Quote(s) + " lets every address connect, and " + ipv4}
			return
		}
	}
}
