package pool

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

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

// jobContext admits a job of cost and returns the request's context as
// Middleware leaves it.
func jobContext(t *testing.T, p *Pool, cost int64) (echo.Context, *job) {
	t.Helper()
	j, err := p.admit(context.Background(), cost)
	if err != nil {
		t.Fatal(err)
	}
	c := echo.New().NewContext(httptest.NewRequest("POST", "/", nil), httptest.NewRecorder())
	c.Set(jobKey, j)
	return c, j
}

// A job that learns it needs more (a scan's findings) charges for it:
// while it waits for room no new job is admitted, and it gets the room as
// soon as another job ends. Two jobs that cannot both grow do not wait on
// each other: the second is refused at once, and the first then grows.
func TestPoolChargeWaitsForRoom(t *testing.T) {
	p := New(4, 100, 2*time.Second)
	ctxA, a := jobContext(t, p, 30)
	_, b := jobContext(t, p, 30)
	charged := make(chan error)
	go func() { charged <- Charge(ctxA, 50) }() // 110 with b's 30: waits
	waitFor(t, func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.pending == 50 })
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(short, 30); err == nil {
		t.Errorf("a new job was admitted into the room a charging job waits for: %v", err)
	}
	b.release()
	if err := <-charged; err != nil {
		t.Fatalf("the charge after the other job ended: %v", err)
	}
	if p.used != 80 || a.cost != 80 {
		t.Errorf("used %d, job %d after the charge; want 80 and 80", p.used, a.cost)
	}
	a.release()

	ctxC, c := jobContext(t, p, 40)
	ctxD, d := jobContext(t, p, 40)
	go func() { charged <- Charge(ctxC, 50) }() // 130: waits for d
	waitFor(t, func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.pending == 50 })
	start := time.Now()
	err := Charge(ctxD, 50) // c holds and wants 90: d's 90 cannot fit beside it
	var e *apierr.Error
	if !errors.As(err, &e) || e.Status != 503 || time.Since(start) > time.Second {
		t.Fatalf("the second growing job: %v after %s; want 503 busy at once", err, time.Since(start))
	}
	d.release()
	if err := <-charged; err != nil {
		t.Fatalf("the first growing job once the second gave up: %v", err)
	}
	c.release()
	if p.used != 0 || p.running != 0 || p.pending != 0 || p.owed != 0 {
		t.Errorf("after all jobs: used %d, running %d, pending %d, owed %d; want 0", p.used, p.running, p.pending, p.owed)
	}
}

// A charge is capped so the job's cost stays within the budget (it then
// runs alone); outside a job, or for nothing, it does nothing.
func TestPoolChargeLimits(t *testing.T) {
	p := New(2, 100, 100*time.Millisecond)
	ctx, j := jobContext(t, p, 30)
	if err := Charge(ctx, 1000); err != nil || j.cost != 100 {
		t.Errorf("a charge past the budget: %v, cost %d; want the job at the budget, 100", err, j.cost)
	}
	if err := Charge(echo.New().NewContext(httptest.NewRequest("POST", "/", nil), nil), 1000); err != nil {
		t.Errorf("a charge outside a job: %v", err)
	}
	j.release()
	if p.used != 0 {
		t.Errorf("used %d after the job; want 0", p.used)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

// blockingWriter is a client that reads nothing: every write waits until
// read is closed.
type blockingWriter struct {
	*httptest.ResponseRecorder
	read chan struct{}
}

func (w blockingWriter) Write(b []byte) (int, error) {
	<-w.read
	return w.ResponseRecorder.Write(b)
}

// A job whose answer is being written to a client that does not read it
// holds its memory but not its slot: with one slot, the next job runs
// while the first is stuck writing; a third that needs the memory still
// held waits.
func TestPoolSlotFreeWhileAnswering(t *testing.T) {
	p := New(1, 100, 300*time.Millisecond)
	e := echo.New()
	h := p.Middleware(1000, func(int64) int64 { return 60 })(func(c echo.Context) error {
		return c.String(200, "a large answer")
	})
	stuck := blockingWriter{httptest.NewRecorder(), make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		done <- h(e.NewContext(httptest.NewRequest("POST", "/", nil), stuck))
	}()
	// Wait until the first job has made its answer (its slot is free).
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		running, used := p.running, p.used
		p.mu.Unlock()
		if running == 0 && used == 60 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("running %d, used %d: the answering job kept its slot", running, used)
		}
		time.Sleep(time.Millisecond)
	}
	if release, err := p.Acquire(context.Background(), 40); err != nil {
		t.Errorf("a job that fits the memory left waited for the slot of one stuck answering: %v", err)
	} else {
		release()
	}
	if _, err := p.Acquire(context.Background(), 50); err == nil {
		t.Error("a job needing the memory the answering job holds was admitted")
	}
	close(stuck.read)
	if err := <-done; err != nil || stuck.Body.String() != "a large answer" {
		t.Errorf("the stuck answer: %v %q", err, stuck.Body.String())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running != 0 || p.used != 0 {
		t.Errorf("after the answer: running %d, used %d", p.running, p.used)
	}
}

// A job that fails has its error answered after it ended (by the central
// error handler): the slot is freed once, not twice.
func TestPoolErrorAnsweredAfterTheJob(t *testing.T) {
	p := New(1, 100, 100*time.Millisecond)
	e := echo.New()
	h := p.Middleware(1000, func(int64) int64 { return 10 })(func(c echo.Context) error {
		return echo.NewHTTPError(400, "bad input")
	})
	c := e.NewContext(httptest.NewRequest("POST", "/", nil), httptest.NewRecorder())
	if err := h(c); err == nil {
		t.Fatal("no error")
	}
	_ = c.String(400, "bad input") // the error handler's answer
	p.mu.Lock()
	running, used := p.running, p.used
	p.mu.Unlock()
	if running != 0 || used != 0 {
		t.Errorf("running %d, used %d after the job and its answer, want 0 and 0", running, used)
	}
}
