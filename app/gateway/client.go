package gateway

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// Proxy is the chat-proxy core both endpoints and the playground call. It
// wraps the configured Upstream with what every call needs: one pooled HTTP
// client, a total timeout for non-streamed calls and an idle timeout for
// streams, cancellation when the caller goes away, one retry when the
// upstream is overloaded, error mapping, and a Report for audit.
type Proxy struct {
	cfg    Config
	up     Upstream
	client *http.Client // nil for in-process upstreams
}

// New builds the Proxy for cfg: the demo upstream when cfg.URL is empty,
// otherwise the adapter for cfg.Style.
func New(cfg Config) (*Proxy, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if cfg.URL == "" {
		return &Proxy{cfg: cfg, up: &Demo{WordDelay: cfg.DemoWordDelay}}, nil
	}
	client := newHTTPClient(cfg.ConnectTimeout)
	var up Upstream = newMessagesAdapter(client, cfg)
	if cfg.Style == StyleOpenAI {
		up = newOpenAIAdapter(client, cfg)
	}
	return &Proxy{cfg: cfg, up: up, client: client}, nil
}

// NewWithUpstream builds a Proxy around any Upstream, e.g. a Demo without
// delay or a fake in a handler's tests. cfg.URL, Key and Style are ignored.
func NewWithUpstream(cfg Config, up Upstream) (*Proxy, error) {
	cfg.URL = ""
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return &Proxy{cfg: cfg, up: up}, nil
}

// Defaults are what the request parsers need from the configuration.
func (p *Proxy) Defaults() Defaults {
	return Defaults{Model: p.cfg.Model, MaxTokens: p.cfg.MaxTokens, MaxTokensCap: p.cfg.MaxTokensCap}
}

// Close releases the pooled idle connections (at shutdown, and in tests).
func (p *Proxy) Close() {
	if p.client != nil {
		p.client.CloseIdleConnections()
	}
}

// Report is what audit and quota need to know about one call, failed or not.
type Report struct {
	Model    string // the model that answered as the upstream named it, else the one requested
	Stream   bool
	Attempts int // 2 when the upstream was overloaded and the retry ran
	// Latency runs from the call to the end of the upstream's answer (or
	// the failure), retry included.
	Latency time.Duration
	// TTFB runs from the call to the first byte of the (last attempt's)
	// upstream answer; for an in-process upstream, to its first event
	// (stream) or its answer.
	TTFB time.Duration
	// Usage is what the upstream reported, also for a stream that failed
	// midway: those tokens were spent.
	Usage      Usage
	StopReason string // "" when the call failed
	Status     int    // 200, or the Error's status
	ErrorCode  string // "" on success, else the Error's code
}

// Complete answers req in one piece. The error, when not nil, is an *Error
// for the handler to answer with; the Report is filled either way.
func (p *Proxy) Complete(ctx context.Context, req *Request) (*Message, Report, error) {
	c := p.begin(ctx, req, false)
	ctx, cancel := context.WithTimeoutCause(c.ctx, p.cfg.Timeout, errTotalTimeout)
	defer cancel()
	var msg *Message
	var err *Error
	for attempt := 1; ; attempt++ {
		c.report.Attempts = attempt
		var upErr error
		msg, upErr = p.up.Complete(ctx, req)
		if err = p.classify(c.parent, ctx, upErr); err == nil {
			err = checkMessage(msg)
		}
		if err == nil || attempt > 1 || !err.overloaded() {
			break
		}
		if waitErr := p.backoff(ctx, err); waitErr != nil {
			err = p.classify(c.parent, ctx, waitErr)
			break
		}
	}
	if err != nil {
		return nil, c.end(nil, err), err
	}
	if msg.ID == "" {
		msg.ID = newMessageID()
	}
	msg.Model = modelOr(msg.Model, req.Model)
	return msg, c.end(msg, nil), nil
}

// Stream answers req as Messages API events passed to emit, in order, as
// they arrive: the first (message_start) as soon as the upstream answers.
// emit is typically (*SSEWriter).Send.
//
// When the call fails before any event was emitted, nothing was sent and the
// handler answers with the returned *Error as usual. When it fails after, the
// stream is ended with an error event (unless the client is gone) and the
// error is returned for the handler's log and audit only. The message
// returned on success is the whole answer as the client received it.
func (p *Proxy) Stream(ctx context.Context, req *Request, emit func(Event) error) (*Message, Report, error) {
	c := p.begin(ctx, req, true)
	var acc accumulator
	forward := func(ev Event) error {
		if err := acc.add(ev); err != nil {
			return err
		}
		c.firstEvent()
		if err := emit(ev); err != nil {
			return emitError{err}
		}
		return nil
	}
	var err *Error
	for attempt := 1; ; attempt++ {
		c.report.Attempts = attempt
		err = p.streamOnce(c.parent, c.ctx, req, forward)
		if err == nil || attempt > 1 || acc.started() || !err.overloaded() {
			break
		}
		if waitErr := p.backoff(c.ctx, err); waitErr != nil {
			err = p.classify(c.parent, c.ctx, waitErr)
			break
		}
	}
	if err == nil && !acc.complete() {
		err = errInvalidResponse(errors.New("stream returned before message_stop"))
	}
	if err != nil {
		if acc.started() && err.Code != CodeClientClosed {
			body := err.anthropicBody()
			_ = emit(Event{Type: EventError, Error: &body}) // best effort: the stream is over either way
		}
		return nil, c.end(acc.msg, err), err
	}
	return acc.msg, c.end(acc.msg, nil), nil
}

