// Package keys makes and verifies API keys.
//
// A key looks like ppk_<30 random base62><6 base62 checksum>: the prefix
// makes it recognisable (secret scanners can match it), 30 base62
// characters carry about 178 bits of randomness, and the CRC32 checksum of
// the random part lets anyone tell a real key from a typo or a lookalike
// offline, without a database (the scheme GitHub's tokens use). Only the
// key's SHA-256 and a short display hint are stored.
package keys

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"strings"

	"parapet/models"
)

// Prefix starts every Parapet API key.
const Prefix = "ppk_"

const (
	randomLen   = 30
	checksumLen = 6
	// Length is the full length of a key.
	Length = len(Prefix) + randomLen + checksumLen
)

// Generate makes a new key and returns its text, hash and display hint.
func Generate() (key, hash, hint string) {
	random := models.RandomBase62(randomLen)
	sum := checksum(random)
	key = Prefix + random + string(sum[:])
	return key, Hash(key), Hint(key)
}

// checksum encodes the CRC32 of s in 6 base62 characters.
func checksum(s string) [checksumLen]byte {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// The table's loop over the string itself: crc32.ChecksumIEEE would
	// copy it to the heap on every key checked.
	n := ^uint32(0)
	for i := 0; i < len(s); i++ {
		n = crc32.IEEETable[byte(n)^s[i]] ^ n>>8
	}
	n = ^n
	var out [checksumLen]byte
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = alphabet[n%62]
		n /= 62
	}
	return out
}

// WellFormed reports whether s has the shape and checksum of a Parapet key.
// It needs no database: a leaked string can be recognised offline.
func WellFormed(s string) bool {
	if len(s) != Length || !strings.HasPrefix(s, Prefix) {
		return false
	}
	body := s[len(Prefix):]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	sum := checksum(body[:randomLen])
	return string(sum[:]) == body[randomLen:]
}

// Hash is the stored form of a key: hex SHA-256. Keys carry enough entropy
// that a fast hash is safe, and lookup by hash stays one index probe.
func Hash(key string) string { return digestHex(digest(key)) }

// digest is the SHA-256 of a key, which the verifier's cache uses as its
// map key: no hex string made on a hit.
func digest(key string) [sha256.Size]byte { return sha256.Sum256([]byte(key)) }

func digestHex(sum [sha256.Size]byte) string { return hex.EncodeToString(sum[:]) }

// Hint shows a key without revealing it: the prefix, three characters and
// the last four (ppk_AbC…x9Qz), enough to tell one's keys apart.
func Hint(key string) string {
	return key[:len(Prefix)+3] + "…" + key[len(key)-4:]
}
