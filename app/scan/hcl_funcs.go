package scan

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// The functions Terraform source may call: go-cty's standard library under
// Terraform's names, try and can, cidrsubnet and cidrhost, Terraform's own
// (hcl_funcs_terraform.go), and file reading only the files sent. A function the scanner lacks (or one that fails)
// makes its expression unknown, never a guess. Each function's result is
// counted against MaxHCLEvalBytes, and the ones whose result can be the
// product of their arguments' sizes (join, replace, formatlist,
// setproduct) are refused past it before they run.
func (ev *hclEval) functions() map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc, "max": stdlib.MaxFunc,
		"min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc, "signum": stdlib.SignumFunc,
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"join": stdlib.JoinFunc, "lower": stdlib.LowerFunc, "upper": stdlib.UpperFunc, "split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "title": stdlib.TitleFunc,
		"trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc, "trimsuffix": stdlib.TrimSuffixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "keys": stdlib.KeysFunc,
		"merge":   stdlib.MergeFunc,
		"reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc, "slice": stdlib.SliceFunc,
		"sort": stdlib.SortFunc, "values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"chunklist": stdlib.ChunklistFunc, "range": stdlib.RangeFunc,
		"setproduct":  stdlib.SetProductFunc,
		"strcontains": stringTest(strings.Contains), "startswith": stringTest(strings.HasPrefix),
		"endswith": stringTest(strings.HasSuffix), "alltrue": boolsTest(false), "anytrue": boolsTest(true),
		// Sensitivity only hides a value from Terraform's output; the
		// scanner reads the value either way.
		"sensitive": identityFunc, "nonsensitive": identityFunc, "one": oneFunc,
		"jsonencode": jsonEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc, "csvdecode": stdlib.CSVDecodeFunc,
		"tobool": stdlib.MakeToFunc(cty.Bool), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tostring": stdlib.MakeToFunc(cty.String), "tolist": toCollectionFunc(cty.List(cty.DynamicPseudoType)),
		"toset": toCollectionFunc(cty.Set(cty.DynamicPseudoType)), "tomap": toCollectionFunc(cty.Map(cty.DynamicPseudoType)),
		"cidrsubnet": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "prefix", Type: cty.String}, {Name: "newbits", Type: cty.Number}, {Name: "netnum", Type: cty.Number}},
			Type:   function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				nb, _ := args[1].AsBigFloat().Int64()
				nn, _ := args[2].AsBigFloat().Int64()
				s, err := cidrSubnet(args[0].AsString(), nb, nn)
				return cty.StringVal(s), err
			},
		}),
		"cidrhost": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "prefix", Type: cty.String}, {Name: "hostnum", Type: cty.Number}},
			Type:   function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				hn, _ := args[1].AsBigFloat().Int64()
				s, err := cidrHost(args[0].AsString(), hn)
				return cty.StringVal(s), err
			},
		}),
		"yamldecode": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "src", Type: cty.String}},
			Type:   function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				return yamlDecode(args[0].AsString())
			},
		}),
		"fileset": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "path", Type: cty.String}, {Name: "pattern", Type: cty.String}},
			Type:   function.StaticReturnType(cty.Set(cty.String)),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				return ev.fileSet(args[0].AsString(), args[1].AsString())
			},
		}),
		"file": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "path", Type: cty.String}},
			Type:   function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				data, err := ev.readFile(args[0].AsString())
				return cty.StringVal(string(data)), err
			},
		}),
	}
	ev.terraformFunctions(fs)
	fs["templatefile"], fs["templatestring"] = ev.templateFile(fs), templateString(fs)
	for name, f := range fs {
		fs[name] = ev.counted(name, f)
	}
	fs["try"], fs["can"] = tryfunc.TryFunc, tryfunc.CanFunc
	fs[iterateFunc] = function.New(&function.Spec{
		Type: function.StaticReturnType(cty.Bool),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			if ev.cost += iterationBytes; ev.cost > MaxHCLEvalBytes {
				return cty.NilVal, errEvalLimit
			}
			return cty.True, nil
		},
	})
	fs[meterFunc] = function.New(&function.Spec{
		Params: []function.Parameter{{Name: "part", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true}},
		Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if ev.cost += valueSize(args[0], MaxHCLEvalBytes-ev.cost+1); ev.cost > MaxHCLEvalBytes {
				return cty.NilVal, errEvalLimit
			}
			return args[0], nil
		},
	})
	return fs
}

