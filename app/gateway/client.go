package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"
)

// Proxy is the chat-proxy core both endpoints and the playground call. It
// wraps the configured Upstream with what every call needs: one pooled HTTP
// client, a total timeout for non-streamed calls and an idle timeout for
// streams, cancellation when the caller goes away, one retry when the
// upstream is overloaded, error mapping, and a Report for audit.
type Proxy struct {
	cfg       Config
	transport *http.Transport // nil for in-process upstreams
	scrub     *scrubber       // the one provider's key, without GATEWAY_CONFIG
	// pass is the one route of every model name without GATEWAY_CONFIG;
	// routes (by name) those of the configuration otherwise.
	pass     *route
	routes   map[string]*route
	weights  map[string][]int // a weighted route's targets' weights
	names    []string         // the model names, in order
	breakers Breakers
}

// New builds the Proxy for cfg: with cfg.Routing, its providers and
// routes; else the demo upstream when cfg.URL is empty, otherwise the
// adapter for cfg.Style, behind every model name.
func New(cfg Config) (*Proxy, error) {
	if cfg.Routing != nil {
		cfg.Model = cfg.Routing.DefaultModel
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if cfg.Routing != nil {
		return newRouted(cfg), nil
	}
	if cfg.URL == "" {
		return newPassThrough(cfg, "demo", &Demo{WordDelay: cfg.DemoWordDelay}, nil), nil
	}
	transport := newTransport(cfg.ConnectTimeout)
	sc := newScrubber(cfg.Key)
	var up Upstream = newMessagesAdapter(transport, cfg, sc)
	if cfg.Style == StyleOpenAI {
		up = newOpenAIAdapter(transport, cfg, sc)
	}
	p := newPassThrough(cfg, "upstream", up, sc)
	p.transport = transport
	return p, nil
}

// NewWithUpstream builds a Proxy around any Upstream, e.g. a Demo without
// delay or a fake in a handler's tests. cfg.URL, Key, Style and Routing
// are ignored.
func NewWithUpstream(cfg Config, up Upstream) (*Proxy, error) {
	cfg.URL, cfg.Routing = "", nil
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return newPassThrough(cfg, "upstream", up, nil), nil
}

// Defaults are what the request parsers need from the configuration.
func (p *Proxy) Defaults() Defaults {
	d := Defaults{Model: p.cfg.Model, MaxTokens: p.cfg.MaxTokens, MaxTokensCap: p.cfg.MaxTokensCap, EmbeddingModel: p.cfg.EmbeddingModel}
	if p.pass != nil && p.cfg.URL != "" {
		// One provider: the parsers refuse what its style cannot do.
		// Routed, each target's adapter translates what it can.
		d.Style = p.cfg.Style
	}
	return d
}

// Embeddings reports whether a provider serves embeddings (openai style,
// or the demo).
func (p *Proxy) Embeddings() bool {
	routes := p.routes
	if p.pass != nil {
		routes = map[string]*route{"*": p.pass}
	}
	for _, r := range routes {
		for _, t := range r.targets {
			if _, ok := t.up.(embedder); ok {
				return true
			}
		}
	}
	return false
}

// Close releases the pooled idle connections (at shutdown, and in tests).
func (p *Proxy) Close() {
	if p.transport != nil {
		p.transport.CloseIdleConnections()
	}
}

// Report is what audit and quota need to know about one call, failed or not.
type Report struct {
	Model    string // the model that answered as the upstream named it, else the one requested
	Stream   bool
	Attempts int // len(Tries)
	// Provider and TargetModel are the last target tried: the one that
	// answered, when the call succeeded. Tries lists every attempt.
	Provider    string
	TargetModel string
	Tries       []Attempt
	// price is TargetModel's, nil when unknown (see Cost).
	price        *Price
	priceVersion string
	// Latency runs from the call to the end of the upstream's answer (or
	// the failure), retry included.
	Latency time.Duration
	// Usage is what the upstream reported, checked, or at least what was
	// delivered of a stream that did not finish: those tokens were spent.
	Usage Usage
	// UsageFlag is "" when Usage is the upstream's own report,
	// UsageClamped when that report was impossible and was corrected, and
	// UsageEstimated when some count is ours: the upstream reported none,
	// or a stream that did not finish delivered more than it reported.
	UsageFlag  string
	StopReason string // "" when the call failed
	Status     int    // 200, or the Error's status
	ErrorCode  string // "" on success, else the Error's code
}

// Complete answers req in one piece. The error, when not nil, is an *Error
// for the handler to answer with; the Report is filled either way.
//
// As a stream's, the upstream call outlives a client that leaves by up to
// DrainTimeout, so the tokens the upstream spends are metered: leaving just
// before the answer must not make a call free. When the upstream does not
// finish in that time either, the call is metered at its worst case (the
// input estimate and max_tokens, flagged "estimated"); when it answers
// with an error, nothing is metered. The error is then client_closed
// either way.
func (p *Proxy) Complete(ctx context.Context, req *Request) (*Message, Report, error) {
	c := p.begin(ctx, req, false)
	up, d := detach(ctx, p.cfg.DrainTimeout, p.cfg.Draining)
	defer d.end()
	total := time.AfterFunc(p.cfg.Timeout, func() { d.cancel(errTotalTimeout) })
	defer total.Stop()
	msg, err := p.completeRoute(ctx, c, up)
	if err == nil {
		// Whether or not the client is still there: the answer is
		// recorded either way, so the key is scrubbed from it first.
		c.flag(c.clean(msg))
	}
	if err != nil {
		msg = nil // an answer that failed its checks meters nothing
	}
	if ctx.Err() != nil {
		if err != nil && cutOff(up) {
			// We ended the call before the upstream answered: it may have
			// spent up to max_tokens. An upstream that answered with an
			// error spent nothing, as for a client that stayed.
			msg = &Message{Model: req.Model, Usage: Usage{InputTokens: EstimateInputTokens(req), OutputTokens: req.MaxTokens}}
			c.report.UsageFlag = UsageEstimated
		}
		err = p.classify(c.parent, up, ctx.Err()) // client_closed, or the caller's deadline
		return nil, c.end(msg, err), err
	}
	if err != nil {
		return nil, c.end(nil, err), err
	}
	return msg, c.end(msg, nil), nil
}

// completeRoute tries the call's targets in turn (see attempts) until one
// answers, or fails in a way the next cannot help with. An attempt that is
// not the last has FirstByteTimeout to answer: a provider that stalls
// must leave time for the next.
func (p *Proxy) completeRoute(ctx context.Context, c *call, up context.Context) (*Message, *Error) {
	at, err := p.attemptsOf(ctx, c)
	if err != nil {
		return nil, err
	}
	for t := at.take(); t != nil; {
		actx, cancel := context.WithCancelCause(withScrubber(up, c.scrub))
		stall := time.AfterFunc(p.cfg.FirstByteTimeout, func() { cancel(errFirstByte) })
		if !at.more() {
			stall.Stop() // the last target has what is left of Timeout
		}
		start := time.Now()
		msg, upErr := t.up.Complete(actx, t.request(c.req))
		stall.Stop()
		if err = p.classify(c.parent, actx, upErr); err == nil {
			err = checkMessage(msg)
		}
		cancel(nil)
		at.done(t, start, err)
		if err == nil {
			return msg, nil
		}
		if t = p.nextTarget(up, at, t, err); t == nil && at.waitErr != nil {
			return nil, p.classify(c.parent, up, at.waitErr)
		}
	}
	if len(c.report.Tries) == 0 {
		return nil, at.noTarget()
	}
	return nil, err
}

// nextTarget is the target to try after t failed with err, or nil: the
// same one once more when the only provider was overloaded (after a
// jitter; at.waitErr says why not when the wait failed), else the next
// whose breaker is closed when t's provider failed. The caller's own
// error, or its leaving, ends the call.
func (p *Proxy) nextTarget(up context.Context, at *attempts, t *target, err *Error) *target {
	switch {
	case at.retry && len(at.c.report.Tries) == 1 && overloaded(err):
		if at.waitErr = p.backoff(up, err); at.waitErr != nil {
			return nil
		}
		return at.again(t)
	case providerFailed(err):
		return at.take()
	}
	return nil
}

// cutOff tells whether the gateway ended an upstream call (the drain or
// the total deadline) rather than the upstream ending it.
func cutOff(up context.Context) bool {
	cause := context.Cause(up)
	return errors.Is(cause, errDrainTimeout) || errors.Is(cause, errTotalTimeout)
}

// clean makes an upstream answer ours: an id when it has none, the
// upstream key scrubbed from all it forwards or records, its id and model
// name made safe (cleanName), its usage checked and what it did not report
// estimated; it returns the usage's flag.
func (c *call) clean(msg *Message) string {
	req, sc := c.req, c.scrub
	if msg.ID == "" {
		msg.ID = newMessageID()
	}
	msg.ID, msg.Model = cleanName(sc.scrub(msg.ID), maxIDLen), cleanName(sc.scrub(modelOr(msg.Model, req.Model)), maxModelLen)
	var bytes int
	for i := range msg.Content {
		b := &msg.Content[i]
		// Signatures and redacted thinking are the provider's opaque,
		// encrypted bytes: they pass byte for byte.
		b.Text, b.Thinking = sc.scrub(b.Text), sc.scrub(b.Thinking)
		if len(b.Input) > 0 {
			b.Input = json.RawMessage(sc.scrub(string(b.Input)))
		}
		b.ID, b.Name = sc.scrub(b.ID), sc.scrub(b.Name)
		bytes += len(b.payload())
	}
	msg.StopReason, msg.StopSequence = cleanStop(sc, msg.StopReason, msg.StopSequence)
	var flag string
	msg.Usage, flag = checkUsage(msg.Usage, req)
	var estimated bool
	if msg.Usage, estimated = fillUnreported(msg.Usage, req, bytes, 0); estimated {
		flag = UsageEstimated
	}
	return flag
}

// Stream answers req as Messages API events passed to emit, in order, as
// they arrive: the first (message_start) as soon as the upstream answers.
//
// The call runs under three deadlines: FirstByteTimeout to the upstream's
// first event, StreamIdleTimeout between events, StreamMaxDuration overall.
//
// When the client goes away (ctx is cancelled, or emit fails) the upstream
// is read on to its end for up to DrainTimeout, without emitting, so the
// upstream's own usage is reported. A stream that does not finish (the
// upstream does not in that time, or it fails while the client is there)
// is metered at least by what the client was sent (see estimate); one
// whose client left before its first event and that did not start within
// DrainTimeout, at the input estimate. The error is client_closed when
// the client left, either way.
//
// Stream never emits an error event: on failure it returns the *Error, and
// the caller ends a stream it has started with an error event in its own
// dialect. The message returned on success is the whole answer as the
// client received it.
func (p *Proxy) Stream(ctx context.Context, req *Request, emit func(Event) error) (*Message, Report, error) {
	c := p.begin(ctx, req, true)
	up, d := detach(ctx, p.cfg.DrainTimeout, p.cfg.Draining)
	defer d.end()
	s := &streamCall{p: p, c: c, emit: emit, drain: d}
	maxTimer := time.AfterFunc(p.cfg.StreamMaxDuration, func() { d.cancel(errMaxDuration) })
	defer maxTimer.Stop()
	err := p.streamRoute(ctx, s, up)
	if !s.acc.complete() {
		// The stream failed, or its client left and the upstream did not
		// finish in time.
		if err == nil {
			err = errInvalidResponse(errors.New("stream returned before message_stop"))
		}
		_ = s.flush() // the text held back of the block it ends inside
		// The upstream's last report may be message_start's single output
		// token, whatever it had sent since.
		s.estimate()
	}
	if gone := d.end(); gone != nil {
		// The client left: whatever the upstream did next, this is how the
		// call ended for it.
		err = errClientClosed(gone)
		if s.acc.msg == nil && cutOff(up) {
			// We ended the call before the upstream's first event: it had
			// the prompt. Leaving early makes no stream free either (its
			// output, unlike a non-streamed call's, was all seen: none).
			c.report.UsageFlag = UsageEstimated
			return nil, c.end(&Message{Model: req.Model, Usage: Usage{InputTokens: EstimateInputTokens(req)}}, err), err
		}
	}
	if err != nil {
		return nil, c.end(s.acc.msg, err), err
	}
	return s.acc.msg, c.end(s.acc.msg, nil), nil
}

// streamRoute tries the call's targets in turn (see attempts) while no
// content has reached the client: each attempt's opening events are held
// back (holdBack) until its first content, so the client sees one
// message_start, whichever target answers. After content, a failure ends
// the stream: answers are never spliced.
func (p *Proxy) streamRoute(ctx context.Context, s *streamCall, up context.Context) *Error {
	c := s.c
	at, err := p.attemptsOf(ctx, c)
	if err != nil {
		return err
	}
	for t := at.take(); t != nil; {
		hb := &holdBack{forward: s.forward, hold: at.more()}
		start := time.Now()
		err = p.streamOnce(c.parent, withScrubber(up, c.scrub), t.up, t.request(c.req), hb.emit)
		at.done(t, start, err)
		if err == nil || hb.sent {
			return err
		}
		if t = p.nextTarget(up, at, t, err); t == nil && at.waitErr != nil {
			return p.classify(c.parent, up, at.waitErr)
		}
	}
	if len(c.report.Tries) == 0 {
		return at.noTarget()
	}
	return err
}

// streamCall is one Stream call's state between the upstream and the client.
type streamCall struct {
	p     *Proxy
	c     *call
	emit  func(Event) error
	drain *drain
	acc   accumulator

	// Only the call's goroutine touches these: every Upstream emits on
	// the goroutine that called its Stream.
	deltas int    // text deltas sent to the client
	sent   int    // bytes of text sent to the client
	pieces pieces // the open block's text, as the scrubber holds it back
}

// forward checks, scrubs and accumulates an event, and sends it to the
// client while the client is there.
func (s *streamCall) forward(ev Event) error {
	if ev.Type == EventContentBlockStop {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.scrubEvent(&ev)
	s.checkEventUsage(&ev)
	if err := s.acc.add(ev); err != nil {
		return err
	}
	if ev.Type == EventMessageDelta {
		// The client is told the cumulative counts it is billed: input
		// from message_start, output from here, each estimated when the
		// upstream reported none.
		s.fillUnreported()
		// The counts taken together, as the call is billed: message_start's
		// input with this event's output may exceed the reservation.
		u, flag := checkUsage(s.acc.msg.Usage, s.c.req)
		s.c.flag(flag)
		s.acc.msg.Usage = u
		ev.Usage = &u
	}
	if s.send(ev) && ev.Type == EventContentBlockDelta && ev.deltaKind() != DeltaSignature {
		s.deltas++
		s.sent += len(ev.Text)
	}
	return nil
}

// send emits ev while the client is there; it reports whether it did.
func (s *streamCall) send(ev Event) bool {
	if s.drain.left() != nil {
		return false // draining: read on, send nothing
	}
	if err := s.emit(ev); err != nil {
		s.drain.leave(emitError{err})
		return false
	}
	return true
}

// flush sends the text scrubPiece held back, as one more delta of the
// open block: at its content_block_stop, or when the stream ends inside
// it, since no text follows that could complete a run of the key.
func (s *streamCall) flush() error {
	held := s.c.scrub.endPieces(&s.pieces)
	if held == "" || !s.acc.inBlock() {
		return nil
	}
	ev := Event{Type: EventContentBlockDelta, Index: len(s.acc.msg.Content) - 1, Text: held, DeltaType: s.acc.openDelta()}
	if err := s.acc.add(ev); err != nil {
		return err
	}
	if s.send(ev) {
		s.sent += len(ev.Text) // the end of a delta already counted
	}
	return nil
}

// scrubEvent removes the upstream key from what an event forwards (from
// text deltas taken together, see scrubPiece), and makes message_start's
// id and model name safe (cleanName).
func (s *streamCall) scrubEvent(ev *Event) {
	sc := s.c.scrub
	if ev.Type == EventContentBlockDelta && ev.deltaKind() != DeltaSignature {
		// A delta may go out with less text than it brought, even none:
		// each is still sent, so the client sees as many. (A signature is
		// the provider's opaque bytes and passes as it is.)
		ev.Text = sc.scrubPiece(&s.pieces, ev.Text)
	}
	if b := ev.Block; ev.Type == EventContentBlockStart && b != nil {
		c := *b
		c.Text, c.Thinking, c.ID, c.Name = sc.scrub(c.Text), sc.scrub(c.Thinking), sc.scrub(c.ID), sc.scrub(c.Name)
		ev.Block = &c
	}
	if ev.Message != nil {
		m := *ev.Message
		m.ID, m.Model = cleanName(sc.scrub(m.ID), maxIDLen), cleanName(sc.scrub(m.Model), maxModelLen)
		ev.Message = &m
	}
	if ev.Type == EventMessageDelta {
		ev.StopReason, ev.StopSequence = cleanStop(sc, ev.StopReason, ev.StopSequence)
	}
}

// checkEventUsage checks the counts an event brings, as they enter:
// message_start's and message_delta's. Whatever happens next (an error
// event, a stall, a client that leaves), nothing the upstream claimed
// reaches the client, the month's counter or the record unchecked.
func (s *streamCall) checkEventUsage(ev *Event) {
	var u *Usage
	switch {
	case ev.Type == EventMessageStart && ev.Message != nil:
		u = &ev.Message.Usage // scrubEvent made the message ours
	case ev.Type == EventMessageDelta && ev.Usage != nil:
		own := *ev.Usage // the adapter's, not ours to change
		u, ev.Usage = &own, &own
	default:
		return
	}
	var flag string
	*u, flag = checkUsage(*u, s.c.req)
	s.c.flag(flag)
}

// fillUnreported estimates, once the upstream has said all it will
// (message_delta), the counts it did not report: the output from the text
// the client was sent, as for a stream cut short.
func (s *streamCall) fillUnreported() {
	var estimated bool
	if s.acc.msg.Usage, estimated = fillUnreported(s.acc.msg.Usage, s.c.req, s.sent, s.deltas); estimated {
		s.c.flag(UsageEstimated)
	}
}

// estimate meters a stream that did not finish by what was delivered:
// the output is the larger of the upstream's last report and the estimate
// of what the client was sent (a token per delta, one per
// EstimateBytesPerToken bytes); the input is estimated when none was
// reported. The usage is flagged "estimated" when an estimate counts.
// A stream that failed before message_start meters nothing.
func (s *streamCall) estimate() {
	if s.acc.msg == nil {
		return
	}
	u := &s.acc.msg.Usage
	if out := estimateOutputTokens(s.sent, s.deltas); out > u.OutputTokens {
		u.OutputTokens = out
		s.c.flag(UsageEstimated)
	}
	if u.InputTokens == 0 {
		u.InputTokens = EstimateInputTokens(s.c.req)
		s.c.flag(UsageEstimated)
	}
}

// streamOnce runs one attempt under a watchdog: a timer that cancels the
// attempt when the upstream sends nothing for FirstByteTimeout after the
// call, then for StreamIdleTimeout between bytes. Every byte from the
// upstream resets it; it is stopped while an event is being written, so a
// slow client does not count as a silent upstream.
func (p *Proxy) streamOnce(parent, ctx context.Context, up Upstream, req *Request, emit func(Event) error) *Error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := p.cfg.StreamIdleTimeout
	var active atomic.Bool
	watchdog := time.AfterFunc(p.cfg.FirstByteTimeout, func() {
		if active.Load() {
			cancel(errIdleTimeout)
		} else {
			cancel(errFirstByte)
		}
	})
	defer watchdog.Stop()
	touch := func() {
		active.Store(true)
		watchdog.Reset(idle)
	}
	ctx = withActivity(ctx, touch)
	err := up.Stream(ctx, req, func(ev Event) error {
		watchdog.Stop()
		defer touch()
		return emit(ev)
	})
	return p.classify(parent, ctx, err)
}

var (
	errTotalTimeout = errors.New("total timeout")
	errIdleTimeout  = errors.New("stream idle timeout")
	errFirstByte    = errors.New("first byte timeout")
	errMaxDuration  = errors.New("stream max duration")
	errDrainTimeout = errors.New("drain timeout")
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
	case errors.Is(cause, errFirstByte):
		return errTimeout(fmt.Sprintf("upstream sent nothing within %s of the call", p.cfg.FirstByteTimeout), err)
	case errors.Is(cause, errIdleTimeout):
		return errTimeout(fmt.Sprintf("upstream sent nothing for %s", p.cfg.StreamIdleTimeout), err)
	case errors.Is(cause, errMaxDuration):
		return errTimeout(fmt.Sprintf("the stream ran longer than the limit of %s", p.cfg.StreamMaxDuration), err)
	case errors.Is(cause, errDrainTimeout):
		return errTimeout("the client left and the upstream did not finish in time", err)
	}
	if e, ok := errors.AsType[emitError](err); ok {
		return errClientClosed(e.err)
	}
	if e, ok := errors.AsType[*Error](err); ok {
		safe := *e // the last guard against echoing the key, whatever the Upstream
		safe.Message = scrubberFrom(ctx, p.scrub).scrub(e.Message)
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
		if !answerBlock(b.Type) {
			return errUnsupportedBlock(b.Type)
		}
		if b.Type == BlockToolUse {
			if err := checkToolInput(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkToolInput refuses a tool call whose input is JSON but not an object
// (a list, a number, a string): every client reads a call's input, or the
// arguments it becomes, as the object of the tool's parameters. A
// streamed input cut short is let through: max_tokens ends a tool call
// mid-parameter, and the stop reason that follows tells the client so.
func checkToolInput(b ContentBlock) *Error {
	in := bytes.TrimSpace(b.Input)
	if len(in) > 0 && in[0] == '{' || !json.Valid(in) {
		return nil
	}
	return errInvalidResponse(fmt.Errorf("tool call %q with input that is not a JSON object", b.Name))
}

// call measures one Proxy call for its Report.
type call struct {
	req    *Request
	scrub  *scrubber       // the target's, sparing what the caller wrote (useTarget)
	parent context.Context // the caller's
	start  time.Time
	report Report
}

func (p *Proxy) begin(ctx context.Context, req *Request, stream bool) *call {
	// The call's scrubber is its target's, set as each attempt begins
	// (useTarget): nothing is scrubbed before one.
	return &call{req: req, parent: ctx, start: time.Now(),
		report: Report{Model: req.Model, Stream: stream}}
}

// flag marks the call's usage: "estimated" (the counts are, at least in
// part, ours) outranks "clamped".
func (c *call) flag(f string) {
	if f != "" && c.report.UsageFlag != UsageEstimated {
		c.report.UsageFlag = f
	}
}

func (c *call) end(msg *Message, err *Error) Report {
	r := &c.report
	r.Latency = time.Since(c.start)
	if msg != nil {
		// The last check before anything is recorded: checked usage
		// passes unchanged, an estimate is kept within max_tokens.
		u, flag := checkUsage(msg.Usage, c.req)
		c.flag(flag)
		r.Model, r.Usage = modelOr(msg.Model, r.Model), u
	}
	if err != nil {
		r.Status, r.ErrorCode = err.Status, err.Code
	} else {
		r.Status, r.StopReason = http.StatusOK, msg.StopReason
	}
	return *r
}

// tokenCounter is an Upstream that can count a request's input tokens.
type tokenCounter interface {
	CountTokens(ctx context.Context, req *Request) (int, error)
}

// CountTokens counts req's input tokens: the upstream's own count when it
// offers one (the Messages API's count_tokens), else EstimateInputTokens,
// and then estimated is true. An upstream that fails to count is not an
// error here: the estimate stands in.
func (p *Proxy) CountTokens(ctx context.Context, req *Request) (n int, estimated bool) {
	r, _ := p.routeOf(req.Model)
	if r == nil {
		return EstimateInputTokens(req), true
	}
	t := r.targets[0]
	if tc, ok := t.up.(tokenCounter); ok {
		ctx, cancel := context.WithTimeout(withScrubber(ctx, t.scrub.sparing(req.callerTexts)), p.cfg.FirstByteTimeout)
		defer cancel()
		if n, err := tc.CountTokens(ctx, t.request(req)); err == nil {
			return n, false
		}
	}
	return EstimateInputTokens(req), true
}

// Timeout is the total timeout of a non-streamed call.
func (p *Proxy) Timeout() time.Duration { return p.cfg.Timeout }

// HoldTTL is how long a call can possibly last: the longest of a
// non-streamed call and a stream with its drain, plus a margin for the
// record to be written. Quota reservations live that long.
func (p *Proxy) HoldTTL() time.Duration {
	return max(p.cfg.Timeout, p.cfg.StreamMaxDuration+p.cfg.DrainTimeout) + time.Minute
}
