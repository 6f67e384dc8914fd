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

const outputKey = "output."

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
	l.outputs[key] = t
	return t
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
