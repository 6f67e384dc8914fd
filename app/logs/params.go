package logs

import (
	"slices"
	"strings"
)

// With Options.IncludeParams every template lists, per position that shows
// a value, the values seen there and how often: the values behind <*>.
// Values are counted per shape and position while the input is read (a
// message seen shortly before reuses its values, see msgCache), and merged
// per template at the end. Memory is bounded: at most MaxParamValues
// distinct values are tracked per shape and position; later ones are not
// counted.

// Limits of the values reported.
const (
	MaxParamValues = 1000 // distinct values tracked per shape and position
	TopParamValues = 10   // values reported per template position
)

// Param is the values seen at one position of a template: Position is the
// index of the placeholder's token in the template split on spaces (0 for
// the first token); Values are the most frequent first, ties in the order
// they were first seen.
type Param struct {
	Position int          `json:"position"`
	Values   []ParamValue `json:"values"`
}

// ParamValue is one value and the entries that had it.
type ParamValue struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// paramVal is a masked token's value in a message: token index and text.
type paramVal struct {
	tok   int
	value string
}

// valueCounts counts the distinct values of one shape position.
type valueCounts struct {
	index map[string]int32
	vals  []valueCount
}

type valueCount struct {
	value string
	count int
	first int32 // line number where it was first seen
}

// smallValues is how many values are looked for one by one before a
// position gets an index: most shapes of a log of many shapes see few
// lines, and a map for each of their positions was most of the memory an
// analysis took on such a log.
const smallValues = 8

func (vc *valueCounts) add(v string, n int, line int32) {
	if vc.index == nil {
		for k := range vc.vals {
			if vc.vals[k].value == v {
				vc.vals[k].count += n
				return
			}
		}
		if len(vc.vals) == smallValues {
			vc.index = make(map[string]int32, 2*smallValues)
			for k, x := range vc.vals {
				vc.index[x.value] = int32(k)
			}
		}
	} else if k, ok := vc.index[v]; ok {
		vc.vals[k].count += n
		return
	}
	if len(vc.vals) >= MaxParamValues {
		return
	}
	if vc.index != nil {
		vc.index[v] = int32(len(vc.vals))
	}
	vc.vals = append(vc.vals, valueCount{v, n, line})
}

// messageParams lists the values of the masked tokens just tokenized.
func messageParams(z *tokenizer, text []byte, dst []paramVal) []paramVal {
	dst = dst[:0]
	for p, t := range z.toks {
		if t.masked {
			dst = append(dst, paramVal{p, string(text[t.start+t.keep : t.end])})
		}
	}
	return dst
}

// countParams counts one entry's values in its shape.
func (sh *shape) countParams(vals []paramVal, line int32) {
	if sh.params == nil {
		sh.params = make([]valueCounts, len(sh.toks))
	}
	for _, v := range vals {
		sh.params[v.tok].add(v.value, 1, line)
	}
}

// templateParams merges the values of the members of c at the positions
// whose rendered token (of toks, see display) shows a placeholder.
func templateParams(shapes []*shape, c *cluster, toks []string) []Param {
	var out []Param
	words := 0 // words of the template before position p
	for p, t := range c.toks {
		if strings.IndexByte(t, wild) >= 0 && strings.IndexByte(toks[p], '<') >= 0 {
			if param, ok := mergeParams(shapes, c, p); ok {
				param.Position = words + placeholderWord(toks[p])
				out = append(out, param)
			}
		}
		words += len(strings.Fields(toks[p]))
	}
	return out
}

// placeholderWord is the index of the word holding the placeholder in a
// rendered token.
func placeholderWord(tok string) int {
	for i, w := range strings.Fields(tok) {
		if strings.Contains(w, "<") && strings.Contains(w, ">") {
			return i
		}
	}
	return 0
}

// mergeParams merges the value counts of c's members at position p.
func mergeParams(shapes []*shape, c *cluster, p int) (Param, bool) {
	var all valueCounts
	for _, si := range c.members {
		sh := shapes[si]
		if strings.IndexByte(sh.toks[p], wild) < 0 { // a literal in this shape: its value
			all.add(sh.toks[p], sh.count, sh.first)
			continue
		}
		if sh.params == nil {
			continue
		}
		for _, v := range sh.params[p].vals {
			all.add(v.value, v.count, v.first)
		}
	}
	if len(all.vals) == 0 {
		return Param{}, false
	}
	vals := all.vals
	slices.SortFunc(vals, func(x, y valueCount) int {
		if x.count != y.count {
			return y.count - x.count
		}
		return int(x.first - y.first)
	})
	param := Param{Values: make([]ParamValue, 0, min(len(vals), TopParamValues))}
	for _, v := range vals[:min(len(vals), TopParamValues)] {
		param.Values = append(param.Values, ParamValue{v.value, v.count})
	}
	return param, true
}