// iterationBytes is what one iteration of a for expression or a dynamic
// block counts against MaxHCLEvalBytes: about what it allocates.
const iterationBytes = 64

// multiplying are the functions whose result may be as large as the
// product of their arguments' sizes.
var multiplying = map[string]bool{"join": true, "replace": true, "formatlist": true, "format": true}

var errEvalLimit = errors.New("over the evaluation limit")

// counted wraps f so that its arguments are counted against
// MaxFunctionInput and its result against MaxHCLEvalBytes.
func (ev *hclEval) counted(name string, f function.Function) function.Function {
	params, varParam, convert := collectionParams(f)
	spec := &function.Spec{Params: params, VarParam: varParam,
		Type: func(args []cty.Value) (cty.Type, error) {
			if !ev.readSets(setReadsPerCall, args...) { // before f reads them
				return cty.NilType, errEvalLimit
			}
			return f.ReturnTypeForValues(convert(args))
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			args = convert(args)
			left := MaxHCLEvalBytes - ev.cost
			if multiplying[name] {
				a, b := 0, 0
				for _, x := range args {
					s := valueSize(x, left) + 1
					if s > a {
						a, b = s, a
					} else if s > b {
						b = s
					}
				}
				if a*b > left || (name == "format" || name == "formatlist") && len(args) > 0 && wideVerb(args[0]) {
					ev.cost = MaxHCLEvalBytes + 1
					return cty.NilVal, errEvalLimit
				}
			}
			if (name == "setproduct" && productSize(args, left) > left) ||
				(name == "indent" && indentSize(args) > left) || (name == "matchkeys" && matchWork(args) > left) {
				ev.cost = MaxHCLEvalBytes + 1
				return cty.NilVal, errEvalLimit
			}
			if ev.funcInput += inputWork(name, args, MaxFunctionInput-ev.funcInput+1); ev.funcInput > MaxFunctionInput {
				return cty.NilVal, errEvalLimit
			}
			if name == "jsondecode" && len(args) == 1 && args[0].Type() == cty.String {
				if err := checkNesting("jsondecode", []byte(args[0].AsString())); err != nil {
					return cty.NilVal, err
				}
			}
			v, err := f.Call(args)
			if err != nil {
				return cty.NilVal, err
			}
			if !ev.readSets(1, v) { // before valueSize reads them
				return cty.NilVal, errEvalLimit
			}
			if ev.cost += valueSize(v, left+1); ev.cost > MaxHCLEvalBytes {
				return cty.NilVal, errEvalLimit
			}
			return v, nil
		}}
	return function.New(spec)
}

// productSize is about what setproduct(args...) allocates, stopping past
// limit: one tuple per combination, each holding one element of every
// argument (counted at the argument's mean element size). Ten lists of
// ten elements are 10^10 tuples, so the size is known before they are.
func productSize(args []cty.Value, limit int) int {
	tuples, tuple := 1, 16
	for _, a := range args {
		a, _ = a.Unmark()
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			return 0 // setproduct fails or returns unknown without building
		}
		n := a.LengthInt()
		if n == 0 {
			return 0
		}
		tuple += 16 + valueSize(a, limit)/n
		if tuples *= n; tuples > limit {
			return limit + 1
		}
	}
	if tuples > limit/tuple {
		return limit + 1
	}
	return tuples * tuple
}

