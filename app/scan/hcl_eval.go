package scan

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Evaluating Terraform source into the normalized graph (graph.go), the
// graph a plan gives: a node per managed resource instance, addressed as
// Terraform addresses it (module.net.aws_security_group.db,
// aws_s3_bucket.b["logs"]), its attributes as a plan's JSON has them
// (strings, float64 numbers, booleans, lists, maps, nested blocks as lists
// of objects) and unknownValue for what only apply would know.
//
// Evaluation is on demand and memoized: a value (a variable, a local, a
// resource, a module's outputs) is worked out the first time an expression
// needs it, so the order of blocks in the files does not matter, as in
// Terraform; a reference cycle, which Terraform refuses, gives an unknown
// value. What the source does not say is unknown, never a default:
//   - a resource attribute the configuration does not set (an id, an arn)
//     is unknown wherever it is referenced;
//   - a variable without a value (no default, no tfvars) is unknown;
//   - an expression that fails (an unsupported function, a type error) is
//     unknown as a whole;
//   - count or for_each that is not known leaves the resource unchecked,
//     listed in not_checked with the reason.
//
// Links (an ACL to its bucket) follow the reference expressions: each
// resource instance's value carries a cty mark naming it, so the
// value of a linking attribute names the instance it came from, through
// locals, for_each, module inputs and outputs alike; a value that names
// none or several falls back to the plan adapter's linking (tfLinker) on
// the references and values.

// hclRefMark marks a value taken from a resource instance's attribute.
type hclRefMark string

type hclEval struct {
	set      *sourceSet
	modules  map[string]*hclModule // by directory, read once
	tfvars   map[string]tfvarValue
	refNames []string // attribute names used after a reference anywhere
	funcs    map[string]function.Function
	cost     int // against MaxHCLEvalBytes
	setWork  int // against MaxSetWork (hcl_sets.go)
	// funcInput is what function calls read, against MaxFunctionInput
	// (hcl_func_input.go).
	funcInput int
	modInsts  int
	insts     int

	g        *graph
	config   map[string]tfConfigResource // for tfLinker, as a plan's configuration
	linkVals map[hclLinkKey]cty.Value    // a linking attribute's value, marks kept
	warnings []string                    // modules not evaluated
	warned   []string                    // their addresses
}

type tfvarValue struct {
	val cty.Value
	rng hcl.Range
}

// hclInst is one instance of a module: the root, or a call's instance.
type hclInst struct {
	ev     *hclEval
	mod    *hclModule
	prefix string // "" or `module.net["a"].`
	depth  int

	parent    *hclInst
	call      *hclCall
	callScope *hclScope

	vars, locals, blocks, calls, outputs map[string]*hclMemo
	nodes                                map[string][]*node // by block key
	children                             map[string][]*hclInst
}

type hclMemo struct {
	busy, done bool
	val        cty.Value
}

// hclScope is what an expression inside a resource or module instance may
// name besides the module's values: each, count and dynamic blocks'
// iterators.
type hclScope struct {
	each, count cty.Value // cty.NilVal when absent
	iters       map[string]cty.Value
}

func (sc *hclScope) with(name string, v cty.Value) *hclScope {
	c := &hclScope{each: sc.each, count: sc.count, iters: make(map[string]cty.Value, len(sc.iters)+1)}
	for k, x := range sc.iters {
		c.iters[k] = x
	}
	c.iters[name] = v
	return c
}

func (ev *hclEval) module(dir string) (*hclModule, error) {
	if m, ok := ev.modules[dir]; ok {
		return m, nil
	}
	m, err := ev.set.loadModule(dir)
	if err != nil {
		return nil, err
	}
	ev.modules[dir] = m
	ev.collectRefNames(m)
	return m, nil
}

