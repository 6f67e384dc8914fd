package scan

import "slices"

// Severity ranks how urgently a finding needs fixing.
type Severity string

const (
	Critical Severity = "critical"
	High     Severity = "high"
	Medium   Severity = "medium"
	Low      Severity = "low"
)

// severities lists every severity, most urgent first.
var severities = [...]Severity{Critical, High, Medium, Low}

// rank orders severities for sorting: critical first, anything unknown
// last with low.
func (s Severity) rank() int {
	if i := slices.Index(severities[:], s); i >= 0 {
		return i
	}
	return len(severities) - 1
}

// Reference points at a control of a benchmark or another scanner that
// checks the same thing, so users can map our findings to theirs.
type Reference struct {
	Source string `json:"source"` // e.g. "CIS AWS Foundations Benchmark v3.0.0", "Checkov", "Trivy"
	ID     string `json:"id"`     // e.g. "5.2", "CKV_AWS_24", "AVD-AWS-0107"
}

// Rule is one check of the catalogue.
type Rule struct {
	ID           string      `json:"id"`
	Title        string      `json:"title"`
	Severity     Severity    `json:"severity"`
	ResourceType string      `json:"resource_type"`
	Description  string      `json:"description"`
	Remediation  string      `json:"remediation"`
	References   []Reference `json:"references"`
}

// ruleID indexes the catalogue; the order is the order of Rules().
type ruleID int

const (
	ruleS3PublicRead ruleID = iota
	ruleS3Unencrypted
	ruleSGAllPortsOpen
	ruleSGAdminPortOpen
	ruleSGDataPortOpen
	ruleSGPortOpen
	ruleIAMFullAdmin
	ruleIAMWildcardAction
	ruleIAMServiceWildcard
	ruleIAMWildcardResource
	ruleDBPublic
	ruleDBUnencrypted
	numRules
)

// References cited here are the ones we could check against the benchmark or
// the scanner's own sources: CIS AWS Foundations Benchmark v3.0.0 where the
// control still exists, Checkov check ids and Trivy AVD ids.
const (
	cis3    = "CIS AWS Foundations Benchmark v3.0.0"
	checkov = "Checkov"
	trivy   = "Trivy"
)

