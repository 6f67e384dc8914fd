package scan

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CloudFormation templates, JSON or YAML (yaml.go turns the short-form
// tags into the long form first). Intrinsic functions are resolved as far
// as the template allows:
//   - Ref to a parameter takes its Default; without one the value is
//     unknown. Ref and Fn::GetAtt to a resource name it (that is how a
//     bucket policy or an ingress rule is linked to its bucket or group).
//     Pseudo parameters (AWS::Region, ...) are unknown, but for
//     AWS::Partition in the text of Fn::Join and Fn::Sub (see partition);
//     AWS::NoValue removes the property.
//   - Fn::Sub, Fn::Join, Fn::Select, Fn::Split, Fn::FindInMap and
//     Fn::Base64 are computed when their inputs are known; Fn::ImportValue,
//     Fn::GetAZs and Fn::Cidr are unknown. What they produce is bounded
//     (MaxEvalBytes): a few lines joining a long parameter with itself,
//     nested, would otherwise build gigabytes.
//   - Conditions (Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition) are
//     decided from parameter defaults. One that cannot be decided is
//     handled conservatively: both outcomes are checked, consistently with
//     the other conditions (cfn_conditions.go), and the findings that
//     depend on it say which condition was undecided. A resource whose
//     Condition is false is not created, and is listed in not_checked
//     with that reason.
//
//   - Fn::ForEach loops among the resources are expanded (cfn_foreach.go).
//
// In-place suppressions: Metadata: {parapet: {suppress: [{rule, reason}]}}.

// MaxEvalBytes bounds the text a template's intrinsic functions produce in
// one scan: each Ref to a parameter and each Fn::FindInMap counts the size
// of the value it repeats, Fn::Join and Fn::Sub the size of their result,
// Fn::Split its input and listElementBytes per element. Real templates
// produce a small fraction of their own size; past the bound the scan is
// refused (413) rather than left to build, and parse, what the template
// multiplies.
const MaxEvalBytes = 4 * MaxInputBytes

// listElementBytes is what an element of a list built by Fn::Split costs
// against MaxEvalBytes: its place in memory, whatever its text.
const listElementBytes = 16

type cfnTemplate struct {
	produced int            // bytes counted against MaxEvalBytes
	params   map[string]any // parameter -> default, or unknown
	allowed  map[string][]any
	// assigned overrides params (and pseudo parameters) while conditions
	// are decided for one combination of values (cfn_conditions.go).
	assigned map[string]any
	reread   int // bytes of properties read again, against MaxConditionRereadBytes
	// limited are the warnings of conditions read all true, then all
	// false, past a limit (pastLimit), by conditions and limit.
	limited      map[[2]string]*Warning
	limitedOrder [][2]string
	conditions   map[string]any
	mappings     map[string]any
	resources    map[string]map[string]any
	decided      map[string]tri
	deciding     map[string]bool
	// assume is the outcome taken for a condition that could not be
	// decided, in this reading (cfn_conditions.go).
	assume bool
	// dropped is set when a list lost an element that is AWS::NoValue:
	// the findings' paths then need the template's indices (cfn_paths.go),
	// worked out once per list in indexMaps.
	dropped   bool
	indexMaps map[*any][]int
	noValues  int // elements isNoValue looked at, which must grow linearly with a list (its test)
}

type tri int8

const (
	triUnknown tri = iota
	triTrue
	triFalse
)

// partition is what the pseudo parameter AWS::Partition reads as in the
// text Fn::Join and Fn::Sub build, where it is otherwise unknown like the
// others: it only ever names the partition of an ARN, which no rule
// depends on (none is a wildcard or a variable), and CDK and SAM build the
// ARNs of AWS managed policies with it
// (arn:${AWS::Partition}:iam::aws:policy/AdministratorAccess).
const partition = "aws"

// noValue is AWS::NoValue: the property is removed.
type noValueT struct{}

// refTo is a resource named by Ref or Fn::GetAtt.
type refTo struct{ logical string }

func scanCloudFormation(doc map[string]any, format string, lines map[string]int, env *envelope) (res *Result, err error) {
	defer catchAbort(&err) // MaxEvalBytes
	resources, ok := doc["Resources"].(map[string]any)
	if !ok {
		return nil, &ValidationError{Problems: []Problem{{Path: "Resources", Message: "a CloudFormation template needs a Resources object"}}}
	}
	if len(resources) > MaxResources {
		return nil, tooManyResources()
	}
	t := &cfnTemplate{params: map[string]any{}, allowed: map[string][]any{}, conditions: mapOf(doc["Conditions"]), mappings: mapOf(doc["Mappings"]),
		resources: map[string]map[string]any{}, decided: map[string]tri{}, deciding: map[string]bool{}}
	for name, p := range mapOf(doc["Parameters"]) {
		if d, ok := mapOf(p)["Default"]; ok {
			t.params[name] = listDefault(mapOf(p)["Type"], d)
		} else {
			t.params[name] = unknown
		}
		if allowed, ok := mapOf(p)["AllowedValues"].([]any); ok {
			t.allowed[name] = allowed
		}
	}
	loops := t.newLoopExpansion(lines)
	resources = loops.resources(resources)
	if len(resources) > MaxResources {
		return nil, tooManyResources()
	}
	t.conditions = loops.inlineMap(t.conditions, "Conditions")
	ids := make([]string, 0, len(resources))
	for id, r := range resources {
		ids = append(ids, id)
		t.resources[id] = loops.inlineMap(mapOf(r), id)
	}
	// Template order by line (YAML and JSON templates both record them),
	// else by logical id.
	sort.Slice(ids, func(i, j int) bool {
		if lines[ids[i]] != lines[ids[j]] {
			return lines[ids[i]] < lines[ids[j]]
		}
		return ids[i] < ids[j]
	})
	g := newGraph(format)
	var problems []Problem
	undecided := map[*node][]string{} // the undecided conditions of each resource's Fn::If
	var included []string
	for _, id := range ids {
		r := t.resources[id]
		typ, _ := r["Type"].(string)
		if id == "Fn::Transform" {
			// Resources from a snippet (AWS::Include): the snippet is
			// not in the template, so its resources are not read, but
			// the template's own still are.
			included = append(included, includeLocation(r))
			continue
		}
		if id == "" { // CloudFormation's logical ids are alphanumeric: a finding needs a name
			problems = append(problems, Problem{Path: "Resources", Message: "a resource's logical id must not be empty"})
			continue
		}
		if r == nil || typ == "" {
			problems = append(problems, resourceProblem("Resources."+id, t.resources[id], resources[id]))
			continue
		}
		n := &node{addr: id, typ: typ, line: lines[id], base: "Resources." + id + ".Properties"}
		n.suppress = metadataSuppressions(id, r, typ, &problems)
		t.assume = true
		if c, ok := r["Condition"].(string); ok {
			switch t.condition(c) {
			case triFalse:
				n.skip = "its condition " + c + " is false with the parameters' defaults: not created"
			case triUnknown:
				n.note = "condition " + c + " could not be decided; checked as if it were true"
			}
		}
		n.attrs = t.properties(r)
		if names := t.undecidedIfs(r["Properties"]); len(names) > 0 {
			undecided[n] = names
			note := "condition " + joinAnd(names) + " could not be decided; both outcomes were checked"
			n.altNote = note
		}
		if fam, ok := families[typ]; ok {
			for _, k := range fam.link {
				if ref, ok := n.attrs[k].(refTo); ok {
					n.target = ref.logical
					break
				}
			}
		}
		g.add(n)
	}
	if len(problems) > 0 {
		return nil, validationError(problems)
	}
	linkByName(g)
	t.readUndecided(g, undecided)
	res = g.evaluate(env)
	t.templatePaths(res)
	res.Warnings = t.conditionWarnings()
	if len(included) > 0 {
		res.Warnings = append(res.Warnings, Warning{Message: "resources included by Fn::Transform not read: the snippet is not in the template",
			Count: len(included), Resources: included})
	}
	loopWarnings := loops.warnings()
	res.Warnings = append(res.Warnings, loopWarnings...)
	if declaresNoNames(doc["Transform"]) && len(included) == 0 && len(loopWarnings) == 0 {
		// A transform (SAM, a macro, an included snippet) declares
		// names of its own (a function's Role, ServerlessRestApi);
		// AWS::LanguageExtensions declares none, and the names its
		// loops make are those of the expanded template, the Outputs'
		// loops expanded too (their warnings are not the scan's: no
		// rule reads the outputs; one left unexpanded is not checked).
		outputs := t.newLoopExpansion(lines).inlineMap(mapOf(doc["Outputs"]), "Outputs")
		if w, ok := undeclaredRefs(mapOf(doc["Parameters"]), t.resources, outputs, ids); ok {
			res.Warnings = append(res.Warnings, w)
		}
	}
	return res, nil
}

// declaresNoNames says whether a template's Transform, if any, adds no
// names to it: none, or AWS::LanguageExtensions alone (Fn::ForEach,
// Fn::Length, Fn::ToJsonString).
func declaresNoNames(transform any) bool {
	for _, v := range listOf(transform) {
		if v != "AWS::LanguageExtensions" {
			return false
		}
	}
	return true
}

// listDefault is a parameter's default as a Ref reads it: a
// CommaDelimitedList or List<...> parameter's is a list (its members
// space-trimmed), the others' as written.
func listDefault(typ, d any) any {
	ty, _ := typ.(string)
	s, ok := d.(string)
	if !ok || ty != "CommaDelimitedList" && !strings.HasPrefix(ty, "List<") {
		return d
	}
	parts := strings.Split(s, ",")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = strings.TrimSpace(p)
	}
	return out
}

