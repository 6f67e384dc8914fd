package scan

import (
	"strconv"
	"strings"
	"testing"
)

// cloudPlan is a plan of resources (tfRes) whose after_unknown, by
// address, marks values unknown until apply.
func cloudPlan(unknown map[string]string, resources ...string) []byte {
	changes := make([]string, 0, len(unknown))
	for addr, u := range unknown {
		changes = append(changes, `{"address":`+strconv.Quote(addr)+`,"mode":"managed","change":{"actions":["create"],"after_unknown":`+u+`}}`)
	}
	return []byte(`{"format_version":"1.2","terraform_version":"1.9.5","planned_values":{"root_module":{"resources":[` +
		strings.Join(resources, ",") + `]}},"resource_changes":[` + strings.Join(changes, ",") + `]}`)
}

// withConfig adds a configuration to a plan: its resources' addresses
// with the attributes the configuration sets (their expressions).
func withConfig(plan []byte, addr string, attrs ...string) []byte {
	ex := make([]string, len(attrs))
	for k, a := range attrs {
		ex[k] = strconv.Quote(a) + `:{"references":[]}`
	}
	return []byte(strings.TrimSuffix(string(plan), "}") + `,"configuration":{"root_module":{"resources":[{"address":` +
		strconv.Quote(addr) + `,"mode":"managed","expressions":{` + strings.Join(ex, ",") + `}}]}}}`)
}

// decision is one case of a table: a document, the findings it must give
// (findingLines) and words each finding's message must hold.
type decision struct {
	name  string
	input []byte
	want  []string
	says  string
}

func runDecisions(t *testing.T, cases []decision) {
	t.Helper()
	for _, c := range cases {
		res := scanAt(t, c.input)
		equalStrings(t, c.name, findingLines(res.Findings), c.want)
		for _, f := range res.Findings {
			if !strings.Contains(f.Message, c.says) {
				t.Errorf("%s: message %q does not say %q", c.name, f.Message, c.says)
			}
		}
	}
}

