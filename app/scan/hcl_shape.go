package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// HCL's parser and evaluator recurse on nested brackets and on chains of
// unary operators and conditionals (!!!!x, a ? b : c ? d : ...): 5 MiB of
// them overflows the goroutine's stack, which kills the process, and a
// long chain of binary operators takes seconds. Before anything parses a
// file, one pass over its bytes checks two limits real configurations stay
// far below. The pass knows HCL's strings, heredocs, comments and
// interpolations, so text in them does not count (HCL's own lexer would
// allocate a token per operator: half a gigabyte for 5 MiB of them).

// MaxExpressionOperators bounds the operators of one expression between
// separators (a comma, a bracket, an attribute's "=", an interpolation's
// ends, a line break outside parentheses).
const MaxExpressionOperators = 256

// checkHCLShape checks a file's nesting (MaxDocumentDepth) and operator
// chains (MaxExpressionOperators); for HCL's JSON form, the nesting of the
// JSON and the templates in its strings.
func checkHCLShape(p string, data []byte) error {
	if !strings.HasSuffix(p, ".json") {
		return shapeOf(p, data, false)
	}
	if err := checkNesting(p, data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the parser reports a malformed file
		}
		if s, ok := tok.(string); ok && (strings.Contains(s, "${") || strings.Contains(s, "%{")) {
			if err := shapeOf(p, []byte(s), true); err != nil {
				return err
			}
		}
	}
}

// shapeCtx is where the scan is: code (an interpolation's or the file's),
// a quoted string, or a heredoc until its marker.
type shapeCtx struct {
	kind   byte   // 'c' code, 's' string, 'h' heredoc or a JSON string's template
	marker []byte // a heredoc's
	braces int    // code: open braces of its own, to find the interpolation's end
	parens int
}

func shapeOf(p string, data []byte, template bool) error {
	stack := []shapeCtx{{kind: 'c'}}
	if template {
		stack[0].kind = 'h'
	}
	depth, ops, line := 0, 0, 1
	tooDeep := func() error {
		return &LimitError{Limit: "depth", Max: MaxDocumentDepth, Message: fmt.Sprintf(
			"%s nests brackets or interpolations more than %d deep at line %d; the limit is %d", p, MaxDocumentDepth, line, MaxDocumentDepth)}
	}
	lineStart := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		top := &stack[len(stack)-1]
		if c == '\n' {
			line++
		}
		switch top.kind {
		case 's', 'h':
			if top.kind == 'h' && lineStart && top.marker != nil {
				end := bytes.IndexByte(data[i:], '\n')
				if end < 0 {
					end = len(data) - i
				}
				if bytes.Equal(bytes.TrimSpace(data[i:i+end]), top.marker) {
					stack = stack[:len(stack)-1]
					i += end - 1
					lineStart = false
					continue
				}
			}
			lineStart = c == '\n'
			switch {
			case top.kind == 's' && c == '\\':
				i++
			case top.kind == 's' && c == '"':
				stack = stack[:len(stack)-1]
			case (c == '$' || c == '%') && i+1 < len(data) && data[i+1] == '{':
				if i+2 < len(data) && data[i+2] == '{' && i > 0 && data[i-1] == c {
					continue // $${ is a literal ${
				}
				if depth++; depth > MaxDocumentDepth {
					return tooDeep()
				}
				stack = append(stack, shapeCtx{kind: 'c'})
				ops = 0
				i++
			}
			continue
		}
		lineStart = c == '\n'
		switch c {
		case '"':
			stack = append(stack, shapeCtx{kind: 's'})
		case '#':
			i += skipLine(data[i:])
		case '/':
			switch {
			case i+1 < len(data) && data[i+1] == '/':
				i += skipLine(data[i:])
			case i+1 < len(data) && data[i+1] == '*':
				end := bytes.Index(data[i+2:], []byte("*/"))
				if end < 0 {
					return nil // the parser reports it
				}
				line += bytes.Count(data[i:i+2+end], []byte{'\n'})
				i += end + 3
			default:
				ops++
			}
		case '<':
			if m := heredocMarker(data[i:]); m != nil {
				stack = append(stack, shapeCtx{kind: 'h', marker: m})
				i += skipLine(data[i:])
				lineStart = true
				continue
			}
			ops++
		case '{', '[', '(':
			if depth++; depth > MaxDocumentDepth {
				return tooDeep()
			}
			if c == '(' {
				top.parens++
			} else {
				ops = 0
			}
			if c == '{' {
				top.braces++
			}
		case '}', ']', ')':
			depth = max(depth-1, 0)
			switch {
			case c == ')':
				top.parens = max(top.parens-1, 0)
			case c == '}' && top.braces == 0 && len(stack) > 1: // an interpolation ends
				stack = stack[:len(stack)-1]
				ops = 0
			case c == '}':
				top.braces--
				ops = 0
			default:
				ops = 0
			}
		case ',':
			ops = 0
		case '\n':
			if top.parens == 0 {
				ops = 0
			}
		case '=':
			if i+1 < len(data) && data[i+1] == '=' {
				ops++
				i++
			} else if i > 0 && strings.IndexByte("!<>", data[i-1]) >= 0 {
				// the second character of != <= >=, counted already
			} else {
				ops = 0
			}
		case '!', '-', '+', '*', '%', '?', '>':
			ops++
		case '&', '|':
			ops++
			if i+1 < len(data) && data[i+1] == c {
				i++
			}
		}
		if ops > MaxExpressionOperators {
			return &LimitError{Limit: "expression_operators", Max: MaxExpressionOperators, Message: fmt.Sprintf(
				"%s has an expression of more than %d operators at line %d; the limit is %d", p, MaxExpressionOperators, line, MaxExpressionOperators)}
		}
	}
	return nil
}

// skipLine is how far the line break ending the current line is (it is
// read next), or the rest.
func skipLine(b []byte) int {
	if k := bytes.IndexByte(b, '\n'); k >= 0 {
		return k - 1
	}
	return len(b)
}

// heredocMarker reads "<<EOF" or "<<-EOF" at the start of b and returns
// EOF, or nil when b does not open a heredoc.
func heredocMarker(b []byte) []byte {
	if !bytes.HasPrefix(b, []byte("<<")) {
		return nil
	}
	b = bytes.TrimPrefix(b[2:], []byte("-"))
	n := 0
	for n < len(b) && (b[n] == '_' || b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z' || b[n] >= '0' && b[n] <= '9' && n > 0) {
		n++
	}
	if n == 0 || n < len(b) && b[n] != '\n' && b[n] != '\r' {
		return nil
	}
	return b[:n]
}
