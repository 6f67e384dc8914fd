package scan

import (
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Terraform's JSON output (`terraform show -json`), of a plan or of the
// state. Only managed resources are read: data sources describe what
// exists, not what is deployed.
//
// A plan's resources come from planned_values, walking child_modules; the
// values unknown until apply are those marked in resource_changes'
// after_unknown (planned_values leaves them out), and become unknown, never
// a default. Links (an ACL to its bucket, a rule to its group) follow the
// configuration's expression references ("aws_s3_bucket.logs.id") within
// the same module instance, matching the index key when the target has
// count or for_each; failing that (no reference to a resource it can
// configure, or references to several), and always in a state, the value
// of the linking attribute is matched against the id or name of the
// candidates.

// The parts of a document the scanner reads (json_read.go), named after
// Terraform's keys.

type tfDocument struct {
	PlannedValues   *tfModule // the root_module of planned_values
	Values          *tfModule // the root_module of values
	ResourceChanges []tfChange
	// StateVersion is the version of a raw state file, -1 or 0 without
	// one; StateResources are its resources (tfstate.go).
	StateVersion      float64
	StateResources    []tfStateResource
	HasStateResources bool // a top-level resources array (even empty)
	HasModules        bool // a top-level modules key: a raw state of format 3
	// HasContent: a key besides format_version and terraform_version.
	// Without one the document is what `terraform show -json` prints
	// when there is no state.
	HasContent bool
	// Configuration holds the resources of every module of the
	// configuration, by module path without index keys and address
	// ("module.net.aws_s3_bucket.logs").
	Configuration map[string]tfConfigResource
}

type tfModule struct {
	Resources    []tfResource
	ChildModules []tfModule
}

// tfInstance names a resource instance, in the values and in the changes.
type tfInstance struct {
	Address string
	Mode    string
	// Deposed is the key of a deposed object: an instance that a
	// create_before_destroy replacement left behind, which Terraform
	// destroys at the next apply. It shares its address with the current
	// instance (deposed_key in the values, deposed in the changes).
	Deposed string
}

// managed is false for a data source.
func (i *tfInstance) managed() bool { return i.Mode == "managed" }

type tfResource struct {
	tfInstance
	Type   string
	Values map[string]any
	Line   int // of the resource's object in the document
}

type tfChange struct {
	tfInstance
	Type         string
	After        any // of an aws_iam_policy_document read during apply only
	AfterUnknown any // of the change
}

type tfConfigResource struct {
	Address           string
	Expressions       map[string]tfExpression // the linking attributes only
	ForEachExpression *tfExpression
}

type tfExpression struct {
	References []string
}

// scanTerraform reads a plan or a state: a plan has planned_values.
func scanTerraform(data []byte, env *envelope) (*Result, error) {
	doc, err := readTerraform(data)
	if err != nil {
		return nil, err
	}
	format, values := FormatTerraformPlan, doc.PlannedValues
	if values == nil {
		format, values = FormatTerraformState, doc.Values
	}
	if values == nil {
		if doc.StateVersion != 0 || doc.HasStateResources || doc.HasModules {
			return scanStateFile(&doc, env)
		}
		if !doc.HasContent {
			return nil, &ValidationError{Problems: []Problem{{Path: "values",
				Message: "the document has only format_version: that is what `terraform show -json` prints when it finds no state " +
					"(nothing applied yet, or a remote state not reached: run terraform init first); for a plan, send `terraform show -json` of the saved plan file"}}}
		}
		return nil, &ValidationError{Problems: []Problem{{Path: "planned_values",
			Message: "a Terraform plan needs planned_values, a state needs values or resources: send `terraform show -json` of a plan or state, or the state file (terraform.tfstate) itself"}}}
	}
	g := newGraph(format)
	unknowns := map[string]any{}
	for _, c := range doc.ResourceChanges {
		// A deposed object's change (its deletion) comes after the
		// current instance's, at the same address: its after_unknown
		// ({}) replaced the instance's, whose unknown values then read
		// as absent, so as the provider's defaults.
		if c.managed() && c.AfterUnknown != nil && c.Deposed == "" {
			unknowns[c.Address] = c.AfterUnknown
		}
	}
	var walk func(m *tfModule) error
	count := 0
	walk = func(m *tfModule) error {
		for i := range m.Resources {
			res := &m.Resources[i]
			if !res.managed() {
				continue
			}
			if count++; count > MaxResources {
				return tooManyResources()
			}
			attrs := res.Values
			if u, ok := unknowns[res.Address]; ok {
				attrs, _ = markUnknown(attrs, u).(map[string]any)
			}
			if attrs == nil {
				attrs = map[string]any{}
			}
			if res.Deposed != "" {
				g.add(deposedNode(res.Address, res.Deposed, res.Type, res.Line))
				continue
			}
			g.add(&node{addr: res.Address, typ: res.Type, line: res.Line, base: res.Address, attrs: attrs})
		}
		for i := range m.ChildModules {
			if err := walk(&m.ChildModules[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(values); err != nil {
		return nil, err
	}
	leaveOutComputed(g, doc.Configuration)
	policiesFromDeferredReads(g, doc.Configuration, doc.ResourceChanges)
	newTFLinker(g, doc.Configuration).linkAll()
	res := g.evaluate(env)
	res.Warnings = append(res.Warnings, unknownPolicies(g)...)
	return res, nil
}

// leaveOutComputed removes the computed attributes (family.computed) that
// are unknown until apply only because the configuration leaves them out:
// the provider fills in its documented default, which the families apply
// to a value left out. Without the resource's configuration nothing is
// removed: unknown stays unknown.
func leaveOutComputed(g *graph, config map[string]tfConfigResource) {
	if config == nil {
		return
	}
	for _, n := range g.nodes {
		fam := families[n.typ]
		if len(fam.computed) == 0 {
			continue
		}
		module, local, _ := splitAddress(n.addr)
		c, ok := config[stripModuleIndex(module)+stripIndex(local)]
		if !ok {
			continue
		}
		for _, k := range fam.computed {
			if _, set := c.Expressions[k]; !set && isUnknown(n.attrs[k]) {
				delete(n.attrs, k)
			}
		}
	}
}

// policiesFromDeferredReads fills in a policy that is unknown in a plan
// because the data source it comes from is read only during apply (an
// aws_iam_policy_document whose statement names a bucket's ARN, the way
// most bucket policies are written; a google_iam_policy whose binding
// names a service account's email). The read is in resource_changes with
// what is known of its blocks, the principals, actions, roles and members
// the rules judge; the document is built from them as for Terraform source
// (hcl_funcs.go), what is unknown written as known after apply.
func policiesFromDeferredReads(g *graph, config map[string]tfConfigResource, changes []tfChange) {
	reads := map[string]map[string]any{} // data source instance address -> its planned values
	for _, c := range changes {
		if _, ok := deferredPolicies[c.Type]; ok && c.Mode == "data" && c.After != nil {
			if after, ok := markUnknown(c.After, c.AfterUnknown).(map[string]any); ok {
				reads[c.Address] = after
			}
		}
	}
	if len(reads) == 0 {
		return
	}
	for _, n := range g.nodes {
		for _, attr := range [...]string{"policy", "policy_data"} {
			if !isUnknown(n.attrs[attr]) {
				continue
			}
			module, local, _ := splitAddress(n.addr)
			for _, ref := range config[stripModuleIndex(module)+stripIndex(local)].Expressions[attr].References {
				typ, _, _ := strings.Cut(strings.TrimPrefix(ref, "data."), ".")
				dp, ok := deferredPolicies[typ]
				addr, isAttr := strings.CutSuffix(ref, "."+dp.attr)
				if !ok || !isAttr || !strings.HasPrefix(ref, "data.") {
					continue
				}
				if after, ok := reads[module+addr]; ok { // the data source of the same module instance
					if doc := dp.build(after); doc.IsKnown() {
						n.attrs[attr] = doc.AsString()
					}
					break
				}
			}
		}
	}
}

// deferredPolicies are the data sources that build a policy document, by
// type: the attribute holding it and how it is built.
var deferredPolicies = map[string]struct {
	attr  string
	build func(map[string]any) cty.Value
}{
	"aws_iam_policy_document": {"json", policyDocumentJSON},
	"google_iam_policy":       {"policy_data", gcpPolicyDataJSON},
}

// linkAll finds, for every node, the resource it configures (its
// family's link) and the one it depends on (its family's context).
func (l *tfLinker) linkAll() {
	for _, n := range l.g.nodes {
		l.linkNode(n, nil)
	}
}

// linkNode sets n's target and context. named, when not nil (Terraform
// source), names the resource an attribute's value came from, which
// decides before the references and the values do.
func (l *tfLinker) linkNode(n *node, named func(n *node, key string, accept linkAccept) string) {
	fam, ok := families[n.typ]
	if !ok {
		return
	}
	find := func(key string, accept linkAccept) string {
		if named != nil {
			if t := named(n, key, accept); t != "" {
				return t
			}
		}
		return l.target(n, key, accept)
	}
	if len(fam.link) > 0 {
		n.target = find(fam.link[0], linkAccept{from: n.typ})
	}
	for _, k := range fam.ctxAttrs {
		if given(n.attrs, k) {
			if c := l.g.byAddr[find(k, linkAccept{ctxType: fam.ctxType})]; c != nil {
				if l.g.contexts == nil {
					l.g.contexts = map[*node]*node{}
				}
				l.g.contexts[n] = c
			}
			break
		}
	}
}

// linkAccept says which types a linking attribute can name: a primary
// resource that a resource of type from can configure, or with ctxType
// the context type of a family.
type linkAccept struct{ from, ctxType string }

func (a linkAccept) ok(typ string) bool {
	if a.ctxType != "" {
		return typ == a.ctxType
	}
	return canConfigure(a.from, typ)
}

// markUnknown returns values with unknownValue wherever after_unknown says
// true, adding the keys planned_values leaves out.
func markUnknown(values, u any) any {
	switch uu := u.(type) {
	case bool:
		if uu {
			return unknown
		}
		return values
	case map[string]any:
		m, _ := values.(map[string]any)
		if m == nil && len(uu) > 0 {
			m = map[string]any{}
		}
		for k, sub := range uu {
			m[k] = markUnknown(m[k], sub)
		}
		if m == nil {
			return values
		}
		return m
	case []any:
		l, _ := values.([]any)
		for len(l) < len(uu) {
			l = append(l, nil)
		}
		for i, sub := range uu {
			l[i] = markUnknown(l[i], sub)
		}
		return l
	}
	return values
}

// tfLinker finds the resource a linking resource configures. Everything
// it looks up is indexed once: a plan of 24,000 counted ACLs, or one whose
// configuration repeats a reference a thousand times, costs a map lookup
// per linking instance, not a pass over every candidate instance for every
// reference.
type tfLinker struct {
	g *graph
	// config by module path without index keys ("module.net") and
	// resource address without index ("aws_s3_bucket.logs").
	config map[string]tfConfigResource
	// instances of a resource by module instance and address without index:
	// "module.net[0].aws_s3_bucket.logs" -> its nodes.
	instances map[string]*tfInstances
	// types of the resources by module path and address without index
	// keys: "module.net.aws_s3_bucket.logs" -> aws_s3_bucket.
	types map[string]string
	// ids: a primary resource's id, bucket name or name -> its node
	ids map[string][]*node
	// refs: what the references of a configuration resource's attribute
	// (or of its for_each) say, worked out once for all its instances.
	refs map[[2]string]tfLinkRefs
	// outputs: what a module instance's output links to (tf_outputs.go)
	outputs map[string]string
	// created: the primary resources whose id is unknown until apply, by
	// module instance ("" or "module.net[0]."), built on first use
	// (byLocal).
	created map[string][]*node
}

// tfInstances are the instances of one resource in one module instance:
// most resources have one, which needs no map.
type tfInstances struct {
	one     *node
	index   string           // one's index key ("[0]", "[\"a\"]"; "" without count or for_each)
	byIndex map[string]*node // every instance by index key, when there are several
}

func (set *tfInstances) add(n *node, index string) {
	switch {
	case set.one == nil:
		set.one, set.index = n, index
		return
	case set.byIndex == nil:
		set.byIndex = map[string]*node{set.index: set.one}
	}
	if _, dup := set.byIndex[index]; !dup {
		set.byIndex[index] = n
	}
}

// at returns the instance with index key index, or nil.
func (set *tfInstances) at(index string) *node {
	if set.byIndex == nil {
		if set.index == index {
			return set.one
		}
		return nil
	}
	return set.byIndex[index]
}

// tfRef is a configuration reference to a managed resource: its address
// without index ("aws_s3_bucket.logs") and the index key it gives, if any.
type tfRef struct{ resource, index string }

// tfLinkRefs is what the references of a linking attribute say: nothing
// (none of them names a resource the attribute can link to), one
// reference that decides (one resource, at most one index key), or that
// they name several.
type tfLinkRefs struct {
	ref     tfRef
	decides bool
	several bool
}

func newTFLinker(g *graph, config map[string]tfConfigResource) *tfLinker {
	n := len(g.nodes) // most resources have one instance: sized once, the maps never grow
	l := &tfLinker{g: g, config: config, instances: make(map[string]*tfInstances, n), types: make(map[string]string, n),
		ids: map[string][]*node{}, refs: map[[2]string]tfLinkRefs{}}
	for _, n := range g.nodes {
		module, local, index := splitAddress(n.addr)
		key := module + stripIndex(local)
		set := l.instances[key]
		if set == nil {
			set = &tfInstances{}
			l.instances[key] = set
			path := key
			if module != "" {
				path = stripModuleIndex(module) + stripIndex(local)
			}
			l.types[path] = n.typ
		}
		set.add(n, index)
		if fam, ok := families[n.typ]; ok && len(fam.link) == 0 {
			for _, k := range []string{"id", "bucket", "arn", "name"} {
				if s, ok := n.attrs[k].(string); ok && s != "" {
					if ns := l.ids[s]; len(ns) == 0 || ns[len(ns)-1] != n {
						l.ids[s] = append(ns, n)
					}
				}
			}
		}
	}
	return l
}

// target resolves the linking attribute of n to an address, or "". The
// attribute's own references decide when they name one resource that n
// can configure, else those of its for_each (for_each = aws_s3_bucket.x,
// each key mirroring the bucket's). References that name several (for_each
// = {a = aws_s3_bucket.a.id, b = aws_s3_bucket.b.id}) do not say which
// one each instance configures: the attribute's value decides then, as it
// does when no reference is of use, and nothing is guessed when it does
// not.
//
// accept says which types the attribute can name.
func (l *tfLinker) target(n *node, key string, accept linkAccept) string {
	module, local, index := splitAddress(n.addr)
	modulePath := stripModuleIndex(module)
	configAddr := modulePath + stripIndex(local)
	if c, ok := l.config[configAddr]; ok {
		lr := l.linkRefs(configAddr, modulePath, key, c.Expressions[key].References, accept)
		if t, done := l.fromRefs(lr, n, key, module, index, accept); done {
			return t
		}
		if t := l.byOutputs(module, c.Expressions[key].References); t != "" {
			return t
		}
		if t := l.byVariables(module, c.Expressions[key].References); t != "" {
			return t
		}
		if c.ForEachExpression != nil {
			lr = l.linkRefs(configAddr, modulePath, "\x00for_each", c.ForEachExpression.References, accept)
			if t, done := l.fromRefs(lr, n, key, module, index, accept); done {
				return t
			}
		}
		if t := l.byValue(n, key, accept); t != "" {
			return t
		}
		return l.byLocal(n, key, module, accept, c.Expressions[key].References)
	}
	return l.byValue(n, key, accept)
}

// byLocal links an attribute that a plan's configuration shows naming a
// local value (bucket = local.bucket_id), whose value is unknown until
// apply, to the one resource it can name in its module instance that is
// created by the plan (its id unknown too). The configuration of a plan
// has no locals, so the reference leads nowhere; unknown, the value names
// no existing resource (a data source or a resource already applied would
// be known), so it is one the plan creates. Unlinked, an access block and
// a public ACL both naming their bucket so were read apart, and the ACL
// was reported public (Terraform source follows the local and does not).
// Several candidates: nothing is guessed.
func (l *tfLinker) byLocal(n *node, key, module string, accept linkAccept, refs []string) string {
	if !isUnknown(n.attrs[key]) || !slices.ContainsFunc(refs, func(r string) bool { return strings.HasPrefix(r, "local.") }) {
		return ""
	}
	if l.created == nil {
		l.created = map[string][]*node{}
		for _, c := range l.g.nodes {
			if f, ok := families[c.typ]; ok && len(f.link) == 0 && isUnknown(c.attrs["id"]) {
				m, _, _ := splitAddress(c.addr)
				l.created[m] = append(l.created[m], c)
			}
		}
	}
	found := ""
	for _, c := range l.created[module] {
		if c == n || !accept.ok(c.typ) {
			continue
		}
		if found != "" {
			return ""
		}
		found = c.addr
	}
	return found
}

// fromRefs returns what references say for n, in module instance module
// with index key index: the instance they name, or when they name several
// what n's value says; done is false when they say nothing.
func (l *tfLinker) fromRefs(lr tfLinkRefs, n *node, key, module, index string, accept linkAccept) (target string, done bool) {
	if lr.several {
		return l.byValue(n, key, accept), true
	}
	if c := l.instance(module, index, lr.ref); lr.decides && c != nil {
		return c.addr, true
	}
	return "", false
}

// byValue finds the one resource of a type accept takes whose id or name
// is the value of n's linking attribute (a group and a role may share a
// name).
func (l *tfLinker) byValue(n *node, key string, accept linkAccept) string {
	s, ok := n.attrs[key].(string)
	if !ok {
		return ""
	}
	if f := families[n.typ].linkValue; f != nil {
		s = f(s)
	}
	var found *node
	for _, c := range l.ids[s] {
		if !accept.ok(c.typ) {
			continue
		}
		if found != nil && found != c {
			return "" // ambiguous
		}
		found = c
	}
	if found == nil {
		return ""
	}
	return found.addr
}

// linkRefs works out, once per configuration resource and attribute, what
// refs say about the resource of kind its instances configure; modulePath
// is the configuration resource's module path ("module.net.").
func (l *tfLinker) linkRefs(configAddr, modulePath, attr string, refs []string, accept linkAccept) tfLinkRefs {
	k := [2]string{configAddr, attr}
	if lr, ok := l.refs[k]; ok {
		return lr
	}
	var lr tfLinkRefs
	for _, r := range parseRefs(refs) {
		if typ, ok := l.types[modulePath+r.resource]; !ok || !accept.ok(typ) {
			continue // not in the document, or not something the attribute can name
		}
		if lr.decides {
			lr = tfLinkRefs{several: true}
			break
		}
		lr = tfLinkRefs{ref: r, decides: true}
	}
	l.refs[k] = lr
	return lr
}

// parseRefs keeps the references that name a managed resource, once each,
// in order: "aws_s3_bucket.logs.id" and "aws_s3_bucket.logs" are one. A
// resource also named with an index key ("aws_s3_bucket.b[0]") is that
// instance: Terraform lists the reference without its key as well.
func parseRefs(refs []string) []tfRef {
	var out []tfRef
	var seen map[tfRef]bool // for long lists only: most have two or three references
	if len(refs) > 16 {
		seen = map[tfRef]bool{}
	}
	indexed := false
	for _, ref := range refs {
		r, ok := parseRef(ref)
		switch {
		case !ok:
		case seen != nil && seen[r], seen == nil && slices.Contains(out, r):
		default:
			if seen != nil {
				seen[r] = true
			}
			out = append(out, r)
			indexed = indexed || r.index != ""
		}
	}
	if !indexed {
		return out
	}
	withIndex := map[string]bool{}
	for _, r := range out {
		if r.index != "" {
			withIndex[r.resource] = true
		}
	}
	kept := out[:0]
	for _, r := range out {
		if r.index != "" || !withIndex[r.resource] {
			kept = append(kept, r)
		}
	}
	return kept
}

// parseRef parses a reference to a managed resource
// ("aws_s3_bucket.b[\"k\"].id"); ok is false for any other reference.
func parseRef(ref string) (r tfRef, ok bool) {
	typ, rest, ok := strings.Cut(ref, ".")
	if !ok {
		return r, false
	}
	switch typ {
	case "data", "var", "local", "each", "count", "path", "self", "module", "terraform":
		return r, false
	}
	name := rest
	if k := strings.IndexAny(rest, ".["); k >= 0 {
		name = rest[:k]
	}
	r.resource = typ + "." + name
	if after := rest[len(name):]; strings.HasPrefix(after, "[") {
		if end := closingBracket(after); end > 0 {
			r.index = after[:end+1]
		}
	}
	return r, true
}

// instance is the instance ref leads to from a referrer in module
// instance module with index key index, or nil: the one with the
// reference's index key when it has one, the one instance when there is
// one, else the one with the referrer's own key (count.index and each.key
// mirror the target's).
func (l *tfLinker) instance(module, index string, ref tfRef) *node {
	set := l.instances[module+ref.resource]
	switch {
	case set == nil:
		return nil
	case ref.index != "":
		return set.at(ref.index)
	case set.byIndex == nil:
		return set.one
	case index != "":
		return set.at(index)
	}
	return nil
}

// splitAddress splits a resource address into its module instance prefix
// ("module.net[0]." or ""), its local address with index
// ("aws_s3_bucket.b[\"x\"]") and the index part alone ("[\"x\"]" or "").
func splitAddress(addr string) (module, local, index string) {
	rest := addr
	for strings.HasPrefix(rest, "module.") {
		k := len("module.")
		for k < len(rest) && rest[k] != '.' && rest[k] != '[' {
			k++
		}
		if k < len(rest) && rest[k] == '[' {
			end := closingBracket(rest[k:])
			if end < 0 {
				break
			}
			k += end + 1
		}
		if k >= len(rest) || rest[k] != '.' {
			break
		}
		module += rest[:k+1]
		rest = rest[k+1:]
	}
	local = rest
	if k := strings.IndexByte(rest, '['); k >= 0 {
		index = rest[k:]
	}
	return module, local, index
}

// closingBracket returns the index of the ']' closing s[0] == '[', skipping
// quoted strings (for_each keys may hold dots and brackets), or -1.
func closingBracket(s string) int {
	inStr := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && c == ']':
			return i
		}
	}
	return -1
}

func stripIndex(local string) string {
	if k := strings.IndexByte(local, '['); k >= 0 {
		return local[:k]
	}
	return local
}

// stripModuleIndex turns "module.net[0].module.db[\"a\"]." into
// "module.net.module.db.".
func stripModuleIndex(module string) string {
	if strings.IndexByte(module, '[') < 0 {
		return module
	}
	var b strings.Builder
	for module != "" {
		if module[0] == '[' {
			end := closingBracket(module)
			if end < 0 {
				break
			}
			module = module[end+1:]
			continue
		}
		b.WriteByte(module[0])
		module = module[1:]
	}
	return b.String()
}

// deposedNode is the node of a deposed object of the instance addr:
// listed in not_checked under its own name, as Terraform names it, since
// Terraform destroys it at the next apply. Read as the instance, it
// repeated the instance's findings under the same name and fingerprint,
// and took its address in the links.
func deposedNode(addr, key, typ string, line int) *node {
	name := addr + " (deposed object " + key + ")"
	return &node{addr: name, typ: typ, line: line, base: name, attrs: map[string]any{},
		skip: "a deposed object, left by a create_before_destroy replacement: Terraform destroys it at the next apply"}
}
