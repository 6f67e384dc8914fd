package logs

import (
	"fmt"
	"regexp"
	"sort"
)

// Custom masks let a user mask values the built-in classes miss (order
// ids, tenant names): each is an RE2 regular expression, matched in the
// message before the built-in masking. A match masks the whole
// white-space separated token (or tokens) it falls in, keeping the text
// before and after it in the token ("order=<order_id>,"). Templates show
// the value as <*>, or as <name> with Options.NamedPlaceholders.

// Mask is one custom mask.
type Mask struct {
	Name  string `json:"name"`
	Regex string `json:"regex"`
}

// Limits of custom masks.
const (
	MaxMasks         = 20
	MaxMaskRegexLen  = 512 // bytes of one regular expression
	MaxMaskNameLen   = 32
	maskMarker       = 0xfd // in a shape key, after wild: a custom mask's value, its index next
	maskMarkerString = "\xff\xfd"
)

// compileMasks checks and compiles the masks; the error names the mask.
func compileMasks(masks []Mask) ([]*regexp.Regexp, error) {
	if len(masks) > MaxMasks {
		return nil, fmt.Errorf("%w: %d masks, at most %d", ErrBadOption, len(masks), MaxMasks)
	}
	out := make([]*regexp.Regexp, len(masks))
	seen := map[string]bool{}
	for i, m := range masks {
		if !maskName(m.Name) {
			return nil, fmt.Errorf("%w: mask %d: name %q must be 1 to %d letters, digits, '_' or '-', starting with a letter",
				ErrBadOption, i+1, truncate(m.Name, 40), MaxMaskNameLen)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%w: mask %q: the name is used twice", ErrBadOption, m.Name)
		}
		seen[m.Name] = true
		if len(m.Regex) == 0 || len(m.Regex) > MaxMaskRegexLen {
			return nil, fmt.Errorf("%w: mask %q: the regex must be 1 to %d bytes", ErrBadOption, m.Name, MaxMaskRegexLen)
		}
		re, err := regexp.Compile(m.Regex)
		if err != nil {
			return nil, fmt.Errorf("%w: mask %q: bad regex: %v", ErrBadOption, m.Name, err)
		}
		out[i] = re
	}
	return out, nil
}

func maskName(n string) bool {
	if len(n) == 0 || len(n) > MaxMaskNameLen || !isLetter(n[0]) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !isAlnum(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// maskSpan is a custom mask's match in a line: [start, end), mask index.
type maskSpan struct {
	start, end int
	mask       int
}

// findMasks returns the matches of the masks in s[from:to], earlier masks
// first where matches overlap, in order of position; empty matches do not
// count.
func findMasks(masks []*regexp.Regexp, s []byte, from, to int, spans []maskSpan) []maskSpan {
	spans = spans[:0]
	for k, re := range masks {
		for _, m := range re.FindAllIndex(s[from:to], -1) {
			if m[1] == m[0] {
				continue
			}
			sp := maskSpan{from + m[0], from + m[1], k}
			overlaps := false
			for _, o := range spans {
				if sp.start < o.end && o.start < sp.end {
					overlaps = true
					break
				}
			}
			if !overlaps {
				spans = append(spans, sp)
			}
		}
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].start < spans[b].start })
	return spans
}
