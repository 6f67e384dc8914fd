// Package totp is two-factor sign-in: TOTP codes (RFC 6238, through
// github.com/pquerna/otp), the QR code that enrols an authenticator app,
// and single-use recovery codes.
package totp

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"parapet/models"
)

// Issuer names Parapet in authenticator apps.
const Issuer = "Parapet"

// RecoveryCodeCount is how many recovery codes an enrolment gives.
const RecoveryCodeCount = 10

// Enrolment is a new secret and the QR code that carries it.
type Enrolment struct {
	Secret string
	// QR is a PNG data: URI of the otpauth:// URL, rendered on the server
	// (the page's CSP allows img-src data:).
	QR string
}

// NewSecret makes a secret for an account.
func NewSecret(account string) (string, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: Issuer, AccountName: account})
	if err != nil {
		return "", err
	}
	return key.Secret(), nil
}

// Enrol renders the QR code of a secret for an account.
func Enrol(account, secret string) (*Enrolment, error) {
	key, err := otp.NewKeyFromURL("otpauth://totp/" + Issuer + ":" + account + "?secret=" + secret + "&issuer=" + Issuer)
	if err != nil {
		return nil, err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return &Enrolment{Secret: secret, QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// Period is the length of a TOTP time step.
const Period = 30

var opts = totp.ValidateOpts{Period: Period, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Match checks a six-digit code against a secret, allowing one step of
// clock drift either way, and returns the time step it belongs to, so the
// caller can refuse a code used before (RFC 6238 section 5.2).
func Match(secret, code string, now time.Time) (step int64, ok bool) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	current := now.Unix() / Period
	for _, s := range []int64{current - 1, current, current + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*Period, 0).UTC(), opts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return s, true
		}
	}
	return 0, false
}

// LooksLikeTOTP tells a six-digit TOTP code from a recovery code.
func LooksLikeTOTP(code string) bool {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	return len(code) == 6 && strings.Trim(code, "0123456789") == ""
}

// NewRecoveryCodes makes RecoveryCodeCount codes (xxxxx-xxxxx, 50 random
// bits each) and their stored hashes.
func NewRecoveryCodes() (codes, hashes []string) {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789" // no 0/o, 1/l
	for range RecoveryCodeCount {
		b := make([]byte, 10)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = alphabet[int(b[i])%len(alphabet)]
		}
		code := string(b[:5]) + "-" + string(b[5:])
		codes = append(codes, code)
		hashes = append(hashes, HashRecoveryCode(code))
	}
	return codes, hashes
}

// HashRecoveryCode is the stored form of a recovery code, whatever case or
// separators it was typed with.
func HashRecoveryCode(code string) string {
	norm := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	return models.HashToken("recovery|" + norm)
}
