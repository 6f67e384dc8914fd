package ratelimit

import (
	"net/http"
	"testing"
	"time"
)

func TestHeaderFormats(t *testing.T) {
	whole := time.Unix(1_800_000_000, 0)
	tests := []struct {
		name       string
		d          Decision
		resetUnix  int64
		retryAfter int
	}{
		{"reset on a whole second", Decision{Allowed: true, Reset: whole}, 1_800_000_000, 0},
		{"reset 1ns past a second rounds up", Decision{Allowed: true, Reset: whole.Add(time.Nanosecond)}, 1_800_000_001, 0},
		{"reset just before a second", Decision{Allowed: true, Reset: whole.Add(-time.Nanosecond)}, 1_800_000_000, 0},
		{"refused, 1ns to wait", Decision{RetryAfter: time.Nanosecond, Reset: whole}, 1_800_000_000, 1},
		{"refused, exactly 1s", Decision{RetryAfter: time.Second, Reset: whole}, 1_800_000_000, 1},
		{"refused, 1s and 1ms rounds up", Decision{RetryAfter: time.Second + time.Millisecond, Reset: whole}, 1_800_000_000, 2},
		{"refused, 59.5s", Decision{RetryAfter: 59500 * time.Millisecond, Reset: whole}, 1_800_000_000, 60},
		{"refused, zero still says 1", Decision{Reset: whole}, 1_800_000_000, 1},
	}
	for _, tt := range tests {
		if got := tt.d.ResetUnix(); got != tt.resetUnix {
			t.Errorf("%s: ResetUnix = %d, want %d", tt.name, got, tt.resetUnix)
		}
		if got := tt.d.RetryAfterSeconds(); got != tt.retryAfter {
			t.Errorf("%s: RetryAfterSeconds = %d, want %d", tt.name, got, tt.retryAfter)
		}
	}
}

func TestSetHeaders(t *testing.T) {
	reset := time.Unix(1_800_000_000, 400_000_000)
	tests := []struct {
		name string
		d    Decision
		want map[string]string // "" means absent
	}{
		{"allowed", Decision{Allowed: true, Limit: 60, Remaining: 59, Reset: reset}, map[string]string{
			HeaderLimit: "60", HeaderRemaining: "59", HeaderReset: "1800000001", HeaderRetryAfter: "",
		}},
		{"refused", Decision{Limit: 60, Reset: reset, RetryAfter: 12300 * time.Millisecond}, map[string]string{
			HeaderLimit: "60", HeaderRemaining: "0", HeaderReset: "1800000001", HeaderRetryAfter: "13",
		}},
	}
	for _, tt := range tests {
		h := http.Header{}
		tt.d.SetHeaders(h)
		for name, want := range tt.want {
			if got := h.Get(name); got != want {
				t.Errorf("%s: %s = %q, want %q", tt.name, name, got, want)
			}
		}
	}
}
