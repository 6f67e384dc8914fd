package auth

import (
	_ "embed"
	"strings"
	"sync"
)

// commonPasswords is zxcvbn's list of the 30,000 most common passwords
// (MIT licence, see COMMON-PASSWORDS-LICENSE.txt), one a line.
//
//go:embed common-passwords.txt
var commonPasswords string

var commonSet = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 30000)
	for line := range strings.Lines(commonPasswords) {
		set[strings.TrimSpace(line)] = struct{}{}
	}
	return set
})

// IsCommonPassword reports whether pw, ignoring case and spaces, is on the
// list: "Final Fantasy" is "finalfantasy".
func IsCommonPassword(pw string) bool {
	p := strings.ToLower(pw)
	set := commonSet()
	if _, ok := set[p]; ok {
		return true
	}
	_, ok := set[strings.ReplaceAll(p, " ", "")]
	return ok
}
