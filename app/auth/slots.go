package auth

import (
	"context"
	"net/http"
	"runtime"
	"time"

	"parapet/app/apierr"
)

// Hashing a password takes argon2id's 19 MiB and tens of milliseconds of
// one CPU. Without a bound, 100 parallel sign-ups took the server to
// 1.9 GiB; with one, at most NumCPU hashes run at once and the rest wait
// up to HashWait, then get 503 busy with Retry-After.
var hashSlots = make(chan struct{}, runtime.NumCPU())

// HashWait is how long a request waits for a hashing slot.
const HashWait = 2 * time.Second

// hashRetryAfter is the Retry-After, in seconds, of a refused request.
const hashRetryAfter = 2

// Acquire takes a hashing slot, waiting up to HashWait. The caller hashes
// or checks one password, then calls release.
func Acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(HashWait)
	defer t.Stop()
	select {
	case hashSlots <- struct{}{}:
		return func() { <-hashSlots }, nil
	case <-t.C:
	case <-ctx.Done():
	}
	e := apierr.New(http.StatusServiceUnavailable, "busy",
		"The server is busy checking other passwords. Wait a moment and try again.")
	e.RetryAfter = hashRetryAfter
	return nil, e
}
