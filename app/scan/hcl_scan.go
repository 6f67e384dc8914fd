package scan

import (
	"bytes"
	"fmt"
	"math/big"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ScanFiles scans Terraform source: a set of *.tf, *.tf.json,
// terraform.tfvars and *.auto.tfvars files (others are only read by
// file()), each named by its path relative to the root. It returns the
// errors Scan does, a SyntaxError naming the file.
func ScanFiles(files []File, opts Options) (res *Result, err error) {
	defer catchAbort(&err)
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	env := &envelope{now: opts.Now}
	if err := env.load(opts.Suppressions, opts.Baseline); err != nil {
		return nil, err
	}
	if res, err = scanHCL(files, env, opts.NoSizeLimit); err != nil {
		return nil, err
	}
	env.finish(res)
	return res, nil
}

// IsSource says whether Scan reads data as Terraform source (a .tf file
// pasted alone), for the front doors' memory estimate (SourceCost).
func IsSource(data []byte) bool { return !looksJSON(data) && looksHCL(data) }

// looksHCL says whether a document that is not JSON is Terraform source:
// its first line that is not blank or a comment opens a block
// (resource "aws_s3_bucket" "b" {) or sets an attribute (name = ...),
// where YAML has "key:".
func looksHCL(data []byte) bool {
	for len(data) > 0 {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*")) || bytes.HasPrefix(t, []byte("*")) {
			continue
		}
		return hclFirstLine.Match(t)
	}
	return false
}

