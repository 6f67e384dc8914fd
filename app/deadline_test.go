package app

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type ctxKey struct{}

// A request's deadline behaves as context.WithDeadline's: a wait ends at
// the deadline with DeadlineExceeded, contexts made from it end with it,
// the parent's cancellation (the client left) reaches a waiter, values
// pass through, and the end of the request cancels it.
func TestLazyDeadlineIsADeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), ctxKey{}, "v")

	t.Run("a wait ends at the deadline", func(t *testing.T) {
		at := time.Now().Add(50 * time.Millisecond)
		ctx := newLazyDeadline(parent, at)
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
		ctx := newLazyDeadline(parent, time.Now().Add(-time.Second))
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
		ctx := newLazyDeadline(p, soon.Add(time.Hour))
		defer ctx.end()
		if d, _ := ctx.Deadline(); !d.Equal(soon) {
			t.Fatalf("Deadline() = %v; want the parent's %v", d, soon)
		}
	})

	t.Run("the parent's cancellation reaches a waiter", func(t *testing.T) {
		p, cancel := context.WithCancel(parent)
		ctx := newLazyDeadline(p, time.Now().Add(time.Hour))
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
			ctx := newLazyDeadline(parent, time.Now().Add(time.Hour))
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
			ctx := newLazyDeadline(parent, time.Now().Add(time.Hour))
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
	ctx := newLazyDeadline(context.Background(), time.Now().Add(time.Hour))
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
		c := newLazyDeadline(context.Background(), time.Now().Add(time.Hour))
		c.end()
	}) > 1 {
		t.Fatal("an idle deadline costs more than its own allocation")
	}
}
