package scan

import (
	"sort"
	"strings"
)

// Conditions that the parameters' defaults do not decide. Checking each
// one both ways on its own ignores how conditions relate: with IsPublic
// undecided and IsPrivate = !Not [IsPublic], taking both true, then both
// false, never reads the template as it is deployed (public and not
// private, or the reverse), and a bucket public in one of them was missed.
//
// So the parameters the undecided conditions depend on are given values
// instead, and the conditions derived from them: each of a parameter's
// AllowedValues, or else each value a condition compares it with and one
// value that none does. Every combination is a reading of the resources
// whose Fn::If use those conditions, and of the resource they are linked
// to (a bucket and its policy are read under the same combination); the
// findings of every reading are reported. A parameter compared in another
// way (inside Fn::Select, with another parameter) is not enumerated; the
// conditions it leaves undecided are taken true, then false, in each
// combination, as are those that depend on what only the deployment knows
// (Fn::ImportValue, Fn::GetAZs).
//
// At most MaxConditionCases readings are made for a resource, and the
// readings beyond two read at most MaxConditionRereadBytes of a
// template's properties in all; past either, as when no parameter can be
// enumerated, every undecided condition is taken true, then false,
// together: two readings, as a template with an undecided condition always
// had. Past a limit, the findings of those resources say so, and so does
// a warning of the result: a finding that needs some of the conditions
// true and others false may be missed, and a clean result must not be
// taken for more than it is.

// MaxConditionCases bounds the readings of one resource (with the
// resources linked to it) for its undecided conditions.
const MaxConditionCases = 16

// MaxConditionRereadBytes bounds the properties read again for readings
// beyond two, counted as textSize counts them: each is resolved, checked
// and its policies parsed again, which allocates some thirty times its
// size. A quarter of the largest template lets real templates (a few
// resources on two or three parameters, or many on one with three
// values) have every reading, and keeps a template built to multiply them
// within about a tenth of a second more.
const MaxConditionRereadBytes = MaxInputBytes / 4

// otherValue stands for any value of a parameter that no condition
// compares it with.
const otherValue = "\x00any other value"

// cfnReading is one reading of resources whose conditions could not be
// decided from the defaults: the outcome of those conditions that a
// combination of parameter values decides, and the outcome taken for the
// others.
type cfnReading struct {
	decided map[string]tri
	assume  bool
}

// cfnVar is a parameter given values to decide conditions.
type cfnVar struct {
	name   string
	values []any
}

// param returns the value of a parameter or pseudo parameter: its
// assigned value while conditions are decided for a combination, else its
// default (or unknown); ok is false for a name that is neither.
func (t *cfnTemplate) param(name string) (any, bool) {
	if v, ok := t.assigned[name]; ok {
		return v, true
	}
	v, ok := t.params[name]
	return v, ok
}