var catalogue = [numRules]Rule{
	ruleS3PublicRead: {
		ID: "S3_PUBLIC_READ", ResourceType: typeS3Bucket,
		// Critical: anyone on the internet can read the data, no credentials
		// needed; public buckets are the most common cloud data leak.
		Severity:    Critical,
		Title:       "S3 bucket is publicly readable",
		Description: "The bucket lets anyone on the internet list and download its objects, without credentials.",
		Remediation: "Make the bucket private: set its ACL to private, remove bucket-policy statements that allow " +
			"Principal \"*\" to read, and turn on S3 Block Public Access for the bucket and the account. " +
			"If the content is meant to be public (a static website), serve it through CloudFront with origin " +
			"access control and suppress this finding with that reason.",
		References: []Reference{{cis3, "2.1.4"}, {checkov, "CKV_AWS_20"}, {trivy, "AVD-AWS-0092"}},
	},
	ruleS3Unencrypted: {
		ID: "S3_UNENCRYPTED", ResourceType: typeS3Bucket,
		// Medium: exploiting it needs another failure first (stolen
		// credentials, a misdirected backup), and since January 2023 S3
		// encrypts every new object with SSE-S3 by default, so an explicit
		// false usually means a legacy bucket holding old unencrypted objects.
		Severity:    Medium,
		Title:       "S3 bucket is not encrypted at rest",
		Description: "Default encryption is off for the bucket, so objects written without an encryption header may be stored unencrypted.",
		Remediation: "Turn on default encryption for the bucket (SSE-KMS with a customer-managed key where the data is " +
			"sensitive, SSE-S3 otherwise), then re-encrypt existing objects, e.g. with S3 Batch Operations copying them in place.",
		// CKV_AWS_145 is not cited: it asks for KMS specifically, a stricter
		// check than "encrypted at all". CIS dropped its S3 encryption control
		// after v1.4.0 because of the 2023 default.
		References: []Reference{{"CIS AWS Foundations Benchmark v1.4.0", "2.1.1"}, {checkov, "CKV_AWS_19"}, {trivy, "AVD-AWS-0088"}},
	},
	ruleSGAllPortsOpen: {
		ID: "SG_ALL_PORTS_OPEN", ResourceType: typeSecurityGroup,
		// Critical: every service on the instances, including admin and
		// database ports, is reachable by every scanner on the internet.
		Severity:    Critical,
		Title:       "Security group allows all ports from the internet",
		Description: "An ingress rule open to the whole internet (a /0 CIDR) covers every port, so every service listening on the attached instances is exposed.",
		Remediation: "Replace the rule with rules for the specific ports the service needs (usually 443), and restrict " +
			"the source to known CIDRs or to another security group. Reach instances through a load balancer, " +
			"AWS Systems Manager Session Manager or a VPN rather than opening them to 0.0.0.0/0 or ::/0.",
		References: []Reference{{cis3, "5.2"}, {cis3, "5.3"}, {checkov, "CKV_AWS_277"}, {trivy, "AVD-AWS-0107"}},
	},
	ruleSGAdminPortOpen: {
		ID: "SG_ADMIN_PORT_OPEN", ResourceType: typeSecurityGroup,
		// Critical: SSH and RDP on the open internet are brute-forced within
		// minutes, and one weak credential or unpatched daemon is a shell.
		Severity:    Critical,
		Title:       "SSH or RDP open to the internet",
		Description: "Remote administration (SSH on port 22 or RDP on port 3389) is reachable from the whole internet.",
		Remediation: "Remove the rule and administer instances through AWS Systems Manager Session Manager, EC2 Instance " +
			"Connect or a VPN; if a bastion is unavoidable, allow only your office or VPN CIDRs.",
		References: []Reference{{cis3, "5.2"}, {cis3, "5.3"}, {checkov, "CKV_AWS_24"}, {checkov, "CKV_AWS_25"}, {trivy, "AVD-AWS-0107"}},
	},
	ruleSGDataPortOpen: {
		ID: "SG_DATA_PORT_OPEN", ResourceType: typeSecurityGroup,
		// High rather than critical: these services usually ask for
		// credentials, but many ship without them (Redis, Memcached,
		// Elasticsearch, Docker's API), and none is meant for the internet.
		Severity:    High,
		Title:       "Database or other sensitive service port open to the internet",
		Description: "A port used by a database, cache, search engine, message broker, container or cluster API, file sharing or a legacy cleartext protocol is reachable from the whole internet.",
		Remediation: "Allow the port only from the security groups of the applications that use the service, keep " +
			"the service in private subnets, and reach it from outside through a VPN or a bastion.",
		References: []Reference{},
	},
	ruleSGPortOpen: {
		ID: "SG_PORT_OPEN", ResourceType: typeSecurityGroup,
		// Low: a port other than HTTP/HTTPS open to the world is often
		// deliberate, but every open port is attack surface worth reviewing.
		Severity:    Low,
		Title:       "Port open to the internet",
		Description: "A port other than 80 (HTTP) and 443 (HTTPS) is reachable from the whole internet.",
		Remediation: "Check that the service on this port must be public; if not, restrict the source CIDR. Prefer " +
			"publishing services through a load balancer on 443.",
		References: []Reference{},
	},
	ruleIAMFullAdmin: {
		ID: "IAM_FULL_ADMIN", ResourceType: typeIAMPolicy,
		// Critical: whoever holds the policy owns the account.
		Severity:    Critical,
		Title:       "IAM policy grants full administrator access",
		Description: "The policy allows every action (\"*\") on every resource (\"*\"): whoever holds it controls the whole account.",
		Remediation: "Grant only the actions and resources the role needs (IAM Access Analyzer can generate a policy " +
			"from CloudTrail activity). Keep full administrator access for a few break-glass roles that need MFA, " +
			"and suppress this finding on those with that reason.",
		References: []Reference{{cis3, "1.16"}, {checkov, "CKV_AWS_1"}, {checkov, "CKV_AWS_62"}, {trivy, "AVD-AWS-0057"}},
	},
	ruleIAMWildcardAction: {
		ID: "IAM_WILDCARD_ACTION", ResourceType: typeIAMPolicy,
		// High: "*" grants every present and future action on the listed
		// resources; iam:* and sts:* let the holder grant itself more (attach
		// an admin policy, assume another role), so they are as dangerous.
		Severity:    High,
		Title:       "IAM policy allows every action, or every IAM or STS action",
		Description: "The policy allows the action \"*\" (every action of every service), or \"iam:*\" or \"sts:*\", which let the holder escalate its own privileges, or uses Allow with NotAction, which allows every action but the few it lists.",
		Remediation: "List the specific actions the role needs instead of a wildcard; never grant iam:* or sts:* to " +
			"workloads. Use IAM Access Analyzer policy generation to find the actions actually used.",
		References: []Reference{{checkov, "CKV_AWS_49"}, {checkov, "CKV_AWS_63"}, {checkov, "CKV2_AWS_40"}, {trivy, "AVD-AWS-0057"}},
	},
	ruleIAMServiceWildcard: {
		ID: "IAM_SERVICE_WILDCARD", ResourceType: typeIAMPolicy,
		// Medium: bounded to one service, but it includes that service's
		// destructive and policy-changing actions (s3:DeleteBucket,
		// s3:PutBucketPolicy) and every action the service adds later.
		Severity:    Medium,
		Title:       "IAM policy allows every action of a service",
		Description: "The policy allows \"service:*\", every action of one service, including its destructive and permission-changing actions.",
		Remediation: "Replace the service wildcard with the actions needed, e.g. s3:GetObject and s3:PutObject instead of s3:*.",
		References:  []Reference{{trivy, "AVD-AWS-0057"}},
	},
	ruleIAMWildcardResource: {
		ID: "IAM_WILDCARD_RESOURCE", ResourceType: typeIAMPolicy,
		// Medium: the actions are specific, but they reach every resource of
		// the account, e.g. every bucket instead of one.
		Severity:    Medium,
		Title:       "IAM policy applies to every resource",
		Description: "The policy's actions apply to resource \"*\" (or, with NotResource, to every resource but the ones listed): every resource in the account, instead of the ones the role works on.",
		Remediation: "Name the resources by ARN (arn:aws:s3:::my-bucket/*). A few actions, such as s3:ListAllMyBuckets " +
			"or ec2:Describe*, only accept \"*\": put them in a statement of their own and suppress this finding with that reason.",
		References: []Reference{{checkov, "CKV_AWS_355"}, {trivy, "AVD-AWS-0057"}},
	},
	ruleDBPublic: {
		ID: "DB_PUBLIC", ResourceType: typeDatabase,
		// Critical: the database gets a public endpoint; together with a
		// permissive security group or a weak password it is one step from
		// a breach of the data it holds.
		Severity:    Critical,
		Title:       "Database is publicly accessible",
		Description: "The database instance has a public endpoint that resolves to a public IP address, reachable from the internet wherever its security group allows.",
		Remediation: "Set publicly_accessible to false, place the instance in private subnets, and reach it from " +
			"applications in the VPC or through a bastion or VPN.",
		References: []Reference{{cis3, "2.3.3"}, {checkov, "CKV_AWS_17"}, {trivy, "AVD-AWS-0180"}},
	},
	ruleDBUnencrypted: {
		ID: "DB_UNENCRYPTED", ResourceType: typeDatabase,
		// High (S3_UNENCRYPTED is medium): databases hold the most sensitive
		// data, their snapshots and replicas inherit the setting, and unlike
		// S3 there is no encryption by default to fall back on.
		Severity:    High,
		Title:       "Database is not encrypted at rest",
		Description: "Storage encryption is off for the database, so its storage, automated backups, snapshots and read replicas are unencrypted.",
		Remediation: "Encryption cannot be turned on in place: take a snapshot, copy it with encryption (a KMS key), " +
			"restore a new instance from the copy and switch applications to it.",
		References: []Reference{{cis3, "2.3.1"}, {checkov, "CKV_AWS_16"}, {trivy, "AVD-AWS-0080"}},
	},
}

// Rules returns the catalogue in a stable order (the order of SARIF's rules
// array). The result is a copy the caller may change.
func Rules() []Rule {
	out := make([]Rule, numRules)
	for i, r := range catalogue {
		r.References = slices.Clone(r.References)
		out[i] = r
	}
	return out
}

// ruleByID finds a rule by its exact id.
func ruleByID(id string) (ruleID, bool) {
	for i := range catalogue {
		if catalogue[i].ID == id {
			return ruleID(i), true
		}
	}
	return 0, false
}
