package scan

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Terraform's built-in functions that go-cty's standard library lacks or
// defines differently, so that real modules evaluate: a VPC module's
// cidrsubnets, length of a string, index of a value, replace with a
// /regex/ (the IP network functions are in hcl_funcs_cidr.go, the
// encodings, hashes and time in hcl_funcs_encoding.go). A function whose
// result Terraform itself knows only at apply (timestamp, uuid, bcrypt)
// is unknown here too.
func (ev *hclEval) terraformFunctions(fs map[string]function.Function) {
	for name, f := range map[string]function.Function{
		"length": lengthFunc, "index": indexFunc, "lookup": lookupFunc, "coalesce": coalesceFunc, "replace": replaceFunc,
		"cidrsubnets": cidrSubnetsFunc, "cidrnetmask": cidrNetmaskFunc, "cidrcontains": cidrContainsFunc,
		"sum": sumFunc, "transpose": transposeFunc, "matchkeys": matchKeysFunc,
		"log": stdlib.LogFunc, "pow": stdlib.PowFunc, "indent": stdlib.IndentFunc,
		"formatdate": stdlib.FormatDateFunc, "timeadd": stdlib.TimeAddFunc, "timecmp": timeCmpFunc,
		"base64encode":     stringFunc(func(s string) (string, error) { return base64.StdEncoding.EncodeToString([]byte(s)), nil }),
		"base64decode":     stringFunc(base64Text),
		"base64gzip":       stringFunc(base64Gzip),
		"textencodebase64": textEncodeFunc,
		"textdecodebase64": textDecodeFunc,
		"urlencode":        stringFunc(func(s string) (string, error) { return url.QueryEscape(s), nil }),
		"yamlencode":       yamlEncodeFunc,
		"md5":              hashFunc(md5.New, hex.EncodeToString),
		"sha1":             hashFunc(sha1.New, hex.EncodeToString),
		"sha256":           hashFunc(sha256.New, hex.EncodeToString),
		"sha512":           hashFunc(sha512.New, hex.EncodeToString),
		"base64sha256":     hashFunc(sha256.New, base64.StdEncoding.EncodeToString),
		"base64sha512":     hashFunc(sha512.New, base64.StdEncoding.EncodeToString),
		"basename":         stringFunc(func(s string) (string, error) { return path.Base(s), nil }),
		"dirname":          stringFunc(func(s string) (string, error) { return path.Dir(s), nil }),
		"issensitive":      function.New(&function.Spec{Params: []function.Parameter{anyParam("value")}, Type: function.StaticReturnType(cty.Bool), Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.False, nil }}),
		"ephemeralasnull":  identityFunc,
		"uuidv5":           uuidV5Func,
		"filebase64":       ev.fileFunc(func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }),
		"filemd5":          ev.fileFunc(hashed(md5.New, hex.EncodeToString)),
		"filesha1":         ev.fileFunc(hashed(sha1.New, hex.EncodeToString)),
		"filesha256":       ev.fileFunc(hashed(sha256.New, hex.EncodeToString)),
		"filesha512":       ev.fileFunc(hashed(sha512.New, hex.EncodeToString)),
		"filebase64sha256": ev.fileFunc(hashed(sha256.New, base64.StdEncoding.EncodeToString)),
		"filebase64sha512": ev.fileFunc(hashed(sha512.New, base64.StdEncoding.EncodeToString)),
		"fileexists":       ev.fileExistsFunc(),
		"timestamp":        unknownFunc(cty.String),
		"plantimestamp":    unknownFunc(cty.String),
		"uuid":             unknownFunc(cty.String),
		"bcrypt":           unknownFunc(cty.String),
		"rsadecrypt":       unknownFunc(cty.String),
		"abspath":          unknownFunc(cty.String), // the directory Terraform runs in is not sent
		"pathexpand":       unknownFunc(cty.String), // nor the home directory
	} {
		fs[name] = f
	}
}

func anyParam(name string) function.Parameter {
	return function.Parameter{Name: name, Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true}
}

// unknownFunc takes any arguments and returns an unknown value of type ty.
func unknownFunc(ty cty.Type) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true},
		Type: function.StaticReturnType(ty),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.UnknownVal(ty), nil },
	})
}

// stringFunc is a function of one string to a string.
func stringFunc(f func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, err := f(args[0].AsString())
			return cty.StringVal(s), err
		},
	})
}

// lengthFunc is Terraform's length, which also counts a string's
// characters and an object's attributes (go-cty's takes collections only).
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowMarked: true}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty.IsObjectType() || ty == cty.DynamicPseudoType ||
			ty.IsTupleType() || ty.IsListType() || ty.IsMapType() || ty.IsSetType() {
			return cty.Number, nil
		}
		return cty.NilType, errors.New("argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		switch ty := v.Type(); {
		case !v.IsKnown():
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case ty == cty.String:
			return stdlib.Strlen(v)
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
		}
		return v.Length().WithMarks(marks), nil
	},
})

