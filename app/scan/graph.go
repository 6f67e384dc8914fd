package scan

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// The other formats (Terraform plan and state, CloudFormation) are read by
// adapters (terraform.go, cloudformation.go) into one normalized resource
// graph: a node per resource with its address, provider type and resolved
// attributes, and for a resource that configures another (a bucket's ACL,
// a group's rule) the address of that other one. The families (family_*.go)
// turn nodes into the resources the checks read, so the twelve rules run on
// the graph whatever the format.

// Formats of a Result.
const (
	FormatParapet            = "parapet"
	FormatTerraformPlan      = "terraform_plan"
	FormatTerraformState     = "terraform_state"
	FormatCloudFormationJSON = "cloudformation_json"
	FormatCloudFormationYAML = "cloudformation_yaml"
)

// MaxNotCheckedAddresses is how many addresses a not_checked entry lists;
// Count has them all.
const MaxNotCheckedAddresses = 100

// node is one resource of a Terraform or CloudFormation document.
type node struct {
	addr string // Terraform address or CloudFormation logical id
	typ  string // provider type
	line int    // 1-based line of the resource, 0 when the format has none
	base string // path prefix of its attributes, e.g. aws_s3_bucket.b or Resources.B.Properties

	attrs map[string]any // resolved values; unknownValue where unknown until apply
	// alt holds the further readings of attrs when CloudFormation
	// conditions could not be decided, one per combination of their
	// outcomes (attrs is the first): every reading is checked. Nodes
	// linked together have the same readings in the same order, or none.
	alt  []map[string]any
	note string
	// altNote names the undecided conditions of alt; it is said only on
	// the findings that depend on them.
	altNote string

	target   string // address of the resource this one configures, if found
	suppress []suppression
	skip     string // why the resource is not checked although its type is (e.g. its condition is false)
}

// unknownValue stands for a value known only after apply, or one that
// depends on something the document does not say. It is never a default
// and never false: a rule that needs it does not fire.
type unknownValue struct{}

var unknown any = unknownValue{}

// partialText is a string a template's Fn::Sub or Fn::Join builds with
// some of its parts unknown until deployment (a Ref to a bucket, a
// pseudo parameter), each written as knownAfterDeployment. It is unknown
// to every rule, like unknownValue, except that a policy document written
// as such a string is read (policyDocument), as Terraform source reads
// jsonencode with its unknown values as placeholders.
type partialText struct{ text string }

func isUnknown(v any) bool {
	switch v.(type) {
	case unknownValue, partialText:
		return true
	}
	return false
}

// family says what the scanner does with a provider type.
type family struct {
	kind string // the rule family: typeS3Bucket, typeSecurityGroup, typeIAMPolicy, typeDatabase
	// link lists the attributes naming the resource this type configures;
	// empty for a primary resource.
	link []string
	// read builds the resource the checks see from a node of this type
	// and the nodes linked to it; nil for the AWS families, which the
	// builder reads by kind (builder.read).
	read readFunc
	// context names a resource that a primary resource of this type
	// depends on without being part of it (an Azure container's storage
	// account): ctxAttrs are the attributes naming it, the first one given
	// counts, and ctxType its type. That resource is the node's context
	// (graph.contexts).
	ctxAttrs []string
	ctxType  string
	// computed are attributes the provider computes when the
	// configuration leaves them out (public_access_prevention): a plan
	// shows them unknown until apply, and when the plan's configuration
	// does not set them they take the provider's documented default, as
	// left out (leaveOutComputed).
	computed []string
	// linkValue turns the value of the linking attribute into the id or
	// name of the resource it names, when the provider writes it otherwise
	// (a GCS bucket IAM member's bucket is "b/NAME" in a state).
	linkValue func(string) string
}

// readFunc reads node n (with attributes attrs) and the nodes linked to
// it into r.
type readFunc func(b *builder, r *resource, n *node, attrs map[string]any, linked []*node, attrsOf func(*node) map[string]any)