func newInst(ev *hclEval, mod *hclModule, prefix string, depth int) *hclInst {
	return &hclInst{ev: ev, mod: mod, prefix: prefix, depth: depth,
		vars: map[string]*hclMemo{}, locals: map[string]*hclMemo{}, blocks: map[string]*hclMemo{},
		calls: map[string]*hclMemo{}, outputs: map[string]*hclMemo{},
		nodes: map[string][]*node{}, children: map[string][]*hclInst{}}
}

// memo returns m[key]'s value, computing it with f once; a cycle gives an
// unknown value.
func memo(m map[string]*hclMemo, key string, f func() cty.Value) cty.Value {
	e := m[key]
	switch {
	case e == nil:
		e = &hclMemo{busy: true}
		m[key] = e
		e.val, e.done, e.busy = f(), true, false
		return e.val
	case e.busy:
		return cty.DynamicVal
	}
	return e.val
}

// run evaluates every resource and module of the instance, depth first.
func (mi *hclInst) run() {
	for _, b := range mi.mod.blocks {
		mi.block(b.key())
	}
	for _, c := range mi.mod.calls {
		mi.module(c.name)
	}
}

// collect appends the instance's nodes and its children's to g, in file
// order, then module by module.
func (mi *hclInst) collect(g *graph) {
	for _, b := range mi.mod.blocks {
		for _, n := range mi.nodes[b.key()] {
			g.add(n)
		}
	}
	for _, c := range mi.mod.calls {
		for _, child := range mi.children[c.name] {
			child.collect(g)
		}
	}
}

// eval evaluates expr in the instance with sc's each, count and iterators.
func (mi *hclInst) eval(expr hcl.Expression, sc *hclScope) cty.Value {
	vars := map[string]cty.Value{}
	var varObj, localObj, modObj map[string]cty.Value
	var resObj, dataObj map[string]map[string]cty.Value
	put := func(m *map[string]cty.Value, k string, v cty.Value) {
		if *m == nil {
			*m = map[string]cty.Value{}
		}
		(*m)[k] = v
	}
	put2 := func(m *map[string]map[string]cty.Value, a, b string, v cty.Value) {
		if *m == nil {
			*m = map[string]map[string]cty.Value{}
		}
		if (*m)[a] == nil {
			(*m)[a] = map[string]cty.Value{}
		}
		(*m)[a][b] = v
	}
	for _, t := range expr.Variables() {
		root := t.RootName()
		if sc != nil {
			if v, ok := sc.iters[root]; ok {
				vars[root] = v
				continue
			}
		}
		switch root {
		case "var":
			if n := stepName(t, 1); n != "" {
				put(&varObj, n, mi.variable(n))
			}
		case "local":
			if n := stepName(t, 1); n != "" {
				put(&localObj, n, mi.local(n))
			}
		case "each":
			if sc != nil && sc.each != cty.NilVal {
				vars["each"] = sc.each
			}
		case "count":
			if sc != nil && sc.count != cty.NilVal {
				vars["count"] = cty.ObjectVal(map[string]cty.Value{"index": sc.count})
			}
		case "path":
			dir := strings.TrimPrefix(strings.TrimPrefix(mi.mod.dir, mi.ev.set.root), "/")
			if dir == "" {
				dir = "."
			}
			vars["path"] = cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(dir), "root": cty.StringVal("."), "cwd": cty.StringVal(".")})
		case "terraform":
			vars["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal("default")})
		case "module":
			if n := stepName(t, 1); n != "" {
				put(&modObj, n, mi.module(n))
			}
		case "data":
			if typ, n := stepName(t, 1), stepName(t, 2); typ != "" && n != "" {
				put2(&dataObj, typ, n, mi.block("data."+typ+"."+n))
			}
		default:
			if n := stepName(t, 1); n != "" {
				put2(&resObj, root, n, mi.block(root+"."+n))
			}
		}
	}
	if varObj != nil {
		vars["var"] = cty.ObjectVal(varObj)
	}
	if localObj != nil {
		vars["local"] = cty.ObjectVal(localObj)
	}
	if modObj != nil {
		vars["module"] = cty.ObjectVal(modObj)
	}
	for typ, names := range resObj {
		if _, taken := vars[typ]; !taken {
			vars[typ] = cty.ObjectVal(names)
		}
	}
	if dataObj != nil {
		d := make(map[string]cty.Value, len(dataObj))
		for typ, names := range dataObj {
			d[typ] = cty.ObjectVal(names)
		}
		vars["data"] = cty.ObjectVal(d)
	}
	ctx := &hcl.EvalContext{Variables: vars, Functions: mi.ev.funcs}
	if hcljson.IsJSONExpression(expr) {
		if t, ok := jsonTemplate(expr); ok {
			expr = t
		} else {
			mi.ev.meterJSONTemplates(expr, ctx)
		}
	}
	v, diags := expr.Value(ctx)
	for range 4 {
		if !diags.HasErrors() || !mi.ev.stubUnknownFunctions(diags) {
			break
		}
		v, diags = expr.Value(ctx)
	}
	mi.ev.checkCost()
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	return v
}

