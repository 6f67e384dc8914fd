package scan

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// go-cty converts a tuple to a list or set (a list(string) or list(any)
// variable's default, tolist, toset, a function taking a list) by
// unifying the types of all its elements, which sorts them in time
// quadratic in their number, equal or not: a default of 20,000 numbers
// for a list(any) variable took 5 s, and a for expression can build
// hundreds of thousands of elements within MaxHCLEvalBytes. convertFast
// finds the element type by unifying each distinct type once, then
// converts element by element: the same value, in time linear in the
// elements (times the distinct types, at most maxUnifyTypes).

// maxUnifyTypes bounds the distinct element types concreteType unifies;
// past it go-cty's own conversion decides.
const maxUnifyTypes = 64

// convertFast is convert.Convert(v, ty), without the quadratic
// unification of a long tuple's element types.
func convertFast(v cty.Value, ty cty.Type) (cty.Value, error) {
	if ty.HasDynamicTypes() {
		if c := concreteType(v.Type(), ty); c != cty.NilType && !c.HasDynamicTypes() {
			ty = c
		}
	}
	return convertTo(v, ty)
}

// convertTo converts a known tuple to a list or set, and a known object
// to a map, of a type without "any" element by element; anything else
// as go-cty does.
func convertTo(v cty.Value, ty cty.Type) (cty.Value, error) {
	vt := v.Type()
	if v.IsMarked() || !v.IsKnown() || v.IsNull() || ty.HasDynamicTypes() ||
		!((ty.IsListType() || ty.IsSetType()) && vt.IsTupleType() || ty.IsMapType() && vt.IsObjectType()) ||
		v.LengthInt() == 0 {
		return convert.Convert(v, ty)
	}
	ety := ty.ElementType()
	elems := make([]cty.Value, 0, v.LengthInt())
	var attrs map[string]cty.Value
	if ty.IsMapType() {
		attrs = make(map[string]cty.Value, v.LengthInt())
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		c, err := convertTo(e, ety)
		if err != nil {
			if attrs != nil {
				return cty.NilVal, fmt.Errorf("element %q: %w", k.AsString(), err)
			}
			return cty.NilVal, fmt.Errorf("element %s: %w", k.AsBigFloat().String(), err)
		}
		elems = append(elems, c)
		if attrs != nil {
			attrs[k.AsString()] = c
		}
	}
	if !cty.CanListVal(elems) { // the element type has optional attributes set differently: go-cty knows
		return convert.Convert(v, ty)
	}
	switch {
	case attrs != nil:
		return cty.MapVal(attrs), nil
	case ty.IsSetType():
		return cty.SetVal(elems), nil
	}
	return cty.ListVal(elems), nil
}

// concreteType is ty with each "any" replaced by the type a value of
// type vt gives it: its own, or for the elements of a collection the one
// type they unify to. NilType when they do not unify, or have more than
// maxUnifyTypes distinct types.
func concreteType(vt, ty cty.Type) cty.Type {
	switch {
	case !ty.HasDynamicTypes():
		return ty
	case ty == cty.DynamicPseudoType:
		return vt
	case ty.IsListType() || ty.IsSetType():
		var elems []cty.Type
		switch {
		case vt.IsTupleType():
			elems = vt.TupleElementTypes()
		case vt.IsListType() || vt.IsSetType():
			elems = []cty.Type{vt.ElementType()}
		default:
			return cty.NilType
		}
		ety := unifyElements(elems, ty.ElementType())
		switch {
		case ety == cty.NilType:
			return cty.NilType
		case ty.IsListType():
			return cty.List(ety)
		}
		return cty.Set(ety)
	case ty.IsMapType():
		var elems []cty.Type
		switch {
		case vt.IsObjectType():
			for _, at := range vt.AttributeTypes() {
				elems = append(elems, at)
			}
		case vt.IsMapType():
			elems = []cty.Type{vt.ElementType()}
		default:
			return cty.NilType
		}
		if ety := unifyElements(elems, ty.ElementType()); ety != cty.NilType {
			return cty.Map(ety)
		}
		return cty.NilType
	case ty.IsObjectType():
		if !vt.IsObjectType() {
			return cty.NilType
		}
		attrs := map[string]cty.Type{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = at
			if vt.HasAttribute(name) {
				if c := concreteType(vt.AttributeType(name), at); c != cty.NilType {
					attrs[name] = c
				}
			}
		}
		var optional []string
		for name := range ty.OptionalAttributes() {
			optional = append(optional, name)
		}
		return cty.ObjectWithOptionalAttrs(attrs, optional)
	}
	return cty.NilType
}

