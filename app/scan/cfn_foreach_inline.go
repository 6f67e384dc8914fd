package scan

import (
	"slices"
	"sort"
)

// Fn::ForEach below the Resources level: in a resource's properties (at
// any depth: the PublicAccessBlockConfiguration whose four settings one
// loop sets) and among the Conditions. There a loop's OutputKeys are
// merged into the mapping that holds it, as CloudFormation does; left as
// they were, the settings and conditions a loop makes were missing, so a
// bucket whose public access block a loop sets read as unblocked, and a
// resource whose condition a loop makes could not be decided. The
// Outputs' loops are expanded only for undeclaredRefs: no rule reads the
// outputs.
//
// A loop the scanner cannot expand (its collection is not known) stays
// as it is, which no rule reads, and a warning names where it is. The
// elements visited count against maxLoopSteps, what each copy repeats
// against MaxEvalBytes.

// inlineMap returns m with the loops in it, at any depth, expanded;
// where names it (a resource's logical id, or Conditions) for warnings.
func (e *loopExpansion) inlineMap(m map[string]any, where string) map[string]any {
	if m == nil || !hasLoop(m) {
		return m
	}
	out, _ := e.inline(m, where).(map[string]any)
	return out
}

// hasLoop says whether v holds a loop, so that the resources without one
// (nearly all) are not copied.
func hasLoop(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if isLoop(k) || hasLoop(sub) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(x, hasLoop)
	}
	return false
}

// inline returns v with its mappings' loops expanded.
func (e *loopExpansion) inline(v any, where string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		var loops []string
		for k, sub := range x {
			if isLoop(k) {
				loops = append(loops, k)
				continue
			}
			out[k] = e.inline(sub, where)
		}
		sort.Strings(loops) // a key two loops make: the first by name is kept, whatever the map's order
		for _, k := range loops {
			if !e.inlineLoop(out, x[k], nil, where) {
				out[k] = x[k]
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, sub := range x {
			out[i] = e.inline(sub, where)
		}
		return out
	}
	return v
}

// inlineLoop merges into out the keys the loop v makes, with the outer
// loops' identifiers (in the same mapping) bound in vars. It says whether
// the loop could be read; a key already in out is kept, as a logical id
// made twice is for resources.
func (e *loopExpansion) inlineLoop(out map[string]any, v any, vars map[string]string, where string) bool {
	args, _ := v.([]any)
	if len(args) != 3 {
		e.unreadInline = appendNew(e.unreadInline, where)
		return false
	}
	ident, _ := args[0].(string)
	frag, _ := args[2].(map[string]any)
	items, ok := e.collection(substituteLoopVars(args[1], vars))
	if ident == "" || frag == nil || !ok {
		e.unreadInline = appendNew(e.unreadInline, where)
		return false
	}
	keys := make([]string, 0, len(frag))
	for k := range frag {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, item := range items {
		if e.steps++; e.steps > maxLoopSteps {
			e.cutInline = appendNew(e.cutInline, where)
			return true
		}
		inner := make(map[string]string, len(vars)+1)
		for k, x := range vars {
			inner[k] = x
		}
		inner[ident] = item
		for _, k := range keys {
			if isLoop(k) {
				if !e.inlineLoop(out, frag[k], inner, where) {
					out[k] = frag[k]
				}
				continue
			}
			key := substituteLoopText(k, inner)
			if _, taken := out[key]; taken {
				continue
			}
			val := e.inline(substituteLoopVars(frag[k], inner), where)
			e.t.charge(textSize(val))
			out[key] = val
		}
	}
	return true
}
