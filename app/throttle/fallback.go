package throttle

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"
)

// Fallback counts in primary (Redis) and, while primary fails, in
// secondary (the database), so an unreachable Redis never stops sign-ins.
// A failure is logged at most once a minute.
type Fallback struct {
	primary, secondary Counter
	log                *slog.Logger
	lastLog            atomic.Int64 // unix seconds
	// fellBack is set once the primary failed in this process: only then
	// may the secondary hold counts to sweep.
	fellBack atomic.Bool
}

// NewFallback counts in primary, falling back to secondary.
func NewFallback(primary, secondary Counter, log *slog.Logger) *Fallback {
	return &Fallback{primary: primary, secondary: secondary, log: log}
}

func (f *Fallback) failed(err error) {
	f.fellBack.Store(true)
	now := time.Now().Unix()
	if last := f.lastLog.Load(); now-last >= 60 && f.lastLog.CompareAndSwap(last, now) {
		f.log.Warn("throttle: Redis unavailable, counting in the database", "error", err)
	}
}

// Hit implements Counter.
func (f *Fallback) Hit(ctx context.Context, key string, limit int, window time.Duration) (Result, error) {
	r, err := f.primary.Hit(ctx, key, limit, window)
	if err != nil {
		f.failed(err)
		return f.secondary.Hit(ctx, key, limit, window)
	}
	return r, nil
}

// Sweep implements Counter: the secondary too once this process has
// fallen back, so the counts written while the primary was down are swept
// (and a healthy primary costs no database statement per sweep). Ended
// rows an earlier process left count for nothing: a window that ended is
// started afresh.
func (f *Fallback) Sweep(ctx context.Context) error {
	if !f.fellBack.Load() {
		return f.primary.Sweep(ctx)
	}
	return errors.Join(f.primary.Sweep(ctx), f.secondary.Sweep(ctx))
}

// Forgive implements Counter.
func (f *Fallback) Forgive(ctx context.Context, key string) error {
	if err := f.primary.Forgive(ctx, key); err != nil {
		f.failed(err)
		return f.secondary.Forgive(ctx, key)
	}
	return nil
}
