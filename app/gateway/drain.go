package gateway

import (
	"context"
	"sync"
	"time"
)

// drain is how a call outlives a client that leaves: the upstream call
// runs detached from the client and is given DrainTimeout, from the
// moment the client is gone, to finish, so that what the upstream spends
// is metered from its own report. Complete and Stream each hold one.
type drain struct {
	timeout  time.Duration
	cancel   context.CancelCauseFunc // ends the upstream call, with a cause
	unwatch  func() bool
	draining func(delta float64) // Config.Draining, or nil

	mu    sync.Mutex
	gone  error // why the client left; nil while it is there
	timer *time.Timer
	ended bool
}

// detach gives the upstream call of the client ctx its own context: not
// cancelled with ctx, whose end only starts the drain. The caller must
// call end when the call is over.
func detach(ctx context.Context, timeout time.Duration, draining func(float64)) (context.Context, *drain) {
	up, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	d := &drain{timeout: timeout, cancel: cancel, draining: draining}
	d.unwatch = context.AfterFunc(ctx, func() { d.leave(context.Cause(ctx)) })
	return up, d
}

// leave records that the client is gone (the first cause counts) and
// starts the upstream's DrainTimeout.
func (d *drain) leave(cause error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone != nil || d.ended {
		return
	}
	if cause == nil {
		cause = context.Canceled
	}
	d.gone = cause
	d.timer = time.AfterFunc(d.timeout, func() { d.cancel(errDrainTimeout) })
	if d.draining != nil {
		d.draining(1)
	}
}

// left is why the client left, nil while it is there.
func (d *drain) left() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.gone
}

// end ends the call: the client is no longer watched, no drain timer
// outlives the call, the upstream's context is released. It returns why
// the client left, nil when it stayed; calling it again changes nothing.
func (d *drain) end() error {
	d.unwatch()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone != nil && !d.ended && d.draining != nil {
		d.draining(-1)
	}
	d.ended = true
	if d.timer != nil {
		d.timer.Stop()
	}
	d.cancel(nil)
	return d.gone
}
