package pool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parapet/app/apierr"
)

// No more than the slots run at once, and no more than the budget; the
// rest wait, and past the wait are refused with 503 busy and Retry-After.
func TestPoolBoundsCountAndMemory(t *testing.T) {
	p := New(3, 100, 200*time.Millisecond)
	var running, peak, refused atomic.Int32
	var wg sync.WaitGroup
	hold := make(chan struct{})
	for range 6 {
		wg.Go(func() {
			release, err := p.Acquire(context.Background(), 40) // two fit the budget
			if err != nil {
				var e *apierr.Error
				if !errors.As(err, &e) || e.Status != 503 || e.Code != "busy" || e.RetryAfter < 1 {
					t.Errorf("refusal %v, want 503 busy with Retry-After", err)
				}
				refused.Add(1)
				return
			}
			n := running.Add(1)
			for {
				old := peak.Load()
				if n <= old || peak.CompareAndSwap(old, n) {
					break
				}
			}
			<-hold
			running.Add(-1)
			release()
		})
	}
	// Wait until the refusals are in: 6 jobs, 2 admitted, 4 refused.
	deadline := time.Now().Add(5 * time.Second)
	for refused.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	close(hold)
	wg.Wait()
	if peak.Load() != 2 || refused.Load() != 4 {
		t.Errorf("peak %d running, %d refused; want 2 (the budget) and 4", peak.Load(), refused.Load())
	}
}

// A waiting job starts as soon as one ends, within its wait; a job larger
// than the whole budget runs alone instead of never.
func TestPoolWaitsThenRuns(t *testing.T) {
	p := New(1, 100, 5*time.Second)
	release, err := p.Acquire(context.Background(), 1000)
	if err != nil {
		t.Fatalf("a job over the budget, alone: %v", err)
	}
	done := make(chan error)
	go func() {
		r, err := p.Acquire(context.Background(), 10)
		if err == nil {
			r()
		}
		done <- err
	}()
	release()
	if err := <-done; err != nil {
		t.Fatalf("the waiting job: %v", err)
	}
}
