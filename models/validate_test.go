package models

import "testing"

// An address's local part and each domain label are in one writing system:
// a Cyrillic а in "dave" passes for dave's address in member lists and
// mail; an address in another script, or with a domain label of its own
// script, is fine.
func TestValidEmailScripts(t *testing.T) {
	for addr, want := range map[string]bool{
		"dave@example.com":            true,
		"d\u0430ve@example.com":       false, // Cyrillic а
		"dave@ex\u0430mple.com":       false,
		"\u03bfscar@example.com":      false, // Greek ο
		"ivan@пример.рф":              true,
		"иван@пример.рф":              true,
		"josé.müller@example.com":     true,
		"田中さん@example.jp":             true, // Han and Hiragana together
		"user+tag_1-2@sub.example.co": true,
		"スーパー@example.jp":             true, // ー is of no script of its own
	} {
		if got := ValidEmail(addr); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", addr, got, want)
		}
	}
}
