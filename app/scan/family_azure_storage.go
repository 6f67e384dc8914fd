package scan

import "strconv"

// Azure Storage. A container (azurerm_storage_container) is open to
// anonymous reads when its container_access_type is "blob" (its blobs)
// or "container" (its blobs and their list) and its storage account lets
// nested items be public: allow_nested_items_to_be_public, whose AzureRM
// default is true (provider 3.0 and later; 2.x called it
// allow_blob_public_access, default false, and a document from it is read
// with that name). The finding is on the container, the resource a person
// makes private, and names the account's setting; a container whose
// account is not in the document is judged on its own access type, with
// the provider's default. An access type or setting unknown until apply
// is not judged. Azure Storage always encrypts at rest: S3_UNENCRYPTED
// never fires. The account itself has nothing of its own to report.

var azureFamilies = map[string]family{
	"azurerm_storage_account": {kind: typeS3Bucket, read: func(*builder, *resource, *node, map[string]any, []*node, func(*node) map[string]any) {}},
	"azurerm_storage_container": {kind: typeS3Bucket, read: (*builder).azureContainer,
		ctxAttrs: []string{"storage_account_id", "storage_account_name"}, ctxType: "azurerm_storage_account"},

	"azurerm_network_security_group": {kind: typeSecurityGroup, read: (*builder).azureNSG},
	"azurerm_network_security_rule": {kind: typeSecurityGroup, read: (*builder).azureNSG,
		link: []string{"network_security_group_name"}},

	"azurerm_role_definition": {kind: typeIAMPolicy, read: (*builder).azureRoleDefinition, computed: []string{"assignable_scopes"}},

	"azurerm_mssql_server":                             azureServer,
	"azurerm_postgresql_server":                        azureServer,
	"azurerm_mysql_server":                             azureServer,
	"azurerm_mariadb_server":                           azureServer,
	"azurerm_postgresql_flexible_server":               azureFlexibleServer,
	"azurerm_mysql_flexible_server":                    azureFlexibleServer,
	"azurerm_mssql_firewall_rule":                      azureFirewallRule("server_id"),
	"azurerm_postgresql_flexible_server_firewall_rule": azureFirewallRule("server_id"),
	"azurerm_postgresql_firewall_rule":                 azureFirewallRule("server_name"),
	"azurerm_mysql_firewall_rule":                      azureFirewallRule("server_name"),
	"azurerm_mariadb_firewall_rule":                    azureFirewallRule("server_name"),
	"azurerm_mysql_flexible_server_firewall_rule":      azureFirewallRule("server_name"),
	"azurerm_mssql_database":                           {kind: typeDatabase, read: (*builder).azureSQLDatabase},
}

func (b *builder) azureContainer(r *resource, n *node, attrs map[string]any, _ []*node, _ func(*node) map[string]any) {
	access, ok := attrs["container_access_type"].(string)
	if !ok || access != "blob" && access != "container" {
		return // private (the default), or unknown until apply
	}
	why := "container_access_type is " + strconv.Quote(access)
	if access == "blob" {
		why += " (blobs read by name; \"container\" lists them too)"
	}
	account := n.context
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
		on, known := boolOf(v)
		if !known || !on {
			return
		}
		why += " and " + account.addr + "." + key + " is true"
	}
	r.publicRead = flag{set: true, on: true, offset: b.next(), why: why, path: n.base + ".container_access_type"}
}
