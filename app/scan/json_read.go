package scan

import (
	"strconv"

	"parapet/app/keyset"
)

// readTerraform reads `terraform show -json` output in one pass of our
// JSON reader, which checks its syntax and nesting as it goes and decodes
// only what the scanner uses: each resource's values, the after_unknown of
// each change (and the after of a policy document's data source read
// during apply), and the references of the linking attributes, of policy
// and policy_data and of the outputs in the configuration. The rest (before/after of changes,
// prior_state, output values, every other expression) is skipped without
// being decoded, which is what makes a plan cheaper to scan than to decode
// with encoding/json.
//
// A value of an unexpected kind where the format has an object or array
// is skipped, as if absent: the scanner reads what it understands of a
// document and lists what it does not check, rather than reject a future
// format version for a field it does not need.
func readTerraform(data []byte) (doc tfDocument, err error) {
	err = readDocument(data, func(r *reader) {
		// Resources are met in document order: one count of newlines for all.
		r.lines = &lineCounter{data: data}
		r.object(func(key string) {
			if key != "format_version" && key != "terraform_version" {
				doc.HasContent = true
			}
			switch key {
			case "planned_values":
				doc.PlannedValues = r.rootModule()
			case "values":
				doc.Values = r.rootModule()
			case "resource_changes":
				doc.ResourceChanges = appendArray(r, doc.ResourceChanges, r.tfChange)
			case "configuration":
				doc.Configuration = map[string]tfConfigResource{}
				r.member("root_module", func() { r.tfConfigModule("", doc.Configuration) })
			case "version": // a raw state file (terraform.tfstate): tfstate.go
				doc.StateVersion = r.numberValue()
			case "resources":
				doc.StateResources = appendArray(r, doc.StateResources, r.tfStateResource)
				doc.HasStateResources = true
			case "modules": // a raw state of format 3 and before
				doc.HasModules = true
			}
		})
	})
	return doc, err
}

// object calls fn with each key of an object, fn reading the value; the
// value of a key fn leaves unread is skipped, and so is a value that is
// not an object. A key given twice is refused (dupkeys.go).
func (r *reader) object(fn func(key string)) {
	if r.valueStart() != '{' {
		r.skip()
		return
	}
	r.enter()
	var keys keyset.Set[string]
	for first := true; ; first = false {
		key, ok := r.objectKey(first)
		if !ok {
			return
		}
		k := string(key)
		if keys.Seen(k) {
			r.duplicateKey(r.keyStart)
			r.skip() // the document is refused: its value is not read
			continue
		}
		at := r.pos
		fn(k)
		if r.pos == at { // every value is at least one byte
			r.skip()
		}
	}
}

// member calls fn to read the value of one key of an object, skipping the
// other keys.
func (r *reader) member(key string, fn func()) {
	r.object(func(k string) {
		if k == key {
			fn()
		}
	})
}

// array calls fn for each element of an array, fn reading it; a value
// that is not an array is skipped.
func (r *reader) array(fn func()) {
	if r.valueStart() != '[' {
		r.skip()
		return
	}
	r.enter()
	for first := true; r.arrayNext(first); first = false {
		fn()
	}
}

// appendArray appends each element of an array, read by read, to l; a
// value that is not an array adds nothing.
func appendArray[T any](r *reader, l []T, read func() T) []T {
	r.array(func() { l = append(l, read()) })
	return l
}

// rootModule reads the root_module of planned_values or values. Any value
// gives a module, empty without a root_module: planned_values: null still
// says the document is a plan.
func (r *reader) rootModule() *tfModule {
	m := &tfModule{}
	r.member("root_module", func() { *m = r.tfModule() })
	return m
}

// stringValue reads a string, or skips another value and returns "".
func (r *reader) stringValue() string {
	if r.valueStart() != '"' {
		r.skip()
		return ""
	}
	return string(r.str())
}

// numberValue reads a number, or skips another value and returns -1.
func (r *reader) numberValue() float64 {
	switch r.valueStart() {
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		start := r.pos
		r.number()
		f, _ := strconv.ParseFloat(string(r.data[start:r.pos]), 64)
		return f
	}
	r.skip()
	return -1
}

// anyValue decodes a value as encoding/json decodes into any.
func (r *reader) anyValue() any {
	switch r.valueStart() {
	case '{':
		// Not r.object: the map itself tells a repeated key (it does not
		// grow), at no cost, where a keyset would keep a second set.
		m := map[string]any{}
		r.enter()
		for first := true; ; first = false {
			key, ok := r.objectKey(first)
			if !ok {
				return m
			}
			at, n := r.keyStart, len(m)
			m[string(key)] = r.anyValue()
			if len(m) == n {
				r.duplicateKey(at)
			}
		}
	case '[':
		l := []any{}
		r.array(func() { l = append(l, r.anyValue()) })
		return l
	case '"':
		return string(r.str())
	case 't':
		r.literal("true")
		return true
	case 'f':
		r.literal("false")
		return false
	case 'n':
		r.literal("null")
		return nil
	}
	start := r.pos
	r.number()
	f, _ := strconv.ParseFloat(string(r.data[start:r.pos]), 64)
	return f
}

func (r *reader) tfModule() tfModule {
	var m tfModule
	r.object(func(key string) {
		switch key {
		case "resources":
			m.Resources = appendArray(r, m.Resources, r.tfResource)
		case "child_modules":
			m.ChildModules = appendArray(r, m.ChildModules, r.tfModule)
		}
	})
	return m
}