// indentSize is about what indent(spaces, text) adds: the spaces once per
// line, known before they are written (indent(1000000, a text of many
// lines) would be gigabytes).
func indentSize(args []cty.Value) int {
	if len(args) != 2 || !args[0].IsKnown() || args[0].IsNull() || args[0].Type() != cty.Number ||
		!args[1].IsKnown() || args[1].IsNull() || args[1].Type() != cty.String {
		return 0
	}
	n, _ := args[0].AsBigFloat().Int64()
	lines := int64(strings.Count(args[1].AsString(), "\n"))
	if n <= 0 || lines == 0 {
		return 0
	}
	if n > int64(MaxHCLEvalBytes) || lines > int64(MaxHCLEvalBytes)/n {
		return MaxHCLEvalBytes + 1
	}
	return int(n * lines)
}

// matchWork is the comparisons matchkeys(values, keys, searchset) makes:
// each key against each element of searchset.
func matchWork(args []cty.Value) int {
	if len(args) != 3 {
		return 0
	}
	size := func(v cty.Value) int {
		if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
			return 0
		}
		return v.LengthInt()
	}
	k, s := size(args[1]), size(args[2])
	if k > 0 && s > MaxHCLEvalBytes/k {
		return MaxHCLEvalBytes + 1
	}
	return k * s
}

// wideVerb says whether a format string pads or cuts to more than 1,000
// characters ("%99999999s"), which would allocate that much per verb.
func wideVerb(v cty.Value) bool {
	if v.Type() != cty.String || !v.IsKnown() || v.IsNull() {
		return false
	}
	s := v.AsString()
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		n := 0
		for i++; i < len(s) && strings.IndexByte("-+# 0.0123456789[]", s[i]) >= 0; i++ {
			if c := s[i]; c >= '0' && c <= '9' {
				if n = n*10 + int(c-'0'); n > 1000 {
					return true
				}
			} else {
				n = 0
			}
		}
	}
	return false
}

func cidrBase(prefix string) (netip.Prefix, int, *big.Int, error) {
	p, err := netip.ParsePrefix(prefix)
	if err != nil {
		return p, 0, nil, fmt.Errorf("invalid CIDR expression: %w", err)
	}
	p = p.Masked()
	return p, p.Addr().BitLen(), new(big.Int).SetBytes(p.Addr().AsSlice()), nil
}

func cidrString(v *big.Int, bits, prefixLen int) string {
	b := make([]byte, bits/8)
	v.FillBytes(b)
	a, _ := netip.AddrFromSlice(b)
	return netip.PrefixFrom(a, prefixLen).String()
}

// readFile is the content of a file sent, named as Terraform's file
// function names it (relative to the root).
func (ev *hclEval) readFile(name string) ([]byte, error) {
	p := path.Join(ev.set.root, name)
	data, ok := ev.set.files[p]
	if !ok || strings.HasPrefix(p, "../") {
		return nil, fmt.Errorf("%s is not among the files sent", name)
	}
	return data, nil
}

// yamlDecode is yamldecode, for the rules and policies kept as YAML files
// (yamldecode(file("rules.yaml"))): the document is read by the
// template reader, with its bounds on size, aliases and nesting, and
// handed to jsondecode for the value. Terraform refuses a document with a
// tag such as !Ref, which the template reader takes for CloudFormation's
// short form: a configuration with one does not plan.
func yamlDecode(src string) (cty.Value, error) {
	v, _, err := parseYAML([]byte(src))
	if err != nil {
		return cty.NilVal, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return cty.NilVal, err
	}
	return stdlib.JSONDecode(cty.StringVal(string(b)))
}

