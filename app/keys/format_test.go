package keys

import (
	"hash/crc32"
	"testing"

	"parapet/models"
)

// Keys made before stay valid, a typo is caught offline, and a check
// costs no allocation (it runs on every API call).
func TestWellFormed(t *testing.T) {
	const issued = "ppk_9xHgeqdLH4oZD7tOtQ7fPRGMqDaqoL3VypIb" // made by an earlier release
	if !WellFormed(issued) {
		t.Fatal("an issued key is not well formed")
	}
	typo := []byte(issued)
	typo[10] ^= 'a' ^ 'b'
	if WellFormed(string(typo)) || WellFormed(issued[:len(issued)-1]) || WellFormed("ppk_"+issued[4:len(issued)-6]+"000000") {
		t.Fatal("a mistyped key passes")
	}
	for range 100 {
		s := models.RandomBase62(randomLen)
		n := crc32.ChecksumIEEE([]byte(s))
		var want [checksumLen]byte
		for i := checksumLen - 1; i >= 0; i-- {
			want[i] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[n%62]
			n /= 62
		}
		if checksum(s) != want {
			t.Fatalf("checksum(%q) = %s; CRC32 gives %s", s, checksum(s), want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { WellFormed(issued) }); n != 0 {
		t.Fatalf("WellFormed allocates %v times", n)
	}
}