// undeclaredRefs warns of a Ref, in the resources (ids, in template order,
// loops expanded) or the outputs, to a name that is neither a parameter, a
// resource nor a pseudo parameter. CloudFormation refuses such a template; the scanner
// reads the Ref as unknown and checks the rest, so the warning is what
// tells a clean result from a template that cannot be deployed.
func undeclaredRefs(params map[string]any, resources map[string]map[string]any, outputs map[string]any, ids []string) (Warning, bool) {
	var names []string
	w := Warning{}
	check := func(where string, v any) {
		found := false
		walkRefs(v, func(name string) {
			_, p := params[name]
			_, r := resources[name]
			if p || r || strings.HasPrefix(name, "AWS::") {
				return
			}
			found = true
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		})
		if found {
			if w.Count++; len(w.Resources) < MaxNotCheckedAddresses {
				w.Resources = append(w.Resources, where)
			}
		}
	}
	for _, id := range ids {
		check(id, resources[id])
	}
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		if !isLoop(name) { // a loop left unexpanded: its identifiers are Refs of its own
			check("Outputs."+name, outputs[name])
		}
	}
	if len(names) == 0 {
		return w, false
	}
	slices.Sort(names) // walkRefs goes through maps in no order
	w.Message = "Ref to a name the template does not declare (" + strings.Join(names, ", ") +
		"): CloudFormation refuses the template; the scan read it as unknown"
	return w, true
}