// fileSet is fileset: the files sent under dir (relative to the root, as
// for file) whose path below dir matches pattern, where * and ? stay
// within a directory and a ** component matches any number of them. A
// pattern with {alternatives}, which path.Match lacks, is an error, so
// the expression is unknown rather than wrong; so is one with more than
// four ** components, whose matching time grows as the path's depth to
// their number.
func (ev *hclEval) fileSet(dir, pattern string) (cty.Value, error) {
	if strings.Contains(pattern, "{") {
		return cty.NilVal, errors.New("fileset: {alternatives} are not supported")
	}
	if strings.Count(pattern, "**") > 4 {
		return cty.NilVal, errors.New("fileset: more than four ** in a pattern")
	}
	base := path.Join(ev.set.root, dir)
	if strings.HasPrefix(base, "../") || base == ".." {
		return cty.NilVal, fmt.Errorf("%s is not among the files sent", dir)
	}
	want := strings.Split(pattern, "/")
	var out []cty.Value
	for name := range ev.set.files {
		rel, ok := strings.CutPrefix(name, base+"/")
		if base == "." || base == "" { // the top directory
			rel, ok = name, true
		}
		if !ok {
			continue
		}
		match, err := matchSegments(want, strings.Split(rel, "/"))
		if err != nil {
			return cty.NilVal, err
		}
		if match {
			out = append(out, cty.StringVal(rel))
		}
	}
	if len(out) == 0 {
		return cty.SetValEmpty(cty.String), nil
	}
	return cty.SetVal(out), nil
}

// matchSegments matches a path's components against a pattern's, a **
// component standing for zero or more of them.
func matchSegments(pattern, name []string) (bool, error) {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if ok, err := matchSegments(pattern[1:], name[i:]); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if len(name) == 0 {
			return false, nil
		}
		if ok, err := path.Match(pattern[0], name[0]); !ok || err != nil {
			return false, err
		}
		pattern, name = pattern[1:], name[1:]
	}
	return len(name) == 0, nil
}

// templateFile is templatefile: a file sent, rendered as a template with
// the variables given and the other functions of fs (Terraform refuses a
// templatefile inside a template). The template is checked and metered
// as the configuration's own (shapeOf, meterEvaluation) before it
// runs. A variable's value known only after apply renders as
// knownAfterApply, as in jsonencode: policy templates are given the ARNs
// of the resources they are about.
func (ev *hclEval) templateFile(fs map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}, {Name: "vars", Type: cty.DynamicPseudoType}},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			data, err := ev.readFile(name)
			if err != nil {
				return cty.NilVal, err
			}
			return renderTemplate(name, data, args[1], fs)
		},
	})
}

// templateString is templatestring: a template held in a string (often
// read from a data source), rendered as templatefile renders a file.
func templateString(fs map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "template", Type: cty.String}, {Name: "vars", Type: cty.DynamicPseudoType}},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplate("templatestring", []byte(args[0].AsString()), args[1], fs)
		},
	})
}

func renderTemplate(name string, data []byte, vars cty.Value, fs map[string]function.Function) (cty.Value, error) {
	if err := shapeOf(name, data, true); err != nil {
		return cty.NilVal, err
	}
	expr, diags := hclsyntax.ParseTemplate(data, name, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	meterNode(expr)
	vars = placeholdUnknowns(vars)
	if ty := vars.Type(); !ty.IsObjectType() && !ty.IsMapType() {
		return cty.NilVal, errors.New("a template's vars must be an object or a map")
	}
	funcs := maps.Clone(fs)
	delete(funcs, "templatefile")
	delete(funcs, "templatestring")
	v, diags := expr.Value(&hcl.EvalContext{Variables: vars.AsValueMap(), Functions: funcs})
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return v, nil
}

// identityFunc returns its argument, as it is.
var identityFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true}},
	Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) { return args[0], nil },
})