// TestGCSPublicRead: a bucket IAM grant of a reading role to allUsers or
// allAuthenticatedUsers, or a public ACL, makes the bucket public unless
// it enforces public access prevention; the finding is on the bucket and
// names the grant. Left out, prevention is "inherited" (not enforced) and
// uniform bucket-level access off; unknown values are never taken as
// outweighing, and a grant unknown until apply is never a finding.
func TestGCSPublicRead(t *testing.T) {
	bucket := func(extra string) string {
		return tfRes("google_storage_bucket.b", `{"id":"site","name":"site","location":"EU"`+extra+`}`)
	}
	member := func(role, who string) string {
		return tfRes("google_storage_bucket_iam_member.m", `{"bucket":"b/site","role":"`+role+`","member":"`+who+`"}`)
	}
	const viaMember = "S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_bucket_iam_member.m.member via google_storage_bucket_iam_member.m"
	acl := func(values string) string {
		return tfRes("google_storage_bucket_acl.a", `{"bucket":"site",`+values+`}`)
	}
	const viaACL = "S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_bucket_acl.a"
	runDecisions(t, []decision{
		{"allUsers object viewer, prevention left out", tfState(bucket(""), member("roles/storage.objectViewer", "allUsers")), []string{viaMember}, "allUsers"},
		{"prevention inherited", tfState(bucket(`,"public_access_prevention":"inherited"`), member("roles/storage.objectViewer", "allUsers")), []string{viaMember}, ""},
		{"prevention enforced", tfState(bucket(`,"public_access_prevention":"enforced"`), member("roles/storage.objectViewer", "allUsers")), nil, ""},
		{"prevention unknown until apply is not taken as enforced", cloudPlan(map[string]string{"google_storage_bucket.b": `{"public_access_prevention":true}`},
			bucket(""), member("roles/storage.objectViewer", "allUsers")), []string{viaMember}, "public_access_prevention is unknown until apply"},
		{"prevention computed and left out of the configuration is inherited", withConfig(cloudPlan(map[string]string{"google_storage_bucket.b": `{"public_access_prevention":true}`},
			bucket(""), member("roles/storage.objectViewer", "allUsers")), "google_storage_bucket.b", "name", "location"), []string{viaMember}, "(IAM grants roles/storage.objectViewer to allUsers)"},
		{"allAuthenticatedUsers is anyone with a Google account", tfState(bucket(""),
			tfRes("google_storage_bucket_iam_binding.m", `{"bucket":"b/site","role":"roles/storage.legacyBucketReader","members":["user:a@example.com","allAuthenticatedUsers"]}`)),
			[]string{"S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_bucket_iam_binding.m.members[1] via google_storage_bucket_iam_binding.m"}, "Google account"},
		{"a role that only creates objects reads nothing", tfState(bucket(""), member("roles/storage.objectCreator", "allUsers")), nil, ""},
		{"a custom role's permissions are not in the document", tfState(bucket(""), member("projects/p/roles/reader", "allUsers")), nil, ""},
		{"a member unknown until apply", cloudPlan(map[string]string{"google_storage_bucket_iam_member.m": `{"member":true}`},
			bucket(""), tfRes("google_storage_bucket_iam_member.m", `{"bucket":"site","role":"roles/storage.objectViewer"}`)), nil, ""},
		{"an IAM policy's binding", tfState(bucket(""), tfRes("google_storage_bucket_iam_policy.p", `{"bucket":"b/site","policy_data":`+
			strconv.Quote(`{"bindings":[{"role":"roles/storage.admin","members":["group:ops@example.com"]},{"role":"roles/storage.objectViewer","members":["allUsers"]}]}`)+`}`)),
			[]string{"S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_bucket_iam_policy.p.policy_data.bindings[1] via google_storage_bucket_iam_policy.p"}, ""},
		{"a public predefined ACL", tfState(bucket(""), acl(`"predefined_acl":"publicRead"`)), []string{viaACL + ".predefined_acl via google_storage_bucket_acl.a"}, ""},
		{"a public ACL entry", tfState(bucket(""), acl(`"role_entity":["OWNER:project-owners-1","READER:allUsers"]`)), []string{viaACL + ".role_entity[1] via google_storage_bucket_acl.a"}, ""},
		{"a public default object ACL", tfState(bucket(""), acl(`"default_acl":"publicRead"`)), []string{viaACL + ".default_acl via google_storage_bucket_acl.a"}, "default_acl"},
		{"a public default object ACL entry", tfState(bucket(""), tfRes("google_storage_default_object_acl.d", `{"bucket":"site","role_entity":["READER:allAuthenticatedUsers"]}`)),
			[]string{"S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_default_object_acl.d.role_entity[0] via google_storage_default_object_acl.d"}, "Google account"},
		{"a public default object access control", tfState(bucket(""), tfRes("google_storage_default_object_access_control.d", `{"bucket":"site","role":"READER","entity":"allUsers"}`)),
			[]string{"S3_PUBLIC_READ google_storage_bucket google_storage_bucket.b @ google_storage_default_object_access_control.d.entity via google_storage_default_object_access_control.d"}, "READER to allUsers"},
		{"ACLs do not apply with uniform bucket-level access", tfState(bucket(`,"uniform_bucket_level_access":true`), acl(`"predefined_acl":"publicRead"`)), nil, ""},
		{"prevention outweighs an ACL", tfState(bucket(`,"public_access_prevention":"enforced"`), acl(`"predefined_acl":"publicRead"`)), nil, ""},
		{"a grant whose bucket is not in the document is checked on its own", tfState(member("roles/storage.objectViewer", "allUsers")),
			[]string{"S3_PUBLIC_READ google_storage_bucket_iam_member google_storage_bucket_iam_member.m @ google_storage_bucket_iam_member.m.member"}, ""},
		{"bucket IAM granting Owner", tfState(bucket(""), member("roles/owner", "user:a@example.com")),
			[]string{"IAM_FULL_ADMIN google_storage_bucket google_storage_bucket.b @ google_storage_bucket_iam_member.m.role via google_storage_bucket_iam_member.m"}, `bucket "site"`},
	})
}

// TestAzureContainerPublicRead: a container of access type blob or
// container is public unless its account sets
// allow_nested_items_to_be_public = false (the provider's default is
// true); the finding is on the container.
func TestAzureContainerPublicRead(t *testing.T) {
	account := func(extra string) string {
		return tfRes("azurerm_storage_account.a", `{"id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Storage/storageAccounts/acct","name":"acct"`+extra+`}`)
	}
	container := func(access string) string {
		return tfRes("azurerm_storage_container.c", `{"name":"c","storage_account_name":"acct","container_access_type":"`+access+`"}`)
	}
	const public = "S3_PUBLIC_READ azurerm_storage_container azurerm_storage_container.c @ azurerm_storage_container.c.container_access_type"
	runDecisions(t, []decision{
		{"blob, the account's setting left out", tfState(account(""), container("blob")), []string{public}, "provider's default is true"},
		{"container, the account allows it", tfState(account(`,"allow_nested_items_to_be_public":true`), container("container")), []string{public}, "allow_nested_items_to_be_public is true"},
		{"the account forbids it", tfState(account(`,"allow_nested_items_to_be_public":false`), container("blob")), nil, ""},
		{"the account's setting unknown until apply is not taken as forbidding", cloudPlan(map[string]string{"azurerm_storage_account.a": `{"allow_nested_items_to_be_public":true}`},
			account(""), container("blob")), []string{public}, "allow_nested_items_to_be_public is unknown until apply"},
		{"the access type unknown until apply", cloudPlan(map[string]string{"azurerm_storage_container.c": `{"container_access_type":true}`},
			account(""), tfRes("azurerm_storage_container.c", `{"name":"c","storage_account_name":"acct"}`)), nil, ""},
		{"private", tfState(account(""), container("private")), nil, ""},
		{"access type left out is private", tfState(account(""), tfRes("azurerm_storage_container.c", `{"name":"c","storage_account_name":"acct"}`)), nil, ""},
		{"the account is not in the document", tfState(container("blob")), []string{public}, "not in the document"},
		{"an AzureRM 2.x account that allows it", tfState(account(`,"allow_blob_public_access":true`), container("blob")), []string{public}, "allow_blob_public_access is true"},
		{"an AzureRM 2.x account left at its default (false)", tfState(account(`,"allow_blob_public_access":false`), container("blob")), nil, ""},
		{"linked by the account's id", tfState(account(`,"allow_nested_items_to_be_public":false`), tfRes("azurerm_storage_container.c",
			`{"name":"c","storage_account_name":"","storage_account_id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Storage/storageAccounts/acct","container_access_type":"blob"}`)), nil, ""},
	})
}

