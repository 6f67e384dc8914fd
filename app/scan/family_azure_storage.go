package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// Azure Storage. A container (azurerm_storage_container) is open to
// anonymous reads when its container_access_type is "blob" (its blobs)
// or "container" (its blobs and their list) and its storage account lets
// nested items be public: allow_nested_items_to_be_public, whose AzureRM
// default is true (provider 3.0 and later; 2.x called it
// allow_blob_public_access, default false, and a document from it is read
// with that name). The finding is on the container, the resource a person
// makes private, and names the account's setting; a container whose
// account is not in the document is judged on its own access type, with
// the provider's default. An access type unknown until apply is not
// judged; an account setting unknown until apply is not taken as
// forbidding (as an unknown S3 access block is not taken as blocking), and
// the finding says so. Azure Storage always encrypts at rest: S3_UNENCRYPTED
// never fires. The account itself has nothing of its own to report.
//
// Anonymous reads go through the account's firewall like any other: an
// account whose public_network_access_enabled is false, or whose network
// rules (the network_rules block, or an
// azurerm_storage_account_network_rules) deny by default and allow no
// prefix of length 0, is not open to the internet, whatever its
// containers say; a few allowed ranges are not "anyone". A firewall
// setting unknown until apply is not taken as closing the account.

// azureAccount reads nothing: an account's setting is judged on its
// containers, and its storage is always encrypted.
func (*builder) azureAccount(*resource, *node, map[string]any, []*node, func(*node) map[string]any) {}

func (b *builder) azureContainer(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	access, ok := attrs["container_access_type"].(string)
	if !ok || access != "blob" && access != "container" {
		return // private (the default), or unknown until apply
	}
	why := "container_access_type is " + strconv.Quote(access)
	if access == "blob" {
		why += " (blobs read by name; \"container\" lists them too)"
	}
	account := b.g.contexts[n]
	if account != nil && b.azureFirewalled(account) {
		return
	}
	switch {
	case account == nil:
		why += "; its storage account is not in the document, and the AzureRM provider's default for allow_nested_items_to_be_public is true"
	default:
		key := "allow_nested_items_to_be_public"
		v, set := attr(account.attrs, key)
		if !set {
			if old, isOld := attr(account.attrs, "allow_blob_public_access"); isOld {
				key, v, set = "allow_blob_public_access", old, true
			}
		}
		if !set {
			why += " and " + account.addr + " does not set allow_nested_items_to_be_public (the AzureRM provider's default is true)"
			break
		}
		if isUnknown(v) {
			why += "; " + account.addr + "." + key + " is unknown until apply"
			break
		}
		if on, known := boolOf(v); !known || !on {
			return
		}
		why += " and " + account.addr + "." + key + " is true"
	}
	r.publicRead = flag{set: true, on: true, offset: b.next(), why: why, path: n.base + ".container_access_type"}
}

// azureFirewalled says whether a storage account is closed to the
// internet: public network access disabled, or network rules of its own
// or from an azurerm_storage_account_network_rules that deny by default.
func (b *builder) azureFirewalled(account *node) bool {
	if on, known := boolOf(account.attrs["public_network_access_enabled"]); known && !on {
		return true
	}
	if rules := listOf(account.attrs["network_rules"]); len(rules) == 1 && azureDenies(mapOf(rules[0])) {
		return true
	}
	if b.accountRules == nil {
		b.accountRules = map[*node][]*node{}
		for c, acct := range b.g.contexts {
			if c.typ == "azurerm_storage_account_network_rules" && c.skip == "" {
				b.accountRules[acct] = append(b.accountRules[acct], c)
			}
		}
	}
	for _, c := range b.accountRules[account] {
		if azureDenies(c.attrs) {
			return true
		}
	}
	return false
}

// azureDenies says whether network rules deny by default and allow no
// prefix of length 0 (Azure refuses one, but a document may hold it).
func azureDenies(rules map[string]any) bool {
	action, _ := rules["default_action"].(string)
	if !strings.EqualFold(action, "Deny") {
		return false
	}
	for _, ip := range listOf(rules["ip_rules"]) {
		s, _ := ip.(string)
		if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil && p.Bits() == 0 {
			return false
		}
	}
	return true
}
