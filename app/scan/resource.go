package scan

import (
	"net/netip"
	"strconv"
	"strings"
)

// The resource types the scanner checks (SPEC 2.6). Other types are skipped
// with a warning: real exports mix in many types we have no rules for.
const (
	typeS3Bucket      = "s3_bucket"
	typeSecurityGroup = "security_group"
	typeIAMPolicy     = "iam_policy"
	typeDatabase      = "database"
)

var supportedTypes = []string{typeS3Bucket, typeSecurityGroup, typeIAMPolicy, typeDatabase}

// resource is one validated resource of a supported type, as the checks see
// it. Fields of other types are not read. The parser reuses one resource for
// every element, so checks must not keep it or its slices.
type resource struct {
	index int    // position in "resources" (our format) or in the normalized graph
	typ   string // one of the type constants
	name  string // our "name", a Terraform address or a CloudFormation logical id

	// Set for resources of the other formats (graph.go, family_*.go): the provider type
	// (aws_s3_bucket, AWS::S3::Bucket), the line of the resource when the
	// format has one, and a note appended to every message (an assumption
	// the scanner had to make, e.g. that a condition of the resource holds).
	ptype string
	line  int
	note  string

	// alt holds the resource read with the other outcomes of conditions
	// that could not be decided (CloudFormation), one per further reading,
	// each checked too; altNote names the conditions, and is appended to
	// the messages of the findings that some reading does not have.
	alt     []*resource
	altNote string

	publicRead, encrypted, publiclyAccessible flag // s3_bucket, database

	ingress []ingressRule // security_group

	actions []item // iam_policy "actions"
	targets []item // iam_policy "resources"

	// statements are the Allow statements of the other formats' policy
	// documents; each is checked on its own, since a wildcard action and a
	// wildcard resource in two statements do not make an administrator.
	statements []statement

	// roles are grants of Google Cloud roles and the actions of Azure role
	// definitions (family_gcp_iam.go, family_azure_iam.go), checked by
	// checkRoles whatever the resource's type: a GCS bucket's IAM can
	// grant roles/owner too.
	roles []roleGrant

	suppress []suppression
}

// addNote adds note to notes, once.
func addNote(notes, note string) string {
	if note == "" || strings.Contains(notes, note) {
		return notes
	}
	return strings.TrimPrefix(notes+"; "+note, "; ")
}

// flag is an optional boolean. Absent and null both leave set false: we
// don't know, so no rule fires (see doc.go).
type flag struct {
	set, on bool
	offset  int // byte offset of the value

	// For the other formats: the evidence in words ("acl is \"public-read\""),
	// the path of the value, and the linked resource it comes from.
	why  string
	path string
	via  *Linked
	// audience is who the flag exposes the resource to, when not anyone
	// on the internet (a bucket readable by AuthenticatedUsers).
	audience string
}

// item is one string of an array, with where it came from.
type item struct {
	value  string
	index  int // position in the array
	offset int
	path   string // for the other formats: where the value is
}

// statement is one Allow statement of a policy document, or our format's
// policy. NotAction and NotResource allow every action or resource but the
// ones they list.
type statement struct {
	actions, targets       []item
	notActions, notTargets []item
	managed                string // the AWS managed policy it comes from (family_iam_managed.go)
}

// subject names who grants a statement in messages: the policy, or the
// AWS managed policy the resource attaches.
func (st statement) subject(r *resource) string {
	if st.managed != "" {
		return "the AWS managed policy " + st.managed + " attached by " + strconv.Quote(r.name)
	}
	return "policy " + strconv.Quote(r.name)
}

// ingressRule is one valid entry of a security group's "ingress".
type ingressRule struct {
	index, offset int
	protocol      protocol
	// named is set when cidrText names the source in words rather than
	// as a CIDR written in the document: an Azure service tag, GCP's
	// default source (it fits in protocol's padding).
	named bool
	// anyProtocol is set on an Azure rule of protocol "*" on some ports:
	// graded as tcp, but worded as what it allows, any protocol.
	anyProtocol bool
	from, to    int // the port range; meaningless for icmp and all
	cidr        netip.Prefix
	cidrText    string  // as written, for messages
	path        string  // for the other formats: where the rule is
	via         *Linked // the linked rule resource it comes from, if any
	// openEnd, when one end of the range is unknown, says so in the
	// message: from and to are then the known end.
	openEnd string
}

type protocol uint8

const (
	protoTCP protocol = iota
	protoUDP
	protoICMP // icmp and icmpv6: no ports, the port fields are ICMP type and code
	protoAll  // "all" or "-1": every protocol and port
)

func (p protocol) String() string {
	return [...]string{"tcp", "udp", "icmp", "all"}[p]
}

type suppression struct {
	rule   ruleID
	reason string
}

func (r *resource) suppressedBy(id ruleID) (reason string, ok bool) {
	for _, s := range r.suppress {
		if s.rule == id {
			return s.reason, true
		}
	}
	return "", false
}

// JSON paths. They are built only for problems and findings, never on the
// hot path of a clean resource.

func resourcePath(i int) string { return "resources[" + strconv.Itoa(i) + "]" }

func fieldPath(i int, field string) string { return resourcePath(i) + "." + field }

func elemPath(i int, field string, j int) string {
	return fieldPath(i, field) + "[" + strconv.Itoa(j) + "]"
}