// walkRefs calls f with the name of each Ref in v.
func walkRefs(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if name, ok := x["Ref"].(string); ok && len(x) == 1 {
			f(name)
			return
		}
		for _, sub := range x {
			walkRefs(sub, f)
		}
	case []any:
		for _, sub := range x {
			walkRefs(sub, f)
		}
	}
}

// includeLocation names the snippet a Fn::Transform of Resources
// includes: its Location (an S3 URL), or the transform's name.
func includeLocation(transform map[string]any) string {
	if loc, ok := mapOf(transform["Parameters"])["Location"].(string); ok {
		return loc
	}
	if name, ok := transform["Name"].(string); ok {
		return name
	}
	return "Fn::Transform"
}

// properties resolves the Properties of resource r.
func (t *cfnTemplate) properties(r map[string]any) map[string]any {
	if m := mapOf(t.eval(r["Properties"])); m != nil {
		return m
	}
	return map[string]any{}
}

// resourceProblem says what is wrong with the resource at path, which has
// no type: r is the resource as a mapping, raw what the template gave.
func resourceProblem(path string, r map[string]any, raw any) Problem {
	if r == nil {
		return Problem{Path: path, Message: "must be a mapping with a Type, got " + describeValue(raw)}
	}
	p := Problem{Path: path + ".Type"}
	switch v := r["Type"].(type) {
	case nil:
		p.Message = "is required"
	case string:
		p.Message = "must not be empty"
	default:
		p.Message = "must be a string naming the resource type (AWS::S3::Bucket), got " + describeValue(v)
	}
	return p
}