// TestGCPFirewall: ingress allow rules from a /0 are graded as AWS ingress
// is; no source at all is GCP's default 0.0.0.0/0, source tags add
// sources without narrowing ranges.
func TestGCPFirewall(t *testing.T) {
	fw := func(values string) []byte {
		return tfState(tfRes("google_compute_firewall.f", `{"name":"f",`+values+`}`))
	}
	open := func(ports string) string {
		return `"source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"tcp","ports":` + ports + `}]`
	}
	at := func(rule string) []string {
		return []string{rule + " google_compute_firewall google_compute_firewall.f @ google_compute_firewall.f.allow[0]"}
	}
	runDecisions(t, []decision{
		{"ssh", fw(open(`["22"]`)), at("SG_ADMIN_PORT_OPEN"), "port 22 (SSH)"},
		{"rdp in a range", fw(open(`["3380-3390"]`)), at("SG_ADMIN_PORT_OPEN"), "3389 (RDP)"},
		{"postgres", fw(open(`["5432"]`)), at("SG_DATA_PORT_OPEN"), "5432"},
		{"another port", fw(open(`["8080"]`)), at("SG_PORT_OPEN"), "8080"},
		{"https only", fw(open(`["443","80"]`)), nil, ""},
		{"every tcp port as a range", fw(open(`["0-65535"]`)), at("SG_ALL_PORTS_OPEN"), "every tcp port"},
		{"no ports is every port of the protocol", fw(open(`[]`)), at("SG_ALL_PORTS_OPEN"), "every tcp port"},
		{"protocol all", fw(`"source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"all"}]`), at("SG_ALL_PORTS_OPEN"), "every protocol"},
		{"memcached over udp", fw(`"source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"udp","ports":["11211"]}]`), at("SG_DATA_PORT_OPEN"), "over udp"},
		{"icmp", fw(`"source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"icmp"}]`), nil, ""},
		{"ipv6", fw(`"source_ranges":["::/0"],"allow":[{"protocol":"tcp","ports":["22"]}]`), at("SG_ADMIN_PORT_OPEN"), "::/0"},
		{"a private range", fw(`"source_ranges":["10.0.0.0/8"],"allow":[{"protocol":"tcp","ports":["22"]}]`), nil, ""},
		{"no source at all is 0.0.0.0/0", fw(`"allow":[{"protocol":"tcp","ports":["22"]}]`), at("SG_ADMIN_PORT_OPEN"), "GCP's default"},
		{"empty sources as a state writes them", fw(`"source_ranges":[],"source_tags":[],"source_service_accounts":[],"allow":[{"protocol":"tcp","ports":["22"]}]`),
			at("SG_ADMIN_PORT_OPEN"), "GCP's default"},
		{"source tags only", fw(`"source_tags":["bastion"],"allow":[{"protocol":"tcp","ports":["22"]}]`), nil, ""},
		{"source service accounts only", fw(`"source_service_accounts":["sa@p.iam.gserviceaccount.com"],"allow":[{"protocol":"tcp","ports":["22"]}]`), nil, ""},
		{"source tags do not narrow ranges", fw(`"source_tags":["bastion"],` + open(`["22"]`)), at("SG_ADMIN_PORT_OPEN"), ""},
		{"egress", fw(`"direction":"EGRESS",` + open(`["22"]`)), nil, ""},
		{"ingress in any case", fw(`"direction":"ingress",` + open(`["22"]`)), at("SG_ADMIN_PORT_OPEN"), ""},
		{"disabled", fw(`"disabled":true,` + open(`["22"]`)), nil, ""},
		{"a deny opens nothing", fw(`"source_ranges":["0.0.0.0/0"],"deny":[{"protocol":"all"}]`), nil, ""},
		{"disabled unknown until apply is not taken as disabled", cloudPlan(map[string]string{"google_compute_firewall.f": `{"disabled":true}`},
			tfRes("google_compute_firewall.f", `{"name":"f",`+open(`["22"]`)+`}`)), at("SG_ADMIN_PORT_OPEN"), "disabled is unknown until apply"},
		{"direction unknown until apply", cloudPlan(map[string]string{"google_compute_firewall.f": `{"direction":true}`},
			tfRes("google_compute_firewall.f", `{"name":"f",`+open(`["22"]`)+`}`)), nil, ""},
		{"a port unknown until apply", cloudPlan(map[string]string{"google_compute_firewall.f": `{"allow":[{"ports":[true]}]}`},
			tfRes("google_compute_firewall.f", `{"name":"f","source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"tcp"}]}`)), nil, ""},
		{"ranges unknown until apply", cloudPlan(map[string]string{"google_compute_firewall.f": `{"source_ranges":true}`},
			tfRes("google_compute_firewall.f", `{"name":"f","allow":[{"protocol":"tcp","ports":["22"]}]}`)), nil, ""},
		{"sources computed and left out of the configuration: GCP's default", withConfig(cloudPlan(map[string]string{"google_compute_firewall.f": `{"source_ranges":true}`},
			tfRes("google_compute_firewall.f", `{"name":"f","allow":[{"protocol":"tcp","ports":["22"]}]}`)), "google_compute_firewall.f", "name", "allow"),
			at("SG_ADMIN_PORT_OPEN"), "GCP's default"},
		{"tags unknown until apply: whether the default applies is unknown", cloudPlan(map[string]string{"google_compute_firewall.f": `{"source_tags":true}`},
			tfRes("google_compute_firewall.f", `{"name":"f","allow":[{"protocol":"tcp","ports":["22"]}]}`)), nil, ""},
	})
}