// lookupFunc is Terraform's lookup, whose default may be null (modules
// write lookup(rule, "from_port", null)) or left out; go-cty's refuses
// both, which left such a rule's ports unknown.
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true}},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true, AllowMarked: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, errors.New("lookup takes at most three arguments")
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			k, _ := args[1].Unmark()
			if key := k.AsString(); ty.HasAttribute(key) {
				return ty.AttributeType(key), nil
			} else if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.NilType, fmt.Errorf("the given object has no attribute %q", k.AsString())
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, errors.New("the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		}
		return cty.NilType, errors.New("lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, ty cty.Type) (cty.Value, error) {
		m, marks := args[0].Unmark()
		k, keyMarks := args[1].Unmark()
		if !m.IsWhollyKnown() || !k.IsKnown() {
			return cty.UnknownVal(ty).WithMarks(marks, keyMarks), nil
		}
		key := k.AsString()
		if m.Type().IsObjectType() {
			if m.Type().HasAttribute(key) {
				return m.GetAttr(key).WithMarks(marks, keyMarks), nil
			}
		} else if m.HasIndex(cty.StringVal(key)) == cty.True {
			return m.Index(cty.StringVal(key)).WithMarks(marks, keyMarks), nil
		}
		if len(args) < 3 {
			return cty.NilVal, fmt.Errorf("lookup failed to find key %q", key)
		}
		d, err := convert.Convert(args[2], ty)
		if err != nil {
			return cty.NilVal, err
		}
		return d.WithMarks(marks, keyMarks), nil
	},
})

// indexFunc is Terraform's index(list, value): the position of value in
// list. go-cty's IndexFunc is list[key], a different function.
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}, {Name: "value", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list := args[0]
		if !(list.Type().IsListType() || list.Type().IsTupleType()) {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		for it := list.ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// coalesceFunc is Terraform's coalesce: the first argument that is
// neither null nor an empty string (go-cty's skips only nulls).
var coalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "vals", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowNull: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, v := range args {
			types[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, ty cty.Type) (cty.Value, error) {
		for _, v := range args {
			v, _ = convert.Convert(v, ty)
			if !v.IsKnown() {
				return cty.UnknownVal(ty), nil
			}
			if v.IsNull() || ty == cty.String && v.AsString() == "" {
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// replaceFunc is Terraform's replace: a substring written /like this/ is a
// regular expression ("$1" in the replacement names its groups).
var replaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}, {Name: "substr", Type: cty.String}, {Name: "replace", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, sub, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
			re, err := regexp.Compile(sub[1 : len(sub)-1])
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, sub, repl)), nil
	},
})

// sumFunc is sum: the total of a non-empty list of numbers.
var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		l := args[0]
		if !l.CanIterateElements() || l.Type().IsMapType() || l.Type().IsObjectType() {
			return cty.NilVal, errors.New("sum takes a list, set or tuple of numbers")
		}
		if l.LengthInt() == 0 {
			return cty.NilVal, errors.New("sum of an empty list")
		}
		if !l.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		total := cty.Zero
		for it := l.ElementIterator(); it.Next(); {
			_, v := it.Element()
			n, err := convert.Convert(v, cty.Number)
			if err != nil || n.IsNull() {
				return cty.NilVal, errors.New("sum takes numbers")
			}
			total = total.Add(n)
		}
		return total, nil
	},
})

// transposeFunc is transpose: a map of lists of strings turned inside out.
var transposeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:   function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.Map(cty.List(cty.String))), nil
		}
		out := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, l := it.Element()
			for lt := l.ElementIterator(); lt.Next(); {
				_, v := lt.Element()
				if v.IsNull() {
					return cty.NilVal, errors.New("transpose: a list holds null")
				}
				out[v.AsString()] = append(out[v.AsString()], k)
			}
		}
		if len(out) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		m := make(map[string]cty.Value, len(out))
		for k, l := range out {
			m[k] = cty.ListVal(l)
		}
		return cty.MapVal(m), nil
	},
})

// matchKeysFunc is matchkeys(values, keys, searchset): the values whose
// key (same index) is in searchset.
var matchKeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)}, {Name: "searchset", Type: cty.List(cty.DynamicPseudoType)}},
	Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, ty cty.Type) (cty.Value, error) {
		values, keys, set := args[0], args[1], args[2]
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() || !set.IsWhollyKnown() {
			return cty.UnknownVal(ty), nil
		}
		if values.LengthInt() != keys.LengthInt() {
			return cty.NilVal, errors.New("length of keys and values should be equal")
		}
		vals := values.AsValueSlice()
		var out []cty.Value
		i := 0
		for it := keys.ElementIterator(); it.Next(); i++ {
			_, k := it.Element()
			for st := set.ElementIterator(); st.Next(); {
				_, s := st.Element()
				if eq, err := stdlib.Equal(k, s); err == nil && eq.IsKnown() && eq.True() {
					out = append(out, vals[i])
					break
				}
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(ty.ElementType()), nil
		}
		return cty.ListVal(out), nil
	},
})
