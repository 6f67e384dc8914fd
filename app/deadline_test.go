package app

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/arrival"
)

type ctxKey struct{}

// deadlineAt is a request's context whose deadline requestTimeout set to at.
func deadlineAt(parent context.Context, at time.Time) *requestContext {
	c := newRequestContext(parent, time.Now())
	c.limit(at)
	return c
}

// A request's deadline behaves as context.WithDeadline's: a wait ends at
// the deadline with DeadlineExceeded, contexts made from it end with it,
// the parent's cancellation (the client left) reaches a waiter, values
// pass through, and the end of the request cancels it.
func TestLazyDeadlineIsADeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), ctxKey{}, "v")

	t.Run("a wait ends at the deadline", func(t *testing.T) {
		at := time.Now().Add(50 * time.Millisecond)
		ctx := deadlineAt(parent, at)
		defer ctx.end()
		if d, ok := ctx.Deadline(); !ok || !d.Equal(at) {
			t.Fatalf("Deadline() = %v, %v; want %v", d, ok, at)
		}
		if ctx.Err() != nil {
			t.Fatalf("Err() before the deadline = %v", ctx.Err())
		}
		child, cancel := context.WithCancel(ctx)
		defer cancel()
		select {
		case <-child.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the child was not cancelled at the deadline")
		}
		if !time.Now().After(at) {
			t.Fatal("cancelled before the deadline")
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err() = %v, child %v; want DeadlineExceeded", ctx.Err(), child.Err())
		}
		if ctx.Value(ctxKey{}) != "v" || child.Value(ctxKey{}) != "v" {
			t.Fatal("the parent's value is lost")
		}
	})

	t.Run("a deadline already past", func(t *testing.T) {
		ctx := deadlineAt(parent, time.Now().Add(-time.Second))
		defer ctx.end()
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err() = %v", ctx.Err())
		}
	})

	t.Run("the parent's earlier deadline wins", func(t *testing.T) {
		soon := time.Now().Add(time.Minute)
		p, cancel := context.WithDeadline(parent, soon)
		defer cancel()
		ctx := deadlineAt(p, soon.Add(time.Hour))
		defer ctx.end()
		if d, _ := ctx.Deadline(); !d.Equal(soon) {
			t.Fatalf("Deadline() = %v; want the parent's %v", d, soon)
		}
	})

	t.Run("the parent's cancellation reaches a waiter", func(t *testing.T) {
		p, cancel := context.WithCancel(parent)
		ctx := deadlineAt(p, time.Now().Add(time.Hour))
		defer ctx.end()
		done := ctx.Done()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the parent's cancellation did not arrive")
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Fatalf("Err() = %v; want Canceled", ctx.Err())
		}
	})

	t.Run("the end of the request cancels it, waited on or not", func(t *testing.T) {
		for _, waited := range []bool{false, true} {
			ctx := deadlineAt(parent, time.Now().Add(time.Hour))
			if waited {
				_ = ctx.Done()
			}
			ctx.end()
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
				t.Fatalf("waited=%v: not cancelled by end", waited)
			}
			if !errors.Is(ctx.Err(), context.Canceled) || ctx.Value(ctxKey{}) != "v" {
				t.Fatalf("waited=%v: Err() = %v, value %v", waited, ctx.Err(), ctx.Value(ctxKey{}))
			}
		}
	})

	t.Run("waiters and the end racing", func(t *testing.T) {
		// Under -race: many goroutines start waiting while the request
		// ends; each sees one cancelled context.
		for range 200 {
			ctx := deadlineAt(parent, time.Now().Add(time.Hour))
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					<-ctx.Done()
					if ctx.Err() == nil {
						t.Error("Done closed but Err() is nil")
					}
				})
			}
			ctx.end()
			wg.Wait()
		}
	})
}

// Nothing waits on the deadline of a request that never blocks: it makes
// no timer.
func TestLazyDeadlineIdleMakesNoTimer(t *testing.T) {
	ctx := deadlineAt(context.Background(), time.Now().Add(time.Hour))
	_ = ctx.Value(ctxKey{})
	_, _ = ctx.Deadline()
	if ctx.state.Load() != idle {
		t.Fatal("reading the deadline or a value started a timer")
	}
	ctx.end()
	if ctx.state.Load() != over {
		t.Fatal("end did not end it")
	}
	if testing.AllocsPerRun(100, func() {
		c := newRequestContext(context.Background(), time.Now())
		c.limit(time.Now().Add(time.Hour))
		c.end()
	}) > 1 {
		t.Fatal("an idle deadline costs more than its own allocation")
	}
}

// A request's context answers its arrival time to everything under it, so
// the chain reads the clock once; outside a request the clock is read.
func TestRequestContextCarriesItsArrival(t *testing.T) {
	arrived := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	ctx := newRequestContext(context.Background(), arrived)
	defer ctx.end()
	child, cancel := context.WithCancel(context.WithValue(ctx, ctxKey{}, "v"))
	defer cancel()
	clock := func() time.Time { t.Fatal("the clock was read inside a request"); return time.Time{} }
	if got := arrival.Now(child, clock); !got.Equal(arrived) {
		t.Fatalf("arrival.Now = %v; want %v", got, arrived)
	}
	now := time.Now()
	if got := arrival.Now(context.Background(), func() time.Time { return now }); !got.Equal(now) {
		t.Fatalf("outside a request arrival.Now = %v; want the clock's %v", got, now)
	}
}

// Until requestTimeout sets one, a request's context has no deadline of
// its own but still ends with the request or its client.
func TestRequestContextWithoutDeadline(t *testing.T) {
	ctx := newRequestContext(context.Background(), time.Now())
	if _, ok := ctx.Deadline(); ok {
		t.Fatal("a deadline before requestTimeout set one")
	}
	done := ctx.Done()
	ctx.end()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("not cancelled at the end of the request")
	}

	p, cancel := context.WithCancel(context.Background())
	ctx = newRequestContext(p, time.Now())
	defer ctx.end()
	done = ctx.Done()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the client's leaving did not arrive")
	}
}

// requestTimeout counts the deadline from the request's arrival, and does
// not move the deadline of a context something already waits on: it bounds
// the rest of the request with a context of its own.
func TestRequestTimeoutCountsFromArrival(t *testing.T) {
	const d = time.Minute
	arrived := time.Now().Add(-10 * time.Second)
	for _, waited := range []bool{false, true} {
		ctx := newRequestContext(context.Background(), arrived)
		if waited {
			_ = ctx.Done()
		}
		e := echo.New()
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil).WithContext(ctx), httptest.NewRecorder())
		var deadline time.Time
		var inner context.Context
		h := requestTimeout(d)(func(c echo.Context) error {
			inner = c.Request().Context()
			deadline, _ = inner.Deadline()
			return nil
		})
		if err := h(c); err != nil {
			t.Fatal(err)
		}
		if !waited && (!deadline.Equal(arrived.Add(d)) || inner != ctx) {
			t.Fatalf("deadline %v (own context %v); want %v on the request's context", deadline, inner != ctx, arrived.Add(d))
		}
		if waited {
			if inner == ctx || deadline.IsZero() || time.Until(deadline) > d {
				t.Fatalf("waited on: deadline %v (same context %v); want a context of its own within %v", deadline, inner == ctx, d)
			}
			if _, ok := ctx.Deadline(); ok {
				t.Fatal("the deadline of a context in use moved")
			}
		}
		ctx.end()
	}
}
