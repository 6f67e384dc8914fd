package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/arrival"
)

// requestTimeout bounds the work a request may do (database calls take the
// context), so a stuck dependency answers 503 instead of hanging. The
// deadline counts from the request's arrival. The areas whose calls set
// their own deadlines (the gateway) do not use it.
func requestTimeout(d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ctx, ok := c.Request().Context().(*requestContext); ok && ctx.limit(ctx.arrived.Add(d)) {
				return next(c)
			}
			// Something already waits on the request's context: bound the
			// rest by a context of its own.
			ctx := newRequestContext(c.Request().Context(), time.Now())
			defer ctx.end()
			ctx.limit(ctx.arrived.Add(d))
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// requestContext is the context of a request (observe makes it): it
// answers the request's arrival time (arrival.Now) and, once
// requestTimeout has set one, its deadline. The deadline is a
// context.WithDeadline that costs nothing until something waits on it.
// Most requests never do (a key from the cache, the products from memory),
// and a timer and a registration with the parent on each was a fifth of
// the chain's cost. The first Done or Err makes the real context (with the
// deadline, or only cancellable without one), and from then on it answers
// for this one; Deadline answers from the start.
type requestContext struct {
	context.Context           // the parent
	arrived         time.Time // when the request arrived
	at              time.Time // the deadline, the earlier of ours and the parent's; zero: none
	state           atomic.Int32
	mu              sync.Mutex // one waiter makes the real context
	timed           context.Context
	cancel          context.CancelFunc
}

// A requestContext is idle until waited on (started) or until its request
// is over (ended); either is for good.
const (
	idle int32 = iota
	started
	over
)

// ended is what a requestContext that nothing waited on is once its
// request is over: cancelled, as WithDeadline's context would be.
var ended = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func newRequestContext(parent context.Context, arrived time.Time) *requestContext {
	c := &requestContext{Context: parent, arrived: arrived}
	c.at, _ = parent.Deadline()
	return c
}

// limit sets the deadline at, unless the parent's is earlier. It reports
// false, changing nothing, once something has waited on the context: the
// deadline of a context in use does not move.
func (c *requestContext) limit(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() != idle {
		return false
	}
	if c.at.IsZero() || at.Before(c.at) {
		c.at = at
	}
	return true
}

// real is the context that answers Done and Err: the real deadline
// context, made now if need be, or ended.
func (c *requestContext) real() context.Context {
	switch c.state.Load() {
	case started:
		return c.timed
	case over:
		return ended
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state.Load() == idle {
		if c.at.IsZero() {
			c.timed, c.cancel = context.WithCancel(c.Context)
		} else {
			c.timed, c.cancel = context.WithDeadline(c.Context, c.at)
		}
		if !c.state.CompareAndSwap(idle, started) { // the request ended meanwhile
			c.cancel()
		}
	}
	return c.real()
}

func (c *requestContext) Deadline() (time.Time, bool) { return c.at, !c.at.IsZero() }
func (c *requestContext) Done() <-chan struct{}       { return c.real().Done() }
func (c *requestContext) Err() error                  { return c.real().Err() }

// Value answers the arrival time, and otherwise from the real context once
// there is one, so that context.WithCancel on this one finds the cancelCtx
// under it and needs no goroutine to follow it.
func (c *requestContext) Value(key any) any {
	if key == arrival.Key {
		return &c.arrived
	}
	if c.state.Load() == started {
		return c.timed.Value(key)
	}
	return c.Context.Value(key)
}

// end is the cancel function: it stops the timer if one was started,
// and otherwise leaves the context cancelled for anything that waits on
// it later (a goroutine the request left behind).
func (c *requestContext) end() {
	if !c.state.CompareAndSwap(idle, over) && c.state.Load() == started {
		c.cancel()
	}
}
