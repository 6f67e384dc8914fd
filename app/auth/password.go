// Package auth hashes and checks passwords.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password length rules, in characters (ASVS 2.1.1 and 2.1.2: at least
// 12, and at least 128 allowed).
const (
	MinPasswordLength = 12
	MaxPasswordLength = 128
)

// argon2id parameters: OWASP's minimum recommendation (19 MiB, two passes,
// one lane). They are written into every hash, so raising them later
// leaves old hashes verifiable.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// ErrCommonPassword refuses a password of the common-password list.
var ErrCommonPassword = errors.New("this password is one of the most common passwords, which attackers try first: choose another")

// ErrPasswordHasEmail refuses a password that contains the email's name.
var ErrPasswordHasEmail = errors.New("the password must not contain your email address's name: choose another")

// CheckPasswordRules says what is wrong with a new password, or nil: its
// length, and whether it is one of the most common passwords (ASVS 2.1.7).
func CheckPasswordRules(pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLength:
		return fmt.Errorf("the password must be at least %d characters long", MinPasswordLength)
	case n > MaxPasswordLength:
		return fmt.Errorf("the password must be at most %d characters long", MaxPasswordLength)
	case IsCommonPassword(pw):
		return ErrCommonPassword
	}
	return nil
}

// CheckNewPassword is CheckPasswordRules for the account of email, which
// also refuses a password containing the email's local part.
func CheckNewPassword(pw, email string) error {
	if err := CheckPasswordRules(pw); err != nil {
		return err
	}
	local, _, _ := strings.Cut(strings.ToLower(email), "@")
	if len(local) >= 3 && strings.Contains(strings.ToLower(pw), local) {
		return ErrPasswordHasEmail
	}
	return nil
}

// HashPassword returns an argon2id hash in the PHC string format
// ($argon2id$v=19$m=…,t=…,p=…$salt$key).
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("unrecognised password hash")

// CheckPassword reports whether pw matches hash, in constant time.
func CheckPassword(hash, pw string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var mem, iter uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iter, &threads); err != nil {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(pw), salt, iter, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when an email is unknown, so a sign-in
// takes as long whether or not the account exists.
var dummyHash, _ = HashPassword("parapet-dummy-password-for-timing")

// CheckPasswordOrDummy runs the same work as CheckPassword when there is
// no account (hash == ""), and reports false.
func CheckPasswordOrDummy(hash, pw string) bool {
	if hash == "" {
		_, _ = CheckPassword(dummyHash, pw)
		return false
	}
	ok, err := CheckPassword(hash, pw)
	return ok && err == nil
}
