package logs

// Django's documented "verbose" format, "{levelname} {asctime} {module}
// {process:d} {thread:d} {message}", writes a module's name and two bare
// numbers between the time and the message:
//
//	INFO 2026-11-29 05:44:16,123 views 1234 140234 Request finished
//
// After a level and a time, a module's name and exactly two numbers are
// header: one number alone may be the message's ("retrying 3 times").

// moduleName reports a Python module's name: lower-case letters, digits
// and underscores, dotted maybe, a letter first.
func moduleName(t []byte) bool {
	if !isLower(t[0]) {
		return false
	}
	for _, c := range t {
		if !isLower(c) && !isDigit(c) && c != '_' && c != '.' {
			return false
		}
	}
	return t[len(t)-1] != '.'
}

// moduleColumns returns the end of the header when the token s[k:e], the
// header's n-th, is a module's name followed by two bare numbers and a
// message; else 0.
func (h *header) moduleColumns(s []byte, k, e, n int) int {
	if !moduleName(s[k:e]) {
		return 0
	}
	for range 2 {
		k = skipBlank(s, e)
		if k >= len(s) {
			return 0
		}
		n++
		var kind headKind
		if e, kind = h.token(s, k, n); kind != hTime || !bareNumber(s[k:e]) {
			return 0
		}
	}
	if skipBlank(s, e) >= len(s) {
		return 0
	}
	return e
}
