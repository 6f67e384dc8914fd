package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// primaryTimeout bounds one call to the primary. Redis answers in well
	// under a millisecond, but a CPU-starved instance can take far longer to
	// see the answer, and falling back then would split the shared limit
	// among instances; a dead Redis costs this wait only once per probe.
	primaryTimeout = time.Second
	// probeEvery is how often a degraded Fallback tries the primary again, so
	// an outage costs one timeout per interval instead of one per request.
	probeEvery = time.Second
	// warnEvery throttles the "unavailable" warning during an outage.
	warnEvery = time.Minute
)

// Fallback asks the primary Limiter (Redis) and, when it fails or takes longer
// than a second, answers from the secondary (Memory), so the limiter never fails
// or stalls a request because of Redis.
//
// While degraded it answers from memory and tries the primary again at most
// once a second; the first success switches back. It warns when Redis becomes
// unavailable, at most once a minute, and logs "rate limiter: redis back" on
// recovery from an outage it warned about.
//
// Memory limits are per instance: with k instances, a key may get up to
// k×limit during an outage. To keep a failover exact on a single instance,
// every request the primary allows is also recorded in memory, so memory
// starts from what this instance let through rather than from zero. Requests
// allowed from memory are not copied to Redis after recovery.
type Fallback struct {
	primary, secondary Limiter
	log                *slog.Logger
	now                Clock
	epoch              time.Time
	// direct: the primary returns when its context ends, so a call needs no
	// goroutine of its own to be bounded.
	direct bool

	degraded atomic.Bool
	// nextProbe is when (ns since epoch) a degraded Fallback may try the
	// primary again; measured from epoch to use the monotonic clock.
	nextProbe atomic.Int64

	mu        sync.Mutex // serialises the transitions below and their logs
	downSince time.Time
	lastWarn  time.Time
	warned    bool // this outage has been reported
}

// NewFallback returns a Fallback over primary and secondary that logs to
// logger (nil: slog.Default()) and reads time from now (nil: time.Now).
func NewFallback(primary, secondary Limiter, logger *slog.Logger, now Clock) *Fallback {
	if logger == nil {
		logger = slog.Default()
	}
	if now == nil {
		now = time.Now
	}
	h, ok := primary.(deadlineHonourer)
	return &Fallback{
		primary: primary, secondary: secondary, log: logger, now: now, epoch: now(),
		direct: ok && h.honoursDeadlines(),
	}
}

// deadlineHonourer is a primary that can tell whether its calls end with
// their context (Redis can, from its client's options).
type deadlineHonourer interface {
	honoursDeadlines() bool
}

// Allow implements Limiter. Its only error is ErrInvalidRule; store failures
// are answered from memory.
func (f *Fallback) Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if err := checkRule(limit, window); err != nil {
		return Decision{}, err
	}
	if f.degraded.Load() && !f.claimProbe() {
		return f.secondary.Allow(ctx, key, limit, window)
	}
	d, err := f.callPrimary(ctx, key, limit, window)
	switch {
	case err == nil:
		f.up()
		if d.Allowed {
			// Keep memory warm for a failover (see Fallback).
			_, _ = f.secondary.Allow(ctx, key, limit, window)
		}
		return d, nil
	case ctx.Err() != nil:
		// The caller gave up (the client went away): that says nothing
		// about Redis.
	default:
		f.down(err)
	}
	return f.secondary.Allow(ctx, key, limit, window)
}

// callPrimary returns the primary's answer or, after primaryTimeout, a
// deadline error. A primary that may ignore its context (a go-redis client
// without ContextTimeoutEnabled) runs on a goroutine that is abandoned at the
// deadline. A call cut off at the deadline may still be counted in Redis; the
// request is then counted twice, which errs on the strict side.
func (f *Fallback) callPrimary(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	ctx, cancel := context.WithTimeout(ctx, primaryTimeout)
	defer cancel()
	if f.direct {
		return f.primary.Allow(ctx, key, limit, window)
	}
	type answer struct {
		d   Decision
		err error
	}
	ch := make(chan answer, 1) // buffered: an abandoned call must not block
	go func() {
		d, err := f.primary.Allow(ctx, key, limit, window)
		ch <- answer{d, err}
	}()
	select {
	case a := <-ch:
		return a.d, a.err
	case <-ctx.Done():
		return Decision{}, ctx.Err()
	}
}

// claimProbe reports whether this call may try the primary; at most one call
// per probeEvery wins.
func (f *Fallback) claimProbe() bool {
	now := int64(f.now().Sub(f.epoch))
	next := f.nextProbe.Load()
	return now >= next && f.nextProbe.CompareAndSwap(next, now+int64(probeEvery))
}

func (f *Fallback) down(err error) {
	now := f.now()
	f.nextProbe.Store(int64(now.Sub(f.epoch) + probeEvery))
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.degraded.CompareAndSwap(false, true) {
		f.downSince = now
		f.warned = false
	}
	// lastWarn outlives an outage, so a flapping Redis still warns at most
	// once a minute.
	if f.lastWarn.IsZero() || now.Sub(f.lastWarn) >= warnEvery {
		f.lastWarn = now
		f.warned = true
		f.log.Warn("rate limiter: redis unavailable, limiting from memory",
			"err", err, "down_for", now.Sub(f.downSince))
	}
}

func (f *Fallback) up() {
	if !f.degraded.Load() {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// Logged only for an outage that was reported, so every "back" matches a
	// warning and a flapping Redis cannot flood the log.
	if f.degraded.CompareAndSwap(true, false) && f.warned {
		f.log.Info("rate limiter: redis back", "down_for", f.now().Sub(f.downSince))
	}
}
