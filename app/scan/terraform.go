package scan

import "strings"

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
// count or for_each; failing that, and always in a state, the value of the
// linking attribute is matched against the id or name of the candidates.

// The parts of a document the scanner reads (json_read.go), named after
// Terraform's keys.

type tfDocument struct {
	PlannedValues   *tfModule // the root_module of planned_values
	Values          *tfModule // the root_module of values
	ResourceChanges []tfChange
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
		return nil, &ValidationError{Problems: []Problem{{Path: "planned_values",
			Message: "a Terraform plan needs planned_values and a state needs values (use `terraform show -json`)"}}}
	}
	g := newGraph(format)
	unknowns := map[string]any{}
	for _, c := range doc.ResourceChanges {
		if c.managed() && c.AfterUnknown != nil {
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
	l := newTFLinker(g, doc.Configuration)
	for _, n := range g.nodes {
		if fam, ok := families[n.typ]; ok && len(fam.link) > 0 {
			n.target = l.target(n, fam.link[0])
		}
	}
	return g.evaluate(env), nil
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

// tfLinker finds the resource a linking resource configures.
type tfLinker struct {
	g *graph
	// config by module path without index keys ("module.net") and
	// resource address without index ("aws_s3_bucket.logs").
	config map[string]tfConfigResource
	// instances of a resource by module instance and address without index:
	// "module.net[0].aws_s3_bucket.logs" -> its nodes.
	instances map[string][]*node
	// ids: a primary resource's id, bucket name or name -> its node
	ids map[string][]*node
	// outputs: what a module instance's output links to (tf_outputs.go)
	outputs map[string]string
}

func newTFLinker(g *graph, config map[string]tfConfigResource) *tfLinker {
	l := &tfLinker{g: g, config: config, instances: map[string][]*node{}, ids: map[string][]*node{}}
	for _, n := range g.nodes {
		module, local, _ := splitAddress(n.addr)
		l.instances[module+stripIndex(local)] = append(l.instances[module+stripIndex(local)], n)
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

// target resolves the linking attribute of n to an address, or "".
func (l *tfLinker) target(n *node, key string) string {
	module, local, index := splitAddress(n.addr)
	if c, ok := l.config[stripModuleIndex(module)+stripIndex(local)]; ok {
		if t := l.byRefs(module, index, c.Expressions[key].References); t != "" {
			return t
		}
		if t := l.byOutputs(module, c.Expressions[key].References); t != "" {
			return t
		}
		if c.ForEachExpression != nil {
			if t := l.byRefs(module, index, c.ForEachExpression.References); t != "" {
				return t
			}
		}
	}
	// By value: the one resource of the same family with that id or name
	// (a group and a role may share a name).
	if s, ok := n.attrs[key].(string); ok {
		var found *node
		for _, c := range l.ids[s] {
			if families[c.typ].kind != families[n.typ].kind {
				continue
			}
			if found != nil && found != c {
				return "" // ambiguous
			}
			found = c
		}
		if found != nil {
			return found.addr
		}
	}
	return ""
}

// byRefs takes the first reference that names a resource instance of the
// same module instance: with an index key when the reference has one, the
// one instance when there is one, else the instance with the referrer's
// own index key (count.index and each.key mirror the target's).
func (l *tfLinker) byRefs(module, index string, refs []string) string {
	for _, ref := range refs {
		first, _, _ := strings.Cut(ref, ".")
		switch first {
		case "data", "var", "local", "each", "count", "path", "self", "module", "terraform":
			continue
		}
		typ, rest, ok := strings.Cut(ref, ".")
		if !ok {
			continue
		}
		name := rest
		if k := strings.IndexAny(rest, ".["); k >= 0 {
			name = rest[:k]
		}
		refIndex := ""
		if after := rest[len(name):]; strings.HasPrefix(after, "[") {
			if end := closingBracket(after); end > 0 {
				refIndex = after[:end+1]
			}
		}
		cands := l.instances[module+typ+"."+name]
		if refIndex != "" {
			for _, c := range cands {
				if _, _, ix := splitAddress(c.addr); ix == refIndex {
					return c.addr
				}
			}
			continue
		}
		if len(cands) == 1 {
			return cands[0].addr
		}
		for _, c := range cands {
			if _, _, ix := splitAddress(c.addr); ix == index && index != "" {
				return c.addr
			}
		}
	}
	return ""
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