// families are the provider types the scanner reads, of every cloud.
var families = mergeFamilies(awsFamilies, gcpFamilies, azureFamilies)

func mergeFamilies(sets ...map[string]family) map[string]family {
	out := map[string]family{}
	for _, set := range sets {
		for typ, f := range set {
			out[typ] = f
		}
	}
	return out
}

// cloud is the cloud a provider type belongs to: links and rule texts
// never cross clouds.
type cloud uint8

const (
	cloudAWS cloud = iota
	cloudGCP
	cloudAzure
)

func cloudOf(typ string) cloud {
	switch {
	case strings.HasPrefix(typ, "google_"):
		return cloudGCP
	case strings.HasPrefix(typ, "azurerm_"):
		return cloudAzure
	}
	return cloudAWS
}

// canConfigure says whether a resource of type from (a linking type) can
// configure one of type to: a primary resource of the same family and
// cloud.
func canConfigure(from, to string) bool {
	f, t := families[from], families[to]
	return t.kind != "" && t.kind == f.kind && len(t.link) == 0 && cloudOf(from) == cloudOf(to)
}

var awsFamilies = map[string]family{
	"aws_s3_bucket":                                      {kind: typeS3Bucket},
	"aws_s3_bucket_acl":                                  {kind: typeS3Bucket, link: []string{"bucket"}},
	"aws_s3_bucket_public_access_block":                  {kind: typeS3Bucket, link: []string{"bucket"}},
	"aws_s3_bucket_policy":                               {kind: typeS3Bucket, link: []string{"bucket"}},
	"aws_s3_bucket_server_side_encryption_configuration": {kind: typeS3Bucket, link: []string{"bucket"}},
	"AWS::S3::Bucket":                                    {kind: typeS3Bucket},
	"AWS::S3::BucketPolicy":                              {kind: typeS3Bucket, link: []string{"Bucket"}},
	"aws_s3_account_public_access_block":                 {kind: typeS3Bucket}, // linked to every bucket: linkAccountBlocks

	"aws_security_group":                  {kind: typeSecurityGroup},
	"aws_default_security_group":          {kind: typeSecurityGroup}, // a VPC's default group, its ingress inline
	"aws_security_group_rule":             {kind: typeSecurityGroup, link: []string{"security_group_id"}},
	"aws_vpc_security_group_ingress_rule": {kind: typeSecurityGroup, link: []string{"security_group_id"}},
	"AWS::EC2::SecurityGroup":             {kind: typeSecurityGroup},
	"AWS::EC2::SecurityGroupIngress":      {kind: typeSecurityGroup, link: []string{"GroupId", "GroupName"}},

	"aws_iam_policy":       {kind: typeIAMPolicy},
	"aws_iam_role_policy":  {kind: typeIAMPolicy},
	"aws_iam_user_policy":  {kind: typeIAMPolicy},
	"aws_iam_group_policy": {kind: typeIAMPolicy},
	"aws_iam_role":         {kind: typeIAMPolicy},
	// Attachments of AWS managed policies (family_iam_managed.go).
	"aws_iam_role_policy_attachment":             {kind: typeIAMPolicy},
	"aws_iam_user_policy_attachment":             {kind: typeIAMPolicy},
	"aws_iam_group_policy_attachment":            {kind: typeIAMPolicy},
	"aws_iam_policy_attachment":                  {kind: typeIAMPolicy},
	"aws_iam_role_policy_attachments_exclusive":  {kind: typeIAMPolicy},
	"aws_iam_user_policy_attachments_exclusive":  {kind: typeIAMPolicy},
	"aws_iam_group_policy_attachments_exclusive": {kind: typeIAMPolicy},
	"AWS::IAM::Policy":                           {kind: typeIAMPolicy},
	"AWS::IAM::ManagedPolicy":                    {kind: typeIAMPolicy},
	"AWS::IAM::Role":                             {kind: typeIAMPolicy},
	"AWS::IAM::User":                             {kind: typeIAMPolicy},
	"AWS::IAM::Group":                            {kind: typeIAMPolicy},
	// SAM: a function's or state machine's Policies (family_iam.go).
	"AWS::Serverless::Function":     {kind: typeIAMPolicy},
	"AWS::Serverless::StateMachine": {kind: typeIAMPolicy},
	// A plan shows these unknown when the configuration leaves them out:
	// AWS fills in snapshot_identifier (no snapshot) and a cluster's
	// storage_encrypted (false unless engine_mode is serverless).
	"aws_db_instance":          {kind: typeDatabase, computed: []string{"snapshot_identifier"}},
	"aws_rds_cluster":          {kind: typeDatabase, computed: []string{"storage_encrypted"}},
	"aws_rds_cluster_instance": {kind: typeDatabase}, // public or not; its storage is the cluster's
	"AWS::RDS::DBInstance":     {kind: typeDatabase},
	"AWS::RDS::DBCluster":      {kind: typeDatabase},
}

