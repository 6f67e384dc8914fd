package scan

import "strconv"

// Azure databases: SQL (azurerm_mssql_server), PostgreSQL, MySQL and
// MariaDB servers, single and flexible. A server is public when one of
// its firewall rules (linked by server_id or server_name) opens
// 0.0.0.0–255.255.255.255, every IPv4 address, and public network access
// is on: public_network_access_enabled, whose AzureRM default is true
// (public_network_access = "Disabled" on a MySQL flexible server turns it
// off too), and a flexible server with a delegated_subnet_id (private
// access) has none. The rule 0.0.0.0–0.0.0.0 is Azure's "allow Azure
// services", not the internet, and is not reported. The finding is on the
// server and names the rule; a rule whose server is not in the document
// is judged on its own. A rule's addresses unknown until apply are not
// judged; public network access unknown until apply is not taken as off,
// and the finding says so.
//
// Encryption: Azure encrypts these servers' storage always, except that
// an Azure SQL database can turn transparent data encryption off
// (azurerm_mssql_database's transparent_data_encryption_enabled, default
// true): false is DB_UNENCRYPTED on the database.

var (
	azureServer         = family{kind: typeDatabase, read: (*builder).azureServer}
	azureFlexibleServer = family{kind: typeDatabase, read: (*builder).azureServer,
		computed: []string{"public_network_access_enabled", "public_network_access"}}
)

func azureFirewallRule(key string) family {
	return family{kind: typeDatabase, link: []string{key}, read: (*builder).azureServer}
}

func (b *builder) azureServer(r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any) {
	var open *node
	for k, c := range append([]*node{n}, linked...) {
		a := attrs
		if k > 0 {
			a = attrsOf(c)
		}
		start, _ := a["start_ip_address"].(string)
		end, _ := a["end_ip_address"].(string)
		if start == "0.0.0.0" && end == "255.255.255.255" {
			open = c
			break
		}
	}
	if open == nil {
		return
	}
	why := "firewall rule " + open.addr + " allows 0.0.0.0-255.255.255.255 (every IPv4 address)"
	if open == n {
		why += "; its server is not in the document, and the AzureRM provider's default for public_network_access_enabled is true"
	} else {
		state, public := azurePublicAccess(attrs)
		if !public {
			return
		}
		why += state
	}
	var via *Linked
	if open != n {
		via = linkedOf(open)
	}
	r.publiclyAccessible = flag{set: true, on: true, offset: b.next(), why: why, path: open.base + ".end_ip_address", via: via}
}

// azurePublicAccess says whether a server's public network access may be
// on, and why in words: false only when it is known to be off. A value
// unknown until apply is not taken as off (as an unknown S3 access block
// is not taken as blocking). A delegated subnet, even one known only after
// apply, makes a flexible server private.
func azurePublicAccess(attrs map[string]any) (string, bool) {
	if given(attrs, "delegated_subnet_id") {
		return "", false // a flexible server in a virtual network: private access only
	}
	for _, k := range [...]string{"public_network_access", "public_network_access_enabled"} {
		v, ok := attr(attrs, k)
		switch {
		case !ok:
			continue
		case isUnknown(v):
			return "; " + k + " is unknown until apply", true
		case k == "public_network_access":
			s, _ := v.(string)
			return " and public_network_access is " + strconv.Quote(s), s != "Disabled"
		}
		on, known := boolOf(v)
		return " and " + k + " is true", !known || on
	}
	return " and public_network_access_enabled is not set (the AzureRM provider's default is true)", true
}

func (b *builder) azureSQLDatabase(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	r.encrypted, _ = b.flagOf(n, attrs, "transparent_data_encryption_enabled")
}