// stubUnknownFunctions gives each function the diagnostics say the
// scanner lacks (a provider's provider::aws::arn_build, one added to
// Terraform later) a stand-in whose result is unknown, and says whether
// it gave any: the expression is evaluated again, so that only the calls
// are unknown, not the whole value. A policy with one such call in a
// resource ARN is then still checked on its principal and actions, as
// for an ARN known only after apply. A misspelt name is stubbed alike:
// Terraform would refuse it, and the scanner does not guess what was
// meant.
func (ev *hclEval) stubUnknownFunctions(diags hcl.Diagnostics) bool {
	added := false
	for _, d := range diags {
		call, ok := d.Expression.(*hclsyntax.FunctionCallExpr)
		if d.Summary != "Call to unknown function" || !ok {
			continue
		}
		if _, known := ev.funcs[call.Name]; !known {
			ev.funcs[call.Name] = unknownFunc(cty.DynamicPseudoType)
			added = true
		}
	}
	return added
}

// HCL's JSON form parses the templates in its strings only as it
// evaluates them, so meterEvaluation cannot reach them: "${local.big}"
// written 3,000 times in one string, or repeated by a %{ for } directive,
// copied the value each time before the result was counted.

// jsonTemplate is a JSON-form expression that is a string holding a
// template, parsed as HCL parses it and metered (meterNode).
func jsonTemplate(expr hcl.Expression) (hclsyntax.Expression, bool) {
	v, diags := expr.Value(nil) // the string as written
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return nil, false
	}
	s := v.AsString()
	if !strings.Contains(s, "${") && !strings.Contains(s, "%{") {
		return nil, false
	}
	start := expr.Range().Start // of the opening quote
	start.Byte++
	start.Column++
	t, diags := hclsyntax.ParseTemplate([]byte(s), expr.Range().Filename, start)
	if diags.HasErrors() {
		return nil, false
	}
	meterNode(t)
	return t, true
}

// meterJSONTemplates counts, before any other JSON-form expression (an
// object or array with templates in its strings) runs, the values its
// templates interpolate, once per reference.
func (ev *hclEval) meterJSONTemplates(expr hcl.Expression, ctx *hcl.EvalContext) {
	for _, t := range expr.Variables() {
		if v, diags := t.TraverseAbs(ctx); !diags.HasErrors() {
			ev.cost += valueSize(v, MaxHCLEvalBytes-ev.cost+1)
			ev.checkCost()
		}
	}
}

// stepName is the name of traversal step i when it is an attribute.
func stepName(t hcl.Traversal, i int) string {
	if i >= len(t) {
		return ""
	}
	if a, ok := t[i].(hcl.TraverseAttr); ok {
		return a.Name
	}
	return ""
}

