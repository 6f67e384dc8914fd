package models

import (
	"fmt"
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
	if !visible(s) {
		return false
	}
	if MixedScripts(s) {
		return false
	}
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s && strings.Contains(s[strings.LastIndex(s, "@")+1:], ".")
}

// scripts are the writing systems an address's letters are told apart
// by: Han, Hiragana, Katakana and Hangul count as one (Japanese and
// Korean mix them).
var scripts = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Georgian,
	unicode.Hebrew, unicode.Arabic, unicode.Thai, unicode.Devanagari, unicode.Han}

// MixedScripts reports whether an address's local part or one of its
// domain's labels has letters of two writing systems: "dаve@example.com"
// with a Cyrillic а passes for dave's address in member lists and mail.
// An address wholly in one (ivan@пример.рф, its parts each in one) is
// fine, as browsers allow a domain's labels.
func MixedScripts(addr string) bool {
	for _, part := range strings.FieldsFunc(addr, func(r rune) bool { return r == '@' || r == '.' }) {
		seen := -1
		for _, r := range part {
			if !unicode.IsLetter(r) || unicode.In(r, unicode.Common, unicode.Inherited) {
				continue // a letter every script uses (Japanese's ー)
			}
			s := len(scripts) // a letter of another script
			if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				r = '一' // as Han
			}
			for i, t := range scripts {
				if unicode.Is(t, r) {
					s = i
					break
				}
			}
			if seen >= 0 && s != seen {
				return true
			}
			seen = s
		}
	}
	return false
}

// visible reports whether every character of s is printable: no control
// characters, and none of the invisible ones (Unicode's format class:
// bidi overrides such as U+202E, zero-width spaces and joiners; spaces
// other than ASCII's), with which a name or an address passes for another
// one in lists, the audit log and mail ("al\u200bice@example.com" shows
// as alice@example.com).
func visible(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// OrgNameProblem says what is wrong with an organization's name (runs of
// white space already collapsed), or "" when it is fine: the rule of the
// console and of `parapet org create`.
func OrgNameProblem(name string) string {
	switch {
	case name == "":
		return "enter a name for the organization"
	case utf8.RuneCountInString(name) > MaxOrgNameLength:
		return fmt.Sprintf("the name must be at most %d characters long", MaxOrgNameLength)
	case !visible(name):
		return "the name may contain only printable characters (no control, bidi or zero-width characters)"
	}
	return ""
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
	if !visible(name) {
		return "the name may contain only printable characters"
	}
	return ""
}
