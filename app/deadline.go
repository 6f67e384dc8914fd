package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
)

// requestTimeout bounds the work a request may do (database calls take the
// context), so a stuck dependency answers 503 instead of hanging. The
// areas whose calls set their own deadlines (the gateway) do not use it.
func requestTimeout(d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := newLazyDeadline(c.Request().Context(), time.Now().Add(d))
			defer ctx.end()
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// lazyDeadline is a context.WithDeadline that costs nothing until
// something waits on it. Most requests never do (a key from the cache,
// the products from memory), and a timer and a registration with the
// parent on each was a fifth of the chain's cost. The first Done or Err
// makes the real deadline context, and from then on it answers for this
// one; Deadline answers from the start.
type lazyDeadline struct {
	context.Context           // the parent
	at              time.Time // the earlier of ours and the parent's
	state           atomic.Int32
	mu              sync.Mutex // one waiter makes the real context
	timed           context.Context
	cancel          context.CancelFunc
}

// A lazyDeadline is idle until waited on (started) or until its request
// is over (ended); either is for good.
const (
	idle int32 = iota
	started
	over
)

// ended is what a lazyDeadline that nothing waited on is once its
// request is over: cancelled, as WithDeadline's context would be.
var ended = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func newLazyDeadline(parent context.Context, at time.Time) *lazyDeadline {
	if d, ok := parent.Deadline(); ok && d.Before(at) {
		at = d
	}
	return &lazyDeadline{Context: parent, at: at}
}

// real is the context that answers Done and Err: the real deadline
// context, made now if need be, or ended.
func (c *lazyDeadline) real() context.Context {
	switch c.state.Load() {
	case started:
		return c.timed
	case over:
		return ended
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() == idle {
		c.timed, c.cancel = context.WithDeadline(c.Context, c.at)
		if !c.state.CompareAndSwap(idle, started) { // the request ended meanwhile
			c.cancel()
		}
	}
	return c.real()
}

func (c *lazyDeadline) Deadline() (time.Time, bool) { return c.at, true }
func (c *lazyDeadline) Done() <-chan struct{}       { return c.real().Done() }
func (c *lazyDeadline) Err() error                  { return c.real().Err() }

// Value answers from the real deadline context once there is one, so
// that context.WithCancel on this one finds the cancelCtx under it and
// needs no goroutine to follow it.
func (c *lazyDeadline) Value(key any) any {
	if c.state.Load() == started {
		return c.timed.Value(key)
	}
	return c.Context.Value(key)
}

// end is the cancel function: it stops the timer if one was started,
// and otherwise leaves the context cancelled for anything that waits on
// it later (a goroutine the request left behind).
func (c *lazyDeadline) end() {
	if !c.state.CompareAndSwap(idle, over) && c.state.Load() == started {
		c.cancel()
	}
}