// graph is a normalized document.
type graph struct {
	format string
	nodes  []*node
	byAddr map[string]*node
	// contexts holds, for a node whose family has a context, the resource
	// it depends on (family.ctxAttrs), when found: kept apart, as few
	// nodes have one.
	contexts map[*node]*node
	// locs says where each resource, attribute and nested block is, by
	// the path findings name (Terraform source only).
	locs map[string]Location
}

func newGraph(format string) *graph { return &graph{format: format, byAddr: map[string]*node{}} }

func (g *graph) add(n *node) {
	g.nodes = append(g.nodes, n)
	g.byAddr[n.addr] = n
}

// evaluate runs the checks on every node: a primary resource with the
// resources linked to it, a linked resource whose target is not in the
// document on its own, and lists the types without rules in not_checked.
func (g *graph) evaluate(env *envelope) *Result {
	children := map[*node][]*node{}
	attached := map[*node]bool{}
	for _, n := range g.nodes {
		fam, ok := families[n.typ]
		if !ok || len(fam.link) == 0 || n.skip != "" {
			continue
		}
		if t := g.byAddr[n.target]; t != nil && t != n && t.skip == "" && canConfigure(n.typ, t.typ) {
			children[t] = append(children[t], n)
			attached[n] = true
		}
	}
	linkAccountBlocks(g.nodes, children, attached)
	e := &evaluator{format: g.format, env: env, locs: g.locs}
	nc := notChecked{}
	b := &builder{g: g} // one for the document: the families' readers are called through func values, so it lives on the heap
	for i, n := range g.nodes {
		fam, ok := families[n.typ]
		switch {
		case !ok:
			nc.add(n.typ, n.addr, noRulesReason(n.typ))
		case n.skip != "":
			nc.add(n.typ, n.addr, n.skip)
		case !attached[n]:
			b.seq = 0
			r := b.resource(i, n, fam.kind, children[n])
			e.check(r)
		}
	}
	res := e.result(nil, len(g.nodes), nil)
	res.NotChecked = nc.list()
	return res
}

// notChecked groups unchecked resources by type and reason.
type notChecked map[[2]string]*NotChecked

// noRulesReason says why a resource of a type without rules is not
// checked. A nested stack or a SAR application is a template of its own,
// which the input does not hold: its resources, buckets and groups among
// them, are not checked, and "no rules" would read as if there were
// nothing there to check.
func noRulesReason(typ string) string {
	switch typ {
	case "AWS::CloudFormation::Stack":
		return "a nested stack: its template (TemplateURL) is not in the input, so its resources are not checked; scan that template on its own"
	case "AWS::Serverless::Application":
		return "a nested application: its template (Location) is not in the input, so its resources are not checked; scan that template on its own"
	}
	return "the scanner has no rules for this type"
}

func (nc notChecked) add(typ, addr, reason string) {
	k := [2]string{typ, reason}
	e := nc[k]
	if e == nil {
		e = &NotChecked{Type: typ, Reason: reason, Addresses: []string{}}
		nc[k] = e
	}
	e.Count++
	if len(e.Addresses) < MaxNotCheckedAddresses {
		e.Addresses = append(e.Addresses, addr)
	}
}

