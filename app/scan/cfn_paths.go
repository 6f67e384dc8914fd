package scan

import (
	"strconv"
	"strings"
)

// A finding's path names the property as the template writes it. The
// rules read the template once its intrinsic functions are resolved, where
// a list element that is AWS::NoValue (the common
// !If [Cond, {...}, !Ref AWS::NoValue] among SecurityGroupIngress, a
// policy's Statement or ManagedPolicyArns) is gone and the elements after
// it have moved up: the second ingress rule, read first, was reported as
// SecurityGroupIngress[0], the rule the condition removed. templatePaths
// turns each index back into the template's, following the Fn::If the
// conditions decide, and trying each outcome of the undecided ones the
// scan reads. Where that is not known (outcomes that disagree on the
// index, a list made by a Ref or a function, a policy written as a JSON
// string), the rest of the path stays as read. Fingerprints do not use
// the path.

// templatePaths rewrites the paths of res's findings into the template's.
func (t *cfnTemplate) templatePaths(res *Result) {
	if !t.dropped {
		return // no list lost an element: the paths are the template's
	}
	for i := range res.Findings {
		res.Findings[i].Path = t.templatePath(res.Findings[i].Path)
	}
	for i := range res.Suppressed {
		res.Suppressed[i].Path = t.templatePath(res.Suppressed[i].Path)
	}
}

// templatePath is path (Resources.Id.Properties...) with the indices of
// the lists it goes through counted as the template writes them.
func (t *cfnTemplate) templatePath(path string) string {
	rest, ok := strings.CutPrefix(path, "Resources.")
	if !ok {
		return path
	}
	end := strings.IndexAny(rest, ".[")
	if end < 0 {
		return path
	}
	res, ok := t.resources[rest[:end]]
	if !ok || res == nil {
		return path
	}
	var cur any = res
	done := len(path) - len(rest) + end // path[:done] is as the template writes it
	for done < len(path) {
		if cur = t.resolveIf(cur); cur == nil {
			break
		}
		seg := path[done:]
		if seg[0] == '.' {
			m := mapOf(cur)
			key := seg[1:]
			if k := strings.IndexAny(key, ".["); k >= 0 {
				key = key[:k]
			}
			v, ok := m[key]
			if !ok {
				break
			}
			cur, done = v, done+1+len(key)
			continue
		}
		// "[k]": the k-th element that is not AWS::NoValue.
		shut := strings.IndexByte(seg, ']')
		k, err := strconv.Atoi(seg[1:max(shut, 1)])
		list, isList := cur.([]any)
		if shut < 0 || err != nil || !isList {
			break
		}
		j, ok := t.templateIndex(list, k)
		if !ok {
			break
		}
		if j != k {
			path = path[:done] + "[" + strconv.Itoa(j) + "]" + seg[shut+1:]
			shut = len(strconv.Itoa(j)) + 1
		}
		cur, done = list[j], done+shut+1
	}
	return path
}

// templateIndex returns the index in list of its k-th element that is
// not AWS::NoValue. When an undecided condition decides whether some
// element is there, each outcome the scan read is tried, and ok is true
// only when they agree (in !If [Open, {...}, NoValue] followed by
// !If [Open, NoValue, {...}], one of the two is always there). The
// indices of a list are worked out once, for all its elements: a
// template may have thousands of findings in one long list.
func (t *cfnTemplate) templateIndex(list []any, k int) (int, bool) {
	if len(list) == 0 {
		return 0, false
	}
	if t.indexMaps == nil {
		t.indexMaps = map[*any][]int{}
	}
	m, done := t.indexMaps[&list[0]]
	if !done {
		m = t.indexMap(list)
		t.indexMaps[&list[0]] = m
	}
	if k < 0 || k >= len(m) || m[k] < 0 {
		return 0, false
	}
	return m[k], true
}

// indexMap returns, for each k, the template index of the k-th element
// of list that is not AWS::NoValue, or -1 where that is not known.
func (t *cfnTemplate) indexMap(list []any) []int {
	if m, ok := t.indexesAs(list, nil); ok {
		return m
	}
	readings, _ := t.readings(t.undecidedIfs(list))
	var out []int
	for _, rd := range readings {
		base, assume := t.decided, rd.assume
		if rd.decided != nil {
			t.decided = make(map[string]tri, len(rd.decided))
			for c, v := range rd.decided {
				t.decided[c] = v
			}
		}
		m, _ := t.indexesAs(list, &assume)
		t.decided = base
		for k, j := range m {
			switch {
			case k >= len(out):
				out = append(out, j)
			case out[k] != j:
				out[k] = -1 // the outcomes disagree
			}
		}
	}
	return out
}

// indexesAs is indexMap with the undecided conditions taken as *assume;
// with assume nil, ok is false when one decides an element.
func (t *cfnTemplate) indexesAs(list []any, assume *bool) (m []int, ok bool) {
	m = make([]int, 0, len(list))
	for j, v := range list {
		switch t.isNoValue(v, assume) {
		case triTrue:
			continue
		case triUnknown:
			return nil, false
		}
		m = append(m, j)
	}
	return m, true
}

// isNoValue says whether v is AWS::NoValue, directly or as the branch a
// Fn::If takes; an undecided condition is taken as *assume, and with
// assume nil v is unknown when the branches differ.
func (t *cfnTemplate) isNoValue(v any, assume *bool) tri {
	t.noValues++
	m := mapOf(v)
	if len(m) != 1 {
		return triFalse
	}
	if ref, ok := m["Ref"]; ok {
		return triOf(ref == "AWS::NoValue")
	}
	args, ok := m["Fn::If"].([]any)
	if !ok || len(args) != 3 {
		return triFalse
	}
	name, _ := args[0].(string)
	c := t.condition(name)
	if c == triUnknown && assume != nil {
		c = triOf(*assume)
	}
	switch c {
	case triTrue:
		return t.isNoValue(args[1], assume)
	case triFalse:
		return t.isNoValue(args[2], assume)
	}
	if a := t.isNoValue(args[1], nil); a == t.isNoValue(args[2], nil) {
		return a
	}
	return triUnknown
}

// resolveIf follows the Fn::If that v may be to the branch its condition
// decides; nil when it is undecided.
func (t *cfnTemplate) resolveIf(v any) any {
	for depth := 0; depth < MaxDocumentDepth; depth++ {
		m := mapOf(v)
		args, ok := m["Fn::If"].([]any)
		if len(m) != 1 || !ok || len(args) != 3 {
			return v
		}
		name, _ := args[0].(string)
		switch t.condition(name) {
		case triTrue:
			v = args[1]
		case triFalse:
			v = args[2]
		default:
			return nil
		}
	}
	return nil
}