// oneFunc is one: the only element of a list, set or tuple, null when
// it has none; more than one is an error, as in Terraform.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true}},
	Type: func(args []cty.Value) (cty.Type, error) {
		switch ty := args[0].Type(); {
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 1:
			return ty.TupleElementTypes()[0], nil
		}
		return cty.NilType, errors.New("one takes a list, set or tuple of at most one element")
	},
	Impl: func(args []cty.Value, ty cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.IsKnown() || !v.Length().IsKnown() {
			return cty.UnknownVal(ty), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(ty), nil
		case 1:
			it := v.ElementIterator() // a set has no index
			it.Next()
			_, e := it.Element()
			return e, nil
		}
		return cty.NilVal, errors.New("one takes a list, set or tuple of at most one element")
	},
})

// stringTest is strcontains, startswith or endswith: test on a string and
// a substring, prefix or suffix.
func stringTest(test func(s, part string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "string", Type: cty.String}, {Name: "part", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// boolsTest is alltrue (decisive false) or anytrue (decisive true): the
// decisive value if any element has it, else the other one; unknown when
// an element is unknown and none is decisive.
func boolsTest(decisive bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool), AllowUnknown: true}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if !args[0].IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			unknown := false
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				switch {
				case !v.IsKnown():
					unknown = true
				case !v.IsNull() && v.True() == decisive:
					return cty.BoolVal(decisive), nil
				}
			}
			if unknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.BoolVal(!decisive), nil
		},
	})
}

// knownAfterApply stands in a JSON document for a value known only after
// apply, as Terraform's plan prints it.
const knownAfterApply = "(known after apply)"

// jsonEncodeFunc is jsonencode, except that a value with unknown parts
// still encodes, each unknown part as knownAfterApply. A policy nearly
// always names an ARN known only after apply ("${aws_s3_bucket.b.arn}/*");
// with the stock function that one ARN made the whole policy unknown and
// hid its Principal "*" and its Action "*". Placeholders match no
// principal, action or resource pattern, so they add no finding. A value
// unknown as a whole stays unknown.
var jsonEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "val", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].IsKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		return stdlib.JSONEncode(placeholdUnknowns(args[0]))
	},
})

// placeholdUnknowns returns v with each unknown part replaced by
// knownAfterApply. Collections become tuples and objects, which encode
// the same but let a placeholder sit among elements of another type.
func placeholdUnknowns(v cty.Value) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	if !v.IsKnown() {
		return cty.StringVal(knownAfterApply)
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var elems []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, placeholdUnknowns(e))
		}
		return cty.TupleVal(elems)
	case ty.IsMapType() || ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			attrs[k.AsString()] = placeholdUnknowns(e)
		}
		return cty.ObjectVal(attrs)
	}
	return v
}

// policyDocumentJSON is the json attribute of an aws_iam_policy_document
// data source, built from its statement blocks as the provider builds it,
// with source_policy_documents' statements before them and
// override_policy_documents' replacing those of the same sid. A value
// inside a statement known only after apply (the ARN of the bucket the
// statement is about) is written as knownAfterApply, as jsonencode does;
// the document is unknown when the statements themselves or the documents
// it merges are.
func policyDocumentJSON(attrs map[string]any) cty.Value {
	if hasUnknown(attrs["source_policy_documents"]) || hasUnknown(attrs["override_policy_documents"]) ||
		isUnknown(attrs["statement"]) || slices.ContainsFunc(listOf(attrs["statement"]), isUnknown) ||
		hasUnknown(attrs["version"]) {
		return cty.UnknownVal(cty.String)
	}
	var stmts []any
	for _, src := range listOf(attrs["source_policy_documents"]) {
		stmts = append(stmts, docStatements(src)...)
	}
	for _, s := range listOf(attrs["statement"]) {
		stmts = append(stmts, statementJSON(mapOf(placeholdUnknownValues(s))))
	}
	for _, src := range listOf(attrs["override_policy_documents"]) {
		for _, o := range docStatements(src) {
			sid, _ := mapOf(o)["Sid"].(string)
			replaced := false
			for i, s := range stmts {
				if id, _ := mapOf(s)["Sid"].(string); sid != "" && id == sid {
					stmts[i], replaced = o, true
				}
			}
			if !replaced {
				stmts = append(stmts, o)
			}
		}
	}
	version, _ := attrs["version"].(string)
	if version == "" {
		version = "2012-10-17"
	}
	doc := map[string]any{"Version": version, "Statement": nonNil(stmts)}
	b, err := json.Marshal(doc)
	if err != nil {
		return cty.UnknownVal(cty.String)
	}
	return cty.StringVal(string(b))
}

