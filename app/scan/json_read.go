package scan

import (
	"strconv"
)

// readTerraform reads `terraform show -json` output in one pass of our
// JSON reader, which checks its syntax and nesting as it goes and decodes
// only what the scanner uses: each resource's values, the after_unknown of
// each change, and the references of the linking attributes in the
// configuration. The rest (before/after of changes, prior_state, outputs,
// every other expression) is skipped without being decoded, which is what
// makes a plan cheaper to scan than to decode with encoding/json.
//
// A value of an unexpected kind where the format has an object or array
// is skipped, as if absent: the scanner reads what it understands of a
// document and lists what it does not check, rather than reject a future
// format version for a field it does not need.
func readTerraform(data []byte) (doc tfDocument, err error) {
	r := &reader{data: data, maxDepth: MaxDocumentDepth}
	defer func() {
		if e := recover(); e != nil {
			a, ok := e.(abort)
			if !ok {
				panic(e)
			}
			err = a.err
		}
	}()
	// Resources are met in document order: one count of newlines for all.
	r.lines = &lineCounter{data: data}
	r.object(func(key string) {
		switch key {
		case "planned_values":
			doc.PlannedValues = r.tfValues()
		case "values":
			doc.Values = r.tfValues()
		case "resource_changes":
			r.array(func() { doc.ResourceChanges = append(doc.ResourceChanges, r.tfChange()) })
		case "configuration":
			doc.Configuration = &tfConfig{}
			r.object(func(key string) {
				if key == "root_module" {
					doc.Configuration.RootModule = r.tfConfigModule()
				} else {
					r.skip()
				}
			})
		default:
			r.skip()
		}
	})
	r.ws()
	if r.pos < len(r.data) {
		r.fail("after top-level value")
	}
	return doc, nil
}

// object calls fn with each key of an object, fn reading the value; a
// value that is not an object is skipped. It reports whether there was an
// object.
func (r *reader) object(fn func(key string)) bool {
	if r.valueStart() != '{' {
		r.skip()
		return false
	}
	r.enter()
	for first := true; ; first = false {
		key, ok := r.objectKey(first)
		if !ok {
			return true
		}
		fn(string(key))
	}
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

// stringValue reads a string, or skips another value and returns "".
func (r *reader) stringValue() string {
	if r.valueStart() != '"' {
		r.skip()
		return ""
	}
	return string(r.str())
}

// anyValue decodes a value as encoding/json decodes into any.
func (r *reader) anyValue() any {
	switch r.valueStart() {
	case '{':
		m := map[string]any{}
		r.object(func(key string) { m[key] = r.anyValue() })
		return m
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

func (r *reader) tfValues() *tfValues {
	v := &tfValues{}
	r.object(func(key string) {
		if key == "root_module" {
			v.RootModule = r.tfModule()
		} else {
			r.skip()
		}
	})
	return v
}

func (r *reader) tfModule() tfModule {
	var m tfModule
	r.object(func(key string) {
		switch key {
		case "address":
			m.Address = r.stringValue()
		case "resources":
			r.array(func() { m.Resources = append(m.Resources, r.tfResource()) })
		case "child_modules":
			r.array(func() { m.ChildModules = append(m.ChildModules, r.tfModule()) })
		default:
			r.skip()
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
		case "address":
			res.Address = r.stringValue()
		case "mode":
			res.Mode = r.stringValue()
		case "type":
			res.Type = r.stringValue()
		case "values":
			res.Values, _ = r.anyValue().(map[string]any)
		default:
			r.skip()
		}
	})
	return res
}

func (r *reader) tfChange() tfChange {
	var c tfChange
	r.object(func(key string) {
		switch key {
		case "address":
			c.Address = r.stringValue()
		case "mode":
			c.Mode = r.stringValue()
		case "change":
			r.object(func(key string) {
				if key == "after_unknown" {
					c.Change.AfterUnknown = r.anyValue()
				} else {
					r.skip()
				}
			})
		default:
			r.skip()
		}
	})
	return c
}

func (r *reader) tfConfigModule() tfConfigModule {
	var m tfConfigModule
	r.object(func(key string) {
		switch key {
		case "resources":
			r.array(func() { m.Resources = append(m.Resources, r.tfConfigResource()) })
		case "module_calls":
			m.ModuleCalls = map[string]tfModuleCall{}
			r.object(func(name string) {
				var call tfModuleCall
				r.object(func(key string) {
					if key == "module" {
						call.Module = r.tfConfigModule()
					} else {
						r.skip()
					}
				})
				m.ModuleCalls[name] = call
			})
		default:
			r.skip()
		}
	})
	return m
}

// linkAttrs are the attributes whose references link a resource to the
// one it configures: the only expressions read.
var linkAttrs = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range families {
		for _, k := range f.link {
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
				if !linkAttrs[attr] {
					r.skip()
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
		default:
			r.skip()
		}
	})
	return c
}

func (r *reader) tfExpression() tfExpression {
	var e tfExpression
	r.object(func(key string) {
		if key == "references" {
			r.array(func() { e.References = append(e.References, r.stringValue()) })
		} else {
			r.skip()
		}
	})
	return e
}

// readCloudFormationJSON decodes a JSON template in one pass of our
// reader, noting the line of each resource's logical id for SARIF and the
// page.
func readCloudFormationJSON(data []byte) (doc map[string]any, lines map[string]int, err error) {
	r := &reader{data: data, maxDepth: MaxDocumentDepth}
	defer func() {
		if e := recover(); e != nil {
			a, ok := e.(abort)
			if !ok {
				panic(e)
			}
			err = a.err
		}
	}()
	doc, lines = map[string]any{}, map[string]int{}
	lc := lineCounter{data: data}
	r.object(func(key string) {
		if key != "Resources" || r.valueStart() != '{' {
			doc[key] = r.anyValue()
			return
		}
		res := map[string]any{}
		r.object(func(id string) {
			lines[id] = lc.at(r.pos)
			res[id] = r.anyValue()
		})
		doc[key] = res
	})
	r.ws()
	if r.pos < len(r.data) {
		r.fail("after top-level value")
	}
	return doc, lines, nil
}
