// Package pool bounds scarce work: at most N jobs at once, and at most a
// memory budget's worth of them, each job costing what its input is
// estimated to need. A job that does not fit waits a short while, then
// is refused (503 busy with Retry-After) rather than queued without
// bound: eight parallel 9 MiB log analyses once took the server to 3 GiB.
//
// Some costs are known only once the job has run part way (a scan's
// findings, each far larger in its report than the bytes that caused
// it): the job then charges the pool for them (Charge) before it spends
// them, waiting for room like a new job, and new jobs leave room for it.
package pool

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
)

// Pool admits jobs by count and estimated memory.
type Pool struct {
	slots  int
	budget int64
	wait   time.Duration

	mu      sync.Mutex
	running int
	used    int64
	pending int64         // what charging jobs wait for: new jobs leave it free
	owed    int64         // what charging jobs hold and wait for, together
	freed   chan struct{} // closed, and replaced, whenever a job ends
}

// New makes a pool of slots concurrent jobs within budget bytes; a job
// waits up to wait for room.
func New(slots int, budget int64, wait time.Duration) *Pool {
	return &Pool{slots: max(slots, 1), budget: max(budget, 1), wait: wait, freed: make(chan struct{})}
}

// Acquire admits a job of the given cost, waiting up to the pool's wait.
// A job costing more than the whole budget runs alone. The caller must
// call release when the job ends.
func (p *Pool) Acquire(ctx context.Context, cost int64) (release func(), err error) {
	j, err := p.admit(ctx, cost)
	if err != nil {
		return nil, err
	}
	return j.release, nil
}

func (p *Pool) admit(ctx context.Context, cost int64) (*job, error) {
	cost = min(max(cost, 1), p.budget)
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	for {
		p.mu.Lock()
		if p.running < p.slots && p.used+p.pending+cost <= p.budget {
			p.running++
			p.used += cost
			p.mu.Unlock()
			return &job{p: p, cost: cost}, nil
		}
		freed := p.freed
		p.mu.Unlock()
		select {
		case <-freed:
		case <-timer.C:
			return nil, Busy(p.wait)
		case <-ctx.Done():
			return nil, Busy(p.wait)
		}
	}
}

// release ends the job, freeing all it holds (its charges too).
func (j *job) release() {
	p := j.p
	p.mu.Lock()
	if !j.stopped { // else stop freed the slot (and may yet run: an error's answer is written after the job)
		j.stopped = true
		p.running--
	}
	p.used -= j.cost
	p.signal()
	p.mu.Unlock()
}

// stop frees the job's slot, not its memory: its answer is made and being
// written, to a client that may read it slowly or not at all (up to the
// server's write timeout), which must not keep the slot from the others.
func (j *job) stop() {
	p := j.p
	p.mu.Lock()
	if !j.stopped {
		j.stopped = true
		p.running--
		p.signal()
	}
	p.mu.Unlock()
}

// signal wakes the waiting jobs; p.mu is held.
func (p *Pool) signal() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// job is an admitted job's share of its pool.
type job struct {
	p       *Pool
	cost    int64 // what it holds so far; p.mu guards it
	stopped bool  // its slot is free (stop); p.mu guards it
}

// jobKey is where Middleware leaves a request's job in its echo.Context:
// the handler's own, with no new request context to make.
const jobKey = "pool.job"

// Charge adds extra bytes to the cost of the job running c's request
// (see Middleware), once the job knows it will spend them; it waits for
// room up to the pool's wait, and the job then holds them until it ends.
// Past the wait, or at once when the jobs already waiting to grow hold
// and want too much for this one to fit beside them (they would wait on
// each other), it returns the pool's 503 busy: the caller should stop
// before spending the memory. A job's whole cost is capped at the budget
// (it then runs alone). Outside a pool's job it does nothing.
func Charge(c echo.Context, extra int64) error {
	j, _ := c.Get(jobKey).(*job)
	if j == nil || extra <= 0 {
		return nil
	}
	p := j.p
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	p.mu.Lock()
	extra = min(extra, p.budget-j.cost)
	if extra <= 0 {
		p.mu.Unlock()
		return nil
	}
	for {
		if p.used+extra <= p.budget {
			p.used += extra
			j.cost += extra
			p.mu.Unlock()
			return nil
		}
		if p.owed+j.cost+extra > p.budget {
			p.mu.Unlock()
			return Busy(p.wait)
		}
		p.pending += extra
		p.owed += j.cost + extra
		freed := p.freed
		p.mu.Unlock()
		var err error
		select {
		case <-freed:
		case <-timer.C:
			err = Busy(p.wait)
		case <-c.Request().Context().Done():
			err = Busy(p.wait)
		}
		p.mu.Lock()
		p.pending -= extra
		p.owed -= j.cost + extra
		if err != nil {
			p.signal() // the room it kept from new jobs is theirs again
			p.mu.Unlock()
			return err
		}
	}
}

// Busy is the refusal: 503 busy, with a Retry-After of at least a second.
func Busy(wait time.Duration) *apierr.Error {
	e := apierr.New(http.StatusServiceUnavailable, "busy",
		"the server is busy with other large requests; try again in a few seconds")
	e.RetryAfter = max(int(wait.Round(time.Second)/time.Second), 1)
	return e
}

// Middleware runs each request of a route as one job, costing
// cost(request body size) (the body size is the route's limit when the
// client did not declare it). The job's slot is free once its answer
// starts (stop); its memory, once the answer is written.
func (p *Pool) Middleware(maxBody int64, cost func(bodyBytes int64) int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			n := c.Request().ContentLength
			if n < 0 || n > maxBody {
				n = maxBody
			}
			j, err := p.admit(c.Request().Context(), cost(n))
			if err != nil {
				return err
			}
			defer j.release()
			c.Response().Before(j.stop)
			c.Set(jobKey, j)
			return next(c)
		}
	}
}
