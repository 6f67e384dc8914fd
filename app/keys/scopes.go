package keys

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"parapet/app/apierr"
)

// The scopes a key may hold: each API area needs its own.
const (
	ScopePublic  = "public"  // the public API, /v1
	ScopeLogs    = "logs"    // the log analyzer API, /logs/v1
	ScopeScan    = "scan"    // the config scanner API, /scan/v1
	ScopeGateway = "gateway" // the LLM gateway API, /gateway/v1
)

// Scopes lists every scope, in the order forms and tables show them.
var Scopes = []string{ScopePublic, ScopeLogs, ScopeScan, ScopeGateway}

// AllScopes is the stored form of a key with every scope (keys made
// before scopes existed have it).
var AllScopes = strings.Join(Scopes, " ")

// ParseScopes checks chosen scope names and returns their stored form, in
// the canonical order, without duplicates. None chosen is an error: a key
// that can call nothing is a mistake.
func ParseScopes(chosen []string) (string, error) {
	var out []string
	for _, c := range chosen {
		for _, s := range strings.FieldsFunc(c, func(r rune) bool { return r == ',' || r == ' ' }) {
			if !slices.Contains(Scopes, s) {
				return "", fmt.Errorf("unknown scope %q: choose from %s", s, strings.Join(Scopes, ", "))
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		return "", fmt.Errorf("choose at least one scope: %s", strings.Join(Scopes, ", "))
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(Scopes, a) - slices.Index(Scopes, b) })
	return strings.Join(out, " "), nil
}

// HasScope reports whether a stored scope list holds scope (on every
// request: FieldsSeq allocates nothing).
func HasScope(stored, scope string) bool {
	for s := range strings.FieldsSeq(stored) {
		if s == scope {
			return true
		}
	}
	return false
}

// InsufficientScope is the 403 for a key without the scope a route needs.
func InsufficientScope(scope, area string) *apierr.Error {
	return apierr.New(http.StatusForbidden, "insufficient_scope",
		fmt.Sprintf("this API key lacks the %q scope, which %s needs: create a key with that scope in the console", scope, area))
}