// describeValue is describe for a value already read (from YAML, or a
// JSON template).
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "string " + quoteShort(x)
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case float64:
		return "number " + shorten(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return "a value of another kind"
}

func validationError(problems []Problem) *ValidationError {
	ve := &ValidationError{Problems: problems}
	if len(problems) > MaxProblems {
		ve.Problems, ve.Omitted = problems[:MaxProblems], len(problems)-MaxProblems
	}
	return ve
}

// metadataSuppressions reads Metadata.parapet.suppress of a resource.
func metadataSuppressions(id string, r map[string]any, typ string, problems *[]Problem) []suppression {
	list := listOf(mapOf(mapOf(r["Metadata"])["parapet"])["suppress"])
	kind := families[typ].kind
	var out []suppression
	for j, s := range list {
		path := "Resources." + id + ".Metadata.parapet.suppress[" + strconv.Itoa(j) + "]"
		sm := mapOf(s)
		rule, _ := sm["rule"].(string)
		reason, _ := sm["reason"].(string)
		id, known := ruleByID(rule)
		switch {
		case !known:
			*problems = append(*problems, Problem{Path: path + ".rule", Message: unknownRule(rule, kind)})
		case kind != "" && catalogue[id].ResourceType != kind:
			*problems = append(*problems, Problem{Path: path + ".rule", Message: fmt.Sprintf("rule %s does not apply to %s resources; %s", rule, typ, rulesFor(kind))})
		case strings.TrimSpace(reason) == "":
			*problems = append(*problems, Problem{Path: path + ".reason", Message: "is required: say why the finding is accepted"})
		default:
			out = append(out, suppression{rule: id, reason: reason})
		}
	}
	return out
}

