package scan

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The YAML library numbers its lines from 0 and adds 1 only for the
// scanner's errors: a parser error ("did not find expected key") came out
// one line early. It also names the line where the construct the parser
// was in began (a mapping opened four lines up), not the one it could not
// read, which is where an editor puts the mark. yamlSyntaxError finds that
// line.

// yamlParserProblems are the problems the library's parser (not its
// scanner) reports; their line is 0-based.
var yamlParserProblems = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"did not find expected node content", "did not find expected '-' indicator",
	"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found duplicate %TAG directive", "found duplicate %YAML directive",
	"found incompatible YAML document", "found undefined tag handle",
}

// yamlSyntaxError turns the library's "yaml: line 3: did not find
// expected key" into a SyntaxError with the 1-based line the user sees.
func yamlSyntaxError(data []byte, err error) *SyntaxError {
	line, msg := yamlErrorLine(err)
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok && line == 0 {
		name = strings.TrimSuffix(name, "' referenced")
		line, col := yamlAliasAt(data, name, msg)
		return &SyntaxError{Line: line, Column: col, Msg: "invalid YAML: " + msg +
			" (the alias *" + name + " needs an anchor &" + name + " earlier in the document)"}
	}
	if msg == "control characters are not allowed" && line == 0 {
		if at, r, ok := yamlControlAt(data); ok {
			return newSyntaxError(data, at, fmt.Sprintf("invalid YAML: control characters are not allowed (U+%04X here): "+
				"YAML text takes tab, line feed and carriage return, no other control character", r))
		}
	}
	for _, p := range yamlParserProblems {
		if msg == p {
			line = yamlProblemLine(data, msg, line+1)
			break
		}
	}
	if line < 1 {
		line = 1
	}
	return &SyntaxError{Line: line, Column: 1, Msg: "invalid YAML: " + msg}
}

// yamlErrorLine splits the library's message into its line (0 when it
// names none) and the problem.
func yamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, after
			}
		}
	}
	return 0, msg
}

// yamlProblemLine is the first line, from line from on, at which the
// document cut after it fails with the same problem: the parser stops at
// the first token it cannot place, so the text before that token's line
// reads without this error and the text through it does not. The search
// gallops from the construct's first line (the mistake is usually a few
// lines below it), then halves; it reads at most yamlSearchBytes of text
// in all, on the error path only, and past that, or when no cut
// reproduces the problem, the answer is from.
func yamlProblemLine(data []byte, problem string, from int) int {
	ends := lineEnds(data)
	if from < 1 || from > len(ends) {
		return from
	}
	spent := 0
	// fails says whether the cut after line k fails with problem; ok is
	// false past the budget.
	fails := func(k int) (failed, ok bool) {
		if spent += ends[k-1]; spent > yamlSearchBytes {
			return false, false
		}
		var n yaml.Node
		err := yaml.NewDecoder(bytes.NewReader(data[:ends[k-1]])).Decode(&n)
		if err == nil {
			return false, true
		}
		_, msg := yamlErrorLine(err)
		return msg == problem, true
	}
	// Gallop: lo is a cut known to read without the problem (or from
	// itself), hi one that fails with it.
	lo, hi := from-1, 0
	for step := 1; hi == 0; step *= 2 {
		k := min(from-1+step, len(ends))
		failed, ok := fails(k)
		switch {
		case !ok:
			return from
		case failed:
			hi = k
		case k == len(ends):
			return from // the whole text read alone does not fail so (a later document's error)
		default:
			lo = k
		}
	}
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		failed, ok := fails(mid)
		if !ok {
			return from
		}
		if failed {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// yamlSearchBytes bounds the text yamlProblemLine parses: a template
// of a few hundred kilobytes gets its line, a 5 MB one is not parsed
// twenty times over.
const yamlSearchBytes = 8 << 20

// lineEnds are the byte offsets just past each line of data (its
// newline included); a last line without a newline ends at len(data).
func lineEnds(data []byte) []int {
	var ends []int
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' || len(data) == 0 {
		ends = append(ends, len(data))
	}
	return ends
}

// yamlAliasAt is the line and column of the alias (*name) the library
// calls unknown, which it reports with no line at all: it came out at
// line 1. The alias is the first *name in the text, standing as a token,
// at which the document cut after its line fails with the same problem
// (so that a *name in a comment or inside a scalar is passed over);
// within yamlSearchBytes, else the first *name standing as a token, else
// line 1.
func yamlAliasAt(data []byte, name, problem string) (line, col int) {
	alias := []byte("*" + name)
	ends := lineEnds(data)
	first, firstCol, spent := 0, 0, 0
	for at := 0; ; at++ {
		i := bytes.Index(data[at:], alias)
		if i < 0 || name == "" {
			break
		}
		at += i
		end := at + len(alias)
		if at > 0 && !strings.ContainsRune(" \t\n[{,", rune(data[at-1])) || end < len(data) && isAnchorByte(data[end]) {
			continue
		}
		l, c := lineColumn(data, at)
		if first == 0 {
			first, firstCol = l, c
		}
		if spent += ends[l-1]; spent > yamlSearchBytes {
			break
		}
		var n yaml.Node
		if err := yaml.NewDecoder(bytes.NewReader(data[:ends[l-1]])).Decode(&n); err != nil {
			if _, msg := yamlErrorLine(err); msg == problem {
				return l, c
			}
		}
	}
	if first == 0 {
		return 1, 1
	}
	return first, firstCol
}

// isAnchorByte says whether c continues an anchor's name as the library
// reads one: letters, digits, - and _.
func isAnchorByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

// yamlControlAt is the offset and rune of the first character YAML does
// not allow, which the library's reader reports with no line (it came
// out at line 1): its allowed set, for UTF-8 text.
func yamlControlAt(data []byte) (int, rune, bool) {
	for at, r := range string(data) {
		switch {
		case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85,
			r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		default:
			return at, r, true
		}
	}
	return 0, 0, false
}