var hclFirstLine = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*(\s+("[^"]*"|[A-Za-z_][A-Za-z0-9_-]*))*\s*(\{|=)`)

// scanHCL scans a source set with the suppressions and baseline of env.
func scanHCL(files []File, env *envelope, noSizeLimit bool) (res *Result, err error) {
	defer catchAbort(&err)
	set, err := newSourceSet(files, noSizeLimit)
	if err != nil {
		return nil, err
	}
	for p, data := range set.files {
		if isConfigFile(p) || isTFVars(set, p) {
			if err := checkHCLShape(p, data); err != nil {
				return nil, err
			}
		}
	}
	ev := newHCLEval(set)
	root, err := ev.module(set.root)
	if err != nil {
		return nil, err
	}
	if ev.tfvars, err = set.readTFVars(); err != nil {
		return nil, err
	}
	mi := newInst(ev, root, "", 0)
	mi.run()
	mi.collect(ev.g)
	if len(ev.g.nodes) > MaxResources {
		return nil, tooManyResources()
	}
	ev.link()
	res = ev.g.evaluate(env)
	if len(ev.warned) > 0 {
		res.Warnings = append(res.Warnings, moduleWarnings(ev.warned, ev.warnings)...)
	}
	if w, ok := unreadVarFiles(set); ok {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// unreadVarFiles warns of the variable files sent that Terraform does not
// read by itself (prod.tfvars, env/dev.tfvars.json: those of -var-file),
// so not the scan either. A repository often keeps one per environment,
// and the scan read the variables they set as unknown, or as their
// defaults, without saying why: a clean result could rest on values the
// deployment does not use.
func unreadVarFiles(set *sourceSet) (Warning, bool) {
	var files []string
	for p := range set.files {
		b := strings.TrimSuffix(path.Base(p), ".json")
		if strings.HasSuffix(b, ".tfvars") && !isTFVars(set, p) {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return Warning{}, false
	}
	sort.Strings(files)
	w := Warning{Message: "variable files that Terraform reads only with -var-file were not read (it reads the root module's " +
		"terraform.tfvars and *.auto.tfvars by itself): to scan with one, send it as terraform.tfvars or a *.auto.tfvars",
		Count: len(files), Resources: files}
	if len(files) > MaxNotCheckedAddresses {
		w.Resources = files[:MaxNotCheckedAddresses]
	}
	return w, true
}

func newHCLEval(set *sourceSet) *hclEval {
	ev := &hclEval{set: set, modules: map[string]*hclModule{}, config: map[string]tfConfigResource{},
		linkVals: map[hclLinkKey]cty.Value{}, g: newGraph(FormatTerraformHCL)}
	ev.g.locs = map[string]Location{}
	ev.funcs = ev.functions()
	return ev
}

// moduleWarnings groups the modules not evaluated by reason.
func moduleWarnings(addrs, whys []string) []Warning {
	byWhy := map[string]*Warning{}
	var out []Warning
	var order []string
	for i, why := range whys {
		w := byWhy[why]
		if w == nil {
			w = &Warning{Message: "modules not evaluated: " + why, Resources: []string{}}
			byWhy[why] = w
			order = append(order, why)
		}
		w.Count++
		if len(w.Resources) < MaxNotCheckedAddresses {
			w.Resources = append(w.Resources, addrs[i])
		}
	}
	for _, why := range order {
		out = append(out, *byWhy[why])
	}
	return out
}

// link sets each node's target and context: the one instance its value's
// marks name, else what the plan adapter's linker finds from the
// references.
func (ev *hclEval) link() {
	l := newTFLinker(ev.g, ev.config)
	for _, n := range ev.g.nodes {
		l.linkNode(n, ev.markTarget)
	}
}

// markTarget is the one resource of a type accept takes that the value of
// n's attribute key came from, or "".
func (ev *hclEval) markTarget(n *node, key string, accept linkAccept) string {
	v, ok := ev.linkVals[hclLinkKey{n, key}]
	if !ok {
		return ""
	}
	_, marks := v.UnmarkDeep()
	found := ""
	for m := range marks {
		addr, ok := m.(hclRefMark)
		if !ok {
			continue
		}
		t := ev.g.byAddr[string(addr)]
		if t == nil || t == n || !accept.ok(t.typ) {
			continue
		}
		if found != "" && found != t.addr {
			return "" // several: the linker decides
		}
		found = t.addr
	}
	return found
}

// hclLinkKey names a linking attribute of a node.
type hclLinkKey struct {
	n   *node
	key string
}

// linkConfig records a linking block's references as a plan's
// configuration has them, once per block and module path: those of its
// linking attributes keys.
func (ev *hclEval) linkConfig(mi *hclInst, b *hclBlock, keys []string) {
	addr := stripModuleIndex(mi.prefix) + b.key()
	if _, done := ev.config[addr]; done {
		return
	}
	c := tfConfigResource{Address: addr, Expressions: map[string]tfExpression{}}
	for _, key := range keys {
		if sb, ok := b.body.(*hclsyntax.Body); ok {
			if a := sb.Attributes[key]; a != nil {
				c.Expressions[key] = tfExpression{References: references(a.Expr)}
			}
		} else if as, _ := b.body.JustAttributes(); as[key] != nil {
			c.Expressions[key] = tfExpression{References: references(as[key].Expr)}
		}
	}
	if b.forEach != nil {
		c.ForEachExpression = &tfExpression{References: references(b.forEach)}
	}
	ev.config[addr] = c
}

func (ev *hclEval) configRefs(addr, key string, expr hcl.Expression) {
	if _, done := ev.config[addr]; !done {
		ev.config[addr] = tfConfigResource{Address: addr, Expressions: map[string]tfExpression{key: {References: references(expr)}}}
	}
}

// references renders an expression's references as Terraform's plan does:
// "aws_s3_bucket.b[\"x\"].id" then "aws_s3_bucket.b[\"x\"]".
func references(expr hcl.Expression) []string {
	var out []string
	for _, t := range expr.Variables() {
		s := traversalString(t)
		out = append(out, s)
		if len(t) > 2 {
			out = append(out, traversalString(t[:len(t)-1]))
		}
	}
	return out
}

func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			k, _ := s.Key.Unmark()
			switch {
			case !k.IsKnown() || k.IsNull():
			case k.Type() == cty.String:
				b.WriteString("[" + strconv.Quote(k.AsString()) + "]")
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('f', -1) + "]")
			}
		}
	}
	return b.String()
}

