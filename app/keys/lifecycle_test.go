package keys

import (
	"testing"
	"time"
)

func TestParseScopes(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
		ok   bool
	}{
		{[]string{"logs"}, "logs", true},
		{[]string{"gateway", "public", "logs"}, "public logs gateway", true},
		{[]string{"scan,logs", "scan"}, "logs scan", true},
		{nil, "", false},
		{[]string{""}, "", false},
		{[]string{"admin"}, "", false},
		{[]string{"logs", "Logs"}, "", false},
	} {
		got, err := ParseScopes(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseScopes(%q) = %q, %v", tc.in, got, err)
		}
	}
	if !HasScope(AllScopes, ScopeGateway) || HasScope("logs", ScopePublic) || HasScope("", ScopeLogs) {
		t.Error("HasScope")
	}
}

func TestParseExpiry(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, tc := range []struct {
		in   string
		want time.Duration // from now; 0 is no expiry
		ok   bool
	}{
		{"", 0, true},
		{"never", 0, true},
		{"7", 7 * day, true},
		{"30d", 30 * day, true},
		{"90", 90 * day, true},
		{"2026-11-24", 12 * time.Hour, true}, // works through the day
		{"2026-11-23", 0, false},
		{"2036-11-24", 3653*day + 12*time.Hour, true}, // the last day allowed
		{"2036-11-25", 0, false},
		{"9999-12-31", 0, false},
		{"12", 0, false},
		{"soon", 0, false},
	} {
		got, err := ParseExpiry(tc.in, now)
		if (err == nil) != tc.ok {
			t.Errorf("ParseExpiry(%q): %v", tc.in, err)
			continue
		}
		if tc.ok && (tc.want == 0) != (got == nil) || got != nil && got.Sub(now) != tc.want {
			t.Errorf("ParseExpiry(%q) = %v", tc.in, got)
		}
	}
}

func TestParseGrace(t *testing.T) {
	for in, want := range map[string]time.Duration{"": DefaultGrace, "0s": 0, "1h": time.Hour, "168h": MaxGrace} {
		if got, err := ParseGrace(in); err != nil || got != want {
			t.Errorf("ParseGrace(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"-1h", "169h", "tomorrow"} {
		if _, err := ParseGrace(in); err == nil {
			t.Errorf("ParseGrace(%q) accepted", in)
		}
	}
}