// gcpPolicyDataJSON is the policy_data attribute of a google_iam_policy
// data source, the usual way of writing a google_*_iam_policy: its
// binding blocks as {"bindings": [{"role", "members"}]}, what
// gcpBindings reads. A member or role known only after apply (a service
// account's email) is written as knownAfterApply; the document is
// unknown when the bindings themselves are. Conditions and audit
// configs are left out: the IAM rules read neither.
func gcpPolicyDataJSON(attrs map[string]any) cty.Value {
	bindings := listOf(attrs["binding"])
	if isUnknown(attrs["binding"]) || slices.ContainsFunc(bindings, isUnknown) {
		return cty.UnknownVal(cty.String)
	}
	out := make([]any, 0, len(bindings))
	for _, bd := range bindings {
		m := mapOf(placeholdUnknownValues(bd))
		out = append(out, map[string]any{"role": m["role"], "members": nonNil(listOf(m["members"]))})
	}
	b, err := json.Marshal(map[string]any{"bindings": out})
	if err != nil {
		return cty.UnknownVal(cty.String)
	}
	return cty.StringVal(string(b))
}

func docStatements(src any) []any {
	s, _ := src.(string)
	var doc map[string]any
	if json.Unmarshal([]byte(s), &doc) != nil {
		return nil
	}
	return listOf(doc["Statement"])
}

func statementJSON(s map[string]any) map[string]any {
	out := map[string]any{"Effect": "Allow"}
	if e, ok := s["effect"].(string); ok && e != "" {
		out["Effect"] = e
	}
	if sid, ok := s["sid"].(string); ok && sid != "" {
		out["Sid"] = sid
	}
	for from, to := range map[string]string{"actions": "Action", "not_actions": "NotAction", "resources": "Resource", "not_resources": "NotResource"} {
		if v, ok := s[from]; ok && v != nil {
			out[to] = v
		}
	}
	for from, to := range map[string]string{"principals": "Principal", "not_principals": "NotPrincipal"} {
		ps := listOf(s[from])
		if len(ps) == 0 {
			continue
		}
		m := map[string]any{}
		for _, p := range ps {
			pm := mapOf(p)
			typ, _ := pm["type"].(string)
			ids := listOf(pm["identifiers"])
			if typ == "*" {
				out[to] = "*"
				m = nil
				break
			}
			prev, _ := m[typ].([]any)
			m[typ] = append(prev, ids...)
		}
		if m != nil {
			out[to] = m
		}
	}
	if cs := listOf(s["condition"]); len(cs) > 0 {
		cond := map[string]any{}
		for _, c := range cs {
			cm := mapOf(c)
			test, _ := cm["test"].(string)
			variable, _ := cm["variable"].(string)
			t, _ := cond[test].(map[string]any)
			if t == nil {
				t = map[string]any{}
				cond[test] = t
			}
			t[variable] = cm["values"]
		}
		out["Condition"] = cond
	}
	return out
}

// placeholdUnknownValues returns v with each unknownValue replaced by
// knownAfterApply.
func placeholdUnknownValues(v any) any {
	switch x := v.(type) {
	case unknownValue:
		return knownAfterApply
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = placeholdUnknownValues(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = placeholdUnknownValues(e)
		}
		return out
	}
	return v
}

func hasUnknown(v any) bool {
	switch x := v.(type) {
	case unknownValue:
		return true
	case []any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	}
	return false
}