// variable is the value of input variable name: from tfvars (the root
// module) or the module call, else its default, else unknown; converted
// to its type as Terraform converts it.
func (mi *hclInst) variable(name string) cty.Value {
	return memo(mi.vars, name, func() cty.Value {
		decl := mi.mod.variables[name]
		if decl == nil {
			return cty.DynamicVal
		}
		v, where := cty.NilVal, hcl.Range{}
		switch {
		case mi.parent == nil:
			if tv, ok := mi.ev.tfvars[name]; ok {
				v, where = tv.val, tv.rng
			}
		default:
			if a := mi.call.inputs[name]; a != nil {
				v, where = mi.parent.eval(a.Expr, mi.callScope), a.Range
			}
		}
		// Set to null, a nullable variable (the default) is null, as in
		// Terraform; only an absent one, or a null non-nullable one, takes
		// the default.
		if (v == cty.NilVal || decl.notNullable && v.IsNull()) && decl.def != nil {
			d, diags := decl.def.Value(nil)
			if diags.HasErrors() {
				return cty.DynamicVal
			}
			v, where = d, decl.def.Range()
		}
		if v == cty.NilVal {
			return cty.DynamicVal // no value: unknown, never a guess
		}
		if decl.dfl != nil {
			v = decl.dfl.Apply(v)
		}
		c, err := convertFast(v, decl.typ)
		if err != nil {
			panic(abort{&ValidationError{Problems: []Problem{{Path: fmt.Sprintf("%s:%d", where.Filename, where.Start.Line),
				Message: fmt.Sprintf("the value of variable %q does not fit its type: %s", name, err)}}}})
		}
		mi.ev.charge(c)
		return c
	})
}

func (mi *hclInst) local(name string) cty.Value {
	return memo(mi.locals, name, func() cty.Value {
		a := mi.mod.locals[name]
		if a == nil {
			return cty.DynamicVal
		}
		v := mi.eval(a.Expr, nil)
		mi.ev.charge(v)
		return v
	})
}

func (mi *hclInst) output(name string) cty.Value {
	return memo(mi.outputs, name, func() cty.Value {
		a := mi.mod.outputs[name]
		v := mi.eval(a.Expr, nil)
		mi.ev.configRefs(stripModuleIndex(mi.prefix)+outputKey+name, "value", a.Expr)
		mi.ev.charge(v)
		return v
	})
}

// block is the value of a resource or data source: an object, a tuple of
// them (count) or an object of them by key (for_each).
func (mi *hclInst) block(key string) cty.Value {
	b := mi.mod.byKey[key]
	if b == nil {
		return cty.DynamicVal
	}
	return memo(mi.blocks, key, func() cty.Value {
		return mi.expand(b.count, b.forEach, func(idx string, sc *hclScope) cty.Value {
			return mi.instance(b, idx, sc)
		}, func(why string) {
			if !b.data {
				mi.nodes[key] = append(mi.nodes[key], &node{addr: mi.prefix + key, typ: b.typ, line: b.rng.Start.Line, base: mi.prefix + key,
					attrs: map[string]any{}, skip: why})
				mi.ev.locate(mi.prefix+key, b.rng)
			}
		})
	})
}