func (nc notChecked) list() []NotChecked {
	out := make([]NotChecked, 0, len(nc))
	for _, e := range nc {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}

// builder turns a node and its linked nodes into the resource the checks
// read. seq numbers the causes in the order they are read, which is the
// order of the findings within the resource.
type builder struct {
	seq int
	g   *graph // the document, for the contexts of its nodes
	// accountRules are the azurerm_storage_account_network_rules of each
	// storage account, indexed on first use (azureFirewalled).
	accountRules map[*node][]*node
}

func (b *builder) next() int { b.seq++; return b.seq }

func (b *builder) resource(i int, n *node, kind string, linked []*node) *resource {
	r := b.read(i, n, n.attrs, kind, linked, func(c *node) map[string]any { return c.attrs })
	for k := range altReadings(n, linked) {
		r.alt = append(r.alt, b.read(i, n, n.reading(k), kind, linked, func(c *node) map[string]any { return c.reading(k) }))
	}
	r.note, r.altNote = addNote(r.note, n.note), n.altNote // a family may have noted something on r
	for _, c := range linked {
		r.note, r.altNote = addNote(r.note, c.note), addNote(r.altNote, c.altNote)
	}
	return r
}

// altReadings is how many further readings n and the nodes linked to it
// have.
func altReadings(n *node, linked []*node) int {
	k := len(n.alt)
	for _, c := range linked {
		k = max(k, len(c.alt))
	}
	return k
}

// reading is the k-th further reading of n's attributes, or its
// attributes when it has none.
func (n *node) reading(k int) map[string]any {
	if k < len(n.alt) {
		return n.alt[k]
	}
	return n.attrs
}

func (b *builder) read(i int, n *node, attrs map[string]any, kind string, linked []*node, attrsOf func(*node) map[string]any) *resource {
	r := &resource{index: i, typ: kind, name: n.addr, ptype: n.typ, line: n.line, suppress: n.suppress}
	if read := families[n.typ].read; read != nil {
		read(b, r, n, attrs, linked, attrsOf)
		return r
	}
	switch kind {
	case typeS3Bucket:
		b.s3(r, n, attrs, linked, attrsOf)
	case typeSecurityGroup:
		b.securityGroup(r, n, attrs, linked, attrsOf)
	case typeIAMPolicy:
		b.iam(r, n, attrs)
	case typeDatabase:
		b.database(r, n, attrs)
	}
	return r
}

// Reading attribute values. JSON numbers are float64, YAML ones too after
// conversion; CloudFormation often writes booleans and numbers as strings.

// attr returns a present value: not absent, not null, not AWS::NoValue.
func attr(m map[string]any, key string) (any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

// boolOf reads a boolean, or a string CloudFormation takes for one: "true"
// and "false", and YAML 1.1's yes/no/on/off, which CloudFormation's YAML
// (1.1) reads as booleans where our YAML 1.2 reader gives strings.
func boolOf(v any) (b, ok bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(x) {
		case "true", "yes", "on":
			return true, true
		case "false", "no", "off":
			return false, true
		}
	}
	return false, false
}

func strOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

func intOf(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil
	}
	return 0, false
}

// listOf reads a list; a single value is a list of one (IAM's Action and
// Resource, CloudFormation's shorthand).
func listOf(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	}
	return []any{v}
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// flagOf reads a boolean attribute: set when known, with the evidence.
func (b *builder) flagOf(n *node, attrs map[string]any, key string) (f flag, present bool) {
	v, ok := attr(attrs, key)
	if !ok {
		return flag{}, false
	}
	on, known := boolOf(v)
	if !known {
		return flag{}, true // unknown until apply, or not a boolean: no finding either way
	}
	return flag{set: true, on: on, offset: b.next(), path: n.base + "." + key, why: key + " is " + strconv.FormatBool(on)}, true
}

func linkedOf(n *node) *Linked { return &Linked{Type: n.typ, Name: n.addr} }
