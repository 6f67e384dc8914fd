package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"parapet/app/apierr"
)

func TestCheckNewPassword(t *testing.T) {
	for _, tc := range []struct {
		pw, email, want string // want: part of the error, "" for none
	}{
		{"elevenchars", "a@example.com", "at least 12"},
		{"twelve chars", "a@example.com", ""},
		{strings.Repeat("é", 128), "a@example.com", ""},
		{strings.Repeat("x", 129), "a@example.com", "at most 128"},
		{"1234567890123", "a@example.com", ""},
		{"qwerty123456", "a@example.com", "most common"},
		{"LeaveMeAlone", "a@example.com", "most common"},
		{"Final Fantasy", "a@example.com", "most common"},
		{"my name is Alice.Smith ok", "alice.smith@example.com", "email"},
		{"plain old long phrase", "alice.smith@example.com", ""},
	} {
		err := CheckNewPassword(tc.pw, tc.email)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckNewPassword(%q, %q) = %v, want %q", tc.pw, tc.email, err, tc.want)
		}
	}
}

// The embedded list holds at least the 10,000 most common passwords.
func TestCommonListSize(t *testing.T) {
	if n := len(commonSet()); n < 10000 {
		t.Fatalf("%d common passwords embedded, want at least 10,000", n)
	}
	for _, pw := range []string{"123456", "password", "dragon", "iloveyou"} {
		if !IsCommonPassword(pw) {
			t.Errorf("%q is not on the list", pw)
		}
	}
}

// Past NumCPU holders, Acquire waits HashWait and then refuses with 503
// busy and a Retry-After; a released slot is available again.
func TestAcquireIsBounded(t *testing.T) {
	var releases []func()
	for range cap(hashSlots) {
		r, err := Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		_, err := Acquire(context.Background())
		var e *apierr.Error
		if !errors.As(err, &e) || e.Status != 503 || e.Code != "busy" || e.RetryAfter <= 0 {
			t.Errorf("Acquire past the bound = %v, want 503 busy with Retry-After", err)
		}
	})
	wg.Wait()
	releases[0]()
	r, err := Acquire(context.Background())
	if err != nil {
		t.Fatalf("a released slot: %v", err)
	}
	r()
	for _, r := range releases[1:] {
		r()
	}
}