// eval resolves the intrinsic functions of a value.
func (t *cfnTemplate) eval(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			for k, arg := range x {
				if k == "Ref" || k == "Condition" || strings.HasPrefix(k, "Fn::") {
					return t.intrinsic(k, arg)
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, sub := range x {
			if r := t.eval(sub); r != (noValueT{}) {
				out[k] = r
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for _, sub := range x {
			if r := t.eval(sub); r != (noValueT{}) {
				out = append(out, r)
			} else {
				t.dropped = true
			}
		}
		return out
	}
	return v
}

func (t *cfnTemplate) intrinsic(fn string, arg any) any {
	args, _ := arg.([]any)
	switch fn {
	case "Ref":
		name, _ := arg.(string)
		if name == "AWS::NoValue" {
			return noValueT{}
		}
		if p, ok := t.param(name); ok {
			t.charge(textSize(p))
			return p
		}
		if _, ok := t.resources[name]; ok {
			return refTo{name}
		}
		return unknown
	case "Fn::GetAtt":
		switch a := arg.(type) {
		case string:
			name, _, _ := strings.Cut(a, ".")
			return refTo{name}
		case []any:
			if len(a) > 0 {
				if name, ok := a[0].(string); ok {
					return refTo{name}
				}
			}
		}
		return unknown
	case "Fn::If":
		if len(args) != 3 {
			return unknown
		}
		name, _ := args[0].(string)
		switch t.condition(name) {
		case triTrue:
			return t.eval(args[1])
		case triFalse:
			return t.eval(args[2])
		}
		if t.assume {
			return t.eval(args[1])
		}
		return t.eval(args[2])
	case "Fn::Join":
		if len(args) != 2 {
			return unknown
		}
		sep, ok := t.eval(args[0]).(string)
		parts, isList := t.eval(args[1]).([]any)
		if !ok || !isList {
			return unknown
		}
		raw, _ := args[1].([]any) // to tell a Ref to AWS::Partition
		strs := make([]string, len(parts))
		size, partial := 0, false
		for i, p := range parts {
			s, ok := p.(string)
			if !ok && len(raw) == len(parts) && isUnknown(p) && mapOf(raw[i])["Ref"] == "AWS::Partition" {
				s, ok = partition, true
			}
			if _, isRef := p.(refTo); !ok && (isUnknown(p) || isRef) {
				// A resource's name or attribute (Ref, Fn::GetAtt), a
				// pseudo parameter, a parameter without a default.
				s, ok, partial = knownAfterDeployment, true, true
			}
			if !ok {
				return unknown
			}
			strs[i] = s
			size += len(s) + len(sep)
		}
		t.charge(size) // before joining: the result is what costs
		if partial {
			return partialText{strings.Join(strs, sep)}
		}
		return strings.Join(strs, sep)
	case "Fn::Sub":
		return t.sub(arg)
	case "Fn::Select":
		if len(args) != 2 {
			return unknown
		}
		i, ok := intOf(t.eval(args[0]))
		list, isList := t.eval(args[1]).([]any)
		if !ok || !isList || i < 0 || i >= len(list) {
			return unknown
		}
		return list[i]
	case "Fn::Split":
		if len(args) != 2 {
			return unknown
		}
		sep, ok1 := t.eval(args[0]).(string)
		s, ok2 := t.eval(args[1]).(string)
		if !ok1 || !ok2 || sep == "" { // CloudFormation needs a delimiter
			return unknown
		}
		t.charge(len(s) + listElementBytes*(strings.Count(s, sep)+1))
		var out []any
		for _, p := range strings.Split(s, sep) {
			out = append(out, p)
		}
		return out
	case "Fn::FindInMap":
		if len(args) != 3 {
			return unknown
		}
		var keys [3]string
		for i, a := range args {
			k, ok := t.eval(a).(string)
			if !ok {
				return unknown
			}
			keys[i] = k
		}
		if v, ok := mapOf(mapOf(t.mappings[keys[0]])[keys[1]])[keys[2]]; ok {
			t.charge(textSize(v))
			return v
		}
		return unknown
	case "Fn::Base64":
		return t.eval(arg)
	case "Condition":
		name, _ := arg.(string)
		switch t.condition(name) {
		case triTrue:
			return true
		case triFalse:
			return false
		}
		return unknown
	}
	return unknown // Fn::ImportValue, Fn::GetAZs, Fn::Cidr, and anything new
}

// sub computes Fn::Sub when every variable is known.
func (t *cfnTemplate) sub(arg any) any {
	var tmpl string
	vars := map[string]any{}
	switch a := arg.(type) {
	case string:
		tmpl = a
	case []any:
		if len(a) != 2 {
			return unknown
		}
		s, ok := a[0].(string)
		if !ok {
			return unknown
		}
		tmpl = s
		for k, v := range mapOf(a[1]) {
			vars[k] = t.eval(v)
		}
	default:
		return unknown
	}
	// The pieces are gathered and counted first, then joined in one
	// allocation: a builder growing by a quarter at a time would allocate
	// several times what the result is.
	var pieces []string
	size, partial := 0, false
	add := func(s string) {
		pieces = append(pieces, s)
		size += len(s)
	}
	for tmpl != "" {
		i := strings.Index(tmpl, "${")
		if i < 0 {
			add(tmpl)
			break
		}
		add(tmpl[:i])
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			add(tmpl[i:])
			break
		}
		name := tmpl[i+2 : i+j]
		tmpl = tmpl[i+j+1:]
		if strings.HasPrefix(name, "!") {
			add("${")
			add(name[1:])
			add("}")
			continue
		}
		v, ok := vars[name]
		if !ok {
			v, ok = t.param(name)
		}
		if !ok && name == "AWS::Partition" {
			v, ok = partition, true
		}
		s, isStr := strOf(v)
		_, isRef := v.(refTo)
		switch {
		case isStr && ok:
		case !ok && strings.TrimSpace(name) != "" || isUnknown(v) || isRef:
			// A resource (${Bucket}, ${Bucket.Arn}), a pseudo
			// parameter, a parameter without a default.
			s, partial = knownAfterDeployment, true
		default:
			return unknown
		}
		add(s)
	}
	t.charge(size)
	if partial {
		return partialText{strings.Join(pieces, "")}
	}
	return strings.Join(pieces, "")
}

// knownAfterDeployment stands for the unknown parts of a partialText.
const knownAfterDeployment = "(known after deployment)"

// charge counts n bytes produced by an intrinsic function against
// MaxEvalBytes, aborting the scan past it.
func (t *cfnTemplate) charge(n int) {
	if t.produced += n; t.produced > MaxEvalBytes {
		panic(abort{&LimitError{Limit: "cloudformation_expansion", Max: MaxEvalBytes, Message: fmt.Sprintf(
			"the template's intrinsic functions (Ref, Fn::Join, Fn::Sub, Fn::FindInMap, Fn::Split) produce more than %d bytes (20 MiB) of text; the limit is %d",
			MaxEvalBytes, MaxEvalBytes)}})
	}
}

// textSize is what repeating v costs: the bytes of its strings and keys,
// and listElementBytes for each element or member. It stops counting past
// MaxEvalBytes, which is all charge needs to know.
func textSize(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []any:
		n := 0
		for _, e := range x {
			if n += listElementBytes + textSize(e); n > MaxEvalBytes {
				break
			}
		}
		return n
	case map[string]any:
		n := 0
		for k, e := range x {
			if n += listElementBytes + len(k) + textSize(e); n > MaxEvalBytes {
				break
			}
		}
		return n
	}
	return listElementBytes // a number, a boolean, null, unknown
}

// condition decides a named condition from the parameters' defaults.
func (t *cfnTemplate) condition(name string) tri {
	if d, ok := t.decided[name]; ok {
		return d
	}
	expr, ok := t.conditions[name]
	if !ok || t.deciding[name] {
		return triUnknown
	}
	t.deciding[name] = true
	d := t.decide(expr)
	t.deciding[name] = false
	t.decided[name] = d
	return d
}

func (t *cfnTemplate) decide(expr any) tri {
	m := mapOf(expr)
	if len(m) != 1 {
		return triUnknown
	}
	for fn, arg := range m {
		args, _ := arg.([]any)
		switch fn {
		case "Fn::Equals":
			if len(args) != 2 {
				return triUnknown
			}
			a, okA := strOf(t.eval(args[0]))
			b, okB := strOf(t.eval(args[1]))
			if !okA || !okB {
				return triUnknown
			}
			return triOf(a == b)
		case "Fn::Not":
			if len(args) != 1 {
				return triUnknown
			}
			switch t.decide(args[0]) {
			case triTrue:
				return triFalse
			case triFalse:
				return triTrue
			}
			return triUnknown
		case "Fn::And", "Fn::Or":
			all, some, unk := true, false, false
			for _, a := range args {
				switch t.decide(a) {
				case triTrue:
					some = true
				case triFalse:
					all = false
				default:
					unk = true
				}
			}
			if fn == "Fn::And" {
				if !all {
					return triFalse
				}
				if unk {
					return triUnknown
				}
				return triTrue
			}
			if some {
				return triTrue
			}
			if unk {
				return triUnknown
			}
			return triFalse
		case "Condition":
			name, _ := arg.(string)
			return t.condition(name)
		}
	}
	return triUnknown
}

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// cfnNameProps are the properties that name a resource a linking
// resource can name by that name instead of a Ref: a bucket policy's
// Bucket, an ingress rule's GroupName (a default VPC's group).
var cfnNameProps = map[string]string{"AWS::S3::Bucket": "BucketName", "AWS::EC2::SecurityGroup": "GroupName"}

// linkByName links each linking resource without a Ref to the one
// resource of the template that its linking property names by its name
// (Bucket: acme-logs, the bucket's BucketName: acme-logs; or both the
// same parameter's default), as a plan's linker falls back to names. Read
// on its own, a policy was reported as a bucket of its own, public even
// when the bucket's PublicAccessBlockConfiguration blocks it.
func linkByName(g *graph) {
	var byName map[string][]*node
	for _, n := range g.nodes {
		fam, ok := families[n.typ]
		if !ok || len(fam.link) == 0 || n.target != "" {
			continue
		}
		if byName == nil {
			byName = map[string][]*node{}
			for _, c := range g.nodes {
				if prop, ok := cfnNameProps[c.typ]; ok {
					if s, ok := c.attrs[prop].(string); ok && s != "" {
						byName[s] = append(byName[s], c)
					}
				}
			}
		}
		for _, k := range fam.link {
			s, ok := n.attrs[k].(string)
			if !ok {
				continue
			}
			var found []*node
			for _, c := range byName[s] {
				if canConfigure(n.typ, c.typ) {
					found = append(found, c)
				}
			}
			if len(found) == 1 { // two of one name: which one is not known (a condition may drop one)
				n.target = found[0].addr
				break
			}
		}
	}
}