// TestAzureSecurityRules: Inbound Allow rules from "*", Internet, Any or a
// /0, inline or separate, each judged alone (priorities are not
// evaluated), graded as AWS ingress is.
func TestAzureSecurityRules(t *testing.T) {
	rule := func(direction, access, proto, src, port string) string {
		return `{"name":"r","priority":100,"direction":"` + direction + `","access":"` + access + `","protocol":"` + proto +
			`","source_address_prefix":"` + src + `","source_address_prefixes":[],"destination_port_range":"` + port + `","destination_port_ranges":[]}`
	}
	nsg := func(rules ...string) []byte {
		return tfState(tfRes("azurerm_network_security_group.g", `{"name":"g","security_rule":[`+strings.Join(rules, ",")+`]}`))
	}
	at := func(rule string, i int) string {
		return rule + " azurerm_network_security_group azurerm_network_security_group.g @ azurerm_network_security_group.g.security_rule[" + strconv.Itoa(i) + "]"
	}
	runDecisions(t, []decision{
		{"ssh from *", nsg(rule("Inbound", "Allow", "Tcp", "*", "22")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, `"*"`},
		{"ssh from Internet", nsg(rule("Inbound", "Allow", "Tcp", "Internet", "22")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, "Internet"},
		{"tags in any case", nsg(rule("Inbound", "Allow", "Tcp", "internet", "22")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, ""},
		{"ssh from Any", nsg(rule("Inbound", "Allow", "Tcp", "Any", "22")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, "Any"},
		{"ssh from 0.0.0.0/0", nsg(rule("Inbound", "Allow", "Tcp", "0.0.0.0/0", "22")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, "0.0.0.0/0"},
		{"from the virtual network", nsg(rule("Inbound", "Allow", "Tcp", "VirtualNetwork", "22")), nil, ""},
		{"from a private prefix", nsg(rule("Inbound", "Allow", "Tcp", "10.0.0.0/8", "22")), nil, ""},
		{"deny", nsg(rule("Inbound", "Deny", "Tcp", "*", "22")), nil, ""},
		{"outbound", nsg(rule("Outbound", "Allow", "*", "*", "*")), nil, ""},
		{"every protocol and port", nsg(rule("Inbound", "Allow", "*", "*", "*")), []string{at("SG_ALL_PORTS_OPEN", 0)}, "every protocol and port"},
		{"every tcp port", nsg(rule("Inbound", "Allow", "Tcp", "*", "*")), []string{at("SG_ALL_PORTS_OPEN", 0)}, "every tcp port"},
		{"protocol * on one port is graded as tcp", nsg(rule("Inbound", "Allow", "*", "*", "3389")), []string{at("SG_ADMIN_PORT_OPEN", 0)}, "3389 (RDP)"},
		{"icmp", nsg(rule("Inbound", "Allow", "Icmp", "*", "*")), nil, ""},
		{"a higher-priority deny does not hide an allow", nsg(rule("Inbound", "Deny", "Tcp", "*", "22"), rule("Inbound", "Allow", "Tcp", "*", "22")),
			[]string{at("SG_ADMIN_PORT_OPEN", 1)}, ""},
		{"port and source lists", nsg(`{"name":"r","direction":"Inbound","access":"Allow","protocol":"Tcp","source_address_prefix":"",` +
			`"source_address_prefixes":["203.0.113.0/24","0.0.0.0/0"],"destination_port_range":"","destination_port_ranges":["22","5432","9000-9001"]}`),
			[]string{at("SG_ADMIN_PORT_OPEN", 0), at("SG_DATA_PORT_OPEN", 0), at("SG_PORT_OPEN", 0)}, "0.0.0.0/0"},
		{"a separate rule lands on its group", tfState(tfRes("azurerm_network_security_group.g", `{"name":"g","security_rule":[]}`),
			tfRes("azurerm_network_security_rule.r", strings.Replace(rule("Inbound", "Allow", "Tcp", "Internet", "1433"), `{`, `{"network_security_group_name":"g",`, 1))),
			[]string{"SG_DATA_PORT_OPEN azurerm_network_security_group azurerm_network_security_group.g @ azurerm_network_security_rule.r via azurerm_network_security_rule.r"}, "1433"},
		{"a separate rule whose group is not in the document", tfState(tfRes("azurerm_network_security_rule.r",
			strings.Replace(rule("Inbound", "Allow", "Tcp", "*", "22"), `{`, `{"network_security_group_name":"elsewhere",`, 1))),
			[]string{"SG_ADMIN_PORT_OPEN azurerm_network_security_rule azurerm_network_security_rule.r @ azurerm_network_security_rule.r"}, ""},
		{"a source unknown until apply", cloudPlan(map[string]string{"azurerm_network_security_rule.r": `{"source_address_prefix":true}`},
			tfRes("azurerm_network_security_rule.r", `{"direction":"Inbound","access":"Allow","protocol":"Tcp","destination_port_range":"22"}`)), nil, ""},
	})
}

// TestGCPRoles: roles/owner is IAM_FULL_ADMIN and roles/editor
// IAM_WILDCARD_ACTION, on a project, folder or organization, whichever
// resource grants it.
func TestGCPRoles(t *testing.T) {
	runDecisions(t, []decision{
		{"project owner", tfState(tfRes("google_project_iam_member.m", `{"project":"p","role":"roles/owner","member":"user:a@example.com"}`)),
			[]string{"IAM_FULL_ADMIN google_project_iam_member google_project_iam_member.m @ google_project_iam_member.m.role"}, `project "p" to user:a@example.com`},
		{"project editors", tfState(tfRes("google_project_iam_binding.b", `{"project":"p","role":"roles/editor","members":["group:a@example.com","user:b@example.com"]}`)),
			[]string{"IAM_WILDCARD_ACTION google_project_iam_binding google_project_iam_binding.b @ google_project_iam_binding.b.role"}, "group:a@example.com and user:b@example.com"},
		{"project viewer", tfState(tfRes("google_project_iam_member.m", `{"project":"p","role":"roles/viewer","member":"user:a@example.com"}`)), nil, ""},
		{"folder owner", tfState(tfRes("google_folder_iam_binding.b", `{"folder":"folders/1","role":"roles/owner","members":["user:a@example.com"]}`)),
			[]string{"IAM_FULL_ADMIN google_folder_iam_binding google_folder_iam_binding.b @ google_folder_iam_binding.b.role"}, `folder "folders/1"`},
		{"organization policy", tfState(tfRes("google_organization_iam_policy.p", `{"org_id":"1","policy_data":`+
			strconv.Quote(`{"bindings":[{"role":"roles/browser","members":["domain:example.com"]},{"role":"roles/editor","members":["group:ops@example.com"]}]}`)+`}`)),
			[]string{"IAM_WILDCARD_ACTION google_organization_iam_policy google_organization_iam_policy.p @ google_organization_iam_policy.p.policy_data.bindings[1]"}, `organization "1"`},
		{"a role unknown until apply", cloudPlan(map[string]string{"google_project_iam_member.m": `{"role":true}`},
			tfRes("google_project_iam_member.m", `{"project":"p","member":"user:a@example.com"}`)), nil, ""},
	})
}

// TestAzureRoleDefinitions: actions "*" assignable at a subscription,
// management group or "/" is IAM_FULL_ADMIN; at a narrower or unknown
// scope, or with not_actions, IAM_WILDCARD_ACTION;
// Microsoft.Authorization/* IAM_WILDCARD_ACTION; another provider's
// wildcard IAM_SERVICE_WILDCARD.
func TestAzureRoleDefinitions(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000000"
	def := func(scope, assignable, actions, not string) []byte {
		v := `{"name":"r","scope":"` + scope + `","permissions":[{"actions":` + actions + `,"not_actions":` + not + `}]`
		if assignable != "" {
			v += `,"assignable_scopes":` + assignable
		}
		return tfState(tfRes("azurerm_role_definition.r", v+`}`))
	}
	at := func(rule string, j int) []string {
		return []string{rule + " azurerm_role_definition azurerm_role_definition.r @ azurerm_role_definition.r.permissions[0].actions[" + strconv.Itoa(j) + "]"}
	}
	computedScopes := cloudPlan(map[string]string{"azurerm_role_definition.r": `{"assignable_scopes":true}`},
		tfRes("azurerm_role_definition.r", `{"name":"r","scope":"`+sub+`","permissions":[{"actions":["*"],"not_actions":[]}]}`))
	runDecisions(t, []decision{
		{"* at a subscription", def(sub, "", `["*"]`, `[]`), at("IAM_FULL_ADMIN", 0), sub},
		{"* at the root", def("/", "", `["*"]`, `[]`), at("IAM_FULL_ADMIN", 0), `"/"`},
		{"* at a management group", def("/providers/Microsoft.Management/managementGroups/acme", "", `["*"]`, `[]`), at("IAM_FULL_ADMIN", 0), ""},
		{"* assignable at a subscription", def(sub+"/resourceGroups/rg", `["`+sub+`"]`, `["*"]`, `[]`), at("IAM_FULL_ADMIN", 0), ""},
		{"* at a resource group", def(sub+"/resourceGroups/rg", "", `["*"]`, `[]`), at("IAM_WILDCARD_ACTION", 0), "resourceGroups/rg"},
		{"* assignable only at a resource group", def(sub, `["`+sub+`/resourceGroups/rg"]`, `["*"]`, `[]`), at("IAM_WILDCARD_ACTION", 0), ""},
		{"* with not_actions", def(sub, "", `["*"]`, `["Microsoft.Authorization/*/Write"]`), at("IAM_WILDCARD_ACTION", 0), "not_actions"},
		{"* at a scope unknown until apply", cloudPlan(map[string]string{"azurerm_role_definition.r": `{"scope":true,"assignable_scopes":true}`},
			tfRes("azurerm_role_definition.r", `{"name":"r","permissions":[{"actions":["*"],"not_actions":[]}]}`)), at("IAM_WILDCARD_ACTION", 0), "unknown until apply"},
		{"assignable scopes left out of the configuration: the scope decides", withConfig(computedScopes, "azurerm_role_definition.r", "name", "scope", "permissions"),
			at("IAM_FULL_ADMIN", 0), ""},
		{"assignable scopes unknown, and no configuration to say they were left out", computedScopes, at("IAM_WILDCARD_ACTION", 0), "unknown until apply"},
		{"assignable scopes set from a value unknown until apply", withConfig(computedScopes, "azurerm_role_definition.r", "name", "scope", "assignable_scopes"),
			at("IAM_WILDCARD_ACTION", 0), "unknown until apply"},
		{"every authorization action", def(sub, "", `["Microsoft.Resources/subscriptions/read","Microsoft.Authorization/*"]`, `[]`), at("IAM_WILDCARD_ACTION", 1), "assigning any role"},
		{"a provider wildcard", def(sub, "", `["Microsoft.Compute/*"]`, `[]`), at("IAM_SERVICE_WILDCARD", 0), "Microsoft.Compute"},
		{"a resource type wildcard", def(sub, "", `["Microsoft.Storage/storageAccounts/*"]`, `[]`), nil, ""},
		{"read everything", def(sub, "", `["*/read"]`, `[]`), nil, ""},
	})
}

// TestAzureRoleAssignments: assigning a built-in role that hands out
// administrator access is judged as a definition with that role's actions
// at the assignment's scope: Owner at a subscription is IAM_FULL_ADMIN,
// Owner lower down, Contributor (every action but authorization's) and
// User Access Administrator (every authorization action) are
// IAM_WILDCARD_ACTION; other built-in roles are not reported.
func TestAzureRoleAssignments(t *testing.T) {
	const sub = "/subscriptions/00000000-0000-0000-0000-000000000000"
	assign := func(scope, role string) []byte {
		return tfState(tfRes("azurerm_role_assignment.a", `{"scope":"`+scope+`",`+role+`,"principal_id":"p"}`))
	}
	at := func(rule, key string) []string {
		return []string{rule + " azurerm_role_assignment azurerm_role_assignment.a @ azurerm_role_assignment.a." + key}
	}
	runDecisions(t, []decision{
		{"Owner at a subscription", assign(sub, `"role_definition_name":"Owner"`), at("IAM_FULL_ADMIN", "role_definition_name"), "built-in role Owner"},
		{"Owner by id", assign(sub, `"role_definition_id":"`+sub+`/providers/Microsoft.Authorization/roleDefinitions/8e3af657-a8ff-443c-a75c-2fe8c4bcb635"`),
			at("IAM_FULL_ADMIN", "role_definition_id"), sub},
		{"Owner at a resource group", assign(sub+"/resourceGroups/rg", `"role_definition_name":"Owner"`), at("IAM_WILDCARD_ACTION", "role_definition_name"), "resourceGroups/rg"},
		{"Contributor", assign(sub, `"role_definition_name":"Contributor"`), at("IAM_WILDCARD_ACTION", "role_definition_name"), "not_actions"},
		{"User Access Administrator", assign(sub, `"role_definition_name":"User Access Administrator"`), at("IAM_WILDCARD_ACTION", "role_definition_name"), "assigning any role"},
		{"Reader", assign(sub, `"role_definition_name":"Reader"`), nil, ""},
		{"a custom role", assign(sub, `"role_definition_id":"`+sub+`/providers/Microsoft.Authorization/roleDefinitions/11111111-2222-3333-4444-555555555555"`), nil, ""},
	})
}

// TestCloudSQLPublic: an authorized network of prefix length 0 with a
// public IPv4 address (the default) is DB_PUBLIC; never DB_UNENCRYPTED.
func TestCloudSQLPublic(t *testing.T) {
	instance := func(ipConfig string) []byte {
		return tfState(tfRes("google_sql_database_instance.d", `{"name":"d","database_version":"POSTGRES_16","settings":[{"tier":"db-f1-micro","ip_configuration":[`+ipConfig+`]}]}`))
	}
	public := []string{"DB_PUBLIC google_sql_database_instance google_sql_database_instance.d @ google_sql_database_instance.d.settings[0].ip_configuration[0].authorized_networks[0]"}
	runDecisions(t, []decision{
		{"ipv4 left out (default true)", instance(`{"authorized_networks":[{"value":"0.0.0.0/0"}]}`), public, "default is true"},
		{"ipv4 on", instance(`{"ipv4_enabled":true,"authorized_networks":[{"value":"0.0.0.0/0"}]}`), public, "ipv4_enabled is true"},
		{"ipv4 off", instance(`{"ipv4_enabled":false,"authorized_networks":[{"value":"0.0.0.0/0"}]}`), nil, ""},
		{"an office network", instance(`{"authorized_networks":[{"value":"203.0.113.0/24"}]}`), nil, ""},
		{"a public IP without networks", instance(`{"ipv4_enabled":true,"authorized_networks":[]}`), nil, ""},
		{"no ip_configuration", tfState(tfRes("google_sql_database_instance.d", `{"name":"d","settings":[{"tier":"db-f1-micro"}]}`)), nil, ""},
		{"ipv4 unknown until apply", cloudPlan(map[string]string{"google_sql_database_instance.d": `{"settings":[{"ip_configuration":[{"ipv4_enabled":true}]}]}`},
			tfRes("google_sql_database_instance.d", `{"name":"d","settings":[{"ip_configuration":[{"authorized_networks":[{"value":"0.0.0.0/0"}]}]}]}`)), nil, ""},
		{"a network unknown until apply", cloudPlan(map[string]string{"google_sql_database_instance.d": `{"settings":[{"ip_configuration":[{"authorized_networks":[{"value":true}]}]}]}`},
			tfRes("google_sql_database_instance.d", `{"name":"d","settings":[{"ip_configuration":[{"authorized_networks":[{"name":"n"}]}]}]}`)), nil, ""},
	})
}

// TestAzureDatabases: a firewall rule 0.0.0.0-255.255.255.255 makes its
// server DB_PUBLIC unless public network access is off (0.0.0.0-0.0.0.0
// is Azure services, not the internet); transparent data encryption off
// is DB_UNENCRYPTED.
func TestAzureDatabases(t *testing.T) {
	server := func(extra string) string {
		return tfRes("azurerm_mssql_server.s", `{"id":"/subscriptions/x/resourceGroups/r/providers/Microsoft.Sql/servers/s","name":"s","version":"12.0"`+extra+`}`)
	}
	rule := func(start, end string) string {
		return tfRes("azurerm_mssql_firewall_rule.f", `{"name":"f","server_id":"/subscriptions/x/resourceGroups/r/providers/Microsoft.Sql/servers/s","start_ip_address":"`+
			start+`","end_ip_address":"`+end+`"}`)
	}
	public := []string{"DB_PUBLIC azurerm_mssql_server azurerm_mssql_server.s @ azurerm_mssql_firewall_rule.f.end_ip_address via azurerm_mssql_firewall_rule.f"}
	flex := func(typ, extra string) string {
		return tfRes(typ+".s", `{"id":"/subscriptions/x/flex/s","name":"flex"`+extra+`}`)
	}
	flexRule := func(typ string) string {
		return tfRes(typ+".f", `{"name":"f","server_name":"flex","server_id":"/subscriptions/x/flex/s","start_ip_address":"0.0.0.0","end_ip_address":"255.255.255.255"}`)
	}
	runDecisions(t, []decision{
		{"public network access left out (default true)", tfState(server(""), rule("0.0.0.0", "255.255.255.255")), public, "provider's default is true"},
		{"public network access on", tfState(server(`,"public_network_access_enabled":true`), rule("0.0.0.0", "255.255.255.255")), public, ""},
		{"public network access off", tfState(server(`,"public_network_access_enabled":false`), rule("0.0.0.0", "255.255.255.255")), nil, ""},
		{"public network access unknown until apply is not taken as off", cloudPlan(map[string]string{"azurerm_mssql_server.s": `{"public_network_access_enabled":true}`},
			server(""), rule("0.0.0.0", "255.255.255.255")), public, "public_network_access_enabled is unknown until apply"},
		{"the rule's end address unknown until apply", cloudPlan(map[string]string{"azurerm_mssql_firewall_rule.f": `{"end_ip_address":true}`},
			server(""), tfRes("azurerm_mssql_firewall_rule.f", `{"name":"f","server_id":"/subscriptions/x/resourceGroups/r/providers/Microsoft.Sql/servers/s","start_ip_address":"0.0.0.0"}`)), nil, ""},
		{"a delegated subnet known only after apply is still private access", cloudPlan(map[string]string{"azurerm_postgresql_flexible_server.s": `{"delegated_subnet_id":true}`},
			flex("azurerm_postgresql_flexible_server", ""), flexRule("azurerm_postgresql_flexible_server_firewall_rule")), nil, ""},
		{"Azure services only", tfState(server(""), rule("0.0.0.0", "0.0.0.0")), nil, ""},
		{"one address", tfState(server(""), rule("203.0.113.7", "203.0.113.7")), nil, ""},
		{"a rule whose server is not in the document", tfState(rule("0.0.0.0", "255.255.255.255")),
			[]string{"DB_PUBLIC azurerm_mssql_firewall_rule azurerm_mssql_firewall_rule.f @ azurerm_mssql_firewall_rule.f.end_ip_address"}, "not in the document"},
		{"a PostgreSQL flexible server", tfState(flex("azurerm_postgresql_flexible_server", ""), flexRule("azurerm_postgresql_flexible_server_firewall_rule")),
			[]string{"DB_PUBLIC azurerm_postgresql_flexible_server azurerm_postgresql_flexible_server.s @ azurerm_postgresql_flexible_server_firewall_rule.f.end_ip_address via azurerm_postgresql_flexible_server_firewall_rule.f"}, ""},
		{"a flexible server in a delegated subnet has no public access", tfState(flex("azurerm_postgresql_flexible_server", `,"delegated_subnet_id":"/subscriptions/x/subnets/db"`),
			flexRule("azurerm_postgresql_flexible_server_firewall_rule")), nil, ""},
		{"a MySQL flexible server with public access Disabled", tfState(flex("azurerm_mysql_flexible_server", `,"public_network_access":"Disabled"`),
			flexRule("azurerm_mysql_flexible_server_firewall_rule")), nil, ""},
		{"transparent data encryption off", tfState(tfRes("azurerm_mssql_database.d", `{"name":"d","transparent_data_encryption_enabled":false}`)),
			[]string{"DB_UNENCRYPTED azurerm_mssql_database azurerm_mssql_database.d @ azurerm_mssql_database.d.transparent_data_encryption_enabled"}, "transparent_data_encryption_enabled is false"},
		{"transparent data encryption left out (default on)", tfState(tfRes("azurerm_mssql_database.d", `{"name":"d"}`)), nil, ""},
		{"servers are always encrypted", tfState(server(`,"public_network_access_enabled":false`), flex("azurerm_postgresql_flexible_server", "")), nil, ""},
	})
}

// TestCloudFindingTexts: a finding on a Google Cloud or Azure resource
// has that cloud's title, remediation and references; AWS keeps the
// catalogue's.
func TestCloudFindingTexts(t *testing.T) {
	res := scanAt(t, tfState(
		tfRes("google_compute_firewall.f", `{"name":"f","source_ranges":["0.0.0.0/0"],"allow":[{"protocol":"tcp","ports":["22"]}]}`),
		tfRes("aws_security_group.g", `{"name":"g","ingress":[{"cidr_blocks":["0.0.0.0/0"],"from_port":22,"to_port":22,"protocol":"tcp"}]}`)))
	if len(res.Findings) != 2 {
		t.Fatalf("findings %v", findingLines(res.Findings))
	}
	gcp, aws := res.Findings[0], res.Findings[1]
	if !strings.Contains(gcp.Remediation, "Identity-Aware Proxy") || gcp.References[0].Source != cisGCP || gcp.References[0].ID != "3.6" {
		t.Errorf("gcp finding: %q %v", gcp.Remediation, gcp.References)
	}
	if r := catalogue[ruleSGAdminPortOpen]; aws.Remediation != r.Remediation || aws.Title != r.Title || aws.References[0] != r.References[0] {
		t.Errorf("aws finding: %q %v", aws.Remediation, aws.References)
	}
}

// TestLinksStayInTheirCloud: an S3 bucket and a GCS bucket of the same
// name, in one state, each get their own cloud's ACL or grant; the AWS
// account's public access block does not reach the GCS bucket.
func TestLinksStayInTheirCloud(t *testing.T) {
	res := scanAt(t, tfState(
		tfRes("aws_s3_bucket.s", `{"id":"shared","bucket":"shared"}`),
		tfRes("google_storage_bucket.g", `{"id":"shared","name":"shared"}`),
		tfRes("aws_s3_bucket_acl.a", `{"bucket":"shared","acl":"public-read"}`),
		tfRes("google_storage_bucket_iam_member.m", `{"bucket":"b/shared","role":"roles/storage.objectViewer","member":"allUsers"}`),
		tfRes("aws_s3_account_public_access_block.acct", `{"block_public_acls":true,"ignore_public_acls":true}`)))
	equalStrings(t, "findings", findingLines(res.Findings), []string{
		"S3_PUBLIC_READ google_storage_bucket google_storage_bucket.g @ google_storage_bucket_iam_member.m.member via google_storage_bucket_iam_member.m",
	})
}
