package scan

import (
	"sort"
	"strconv"
	"strings"
)

// Fn::ForEach (the AWS::LanguageExtensions transform) among a template's
// resources: "Fn::ForEach::Name": [Identifier, Collection, {OutputKey:
// OutputValue}]. Each element of the collection (a list, or a Ref to a
// CommaDelimitedList or List<...> parameter) makes a resource of each
// OutputKey, named with ${Identifier} replaced by the element and
// &{Identifier} by the element without its non-alphanumeric characters
// (10.0.1.0/24 gives 1001024); in the resource, a Ref to the identifier
// and its ${Identifier} in a Fn::Sub read the element. Loops nest (an
// OutputKey that is itself a Fn::ForEach::), an inner loop seeing the
// outer identifiers. A generated resource's line is its OutputKey's.
//
// Loops in a resource's properties and among the conditions are
// expanded too (cfn_foreach_inline.go).
//
// A loop whose collection is unknown (a parameter without a default) is
// not expanded, and a warning names it. CloudFormation allows 500
// resources a template; loops stop at MaxLoopResources resources, which
// bounds what a few nested lists can multiply, and a warning names the
// loops cut short. What each copy repeats counts against MaxEvalBytes.

// MaxLoopResources bounds the resources Fn::ForEach loops make in one
// template: ten times CloudFormation's own limit.
const MaxLoopResources = 5_000

// maxLoopSteps bounds the elements the loops of a template visit.
const maxLoopSteps = 20 * MaxLoopResources

const loopPrefix = "Fn::ForEach::"

func isLoop(key string) bool { return strings.HasPrefix(key, loopPrefix) }

// loopLineKey is the key under which the line of an OutputKey of a loop
// is noted: the loops' names from the outermost, and the key.
func loopLineKey(loops, key string) string { return loops + "\x00" + key }

type loopExpansion struct {
	t      *cfnTemplate
	lines  map[string]int
	out    map[string]any
	made   int
	steps  int      // elements visited, against maxLoopSteps
	unread []string // loops not expanded: their collection is unknown or they are malformed
	cut    []string // loops stopped at MaxLoopResources
	// The same for the loops in properties and conditions, by the
	// resource (or Conditions) they are in.
	unreadInline, cutInline []string
}

func (t *cfnTemplate) newLoopExpansion(lines map[string]int) *loopExpansion {
	return &loopExpansion{t: t, lines: lines}
}

// resources returns resources with each Fn::ForEach loop replaced by the
// resources it makes (their lines added to lines).
func (e *loopExpansion) resources(resources map[string]any) map[string]any {
	var loops []string
	for id := range resources {
		if isLoop(id) {
			loops = append(loops, id)
		}
	}
	if len(loops) == 0 {
		return resources
	}
	e.out = make(map[string]any, len(resources))
	for id, r := range resources {
		if !isLoop(id) {
			e.out[id] = r
		}
	}
	byLine(loops, func(k string) int { return e.lines[k] })
	for _, id := range loops {
		e.loop(id, id, resources[id], nil, e.lines[id])
	}
	return e.out
}

// warnings are those of the loops not read in full.
func (e *loopExpansion) warnings() []Warning {
	var ws []Warning
	if len(e.unread) > 0 {
		ws = append(ws, Warning{Message: "resources made by Fn::ForEach (AWS::LanguageExtensions) not read: " + unreadLoopReason,
			Count: len(e.unread), Resources: e.unread})
	}
	if len(e.cut) > 0 {
		ws = append(ws, Warning{Message: "resources made by Fn::ForEach past " + strconv.Itoa(MaxLoopResources) + " not read: the loops make more than the scanner expands",
			Count: len(e.cut), Resources: e.cut})
	}
	if len(e.unreadInline) > 0 {
		ws = append(ws, Warning{Message: "properties or conditions made by Fn::ForEach (AWS::LanguageExtensions) not read: " + unreadLoopReason,
			Count: len(e.unreadInline), Resources: e.unreadInline})
	}
	if len(e.cutInline) > 0 {
		ws = append(ws, Warning{Message: "properties or conditions made by Fn::ForEach not read in full: the loops visit more than " + strconv.Itoa(maxLoopSteps) + " elements",
			Count: len(e.cutInline), Resources: e.cutInline})
	}
	return ws
}

const unreadLoopReason = "the loop's collection is not known (a parameter without a default) or the loop is malformed"