// expand makes the instances of a block or module call with count or
// for_each, calling one for each; unknownWhy is called instead when they
// are not known.
func (mi *hclInst) expand(count, forEach hcl.Expression, one func(idx string, sc *hclScope) cty.Value, unknownWhy func(string)) cty.Value {
	switch {
	case count != nil:
		cv, _ := mi.eval(count, nil).UnmarkDeep()
		if !cv.IsWhollyKnown() || cv.IsNull() || cv.Type() != cty.Number {
			unknownWhy("its count is not known before apply")
			return cty.DynamicVal
		}
		n, acc := cv.AsBigFloat().Int64()
		if acc != 0 || n < 0 {
			unknownWhy("its count is not a whole number")
			return cty.DynamicVal
		}
		mi.ev.addInstances(int(min(n, MaxResources+1)))
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = one("["+strconv.Itoa(i)+"]", &hclScope{count: cty.NumberIntVal(int64(i))})
		}
		if n == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(elems)
	case forEach != nil:
		fv, _ := mi.eval(forEach, nil).UnmarkDeep()
		ty := fv.Type()
		switch {
		case !fv.IsKnown() || fv.IsNull():
			unknownWhy("its for_each is not known before apply")
			return cty.DynamicVal
		case ty.IsSetType() && !fv.IsWhollyKnown():
			unknownWhy("its for_each is not known before apply")
			return cty.DynamicVal
		case !(ty.IsMapType() || ty.IsObjectType() || ty.IsSetType() && ty.ElementType() == cty.String):
			unknownWhy("its for_each is not a map or a set of strings")
			return cty.DynamicVal
		}
		mi.ev.addInstances(fv.LengthInt())
		out := map[string]cty.Value{}
		for it := fv.ElementIterator(); it.Next(); {
			k, v := it.Element()
			if ty.IsSetType() {
				k = v
			}
			key := k.AsString()
			each := cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(key), "value": v})
			out[key] = one("["+strconv.Quote(key)+"]", &hclScope{each: each})
		}
		if len(out) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(out)
	}
	mi.ev.addInstances(1)
	return one("", &hclScope{})
}

func (ev *hclEval) addInstances(n int) {
	if ev.insts += n; ev.insts > MaxResources {
		panic(abort{tooManyResources()})
	}
}

// Attributes of a resource body that are Terraform's, not the provider's.
var hclMetaAttrs = map[string]bool{"count": true, "for_each": true, "depends_on": true, "provider": true,
	"lifecycle": true, "provisioner": true, "connection": true}

// instance evaluates one instance of a resource or data source: its node
// (for a managed resource) and its value for references.
func (mi *hclInst) instance(b *hclBlock, idx string, sc *hclScope) cty.Value {
	addr := mi.prefix + b.key() + idx
	attrs, vals := mi.body(b.body, sc, addr, true)
	if b.data {
		switch b.typ {
		case "aws_iam_policy_document":
			vals["json"] = policyDocumentJSON(attrs)
		case "google_iam_policy":
			vals["policy_data"] = gcpPolicyDataJSON(attrs)
		case "template_file":
			// The template provider's data source, which older
			// configurations render their policies with: rendered as
			// templatestring renders, its vars known only after apply
			// as (known after apply).
			if r, ok := renderTemplateFile(vals, mi.ev.funcs); ok {
				vals["rendered"] = r
			}
		case "aws_iam_policy":
			// Looked up by the name of an AWS managed policy the rules
			// read (data "aws_iam_policy" "admin" { name =
			// "AdministratorAccess" }): its ARN, as a plan has it.
			if name, ok := attrs["name"].(string); ok && attrs["arn"] == nil && attrs["path_prefix"] == nil {
				if _, flagged := managedPolicies[name]; flagged {
					vals["arn"] = cty.StringVal("arn:" + partition + ":iam::aws:policy/" + name)
				}
			}
		case "aws_partition":
			// Only ever the partition of an ARN, which no rule depends
			// on; unknown, it hid the managed policy of
			// "arn:${data.aws_partition.current.partition}:iam::aws:policy/AdministratorAccess".
			// CloudFormation's AWS::Partition reads the same.
			vals["partition"] = cty.StringVal(partition)
		case "azurerm_subscription":
			vals["id"] = azureSubscriptionID(attrs)
		case "azurerm_role_definition":
			if id, ok := azureBuiltinRoleID(attrs); ok {
				vals["id"] = id
			}
		}
	} else {
		n := &node{addr: addr, typ: b.typ, line: b.rng.Start.Line, base: addr, attrs: attrs}
		mi.nodes[b.key()] = append(mi.nodes[b.key()], n)
		mi.ev.locate(addr, b.rng)
		if fam, ok := families[b.typ]; ok && (len(fam.link) > 0 || len(fam.ctxAttrs) > 0) {
			keys := fam.ctxAttrs
			if len(fam.link) > 0 {
				keys = []string{fam.link[0]} // a family has a link or a context, not both
			}
			for _, k := range keys {
				if v, ok := vals[k]; ok {
					mi.ev.linkVals[hclLinkKey{n, k}] = v
				}
			}
			mi.ev.linkConfig(mi, b, keys)
		}
	}
	for _, k := range mi.ev.refNames {
		if _, ok := vals[k]; !ok {
			vals[k] = cty.DynamicVal // known only after apply
		}
	}
	obj := cty.ObjectVal(vals)
	// Every instance's values count: count = 50000 on a large body would
	// otherwise evaluate it 50,000 times unbounded.
	mi.ev.charge(obj)
	// The mark goes with every value read from the object (GetAttr keeps
	// it), so a linking attribute's value names its instance.
	return obj.Mark(hclRefMark(addr))
}

