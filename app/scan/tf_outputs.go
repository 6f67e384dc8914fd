package scan

import "strings"

// Links through module outputs. A resource often names its bucket or group
// by a module's output (bucket = module.bucket.s3_bucket_id, as with the
// registry's S3 module); the plan's configuration gives the output's own
// references (aws_s3_bucket.this[0].id), which are resolved like any
// reference, within the instance of the called module. An output that
// names another module's output is followed in turn.
//
// The configuration's outputs are kept in the map of its resources, under
// the module's path and outputKey plus the output's name: no resource type
// is called "output", so they cannot collide.
//
// Links through module inputs are the other way round: a rule in a module
// names its group by a variable (security_group_id = var.sg_id), and the
// module call's argument for it (sg_id = aws_security_group.web.id, or
// module.sg.id) is resolved in the calling module's instance. The
// arguments are kept under the called module's path and variableKey plus
// the variable's name. Terraform source links so (hcl_*.go), and without
// this a plan's rule was reported on its own address while the source's
// was reported on its group: the same resources gave different findings.

const (
	outputKey   = "output."
	variableKey = "var."
)

// tfConfigOutput keeps an output's references as a configuration entry.
func tfConfigOutput(e tfExpression) tfConfigResource {
	return tfConfigResource{Expressions: map[string]tfExpression{"value": e}}
}

// byOutputs takes the first reference to a module's output, from a
// resource of the module instance module ("" or "module.net[0]."), that
// leads to a resource instance.
func (l *tfLinker) byOutputs(module string, refs []string) string {
	for _, ref := range refs {
		inner, output, ok := outputRef(ref)
		if !ok {
			continue
		}
		if t := l.output(module+inner, output); t != "" {
			return t
		}
	}
	return ""
}

// output resolves output of the module instance module ("module.bucket.").
// Each is resolved once per document, so a chain of modules whose outputs
// name each other many times costs one pass over the outputs, and a cycle
// (which Terraform refuses, but a document may hold) ends.
func (l *tfLinker) output(module, output string) string {
	key := module + outputKey + output
	if t, done := l.outputs[key]; done {
		return t
	}
	if l.outputs == nil {
		l.outputs = map[string]string{}
	}
	l.outputs[key] = "" // in progress
	c, ok := l.config[stripModuleIndex(module)+outputKey+output]
	if !ok {
		return ""
	}
	refs := c.Expressions["value"].References
	t := ""
	for _, r := range parseRefs(refs) {
		if c := l.instance(module, "", r); c != nil {
			t = c.addr
			break
		}
	}
	if t == "" {
		t = l.byOutputs(module, refs)
	}
	if t == "" {
		t = l.byVariables(module, refs)
	}
	l.outputs[key] = t
	return t
}

// byVariables takes the first reference to an input variable of the module
// instance module ("module.net[0]."), from a resource or an output in it,
// whose argument in the module call leads to a resource instance.
func (l *tfLinker) byVariables(module string, refs []string) string {
	if module == "" {
		return "" // the root module's variables come from outside
	}
	for _, ref := range refs {
		name, ok := strings.CutPrefix(ref, variableKey)
		if !ok || name == "" {
			continue
		}
		if k := strings.IndexAny(name, ".["); k >= 0 {
			name = name[:k] // an attribute of an object variable
		}
		if t := l.variable(module, name); t != "" {
			return t
		}
	}
	return ""
}

// variable resolves the input name of the module instance module in its
// caller, once per document as output does (the two share the memo: their
// keys differ).
func (l *tfLinker) variable(module, name string) string {
	key := module + variableKey + name
	if t, done := l.outputs[key]; done {
		return t
	}
	if l.outputs == nil {
		l.outputs = map[string]string{}
	}
	l.outputs[key] = "" // in progress
	c, ok := l.config[stripModuleIndex(module)+variableKey+name]
	if !ok {
		return ""
	}
	caller, index := callerOf(module)
	refs := c.Expressions["value"].References
	t := ""
	for _, r := range parseRefs(refs) {
		if c := l.instance(caller, index, r); c != nil {
			t = c.addr
			break
		}
	}
	if t == "" {
		t = l.byOutputs(caller, refs)
	}
	if t == "" {
		t = l.byVariables(caller, refs)
	}
	l.outputs[key] = t
	return t
}

// callerOf is the module instance that calls module, "module.net[0]."
// for "module.net[0].module.rules[\"db\"].", "" for "module.net.", and
// the index key of the call (["db"]): an argument naming a resource of as
// many instances (aws_security_group.this[each.key]) names the one with
// that key, as a resource's own key does.
func callerOf(module string) (caller, index string) {
	caller, _, index = splitAddress(strings.TrimSuffix(module, "."))
	return caller, index
}

// outputRef splits a reference to a module output,
// "module.bucket.s3_bucket_id" or "module.b[\"x\"].bucket.id", into the
// called module instance ("module.bucket.", "module.b[\"x\"].") and the
// output's name.
func outputRef(ref string) (module, output string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "module.")
	if !ok {
		return "", "", false
	}
	k := strings.IndexAny(rest, ".[")
	if k <= 0 {
		return "", "", false // "module.bucket" names the whole module
	}
	name, rest := rest[:k], rest[k:]
	key := ""
	if rest[0] == '[' {
		end := closingBracket(rest)
		if end < 0 {
			return "", "", false
		}
		key, rest = rest[:end+1], rest[end+1:]
	}
	output, ok = strings.CutPrefix(rest, ".")
	if k := strings.IndexAny(output, ".["); k >= 0 {
		output = output[:k] // an attribute of an object output
	}
	if !ok || output == "" {
		return "", "", false
	}
	return "module." + name + key + ".", output, true
}
