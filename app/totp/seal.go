package totp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// The TOTP secret is stored sealed (AES-256-GCM under a key derived from
// SESSION_SECRET), so a copy of the database alone cannot make codes.
// Changing SESSION_SECRET therefore turns existing authenticator apps
// useless: their owners sign in with a recovery code and enrol again.

const sealPrefix = "v1:"

// Key derives the sealing key from the application's secret.
func Key(appSecret []byte) []byte {
	mac := hmac.New(sha256.New, appSecret)
	mac.Write([]byte("parapet totp secret"))
	return mac.Sum(nil)
}

func aead(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal encrypts a secret for storage.
func Seal(secret string, key []byte) (string, error) {
	g, err := aead(key)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return sealPrefix + base64.RawStdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(secret), nil)), nil
}

// ErrSealed means a stored secret cannot be opened with this key (it was
// sealed under another SESSION_SECRET, or altered).
var ErrSealed = errors.New("the stored two-factor secret cannot be decrypted with this SESSION_SECRET")

// Open decrypts a stored secret.
func Open(stored string, key []byte) (string, error) {
	g, err := aead(key)
	if err != nil {
		return "", err
	}
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(stored, sealPrefix))
	if !strings.HasPrefix(stored, sealPrefix) || err != nil || len(raw) < g.NonceSize() {
		return "", ErrSealed
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], nil)
	if err != nil {
		return "", ErrSealed
	}
	return string(plain), nil
}