// collectRefNames notes every attribute name read from a resource or data
// source in m's expressions (aws_s3_bucket.b.id, data.x.y[0].json,
// aws_s3_bucket.b[each.key].arn): a resource instance's value has each of
// them, unknown when its configuration does not set it (ids, arns).
func (ev *hclEval) collectRefNames(m *hclModule) {
	names := map[string]bool{}
	for _, n := range ev.refNames {
		names[n] = true
	}
	// after notes the first attribute name from step from on.
	after := func(t hcl.Traversal, from int) {
		for i := from; i < len(t); i++ {
			if a, ok := t[i].(hcl.TraverseAttr); ok {
				names[a.Name] = true
				return
			}
		}
	}
	scope := func(t hcl.Traversal) {
		switch t.RootName() {
		case "var", "local", "each", "count", "path", "terraform", "module", "self":
		case "data":
			after(t, 3)
		default:
			after(t, 2)
		}
	}
	for _, f := range m.files {
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
				switch e := n.(type) {
				case *hclsyntax.ScopeTraversalExpr:
					scope(e.Traversal)
				case *hclsyntax.RelativeTraversalExpr: // after an index or a splat
					after(e.Traversal, 0)
				}
				return nil
			})
			continue
		}
		// JSON: every attribute's references, at any depth.
		c, _, _ := f.Body.PartialContent(hclFileSchema)
		for _, blk := range c.Blocks {
			as, _ := blk.Body.JustAttributes()
			for _, a := range as {
				for _, t := range a.Expr.Variables() {
					scope(t)
				}
			}
		}
	}
	ev.refNames = ev.refNames[:0]
	for n := range names {
		ev.refNames = append(ev.refNames, n)
	}
	sort.Strings(ev.refNames)
}

// isTFVars says whether p sets the root module's variables.
func isTFVars(set *sourceSet, p string) bool {
	if dirOf(p) != set.root {
		return false
	}
	b := strings.TrimSuffix(path.Base(p), ".json")
	return b == "terraform.tfvars" || strings.HasSuffix(b, ".auto.tfvars")
}

// readTFVars reads terraform.tfvars then *.auto.tfvars in name order, a
// later file overriding an earlier one, as Terraform does.
func (s *sourceSet) readTFVars() (map[string]tfvarValue, error) {
	out := map[string]tfvarValue{}
	files := s.filesIn(s.root, func(n string) bool {
		b := strings.TrimSuffix(n, ".json")
		return b == "terraform.tfvars" || strings.HasSuffix(b, ".auto.tfvars")
	})
	sort.SliceStable(files, func(i, j int) bool { // terraform.tfvars(.json) first
		return strings.HasPrefix(path.Base(files[i]), "terraform.tfvars") && !strings.HasPrefix(path.Base(files[j]), "terraform.tfvars")
	})
	for _, p := range files {
		f, err := parseHCLFile(p, s.files[p])
		if err != nil {
			return nil, err
		}
		attrs, diags := f.Body.JustAttributes()
		if diags.HasErrors() {
			return nil, hclSyntaxError(diags)
		}
		for name, a := range attrs {
			v, diags := a.Expr.Value(nil)
			if diags.HasErrors() {
				return nil, hclSyntaxError(diags)
			}
			out[name] = tfvarValue{val: v, rng: a.Range}
		}
	}
	return out, nil
}

// goValue turns an evaluated value into what a plan's JSON holds: nil for
// null, unknownValue for what is not known.
func goValue(v cty.Value) any {
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return unknown
	}
	if v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return f
	case ty == cty.Bool:
		return v.True()
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, goValue(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if g := goValue(e); g != nil {
				out[k.AsString()] = g
			}
		}
		return out
	}
	return unknown
}