// undecidedIfs returns the conditions that Fn::If names anywhere in v and
// the defaults do not decide, sorted.
func (t *cfnTemplate) undecidedIfs(v any) []string {
	names := map[string]bool{}
	ifConditions(v, names)
	var out []string
	for c := range names {
		if t.condition(c) == triUnknown {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// ifConditions adds to names the conditions of every Fn::If in v, on
// every branch.
func ifConditions(v any, names map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if args, ok := x["Fn::If"].([]any); ok && len(x) == 1 && len(args) > 0 {
			if c, ok := args[0].(string); ok {
				names[c] = true
			}
		}
		for _, sub := range x {
			ifConditions(sub, names)
		}
	case []any:
		for _, sub := range x {
			ifConditions(sub, names)
		}
	}
}

// readUndecided reads again, once per reading of their undecided
// conditions, the resources whose Fn::If depend on them (undecided), each
// with the resource it is linked to: the first reading becomes a node's
// attrs, the others its alt, in the same order for every node linked
// together.
func (t *cfnTemplate) readUndecided(g *graph, undecided map[*node][]string) {
	groups := map[string][]*node{}
	type conditionReadings struct {
		readings []cfnReading
		past     string // the limit that cut them to all true, all false
	}
	byConds := map[string]conditionReadings{}
	var roots []string
	for _, n := range g.nodes { // in document order, so the result is the same every time
		if undecided[n] == nil {
			continue
		}
		root := rootOf(g, n)
		if groups[root] == nil {
			roots = append(roots, root)
		}
		groups[root] = append(groups[root], n)
	}
	for _, root := range roots {
		members := groups[root]
		var conds []string
		for _, m := range members {
			conds = appendNew(conds, undecided[m]...)
		}
		sort.Strings(conds)
		key := strings.Join(conds, "\x00")
		rc, ok := byConds[key]
		if !ok {
			rc.readings, rc.past = t.readings(conds)
			byConds[key] = rc // resources often share their conditions
		}
		readings, past := rc.readings, rc.past
		if past == "" {
			readings, past = t.affordable(readings, members)
		}
		if past != "" {
			t.pastLimit(conds, past, members)
		}
		for _, m := range members {
			r := t.resources[m.addr]
			m.alt = nil
			for k, rd := range readings {
				if k == 0 && rd.decided == nil && rd.assume {
					continue // m.attrs was read so: the defaults, undecided conditions true
				}
				attrs := t.readAs(r, rd)
				if k == 0 {
					m.attrs = attrs
				} else {
					m.alt = append(m.alt, attrs)
				}
			}
		}
	}
}

// affordable returns readings, or the two readings of every condition
// true and then false when the readings beyond two would read members'
// properties past MaxConditionRereadBytes, with the limit in words.
func (t *cfnTemplate) affordable(readings []cfnReading, members []*node) ([]cfnReading, string) {
	if len(readings) <= 2 {
		return readings, ""
	}
	size := 0
	for _, m := range members {
		size += textSize(t.resources[m.addr]["Properties"])
	}
	cost := (len(readings) - 2) * size
	if t.reread+cost > MaxConditionRereadBytes {
		return []cfnReading{{assume: true}, {assume: false}},
			"reading every combination would read the template's properties again past the scanner's limit (1.25 MiB)"
	}
	t.reread += cost
	return readings, ""
}

// pastLimit notes that the undecided conditions conds of members were
// read all true, then all false, because of the limit past: on the
// members' findings, and in a warning of the result (conditionWarnings).
func (t *cfnTemplate) pastLimit(conds []string, past string, members []*node) {
	note := joinAnd(conds) + " could not be decided and " + past + ": checked all true, then all false"
	if len(conds) == 1 {
		note = "condition " + note
	} else {
		note = "conditions " + note
	}
	key := [2]string{strings.Join(conds, "\x00"), past}
	w := t.limited[key]
	if w == nil {
		if t.limited == nil {
			t.limited = map[[2]string]*Warning{}
		}
		w = &Warning{Message: note + ". A finding that needs some of them true and others false may be missed; " +
			"give the parameters they depend on defaults, or fewer AllowedValues, to have them decided.", Resources: []string{}}
		t.limited[key] = w
		t.limitedOrder = append(t.limitedOrder, key)
	}
	for _, m := range members {
		m.altNote = note
		w.Count++
		if len(w.Resources) < MaxNotCheckedAddresses {
			w.Resources = append(w.Resources, m.addr)
		}
	}
}

// conditionWarnings are the warnings of pastLimit, in document order.
func (t *cfnTemplate) conditionWarnings() []Warning {
	var out []Warning
	for _, k := range t.limitedOrder {
		out = append(out, *t.limited[k])
	}
	return out
}

// rootOf is the address of the resource n is read with: the one it
// configures, when that is in the document, else its own.
func rootOf(g *graph, n *node) string {
	if c := g.byAddr[n.target]; c != nil {
		if f, ok := families[c.typ]; ok && len(f.link) == 0 && f.kind == families[n.typ].kind {
			return c.addr
		}
	}
	return n.addr
}

// readAs resolves the Properties of r in reading rd.
func (t *cfnTemplate) readAs(r map[string]any, rd cfnReading) map[string]any {
	base := t.decided
	if rd.decided != nil {
		t.decided = make(map[string]tri, len(rd.decided))
		for c, v := range rd.decided {
			t.decided[c] = v
		}
	}
	t.assume = rd.assume
	attrs := t.properties(r)
	t.decided, t.assume = base, true
	return attrs
}

// readings returns the readings of conds: one per distinct outcome of
// the combinations of their parameters' values, or, without a parameter
// to give values to, conds all true and then all false; past
// MaxConditionCases too, and then past says which limit in words.
func (t *cfnTemplate) readings(conds []string) (out []cfnReading, past string) {
	both := []cfnReading{{assume: true}, {assume: false}}
	vars := t.conditionVars(conds)
	cases := 1
	for _, v := range vars {
		if cases *= len(v.values); cases > MaxConditionCases {
			return both, "the values of the parameters they depend on have more than 16 combinations (the scanner's limit)"
		}
	}
	if len(vars) == 0 {
		return both, ""
	}
	seen := map[string]bool{}
	for i := 0; i < cases; i++ {
		decided := t.decideWith(assignment(vars, i), conds)
		for _, assume := range []bool{true, false} {
			key := outcomeKey(conds, decided, assume)
			if !seen[key] {
				seen[key] = true
				out = append(out, cfnReading{decided: decided, assume: assume})
			}
			if len(decided) == len(conds) {
				break // nothing left to assume
			}
		}
	}
	if len(out) > MaxConditionCases {
		return both, "they have more than 16 combinations of outcomes (the scanner's limit)"
	}
	return out, ""
}

// assignment is the i-th combination of the values of vars, counting
// with the first variable fastest.
func assignment(vars []cfnVar, i int) map[string]any {
	a := make(map[string]any, len(vars))
	for _, v := range vars {
		a[v.name] = v.values[i%len(v.values)]
		i /= len(v.values)
	}
	return a
}

// decideWith decides conds with the parameters of assigned set, and
// returns those it decides.
func (t *cfnTemplate) decideWith(assigned map[string]any, conds []string) map[string]tri {
	base := t.decided
	t.assigned, t.decided = assigned, map[string]tri{}
	out := map[string]tri{}
	for _, c := range conds {
		if v := t.condition(c); v != triUnknown {
			out[c] = v
		}
	}
	t.assigned, t.decided = nil, base
	return out
}

// outcomeKey names the outcome of every condition of conds in a reading:
// decided, or taken as assume.
func outcomeKey(conds []string, decided map[string]tri, assume bool) string {
	b := make([]byte, len(conds))
	for i, c := range conds {
		v, ok := decided[c]
		if !ok {
			v = triOf(assume)
		}
		b[i] = "?TF"[v]
	}
	return string(b)
}

// conditionVars returns the parameters that conds depend on and can be
// given values, with those values, sorted by name.
func (t *cfnTemplate) conditionVars(conds []string) []cfnVar {
	c := &varCollector{t: t, literals: map[string][]any{}, opaque: map[string]bool{}, seen: map[string]bool{}}
	for _, name := range conds {
		c.condition(name)
	}
	var names []string
	for name := range c.literals {
		names = append(names, name)
	}
	for name := range c.opaque {
		if c.literals[name] == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var vars []cfnVar
	for _, name := range names {
		switch {
		case len(t.allowed[name]) > 0:
			vars = append(vars, cfnVar{name, t.allowed[name]})
		case !c.opaque[name]:
			vars = append(vars, cfnVar{name, append(c.literals[name], otherValue)})
		}
	}
	return vars
}

// varCollector finds the parameters, without a default, that conditions
// compare with known values (literals) or use in another way (opaque).
type varCollector struct {
	t        *cfnTemplate
	literals map[string][]any
	opaque   map[string]bool
	seen     map[string]bool // conditions already read
}

func (c *varCollector) condition(name string) {
	if !c.seen[name] {
		c.seen[name] = true
		c.expr(c.t.conditions[name])
	}
}

func (c *varCollector) expr(e any) {
	m := mapOf(e)
	if len(m) != 1 {
		c.uses(e)
		return
	}
	for fn, arg := range m {
		switch fn {
		case "Condition":
			name, _ := arg.(string)
			c.condition(name)
		case "Fn::Not", "Fn::And", "Fn::Or":
			for _, a := range listOf(arg) {
				c.expr(a)
			}
		case "Fn::Equals":
			args, _ := arg.([]any)
			if len(args) != 2 || !c.compares(args[0], args[1]) && !c.compares(args[1], args[0]) {
				c.uses(arg)
			}
		default:
			c.uses(e)
		}
	}
}

// compares notes a comparison of an unknown parameter (ref) with a known
// value (other), and reports whether it was one.
func (c *varCollector) compares(ref, other any) bool {
	name, ok := c.t.unknownRef(ref)
	if !ok {
		return false
	}
	s, ok := strOf(c.t.eval(other))
	if !ok {
		return false
	}
	c.literals[name] = appendNewValue(c.literals[name], s)
	return true
}

// uses marks every unknown parameter v refers to as used in a way its
// values cannot be enumerated from.
func (c *varCollector) uses(v any) {
	switch x := v.(type) {
	case map[string]any:
		if name, ok := c.t.unknownRef(x); ok {
			c.opaque[name] = true
			return
		}
		for _, sub := range x {
			c.uses(sub)
		}
	case []any:
		for _, sub := range x {
			c.uses(sub)
		}
	}
}

// unknownRef returns the name of the parameter without a default, or
// pseudo parameter, that v is a Ref to.
func (t *cfnTemplate) unknownRef(v any) (string, bool) {
	m := mapOf(v)
	name, ok := m["Ref"].(string)
	if !ok || len(m) != 1 {
		return "", false
	}
	if p, ok := t.params[name]; ok {
		return name, isUnknown(p)
	}
	return name, strings.HasPrefix(name, "AWS::") && name != "AWS::NoValue"
}

func appendNew(l []string, items ...string) []string {
	for _, s := range items {
		found := false
		for _, x := range l {
			found = found || x == s
		}
		if !found {
			l = append(l, s)
		}
	}
	return l
}

func appendNewValue(l []any, s string) []any {
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}
