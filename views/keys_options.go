package views

import (
	"slices"

	"parapet/models"
)

type option struct{ Value, Label string }

// scopeChoices are the checkboxes of the key form, one per scope (the
// names are those of keys.Scopes; views does not import app packages).
var scopeChoices = []struct{ Name, Help string }{
	{"public", "the public API, /v1"},
	{"logs", "the log analyzer API, /logs/v1"},
	{"scan", "the config scanner API, /scan/v1"},
	{"gateway", "the LLM gateway API, /gateway/v1"},
}

// scopeChosen ticks a scope's box: every box when none was chosen yet.
func scopeChosen(chosen []string, scope string) bool {
	return len(chosen) == 0 || slices.Contains(chosen, scope)
}

var expiryOptions = []option{
	{"never", "Never"}, {"7", "In 7 days"}, {"30", "In 30 days"}, {"90", "In 90 days"}, {"date", "On a date"},
}

var graceOptions = []option{
	{"0s", "no longer"}, {"1h", "1 hour"}, {"24h", "24 hours"}, {"72h", "3 days"}, {"168h", "7 days"},
}

// statusTestID marks a revoked key's badge for tests ("revoked"), the
// others as "key-status".
func statusTestID(k models.APIKey) string {
	if !k.Active() {
		return "revoked"
	}
	return "key-status"
}

// article is "a" or "an" before a role name.
func article(role string) string {
	if role == "owner" || role == "admin" {
		return "an"
	}
	return "a"
}
