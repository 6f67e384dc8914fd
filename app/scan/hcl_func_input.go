package scan

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// A function's work grows with what it reads, not with what it returns:
// sha512 of a long string or regexall that finds nothing returns a few
// bytes, and MaxHCLEvalBytes never saw them. A 320-byte file calling
// regexall on a 120 KB local three thousand times held an analysis slot
// for a minute. So the arguments of every call count against
// MaxFunctionInput, a regular expression's subject once per byte of its
// pattern (Go's matcher steps through the pattern's states for each byte
// of the text), and past it the scan stops with a LimitError.

// MaxFunctionInput bounds the bytes the source's function calls read, in
// valueSize's measure: 64 MiB, a dozen times the largest input, which
// hashing reads in a fraction of a second and a regular expression of a
// dozen characters in about one.
const MaxFunctionInput = 64 << 20

// regexFunctions take a pattern (at patternArg) and a subject (at
// subjectArg); replace only when its substring is a /pattern/.
var regexFunctions = map[string][2]int{"regex": {0, 1}, "regexall": {0, 1}, "replace": {1, 0}}

// inputWork is what calling name with args reads, counted up to past
// limit.
func inputWork(name string, args []cty.Value, limit int) int {
	if at, ok := regexFunctions[name]; ok && len(args) > max(at[0], at[1]) {
		if pattern, ok := knownString(args[at[0]]); ok && (name != "replace" || len(pattern) > 1 && strings.HasPrefix(pattern, "/") && strings.HasSuffix(pattern, "/")) {
			if subject, ok := knownString(args[at[1]]); ok {
				return len(subject) * max(len(pattern), 1)
			}
		}
	}
	n := 0
	for _, a := range args {
		if n += valueSize(a, limit-n); n > limit {
			break
		}
	}
	return n
}

// knownString is v's text when v is a known string.
func knownString(v cty.Value) (string, bool) {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func (ev *hclEval) checkFunctionInput() {
	if ev.funcInput > MaxFunctionInput {
		panic(abort{&LimitError{Limit: "terraform_functions", Max: MaxFunctionInput, Message: fmt.Sprintf(
			"the Terraform source's function calls read more than %d bytes (64 MiB) of values (a regular expression reads its text once per character of its pattern); the limit is %d",
			MaxFunctionInput, MaxFunctionInput)}})
	}
}
