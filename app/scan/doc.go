// Package scan is Parapet's configuration scanner engine: it checks a
// document against a catalogue of security rules. It is pure Go with no HTTP
// and no storage; the scanner page and its JSON API both call Scan, and
// SARIF renders the result for code-scanning tools.
//
// # Formats
//
// Scan tells formats apart by content (detect.go): our own resource list
// (SPEC 2.6, below), Terraform plans and state (terraform.go; the raw
// state file, tfstate.go), Terraform source pasted alone (a set of files
// goes to ScanFiles: hcl_*.go evaluates it into the same graph),
// CloudFormation templates in JSON or YAML (cloudformation.go, yaml.go),
// and the envelope that adds suppressions and a baseline (envelope.go,
// baseline.go). The other formats are normalized into one resource graph
// (graph.go) whose families (family_*.go) feed the same checks, on AWS,
// Google Cloud (family_gcs.go, family_gcp_*.go) and Azure
// (family_azure_*.go) alike: the rule names the danger, the resource type
// the cloud, and rules_clouds.go gives each cloud's texts; text.go
// reads byte-order marks and UTF-16. The decisions about defaults, unknown
// values and linking are documented in those files and in views/docs/scanner.md.
//
// # Our format
//
//	{"resources": [
//	  {"type": "s3_bucket", "name": "...", "public_read": true, "encrypted": false},
//	  {"type": "security_group", "name": "...", "ingress": [
//	     {"port": 22, "cidr": "0.0.0.0/0"},
//	     {"port": 20, "to_port": 30, "protocol": "tcp", "cidr": "::/0"}]},
//	  {"type": "iam_policy", "name": "...", "actions": ["s3:*"], "resources": ["*"]},
//	  {"type": "database", "name": "...", "publicly_accessible": false, "encrypted": true},
//	  {"type": "...", "name": "...", "suppress": [{"rule": "S3_PUBLIC_READ", "reason": "..."}]}
//	]}
//
// Decisions a user may need to know:
//
//   - A boolean that is absent (or null) produces no finding. The scanner
//     reports what the input shows, not what it leaves out: exports often
//     omit fields, and flagging every omission would bury real findings. A
//     value of the wrong JSON type ("encrypted": "yes") is a validation
//     error, never a guess.
//   - Unknown fields are ignored (real exports carry many); fields of other
//     types are ignored too. Keys are matched exactly, case included.
//   - A key given twice is a validation error, because parsers disagree on
//     which copy counts.
//   - A resource of an unsupported type is skipped with a reason, not an
//     error; its type and name are still required.
//   - In an ingress entry, protocol defaults to tcp; to_port makes the range
//     [port, to_port]; protocol all or -1 means every protocol and port and
//     icmp/icmpv6 has no ports (those port fields are not range-checked).
//     A cidr must have a prefix length: a bare address is refused.
//   - "The whole internet" is any CIDR of prefix length 0, whatever its
//     address, IPv4 or IPv6.
//   - A suppression names a rule that applies to the resource's type and a
//     non-empty reason; it covers every finding of that rule on that
//     resource. Suppressed findings are listed apart, not counted.
//
// How overlapping rules are resolved (one finding per cause) is described
// on checkSecurityGroup and checkIAMPolicy; the reasons for each rule's
// severity are with the rule in the catalogue (rules.go).
//
// # Errors
//
// Scan returns *SyntaxError (line, column and encoding/json's message, or
// the YAML or HCL parser's, with the file for Terraform source), *LimitError
// (input over MaxInputBytes, MaxResources, MaxFiles, MaxPathDepth,
// MaxModuleDepth, MaxModuleInstances, MaxHCLEvalBytes, MaxSetWork,
// MaxExpressionOperators,
// MaxDepth, MaxDocumentDepth, MaxYAMLAliases, MaxYAMLNodes,
// MaxYAMLAliasBytes, MaxEvalBytes, MaxSuppressions, MaxSuppressionWork
// or MaxFindings) or *ValidationError (every problem with its path, up
// to MaxProblems).
package scan
