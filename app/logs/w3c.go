package logs

import "bytes"

// The W3C extended log format, IIS's default, names its columns in a
// directive rather than writing them in a fixed order:
//
//	#Fields: date time s-ip cs-method cs-uri-stem … sc-status sc-substatus …
//	2026-11-29 05:44:20 10.0.0.5 POST /api/orders - 443 - 10.0.0.2 curl/8.0 - 500 0 0 120
//
// No quote or bar marks such a line as an HTTP access line, so its status
// is read from the column the directive names: it decides, as any access
// line's does (5xx and 429 are matches, no keyword in a URL is).

// w3cSample bounds how far into the input the directive is looked for:
// IIS writes its directives at the top of each file.
const w3cSample = 64 << 10

var w3cFields = []byte("#Fields:")

// w3cStatusColumn returns the 1-based column of sc-status that the
// input's first "#Fields:" directive names, or 0.
func w3cStatusColumn(input []byte) int {
	head := input[:min(len(input), w3cSample)]
	k := bytes.Index(head, w3cFields)
	for k > 0 && head[k-1] != '\n' {
		next := bytes.Index(head[k+1:], w3cFields)
		if next < 0 {
			return 0
		}
		k += 1 + next
	}
	if k < 0 {
		return 0
	}
	line, _ := nextLine(head, k+len(w3cFields))
	for n, f := range bytes.Fields(line) {
		if string(f) == "sc-status" {
			return n + 1
		}
	}
	return 0
}

// w3cStatus is the status in column col of a W3C log line, columns
// separated by single spaces; directives ('#') have none.
func w3cStatus(line []byte, col int) accessLine {
	if len(line) == 0 || line[0] == '#' {
		return notAccess
	}
	i := 0
	for range col - 1 {
		sp := bytes.IndexByte(line[i:], ' ')
		if sp < 0 {
			return notAccess
		}
		i += sp + 1
	}
	return statusAt(line, i)
}
