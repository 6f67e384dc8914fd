package scan

import (
	"fmt"
	"math/bits"

	"github.com/zclconf/go-cty/cty"
)

// go-cty sorts a set each time it is read, and a function call reads its
// arguments several times (for marks, for unknowns, then the function
// itself): a set of n elements costs about n·log²n comparisons a read, at
// some 50 ns each. toset of 100,000 strings cost 8 s for one call, and
// 200 calls of length() on a set of 10,000 strings took more than a
// minute, where the values counted against MaxHCLEvalBytes were small.
// So the sets a function is given, and those of the values charged,
// count n·log²n (n·bits(n)²) against MaxSetWork, and past it the scan
// stops with a LimitError that says why. A set of a hundred elements is
// read thousands of times within it.

// MaxSetWork bounds the element comparisons reading the source's sets
// costs: about 3 s. 300 instances each calling tolist on a set of 300
// names count 44 million; a set of 100,000 strings, 29 million a read, is
// refused on its second.
const MaxSetWork = 50_000_000

// setReadsPerCall is how many times a function call reads a set it is
// given: go-cty's call of our wrapper (looking for marks, then removing
// them), the function's type check from our wrapper's, its own call
// (marks twice again), and the function itself. The wrapper counts them
// when its type is asked, the first thing after go-cty's first read.
const setReadsPerCall = 6

// setWork is what reading v once costs in comparisons: n·bits(n)² for
// each set of n elements in it, counted up to past limit. A value whose
// type holds no set costs nothing and is not walked.
func setWork(v cty.Value, limit int) int {
	if !hasSetType(v.Type()) {
		return 0
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	ty, n := v.Type(), 0
	if ty.IsSetType() {
		l := v.LengthInt()
		b := bits.Len(uint(l))
		if n = l * b * b; !hasSetType(ty.ElementType()) {
			return n
		}
	}
	for it := v.ElementIterator(); it.Next() && n <= limit; {
		_, e := it.Element()
		n += setWork(e, limit-n)
	}
	return n
}

// hasSetType says whether a value of type ty may hold a set.
func hasSetType(ty cty.Type) bool {
	switch {
	case ty.IsSetType():
		return true
	case ty.IsListType() || ty.IsMapType():
		return hasSetType(ty.ElementType())
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if hasSetType(at) {
				return true
			}
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if hasSetType(et) {
				return true
			}
		}
	}
	return false
}

// readSets counts reads reads of each of vals against MaxSetWork and says
// whether the scan is within it.
func (ev *hclEval) readSets(reads int, vals ...cty.Value) bool {
	for _, v := range vals {
		ev.setWork += reads * setWork(v, MaxSetWork-ev.setWork+1)
		if ev.setWork > MaxSetWork {
			return false
		}
	}
	return true
}

func (ev *hclEval) checkSetWork() {
	if ev.setWork > MaxSetWork {
		panic(abort{&LimitError{Limit: "terraform_sets", Max: MaxSetWork, Message: fmt.Sprintf(
			"the Terraform source reads large sets (toset, set(...) values) too often: more than %d element comparisons "+
				"(a set of n elements costs about n·log²n each time it is read); the limit is %d", MaxSetWork, MaxSetWork)}})
	}
}