// body evaluates a resource body or nested block at path: its attributes
// and its blocks, a block type being a list of objects as in a plan.
func (mi *hclInst) body(body hcl.Body, sc *hclScope, at string, top bool) (map[string]any, map[string]cty.Value) {
	attrs, vals := map[string]any{}, map[string]cty.Value{}
	set := func(name string, v cty.Value, rng hcl.Range) {
		vals[name] = v
		if g := goValue(v); g != nil {
			attrs[name] = g
		}
		mi.ev.locate(at+"."+name, rng)
	}
	sb, ok := body.(*hclsyntax.Body)
	if !ok { // JSON: nested blocks are objects or lists of them already
		as, _ := body.JustAttributes()
		for name, a := range as {
			if !(top && hclMetaAttrs[name]) {
				set(name, mi.eval(a.Expr, sc), a.Range)
			}
		}
		return attrs, vals
	}
	for name, a := range sb.Attributes {
		if !(top && hclMetaAttrs[name]) {
			set(name, mi.policyText(name, a.Expr, mi.eval(a.Expr, sc), sc), a.SrcRange)
		}
	}
	goBlocks, ctyBlocks := map[string][]any{}, map[string][]cty.Value{}
	unknownBlocks := map[string]bool{}
	var order []string
	addBlock := func(typ string, content *hclsyntax.Body, rng hcl.Range, sc *hclScope) {
		if _, seen := goBlocks[typ]; !seen {
			order = append(order, typ)
		}
		p := at + "." + typ + "[" + strconv.Itoa(len(goBlocks[typ])) + "]"
		ga, cv := mi.body(content, sc, p, false)
		mi.ev.locate(p, rng)
		goBlocks[typ] = append(goBlocks[typ], ga)
		ctyBlocks[typ] = append(ctyBlocks[typ], cty.ObjectVal(cv))
	}
	for _, blk := range sb.Blocks {
		switch {
		case top && hclMetaAttrs[blk.Type]:
		case blk.Type == "dynamic" && len(blk.Labels) == 1:
			typ := blk.Labels[0]
			fe, iter, content := dynamicParts(blk)
			if fe == nil || content == nil {
				continue
			}
			if _, seen := goBlocks[typ]; !seen {
				goBlocks[typ], order = []any{}, append(order, typ)
			}
			if iter == "" {
				iter = typ
			}
			v, _ := mi.eval(fe, sc).UnmarkDeep()
			if !v.IsWhollyKnown() || v.IsNull() || !v.CanIterateElements() {
				unknownBlocks[typ] = true // how many blocks is not known
				continue
			}
			if mi.ev.cost += iterationBytes * v.LengthInt(); mi.ev.cost > MaxHCLEvalBytes {
				mi.ev.checkCost()
			}
			for it := v.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				addBlock(typ, content, blk.Range(), sc.with(iter, cty.ObjectVal(map[string]cty.Value{"key": k, "value": ev})))
			}
		default:
			addBlock(blk.Type, blk.Body, blk.Range(), sc)
		}
	}
	for _, typ := range order {
		if unknownBlocks[typ] {
			attrs[typ], vals[typ] = unknown, cty.DynamicVal
			continue
		}
		attrs[typ] = goBlocks[typ]
		if len(ctyBlocks[typ]) == 0 {
			vals[typ] = cty.EmptyTupleVal
		} else {
			vals[typ] = cty.TupleVal(ctyBlocks[typ])
		}
	}
	return attrs, vals
}

