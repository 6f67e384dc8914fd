package totp

import (
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

func TestSealOpen(t *testing.T) {
	key := Key([]byte("a secret of the application, long enough"))
	sealed, err := Seal("JBSWY3DPEHPK3PXP", key)
	if err != nil || strings.Contains(sealed, "JBSWY3DPEHPK3PXP") {
		t.Fatalf("sealed %q, %v", sealed, err)
	}
	if got, err := Open(sealed, key); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Errorf("Open = %q, %v", got, err)
	}
	if _, err := Open(sealed, Key([]byte("another secret"))); err != ErrSealed {
		t.Errorf("opened with another key: %v", err)
	}
	if _, err := Open("JBSWY3DPEHPK3PXP", key); err != ErrSealed {
		t.Errorf("opened a plain secret: %v", err)
	}
}

func TestMatch(t *testing.T) {
	secret, _ := NewSecret("a@example.com")
	now := time.Unix(1_700_000_000, 0)
	for d, ok := range map[time.Duration]bool{0: true, -Period * time.Second: true, Period * time.Second: true, 2 * Period * time.Second: false} {
		code, _ := totp.GenerateCode(secret, now.Add(d))
		step, got := Match(secret, code, now)
		if got != ok || ok && step != now.Add(d).Unix()/Period {
			t.Errorf("drift %v: Match = %d, %v", d, step, got)
		}
	}
	if _, ok := Match(secret, "abcdef", now); ok {
		t.Error("matched letters")
	}
}

func TestRecoveryCodes(t *testing.T) {
	codes, hashes := NewRecoveryCodes()
	if len(codes) != RecoveryCodeCount || len(hashes) != RecoveryCodeCount {
		t.Fatalf("%d codes", len(codes))
	}
	seen := map[string]bool{}
	for i, c := range codes {
		if len(c) != 11 || c[5] != '-' || seen[c] || hashes[i] != HashRecoveryCode(" "+strings.ToUpper(c)+" ") || LooksLikeTOTP(c) {
			t.Errorf("code %q", c)
		}
		seen[c] = true
	}
}
