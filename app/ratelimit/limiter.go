// Package ratelimit is an exact rolling-window rate limiter: at most limit
// requests of one key succeed in ANY window of the given length, not just in
// aligned windows. A fixed window or a token bucket would let up to 2×limit
// through around a boundary, which the public API's "60 requests per minute
// per key" (SPEC §8) does not allow, so both stores keep a sliding log: the
// times of the requests they allowed. Refused requests are not recorded, so a
// client that keeps hammering while refused does not push its own reset away.
//
// Three Limiters share one interface: Memory (one process), Redis (shared by
// every instance, decided atomically inside Redis) and Fallback, which asks
// Redis and answers from Memory while Redis is unreachable, so the limiter
// never fails or stalls a request.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The public API's rule (SPEC §8): 60 requests per minute per API key.
const (
	DefaultLimit  = 60
	DefaultWindow = time.Minute
)

// Decision is the answer for one request.
type Decision struct {
	Allowed bool
	Limit   int
	// Remaining is how many more requests the key may make right now, after
	// this one; never negative.
	Remaining int
	// Reset is when the next request slot frees: the moment the oldest request
	// that still counts leaves the window.
	Reset time.Time
	// RetryAfter is set only when the request was refused: how long until a
	// request would be allowed.
	RetryAfter time.Duration
}

// Limiter decides whether one more request of key is allowed under "limit
// requests per window". Allowed requests are recorded, refused ones are not.
// A key should always be asked with the same window; callers namespace keys
// per rule (for example "api:"+keyID) and never pass secrets as keys.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error)
}

// Clock returns the current time; tests pass a controllable one. A nil Clock
// means time.Now.
type Clock func() time.Time

// ErrInvalidRule is returned for a limit below 1 or a window that is not
// positive: a programming error, never a store failure.
var ErrInvalidRule = errors.New("ratelimit: limit must be >= 1 and window > 0")

func checkRule(limit int, window time.Duration) error {
	if limit < 1 || window <= 0 {
		return fmt.Errorf("%w (got limit %d, window %v)", ErrInvalidRule, limit, window)
	}
	return nil
}