// streamOnce runs one attempt under the idle watchdog: a timer, reset by
// every byte from the upstream and every event, that cancels the attempt
// when the upstream falls silent for StreamIdleTimeout. It is stopped while
// an event is being written, so a slow client does not count as a silent
// upstream.
func (p *Proxy) streamOnce(parent, ctx context.Context, req *Request, emit func(Event) error) *Error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := p.cfg.StreamIdleTimeout
	watchdog := time.AfterFunc(idle, func() { cancel(errIdleTimeout) })
	defer watchdog.Stop()
	ctx = withActivity(ctx, func() { watchdog.Reset(idle) })
	err := p.up.Stream(ctx, req, func(ev Event) error {
		watchdog.Stop()
		defer watchdog.Reset(idle)
		return emit(ev)
	})
	return p.classify(parent, ctx, err)
}

var (
	errTotalTimeout = errors.New("total timeout")
	errIdleTimeout  = errors.New("stream idle timeout")
)

// emitError marks a failure to deliver an event to the client.
type emitError struct{ err error }

func (e emitError) Error() string { return "writing to the client: " + e.err.Error() }
func (e emitError) Unwrap() error { return e.err }

// classify turns whatever an attempt returned into the *Error to report.
// Context state comes first: once the caller is gone or a timeout fired, the
// adapter's error (a cancelled read, usually) is only a symptom.
func (p *Proxy) classify(parent, ctx context.Context, err error) *Error {
	if err == nil {
		return nil
	}
	if parent.Err() != nil {
		if errors.Is(parent.Err(), context.DeadlineExceeded) {
			return errTimeout("the request ran out of time", context.Cause(parent))
		}
		return errClientClosed(context.Cause(parent))
	}
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errTotalTimeout):
		return errTimeout(fmt.Sprintf("upstream did not answer within %s", p.cfg.Timeout), err)
	case errors.Is(cause, errIdleTimeout):
		return errTimeout(fmt.Sprintf("upstream sent nothing for %s", p.cfg.StreamIdleTimeout), err)
	}
	if e, ok := errors.AsType[emitError](err); ok {
		return errClientClosed(e.err)
	}
	if e, ok := errors.AsType[*Error](err); ok {
		safe := *e // the last guard against echoing the key, whatever the Upstream
		safe.Message = scrub(e.Message, p.cfg.Key)
		return &safe
	}
	return upstreamError("the upstream call failed", err)
}

// Retry bounds: one retry, after 100–400ms of jitter, and only when the
// upstream does not ask for a longer pause than maxRetryAfter (the client is
// then better told to come back later).
const (
	retryMinWait  = 100 * time.Millisecond
	retryJitter   = 300 * time.Millisecond
	maxRetryAfter = 1 // second
)

// backoff waits before the retry of an overloaded call. It returns nil to
// retry, else why not: the upstream's error or the context's.
func (p *Proxy) backoff(ctx context.Context, overloaded *Error) error {
	if overloaded.RetryAfter > maxRetryAfter {
		return overloaded
	}
	return sleep(ctx, max(retryMinWait+rand.N(retryJitter), time.Duration(overloaded.RetryAfter)*time.Second))
}

func checkMessage(m *Message) *Error {
	if m == nil {
		return errInvalidResponse(errors.New("upstream returned no message"))
	}
	for _, b := range m.Content {
		if b.Type != "text" {
			return errUnsupportedBlock(b.Type)
		}
	}
	return nil
}

// call measures one Proxy call for its Report.
type call struct {
	parent    context.Context // the caller's
	ctx       context.Context // the caller's, traced
	start     time.Time
	firstByte atomic.Int64 // ns since start; 0 until the upstream answers
	report    Report
}

func (p *Proxy) begin(ctx context.Context, req *Request, stream bool) *call {
	c := &call{parent: ctx, start: time.Now(), report: Report{Model: req.Model, Stream: stream}}
	c.ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { c.firstByte.Store(int64(time.Since(c.start))) },
	})
	return c
}

// firstEvent stands in for the first response byte of an in-process
// upstream; an HTTP upstream's real first byte came earlier.
func (c *call) firstEvent() {
	c.firstByte.CompareAndSwap(0, int64(time.Since(c.start)))
}

func (c *call) end(msg *Message, err *Error) Report {
	r := &c.report
	r.Latency = time.Since(c.start)
	r.TTFB = time.Duration(c.firstByte.Load())
	if r.TTFB == 0 && err == nil {
		r.TTFB = r.Latency
	}
	if msg != nil {
		r.Model, r.Usage = modelOr(msg.Model, r.Model), msg.Usage
	}
	if err != nil {
		r.Status, r.ErrorCode = err.Status, err.Code
	} else {
		r.Status, r.StopReason = http.StatusOK, msg.StopReason
	}
	return *r
}