// loop expands a loop (its value v; path names it and its outer loops,
// for the lines) with the outer loops' identifiers bound in vars; name is
// the outermost loop's, which warnings give.
func (e *loopExpansion) loop(name, path string, v any, vars map[string]string, line int) {
	args, _ := v.([]any)
	if len(args) != 3 {
		e.unread = appendNew(e.unread, name)
		return
	}
	ident, _ := args[0].(string)
	frag, _ := args[2].(map[string]any)
	items, ok := e.collection(substituteLoopVars(args[1], vars))
	if ident == "" || frag == nil || !ok {
		e.unread = appendNew(e.unread, name)
		return
	}
	keys := make([]string, 0, len(frag))
	for k := range frag {
		keys = append(keys, k)
	}
	byLine(keys, func(k string) int { return e.lines[loopLineKey(path, k)] })
	for _, item := range items {
		// Nested loops whose innermost collection is empty make nothing
		// but still iterate: the elements visited are bounded too.
		if e.steps++; e.steps > maxLoopSteps {
			e.cut = appendNew(e.cut, name)
			return
		}
		inner := make(map[string]string, len(vars)+1)
		for k, x := range vars {
			inner[k] = x
		}
		inner[ident] = item
		for _, k := range keys {
			at := e.lines[loopLineKey(path, k)]
			if at == 0 {
				at = line
			}
			if isLoop(k) {
				e.loop(name, loopLineKey(path, k), frag[k], inner, at)
				continue
			}
			if e.made >= MaxLoopResources {
				e.cut = appendNew(e.cut, name)
				return
			}
			id := substituteLoopText(k, inner)
			if _, taken := e.out[id]; taken {
				continue // a logical id made twice: CloudFormation refuses the template; the first is read
			}
			r := substituteLoopVars(frag[k], inner)
			e.t.charge(textSize(r))
			e.out[id] = r
			e.lines[id] = at
			e.made++
		}
	}
}

// collection is the loop's list of strings, if it is known.
func (e *loopExpansion) collection(v any) ([]string, bool) {
	l, ok := e.t.eval(v).([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		switch s := x.(type) {
		case string:
			out = append(out, s)
		case float64:
			out = append(out, strconv.FormatFloat(s, 'f', -1, 64))
		case bool:
			out = append(out, strconv.FormatBool(s))
		default:
			return nil, false
		}
	}
	return out, true
}

// substituteLoopVars returns v with the loop identifiers of vars read:
// {"Ref": identifier} is the element, and ${identifier} and
// &{identifier} in a Fn::Sub are replaced (a Fn::Sub left with nothing
// to substitute becomes its text, so that Fn::GetAtt: [!Sub
// "${Name}Bucket", Arn] names the resource).
func substituteLoopVars(v any, vars map[string]string) any {
	if len(vars) == 0 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			if name, ok := x["Ref"].(string); ok {
				if val, bound := vars[name]; bound {
					return val
				}
			}
			if sub, ok := x["Fn::Sub"]; ok {
				switch s := sub.(type) {
				case string:
					out := substituteLoopText(s, vars)
					if !strings.Contains(out, "${") {
						return out
					}
					return map[string]any{"Fn::Sub": out}
				case []any:
					if len(s) == 2 {
						if text, ok := s[0].(string); ok {
							return map[string]any{"Fn::Sub": []any{substituteLoopText(text, vars), substituteLoopVars(s[1], vars)}}
						}
					}
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, sub := range x {
			out[k] = substituteLoopVars(sub, vars)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, sub := range x {
			out[i] = substituteLoopVars(sub, vars)
		}
		return out
	}
	return v
}

// substituteLoopText replaces ${identifier} by the element and
// &{identifier} by the element's letters and digits.
func substituteLoopText(s string, vars map[string]string) string {
	if !strings.ContainsAny(s, "$&") {
		return s
	}
	for name, val := range vars {
		s = strings.ReplaceAll(s, "${"+name+"}", val)
		s = strings.ReplaceAll(s, "&{"+name+"}", alphanumeric(val))
	}
	return s
}

func alphanumeric(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// byLine sorts keys by their line, then by name.
func byLine(keys []string, line func(string) int) {
	sort.Slice(keys, func(i, j int) bool {
		if li, lj := line(keys[i]), line(keys[j]); li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
}
