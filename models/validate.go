package models

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxEmailLength is the longest address accepted (RFC 5321's path limit).
const MaxEmailLength = 254

// ValidEmail reports whether s is one bare address with a dot in its
// domain: the rule of the sign-up form and of `parapet user create`.
func ValidEmail(s string) bool {
	if s == "" || len(s) > MaxEmailLength {
		return false
	}
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s && strings.Contains(s[strings.LastIndex(s, "@")+1:], ".")
}

// KeyNameProblem says what is wrong with an API key name, or "" when it is
// fine: the rule of the console and of `parapet key create`.
func KeyNameProblem(name string) string {
	switch {
	case name == "":
		return "enter a name for the key, such as the service that will use it"
	case utf8.RuneCountInString(name) > MaxKeyNameLength:
		return "the name must be at most 80 characters long"
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "the name may contain only printable characters"
		}
	}
	return ""
}
