// Package pool bounds scarce work: at most N jobs at once, and at most a
// memory budget's worth of them, each job costing what its input is
// estimated to need. A job that does not fit waits a short while, then
// is refused (503 busy with Retry-After) rather than queued without
// bound: eight parallel 9 MiB log analyses once took the server to 3 GiB.
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
	cost = min(max(cost, 1), p.budget)
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	for {
		p.mu.Lock()
		if p.running < p.slots && p.used+cost <= p.budget {
			p.running++
			p.used += cost
			p.mu.Unlock()
			return func() { p.release(cost) }, nil
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

func (p *Pool) release(cost int64) {
	p.mu.Lock()
	p.running--
	p.used -= cost
	close(p.freed)
	p.freed = make(chan struct{})
	p.mu.Unlock()
}

// Busy is the refusal: 503 busy, with a Retry-After of at least a second.
func Busy(wait time.Duration) *apierr.Error {
	e := apierr.New(http.StatusServiceUnavailable, "busy",
		"the server is busy with other analyses; try again in a few seconds")
	e.RetryAfter = max(int(wait.Round(time.Second)/time.Second), 1)
	return e
}

// Middleware runs each request of a route as one job, costing
// cost(request body size) (the body size is the route's limit when the
// client did not declare it).
func (p *Pool) Middleware(maxBody int64, cost func(bodyBytes int64) int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			n := c.Request().ContentLength
			if n < 0 || n > maxBody {
				n = maxBody
			}
			release, err := p.Acquire(c.Request().Context(), cost(n))
			if err != nil {
				return err
			}
			defer release()
			return next(c)
		}
	}
}
