package scan

// The Google Cloud and Azure types the scanner reads, with the families
// their rules belong to; how each is read is in the family_gcs.go,
// family_gcp_*.go and family_azure_*.go files named for it.

var gcpFamilies = map[string]family{
	"google_storage_bucket": {kind: typeS3Bucket, read: (*builder).gcsBucket,
		computed: []string{"public_access_prevention", "uniform_bucket_level_access"}},
	"google_storage_bucket_iam_member":             gcsLinked,
	"google_storage_bucket_iam_binding":            gcsLinked,
	"google_storage_bucket_iam_policy":             gcsLinked,
	"google_storage_bucket_acl":                    gcsLinked,
	"google_storage_bucket_access_control":         gcsLinked,
	"google_storage_default_object_acl":            gcsLinked,
	"google_storage_default_object_access_control": gcsLinked,

	"google_compute_firewall": {kind: typeSecurityGroup, read: (*builder).gcpFirewall,
		computed: []string{"source_ranges", "source_tags", "source_service_accounts"}},

	"google_project_iam_member":       gcpIAM,
	"google_project_iam_binding":      gcpIAM,
	"google_project_iam_policy":       gcpIAM,
	"google_folder_iam_member":        gcpIAM,
	"google_folder_iam_binding":       gcpIAM,
	"google_folder_iam_policy":        gcpIAM,
	"google_organization_iam_member":  gcpIAM,
	"google_organization_iam_binding": gcpIAM,
	"google_organization_iam_policy":  gcpIAM,

	"google_sql_database_instance": {kind: typeDatabase, read: (*builder).cloudSQL},
}

var azureFamilies = map[string]family{
	"azurerm_storage_account": {kind: typeS3Bucket, read: (*builder).azureAccount},
	"azurerm_storage_container": {kind: typeS3Bucket, read: (*builder).azureContainer,
		ctxAttrs: []string{"storage_account_id", "storage_account_name"}, ctxType: "azurerm_storage_account"},
	"azurerm_storage_account_network_rules": {kind: typeS3Bucket, read: (*builder).azureAccount,
		ctxAttrs: []string{"storage_account_id"}, ctxType: "azurerm_storage_account"},

	"azurerm_network_security_group": {kind: typeSecurityGroup, read: (*builder).azureNSG},
	"azurerm_network_security_rule": {kind: typeSecurityGroup, read: (*builder).azureNSG,
		link: []string{"network_security_group_name"}},

	"azurerm_role_definition": {kind: typeIAMPolicy, read: (*builder).azureRoleDefinition, computed: []string{"assignable_scopes"}},
	"azurerm_role_assignment": {kind: typeIAMPolicy, read: (*builder).azureRoleAssignment},

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