// charge counts a value against MaxHCLEvalBytes, and its sets against
// MaxSetWork.
func (ev *hclEval) charge(v cty.Value) {
	ev.readSets(1, v) // before valueSize reads them
	ev.checkSetWork()
	ev.cost += valueSize(v, MaxHCLEvalBytes-ev.cost+1)
	ev.checkCost()
}

func (ev *hclEval) checkCost() {
	ev.checkSetWork()
	ev.checkFunctionInput()
	if ev.cost > MaxHCLEvalBytes {
		panic(abort{&LimitError{Limit: "terraform_evaluation", Max: MaxHCLEvalBytes, Message: fmt.Sprintf(
			"evaluating the Terraform source produces more than %d bytes (20 MiB) of values; the limit is %d", MaxHCLEvalBytes, MaxHCLEvalBytes)}})
	}
}

// valueSize is the bytes of v's text plus 16 per element, counted up to
// past limit.
func valueSize(v cty.Value, limit int) int {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return len(v.AsString())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		n := 0
		for it := v.ElementIterator(); it.Next() && n <= limit; {
			k, e := it.Element()
			n += 16 + valueSize(e, limit-n)
			if k.Type() == cty.String {
				n += len(k.AsString())
			}
		}
		return n
	}
	return 16
}

// locate records where the attribute or block at path is.
func (ev *hclEval) locate(at string, r hcl.Range) {
	ev.g.locs[at] = Location{File: r.Filename, StartLine: r.Start.Line, StartColumn: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column}
}

// checkNesting refuses a file whose brackets nest deeper than
// MaxDocumentDepth before the parser, which recurses on them, sees it.
// Brackets in strings count too: a real configuration stays far below.
func checkNesting(p string, data []byte) error {
	depth, line, col := 0, 1, 0
	for i, c := range data {
		col++
		switch c {
		case '\n':
			line, col = line+1, 0
		case '(', '[', '{':
			if depth++; depth > MaxDocumentDepth {
				return &LimitError{Limit: "depth", Max: MaxDocumentDepth, Message: fmt.Sprintf(
					"%s nests brackets more than %d deep at line %d, column %d (byte %d); the limit is %d", p, MaxDocumentDepth, line, col, i, MaxDocumentDepth)}
			}
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return nil
}

// cidrSubnet is Terraform's cidrsubnet: netnum's subnet of prefix with
// newbits more bits.
func cidrSubnet(prefix string, newbits, netnum int64) (string, error) {
	p, bits, base, err := cidrBase(prefix)
	if err != nil {
		return "", err
	}
	newLen := int64(p.Bits()) + newbits
	if newbits < 0 || newLen > int64(bits) {
		return "", fmt.Errorf("insufficient address space to extend prefix of %d by %d", p.Bits(), newbits)
	}
	if netnum < 0 || big.NewInt(netnum).BitLen() > int(newbits) {
		return "", fmt.Errorf("prefix extension of %d does not accommodate a subnet numbered %d", newbits, netnum)
	}
	base.Or(base, new(big.Int).Lsh(big.NewInt(netnum), uint(int64(bits)-newLen)))
	return cidrString(base, bits, int(newLen)), nil
}

// cidrHost is Terraform's cidrhost: address hostnum of prefix.
func cidrHost(prefix string, hostnum int64) (string, error) {
	p, bits, base, err := cidrBase(prefix)
	if err != nil {
		return "", err
	}
	hostBits := bits - p.Bits()
	size := new(big.Int).Lsh(big.NewInt(1), uint(hostBits))
	h := big.NewInt(hostnum)
	if hostnum < 0 {
		h.Add(h, size)
	}
	if h.Sign() < 0 || h.Cmp(size) >= 0 {
		return "", fmt.Errorf("prefix of %d does not accommodate a host numbered %d", p.Bits(), hostnum)
	}
	s := cidrString(base.Or(base, h), bits, bits)
	return s[:strings.IndexByte(s, '/')], nil
}