// unifyElements is the type elements of types elems take as elements of
// type ety: each made concrete, then unified, each distinct type once.
func unifyElements(elems []cty.Type, ety cty.Type) cty.Type {
	var distinct []cty.Type
	for _, t := range elems {
		c := concreteType(t, ety)
		if c == cty.NilType {
			return cty.NilType
		}
		seen := false
		for _, d := range distinct {
			if seen = d.Equals(c); seen {
				break
			}
		}
		if !seen {
			if distinct = append(distinct, c); len(distinct) > maxUnifyTypes {
				return cty.NilType
			}
		}
	}
	switch len(distinct) {
	case 0:
		return ety // no elements: left as it is
	case 1:
		return distinct[0]
	}
	u, _ := convert.UnifyUnsafe(distinct)
	return u
}

// toCollectionFunc is tolist, toset or tomap (ty of any element): the
// value convertFast makes of a known, unmarked argument, else go-cty's.
// go-cty's, given that value, only read it again: for a set, a sort each
// time (hcl_sets.go), and toset of 100,000 strings sorted them four times.
func toCollectionFunc(ty cty.Type) function.Function {
	f := stdlib.MakeToFunc(ty)
	converted := func(args []cty.Value) (cty.Value, bool) {
		if len(args) != 1 || !args[0].IsKnown() || args[0].IsNull() || args[0].IsMarked() {
			return cty.NilVal, false
		}
		c, err := convertFast(args[0], ty)
		return c, err == nil
	}
	return function.New(&function.Spec{Params: f.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			if c, ok := converted(args); ok {
				return c.Type(), nil
			}
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if c, ok := converted(args); ok {
				return c, nil
			}
			return f.Call(args)
		},
	})
}

// collectionParams are f's parameters with those of a collection type
// (list(string), set(any), map(...)) taking any value instead, and the
// conversion to apply to the arguments before f is called: convertFast
// to the parameter's type, which HCL made before (go-cty's functions
// take their arguments converted), so that go-cty's own conversion of a
// long tuple, quadratic, is not the one made. An argument convertFast
// cannot convert is given as it is, for f to refuse.
func collectionParams(f function.Function) ([]function.Parameter, *function.Parameter, func([]cty.Value) []cty.Value) {
	isColl := func(t cty.Type) bool { return t.IsListType() || t.IsSetType() || t.IsMapType() }
	params := f.Params()
	varParam := f.VarParam()
	var types []cty.Type // the collection type of each parameter, or NilType
	var any bool
	for i := range params {
		types = append(types, cty.NilType)
		if isColl(params[i].Type) {
			types[i], params[i].Type, any = params[i].Type, cty.DynamicPseudoType, true
		}
	}
	varType := cty.NilType
	if varParam != nil && isColl(varParam.Type) {
		vp := *varParam
		varType, vp.Type, varParam, any = vp.Type, cty.DynamicPseudoType, &vp, true
	}
	if !any {
		return params, varParam, func(args []cty.Value) []cty.Value { return args }
	}
	return params, varParam, func(args []cty.Value) []cty.Value {
		out := args
		for i, a := range args {
			ty := varType
			if i < len(types) {
				ty = types[i]
			}
			if ty == cty.NilType {
				continue // HCL has converted it to the parameter's type
			}
			if c, err := convertFast(a, ty); err == nil {
				if &out[0] == &args[0] {
					out = append([]cty.Value(nil), args...)
				}
				out[i] = c
			}
		}
		return out
	}
}
