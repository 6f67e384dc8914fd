// Package throttle counts attempts (sign-ins, sign-ups) against a limit per
// window with one atomic check-and-count, shared by every instance: in
// Redis when REDIS_URL is set, in the database otherwise. Counting first
// and deciding on the count that came back is what makes a burst of
// parallel attempts unable to slip past: of 30 attempts racing on a limit
// of 10, exactly 10 see a count of 10 or less.
package throttle

import (
	"context"
	"time"
)

// Result is the answer for one attempt.
type Result struct {
	Allowed bool
	// Hits counted in the current window, this attempt included.
	Hits int
	// RetryAfter is how long until the window ends (set when refused).
	RetryAfter time.Duration
}

// Counter counts hits per key in fixed windows.
type Counter interface {
	// Hit counts one attempt on key and reports whether it is within limit
	// for the window that began with the key's first hit.
	Hit(ctx context.Context, key string, limit int, window time.Duration) (Result, error)
	// Forgive takes one hit back from key (an attempt that turned out
	// legitimate, such as a correct password), never below zero.
	Forgive(ctx context.Context, key string) error
	// Sweep deletes the counters whose window has ended, where they do
	// not expire by themselves (every successful sign-in calls it, so no
	// background job is needed).
	Sweep(ctx context.Context) error
}

// result decides on the count read back. RetryAfter is at most the window:
// a parallel attempt may have started the window a moment after this
// one read the clock.
func result(hits, limit int, resetAt, now time.Time, window time.Duration) Result {
	r := Result{Allowed: hits <= limit, Hits: hits}
	if !r.Allowed {
		r.RetryAfter = min(max(resetAt.Sub(now), time.Second), window)
	}
	return r
}
