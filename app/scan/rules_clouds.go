package scan

// The rules are the same on every cloud (the rule names the danger, the
// resource type names the cloud), but a finding on a Google Cloud or Azure
// resource gets that cloud's title, remediation and references: telling
// someone with a public GCS bucket to turn on S3 Block Public Access does
// not help. The catalogue (rules.go) keeps the AWS texts; SARIF's rule
// help lists every cloud's.

// cloudText is a rule's title, remediation and references on one cloud.
type cloudText struct {
	Title, Remediation string
	References         []Reference
}

const (
	cisGCP   = "CIS Google Cloud Platform Foundation Benchmark v2.0.0"
	cisAzure = "CIS Microsoft Azure Foundations Benchmark v2.0.0"
)

// cloudTexts holds the texts of each rule on Google Cloud and Azure (nil
// for AWS: the catalogue's).
var cloudTexts = [...]*[numRules]cloudText{
	cloudGCP: {
		ruleS3PublicRead: {"Cloud Storage bucket is publicly readable",
			"Remove the IAM members allUsers and allAuthenticatedUsers and the public ACL entries from the bucket, turn on " +
				"uniform bucket-level access and set public_access_prevention = \"enforced\". Serve public content through " +
				"Cloud CDN behind a load balancer and suppress this finding with that reason.",
			[]Reference{{cisGCP, "5.1"}, {checkov, "CKV_GCP_28"}, {checkov, "CKV_GCP_114"}, {trivy, "AVD-GCP-0001"}}},
		ruleS3Unencrypted: {"Cloud Storage bucket is not encrypted at rest",
			"Cloud Storage always encrypts at rest; use a customer-managed key (encryption.default_kms_key_name) where policy asks for one.",
			[]Reference{}},
		ruleSGAllPortsOpen: {"Firewall rule allows all ports from the internet",
			"Allow only the ports the service needs (usually 443) and restrict source_ranges to known CIDRs; reach " +
				"instances through a load balancer, Identity-Aware Proxy TCP forwarding or a VPN.",
			[]Reference{{trivy, "AVD-GCP-0027"}}},
		ruleSGAdminPortOpen: {"SSH or RDP open to the internet",
			"Remove 0.0.0.0/0 from the rule and reach instances through Identity-Aware Proxy TCP forwarding " +
				"(source range 35.235.240.0/20) or a VPN; never leave source_ranges empty, which GCP takes as 0.0.0.0/0.",
			[]Reference{{cisGCP, "3.6"}, {cisGCP, "3.7"}, {checkov, "CKV_GCP_2"}, {checkov, "CKV_GCP_3"}, {trivy, "AVD-GCP-0027"}}},
		ruleSGDataPortOpen: {"Database or other sensitive service port open to the internet",
			"Allow the port only from the network tags or service accounts of the applications that use the service, " +
				"and reach it from outside through a VPN or Identity-Aware Proxy.",
			[]Reference{{trivy, "AVD-GCP-0027"}}},
		ruleSGPortOpen: {"Port open to the internet",
			"Check that the service on this port must be public; if not, restrict source_ranges. Prefer publishing " +
				"services through a load balancer on 443.",
			[]Reference{}},
		ruleIAMFullAdmin: {"IAM grants the Owner role",
			"Grant predefined or custom roles that hold only the permissions needed instead of roles/owner; keep Owner " +
				"for a few break-glass accounts and suppress this finding on those with that reason.",
			[]Reference{{cisGCP, "1.5"}, {checkov, "CKV_GCP_115"}, {checkov, "CKV_GCP_116"}, {checkov, "CKV_GCP_117"}, {trivy, "AVD-GCP-0007"}}},
		ruleIAMWildcardAction: {"IAM grants the Editor role",
			"Replace roles/editor with predefined roles for the services the member uses (the IAM recommender " +
				"suggests them from the permissions actually used).",
			[]Reference{{cisGCP, "1.5"}, {checkov, "CKV_GCP_115"}, {checkov, "CKV_GCP_116"}, {checkov, "CKV_GCP_117"}, {trivy, "AVD-GCP-0007"}}},
		ruleIAMServiceWildcard: {"IAM grants every permission of a service",
			"Grant the narrower predefined roles of the service instead.", []Reference{}},
		ruleIAMWildcardResource: {"IAM applies to every resource",
			"Grant the role on the resources the member works on rather than on the whole project.", []Reference{}},
		ruleDBPublic: {"Cloud SQL instance is open to the internet",
			"Remove the authorized network 0.0.0.0/0; connect through the Cloud SQL Auth Proxy or a connector, or " +
				"use private IP (ipv4_enabled = false with a private_network).",
			[]Reference{{cisGCP, "6.5"}, {cisGCP, "6.6"}, {checkov, "CKV_GCP_11"}, {trivy, "AVD-GCP-0017"}}},
		ruleDBUnencrypted: {"Cloud SQL instance is not encrypted at rest",
			"Cloud SQL always encrypts at rest; use a customer-managed key (encryption_key_name) where policy asks for one.",
			[]Reference{}},
	},
	cloudAzure: {
		ruleS3PublicRead: {"Storage container is publicly readable",
			"Set container_access_type = \"private\" and allow_nested_items_to_be_public = false on the storage account; " +
				"share blobs with SAS tokens or through Azure Front Door instead.",
			[]Reference{{cisAzure, "3.7"}, {checkov, "CKV_AZURE_34"}, {checkov, "CKV_AZURE_190"}, {trivy, "AVD-AZU-0007"}}},
		ruleS3Unencrypted: {"Storage account is not encrypted at rest",
			"Azure Storage always encrypts at rest; use customer-managed keys where policy asks for them.",
			[]Reference{}},
		ruleSGAllPortsOpen: {"Network security rule allows all ports from the internet",
			"Allow only the ports the service needs (usually 443) from known address prefixes; reach virtual machines " +
				"through Azure Bastion, a load balancer or a VPN gateway.",
			[]Reference{{trivy, "AVD-AZU-0047"}}},
		ruleSGAdminPortOpen: {"SSH or RDP open to the internet",
			"Remove the rule and reach virtual machines through Azure Bastion or just-in-time VM access; if a rule " +
				"is unavoidable, allow only your office or VPN prefixes.",
			[]Reference{{cisAzure, "6.1"}, {cisAzure, "6.2"}, {checkov, "CKV_AZURE_9"}, {checkov, "CKV_AZURE_10"}, {trivy, "AVD-AZU-0047"}}},
		ruleSGDataPortOpen: {"Database or other sensitive service port open to the internet",
			"Allow the port only from the subnets or application security groups of the applications that use the " +
				"service, and use private endpoints for Azure data services.",
			[]Reference{{cisAzure, "6.3"}, {checkov, "CKV_AZURE_77"}, {trivy, "AVD-AZU-0047"}}},
		ruleSGPortOpen: {"Port open to the internet",
			"Check that the service on this port must be public; if not, restrict the source prefixes. Prefer " +
				"publishing services through Application Gateway or Front Door on 443.",
			[]Reference{}},
		ruleIAMFullAdmin: {"Role grants every action at subscription scope",
			"Give each identity a role with the actions it needs, assigned at the narrowest scope (a resource group or " +
				"a resource); keep Owner for the few identities that need it, activated through Privileged Identity " +
				"Management, and remove custom administrator roles.",
			[]Reference{{cisAzure, "1.23"}, {checkov, "CKV_AZURE_39"}, {trivy, "AVD-AZU-0030"}}},
		ruleIAMWildcardAction: {"Role grants every action, or every authorization action",
			"List the actions a custom role needs instead of \"*\", assign Owner, Contributor and User Access " +
				"Administrator only where needed and at the narrowest scope, and never grant Microsoft.Authorization/* " +
				"to workloads: it lets them assign themselves any role.",
			[]Reference{{checkov, "CKV_AZURE_39"}, {trivy, "AVD-AZU-0030"}}},
		ruleIAMServiceWildcard: {"Custom role grants every action of a resource provider",
			"Replace Provider/* with the actions needed, e.g. Microsoft.Compute/virtualMachines/start/action.",
			[]Reference{{trivy, "AVD-AZU-0030"}}},
		ruleIAMWildcardResource: {"Role applies to every resource",
			"Assign the role at the resource groups or resources it is for.", []Reference{}},
		ruleDBPublic: {"Database server is open to the internet",
			"Remove the firewall rule 0.0.0.0-255.255.255.255, allow only known addresses, and prefer private endpoints " +
				"with public_network_access_enabled = false.",
			[]Reference{{cisAzure, "4.1.2"}, {checkov, "CKV_AZURE_11"}}},
		ruleDBUnencrypted: {"Database is not encrypted at rest",
			"Set transparent_data_encryption_enabled = true (the default) on the database; it encrypts in place, " +
				"with no downtime.",
			[]Reference{{cisAzure, "4.1.5"}}},
	},
}

// textsOf returns a rule's title, remediation and references for a
// finding on a resource of provider type ptype.
func textsOf(rule *Rule, id ruleID, ptype string) (title, remediation string, refs []Reference) {
	if t := cloudTexts[cloudOf(ptype)]; t != nil {
		c := &t[id]
		return c.Title, c.Remediation, c.References
	}
	return rule.Title, rule.Remediation, rule.References
}