// dynamicParts reads a dynamic block: its for_each, iterator name and
// content body.
func dynamicParts(blk *hclsyntax.Block) (forEach hcl.Expression, iter string, content *hclsyntax.Body) {
	if a := blk.Body.Attributes["for_each"]; a != nil {
		forEach = a.Expr
	}
	if a := blk.Body.Attributes["iterator"]; a != nil {
		iter = hcl.ExprAsKeyword(a.Expr)
	}
	for _, c := range blk.Body.Blocks {
		if c.Type == "content" {
			content = c.Body
		}
	}
	return forEach, iter, content
}

// module is the value of a module call: an object of its outputs, or a
// tuple or object of them with count or for_each. Registry and git
// sources are not evaluated: unknown, and listed in the result's warnings.
func (mi *hclInst) module(name string) cty.Value {
	c := mi.mod.callByKey[name]
	if c == nil {
		return cty.DynamicVal
	}
	return memo(mi.calls, name, func() cty.Value {
		addr := mi.prefix + "module." + name
		dir, local := localSource(mi.mod.dir, c.source)
		if !local {
			mi.ev.notEvaluated(addr, "registry and git modules are not evaluated: only local sources (./, ../) among the files sent")
			return cty.DynamicVal
		}
		if len(mi.ev.set.filesIn(dir, func(n string) bool { return isConfigFile(n) })) == 0 {
			mi.ev.notEvaluated(addr, fmt.Sprintf("its source %s is not among the files sent", c.source))
			return cty.DynamicVal
		}
		if mi.depth+1 > MaxModuleDepth {
			panic(abort{&LimitError{Limit: "module_depth", Max: MaxModuleDepth, Message: fmt.Sprintf(
				"modules nest more than %d deep (%s); the limit is %d: a module that calls itself never ends", MaxModuleDepth, addr, MaxModuleDepth)}})
		}
		mod, err := mi.ev.module(dir)
		if err != nil {
			panic(abort{err})
		}
		return mi.expand(c.count, c.forEach, func(idx string, sc *hclScope) cty.Value {
			if mi.ev.modInsts++; mi.ev.modInsts > MaxModuleInstances {
				panic(abort{&LimitError{Limit: "module_instances", Max: MaxModuleInstances, Message: fmt.Sprintf(
					"the configuration has more than %d module instances; the limit is %d", MaxModuleInstances, MaxModuleInstances)}})
			}
			child := newInst(mi.ev, mod, addr+idx+".", mi.depth+1)
			child.parent, child.call, child.callScope = mi, c, sc
			mi.children[name] = append(mi.children[name], child)
			child.run()
			outs := make(map[string]cty.Value, len(mod.outputs))
			for o := range mod.outputs {
				outs[o] = child.output(o)
			}
			return cty.ObjectVal(outs)
		}, func(why string) {
			mi.ev.notEvaluated(addr, "the module's "+strings.TrimPrefix(why, "its "))
		})
	})
}

// localSource resolves a module source relative to the calling module's
// directory; local is false for a registry or git source, or one that
// leaves the files sent.
func localSource(from, source string) (dir string, local bool) {
	if !strings.HasPrefix(source, "./") && !strings.HasPrefix(source, "../") {
		return "", false
	}
	d := path.Join(from, source)
	if d == "." {
		d = ""
	}
	if d == ".." || strings.HasPrefix(d, "../") {
		return "", false
	}
	return d, true
}

func (ev *hclEval) notEvaluated(addr, why string) {
	ev.warnings = append(ev.warnings, why)
	ev.warned = append(ev.warned, addr)
}