func (r *reader) tfResource() tfResource {
	var res tfResource
	r.ws()
	res.Line = r.lines.at(r.pos)
	r.object(func(key string) {
		switch key {
		case "type":
			res.Type = r.stringValue()
		case "values":
			res.Values, _ = r.anyValue().(map[string]any)
		default:
			r.tfInstance(key, &res.tfInstance)
		}
	})
	return res
}

// tfInstance reads the value of key if it is one of a tfInstance's.
func (r *reader) tfInstance(key string, i *tfInstance) {
	switch key {
	case "address":
		i.Address = r.stringValue()
	case "mode":
		i.Mode = r.stringValue()
	case "deposed_key", "deposed": // in the values, in the changes
		i.Deposed = r.stringValue()
	}
}

func (r *reader) tfChange() tfChange {
	var c tfChange
	r.object(func(key string) {
		switch key {
		case "type":
			c.Type = r.stringValue()
			return
		case "change":
		default:
			r.tfInstance(key, &c.tfInstance)
			return
		}
		// Terraform writes mode and type before change: only a policy
		// document's read has its after decoded (policiesFromDeferredReads).
		_, document := deferredPolicies[c.Type]
		policy := c.Mode == "data" && document
		r.object(func(key string) {
			switch {
			case key == "after_unknown":
				c.AfterUnknown = r.anyValue()
			case key == "after" && policy:
				c.After = r.anyValue()
			}
		})
	})
	return c
}

// tfConfigModule reads a module of the configuration, and those it calls,
// into config; prefix is its path ("module.net.").
func (r *reader) tfConfigModule(prefix string, config map[string]tfConfigResource) {
	r.object(func(key string) {
		switch key {
		case "resources":
			r.array(func() {
				c := r.tfConfigResource()
				config[prefix+c.Address] = c
			})
		case "module_calls":
			r.object(func(name string) {
				called := prefix + "module." + name + "."
				r.object(func(key string) {
					switch key {
					case "module":
						r.tfConfigModule(called, config)
					case "expressions": // kept as "var.<name>" entries of the called module: links through its inputs (tf_outputs.go)
						r.object(func(input string) {
							if e := r.tfExpression(); len(e.References) > 0 {
								config[called+variableKey+input] = tfConfigOutput(e)
							}
						})
					}
				})
			})
		case "outputs": // kept as "output.<name>" entries: links through module outputs (tf_outputs.go)
			r.object(func(name string) {
				r.member("expression", func() { config[prefix+outputKey+name] = tfConfigOutput(r.tfExpression()) })
			})
		}
	})
}

// linkAttrs are the attributes whose references link a resource to the
// one it configures or depends on, and the computed ones whose absence
// from the configuration says they were left out: the only expressions
// read.
var linkAttrs = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range families {
		for _, k := range f.link {
			m[k] = true
		}
		for _, k := range f.ctxAttrs {
			m[k] = true
		}
		for _, k := range f.computed {
			m[k] = true
		}
	}
	return m
}()

func (r *reader) tfConfigResource() tfConfigResource {
	var c tfConfigResource
	r.object(func(key string) {
		switch key {
		case "address":
			c.Address = r.stringValue()
		case "expressions":
			r.object(func(attr string) {
				// policy: to find the policy document read during apply
				// (policiesFromDeferredReads).
				if !linkAttrs[attr] && attr != "policy" && attr != "policy_data" {
					return
				}
				if c.Expressions == nil {
					c.Expressions = map[string]tfExpression{}
				}
				c.Expressions[attr] = r.tfExpression()
			})
		case "for_each_expression":
			e := r.tfExpression()
			c.ForEachExpression = &e
		}
	})
	return c
}

func (r *reader) tfExpression() tfExpression {
	var e tfExpression
	r.member("references", func() { e.References = appendArray(r, e.References, r.stringValue) })
	return e
}

// readCloudFormationJSON decodes a JSON template in one pass of our
// reader, noting the line of each resource's logical id for SARIF and the
// page.
func readCloudFormationJSON(data []byte) (doc map[string]any, lines map[string]int, err error) {
	doc, lines = map[string]any{}, map[string]int{}
	lc := lineCounter{data: data}
	err = readDocument(data, func(r *reader) {
		r.object(func(key string) {
			if key != "Resources" || r.valueStart() != '{' {
				doc[key] = r.anyValue()
				return
			}
			res := map[string]any{}
			r.object(func(id string) {
				lines[id] = lc.at(r.pos)
				if isLoop(id) {
					res[id] = r.loopValue(id, &lc, lines)
					return
				}
				res[id] = r.anyValue()
			})
			doc[key] = res
		})
	})
	return doc, lines, err
}

// loopValue decodes a Fn::ForEach loop (cfn_foreach.go), noting the line
// of each of its OutputKeys, and of its nested loops', under loopLineKey.
func (r *reader) loopValue(loops string, lc *lineCounter, lines map[string]int) any {
	if r.valueStart() != '[' {
		return r.anyValue()
	}
	l := []any{}
	r.array(func() {
		if len(l) != 2 || r.valueStart() != '{' {
			l = append(l, r.anyValue())
			return
		}
		frag := map[string]any{}
		r.object(func(key string) {
			lines[loopLineKey(loops, key)] = lc.at(r.pos)
			if isLoop(key) {
				frag[key] = r.loopValue(loopLineKey(loops, key), lc, lines)
				return
			}
			frag[key] = r.anyValue()
		})
		l = append(l, frag)
	})
	return l
}
