package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"time"
)

// target is one (provider, model) a model name is routed to, with the
// adapter that speaks to its provider.
type target struct {
	provider string
	// model is the provider's model name; "" passes the request's own
	// model through (one provider and no GATEWAY_CONFIG, as before).
	model string
	style string
	up    Upstream
	scrub *scrubber // the provider's key
	price *Price    // nil: unknown
	// priceVersion is where price came from: the built-in table's
	// version or ConfigPriceVersion.
	priceVersion string
	// breaker names its circuit breaker (see breakerKey), made once: every
	// call asks the breaker twice.
	breaker string
}

// breakerKey names a target's circuit breaker: provider/model, or
// provider/* for a pass-through target.
func breakerKey(provider, model string) string {
	if model == "" {
		return provider + "/*"
	}
	return provider + "/" + model
}

// request is req as sent to t: its model replaced by t's.
func (t *target) request(req *Request) *Request {
	if t.model == "" || t.model == req.Model {
		return req
	}
	r := *req
	r.Model = t.model
	return &r
}

// newPassThrough is the Proxy of one provider behind every model name.
// It has no breaker: with nowhere else to send a call, refusing calls
// for a cooldown would only add to the provider's own failures.
func newPassThrough(cfg Config, provider string, up Upstream, sc *scrubber) *Proxy {
	t := &target{provider: provider, style: cfg.Style, up: up, scrub: sc, breaker: breakerKey(provider, "")}
	return &Proxy{cfg: cfg, scrub: sc, pass: &route{name: "*", targets: []*target{t}, retry: true},
		names: []string{cfg.Model}}
}

// newRouted is the Proxy of cfg.Routing: one adapter per provider, all on
// one pooled transport, and a route per model name.
func newRouted(cfg Config) *Proxy {
	transport := newTransport(cfg.ConnectTimeout)
	p := &Proxy{cfg: cfg, transport: transport, routes: map[string]*route{}, weights: map[string][]int{}, breakers: cfg.Breakers}
	type provider struct {
		up    Upstream
		scrub *scrubber
		style string
	}
	providers := map[string]provider{}
	for _, pc := range cfg.Routing.Providers {
		sc := newScrubber(pc.Key)
		pcfg := Config{URL: pc.URL, Key: pc.Key, Style: pc.Style}
		var up Upstream = newMessagesAdapter(transport, pcfg, sc)
		if pc.Style == StyleOpenAI {
			up = newOpenAIAdapter(transport, pcfg, sc)
		}
		providers[pc.Name] = provider{up: up, scrub: sc, style: pc.Style}
	}
	for _, m := range cfg.Routing.Models {
		r := &route{name: m.Name, weighted: m.Strategy == StrategyWeighted}
		var weights []int
		for _, tc := range m.Targets {
			pv := providers[tc.Provider]
			t := &target{provider: tc.Provider, model: tc.Model, style: pv.style, up: pv.up, scrub: pv.scrub,
				breaker: breakerKey(tc.Provider, tc.Model)}
			switch bp, ok := BuiltinPrice(tc.Model); {
			case m.Price != nil:
				t.price, t.priceVersion = m.Price, ConfigPriceVersion
			case ok:
				t.price, t.priceVersion = &bp, PriceTableVersion
			}
			r.targets = append(r.targets, t)
			weights = append(weights, tc.Weight)
		}
		p.routes[m.Name], p.weights[m.Name] = r, weights
		p.names = append(p.names, m.Name)
	}
	return p
}

// route is what a model name clients send is routed to.
type route struct {
	name     string
	weighted bool
	targets  []*target
	// retry: one provider behind every model name (no GATEWAY_CONFIG)
	// retries an overloaded answer once, as the gateway always has; a
	// configured route moves on to its next target instead.
	retry bool
}

// order is the targets in the order a call tries them: as listed, or for
// the weighted strategy one drawn by weight first, then the others.
func (r *route) order(weights []int) []*target {
	if !r.weighted || len(r.targets) < 2 {
		return r.targets
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rand.N(total)
	first := 0
	for i, w := range weights {
		if n < w {
			first = i
			break
		}
		n -= w
	}
	out := make([]*target, 0, len(r.targets))
	out = append(out, r.targets[first])
	for i, t := range r.targets {
		if i != first {
			out = append(out, t)
		}
	}
	return out
}

// Breakers is the circuit breakers' state, one per target (breakerKey):
// in memory, or shared through Redis (app/breaker). The Proxy asks before
// each attempt and reports how it ended; nil lets every call through.
type Breakers interface {
	// Allow reports whether a call may go to key now: its breaker is
	// closed, or its cooldown has ended and this call is the one probe.
	// When not, until is when the cooldown ends.
	Allow(key string, now time.Time) (ok bool, until time.Time)
	// Done reports an attempt's end: failed when the provider failed
	// (never for the caller's own error); retryAfter is the provider's
	// Retry-After, 0 when it gave none.
	Done(key string, failed bool, retryAfter time.Duration, now time.Time)
}

// Attempt is one try of a call at one target, for the call's record.
type Attempt struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Status   int    `json:"status"`
	Code     string `json:"code,omitempty"`
	Ms       int64  `json:"ms"`
	// failed: the provider failed (its breaker counted it); label is the
	// model for metrics, "*" for a pass-through target's any model.
	failed bool
	label  string
}

// Failed reports whether the attempt was the provider's failure (which
// its breaker counts), not the caller's error or its leaving.
func (a Attempt) Failed() bool { return a.failed }

// MetricModel is the attempt's model as a metric's label: the
// configuration's, or "*" behind a pass-through provider (the callers'
// model names are not a bounded set).
func (a Attempt) MetricModel() string { return a.label }

// CodeModelNotFound is a model name the configuration does not list.
const CodeModelNotFound = "model_not_found"

// RouteInfo is what admission needs of a model name's route before the
// call: its name, and the dearest price among its targets (nil when one
// of them has no price: the cost is then unknown).
type RouteInfo struct {
	Name  string
	Price *Price
}

// Route looks up the route of model (the request's, defaults applied):
// with GATEWAY_CONFIG a model not listed is 404 model_not_found.
func (p *Proxy) Route(model string) (RouteInfo, error) {
	r, err := p.routeOf(model)
	if err != nil {
		return RouteInfo{}, err
	}
	info := RouteInfo{Name: r.name}
	var worst Price
	for _, t := range r.targets {
		if t.price == nil && t.model == "" {
			if bp, ok := BuiltinPrice(model); ok {
				worst = dearer(worst, bp)
				continue
			}
		}
		if t.price == nil {
			return info, nil
		}
		worst = dearer(worst, *t.price)
	}
	info.Price = &worst
	return info, nil
}

// dearer is, bucket by bucket, the dearer of two prices; with a long-prompt
// band, from the lower of the two thresholds, the dearer of their long
// prompts' prices (a price without a band costs the same at any length).
func dearer(a, b Price) Price {
	d := usd(max(a.Input, b.Input), max(a.Output, b.Output), max(a.CacheRead, b.CacheRead), max(a.CacheWrite, b.CacheWrite))
	if a.Long != nil || b.Long != nil {
		d = d.above(min(a.longAbove(), b.longAbove()), dearer(a.band(math.MaxInt), b.band(math.MaxInt)))
	}
	return d
}

func (p *Proxy) routeOf(model string) (*route, *Error) {
	if p.pass != nil {
		return p.pass, nil
	}
	if r, ok := p.routes[model]; ok {
		return r, nil
	}
	return nil, &Error{Status: http.StatusNotFound, Code: CodeModelNotFound,
		Message: fmt.Sprintf("model %q does not exist: GET /gateway/v1/models lists the models you may call", model)}
}

// Routed reports whether GATEWAY_CONFIG routes the model names (else one
// provider is behind every name).
func (p *Proxy) Routed() bool { return p.pass == nil }

// ModelNames lists the model names clients may send, in the
// configuration's order: with one provider and no GATEWAY_CONFIG, the
// default model.
func (p *Proxy) ModelNames() []string { return p.names }

// Cost is what a call's usage cost at the target that answered it, in
// micro-dollars, and the prices' version; ok is false when that target
// has no price.
func (r Report) Cost() (micros int64, version string, ok bool) {
	if r.price == nil {
		return 0, "", false
	}
	return r.price.Micros(r.Usage), r.priceVersion, true
}

// answeringKey carries the caller's OnTarget callback.
type answeringKey struct{}

// WithOnTarget has fn told, before each attempt of a call, which provider
// and provider's model it goes to and how many attempts that makes: a
// stream's headers (X-Parapet-Provider…) go out when its first event does,
// after the attempt that answers has begun.
func WithOnTarget(ctx context.Context, fn func(provider, model string, attempts int)) context.Context {
	return context.WithValue(ctx, answeringKey{}, fn)
}

func onTarget(ctx context.Context) func(provider, model string, attempts int) {
	if fn, ok := ctx.Value(answeringKey{}).(func(string, string, int)); ok {
		return fn
	}
	return func(string, string, int) {}
}

// attempts walks a call's targets: each at most once, those whose breaker
// is open skipped. It remembers what each attempt did, for the Report.
type attempts struct {
	p       *Proxy
	c       *call
	order   []*target
	next    int
	retry   bool  // the route's (see route.retry)
	waitErr error // why the retry's wait ended the call
	tell    func(provider, model string, attempts int)
	skipped time.Time // the earliest end of a skipped target's cooldown
}

func (p *Proxy) attemptsOf(ctx context.Context, c *call) (*attempts, *Error) {
	r, err := p.routeOf(c.req.Model)
	if err != nil {
		return nil, err
	}
	return &attempts{p: p, c: c, order: r.order(p.weights[r.name]), retry: r.retry, tell: onTarget(ctx)}, nil
}

// take is the next target whose breaker lets a call through, or nil.
func (a *attempts) take() *target {
	for a.next < len(a.order) {
		t := a.order[a.next]
		a.next++
		if a.p.breakers == nil {
			return a.begin(t)
		}
		ok, until := a.p.breakers.Allow(t.breaker, time.Now())
		if ok {
			return a.begin(t)
		}
		if a.skipped.IsZero() || until.Before(a.skipped) {
			a.skipped = until
		}
	}
	return nil
}

// again is the same target once more (a pass-through route's one retry).
func (a *attempts) again(t *target) *target { return a.begin(t) }

func (a *attempts) begin(t *target) *target {
	a.c.useTarget(t)
	a.tell(t.provider, a.c.report.TargetModel, len(a.c.report.Tries)+1)
	return t
}

// more reports whether a target is left to try.
func (a *attempts) more() bool { return a.next < len(a.order) }

// noTarget is the error when every target's breaker is open.
func (a *attempts) noTarget() *Error {
	wait := max(1, int(time.Until(a.skipped).Seconds()+0.999))
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeUpstreamUnavailable,
		Message:    fmt.Sprintf("every provider of model %q is failing and cooling down; retry in %d s", a.c.req.Model, wait),
		RetryAfter: wait}
}

// done records how an attempt at t ended and tells its breaker.
func (a *attempts) done(t *target, start time.Time, err *Error) {
	at := Attempt{Provider: t.provider, Model: a.c.report.TargetModel, Status: http.StatusOK, Ms: time.Since(start).Milliseconds(),
		label: cmp.Or(t.model, "*")}
	if err != nil {
		at.Status, at.Code, at.failed = err.Status, err.Code, providerFailed(err)
	}
	a.c.report.Tries = append(a.c.report.Tries, at)
	a.c.report.Attempts = len(a.c.report.Tries)
	if a.p.breakers != nil && (err == nil || err.Code != CodeClientClosed) {
		var retryAfter time.Duration
		if err != nil {
			retryAfter = time.Duration(err.RetryAfter) * time.Second
		}
		a.p.breakers.Done(t.breaker, at.failed, retryAfter, time.Now())
	}
}

// errProviderFailed marks an upstream answer whose status says the
// provider failed, not the request: 500, 502, 503, 504 (429 and 529 are
// upstream_overloaded).
var errProviderFailed = errors.New("the provider failed")

// providerFailed reports whether err is the provider's failure, which its
// breaker counts and after which the next target is tried: no connection,
// no first byte in time, 429, 500, 502, 503, 504, 529, or a stream cut
// before its end. The caller's own error (a 4xx the provider answered),
// our client leaving, never is.
func providerFailed(err *Error) bool {
	switch err.Code {
	case CodeUpstreamOverloaded, CodeUpstreamUnavailable, CodeUpstreamTimeout:
		return true
	case CodeUpstreamError:
		return errors.Is(err, errProviderFailed) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, errConnectionCut)
	}
	return false
}

// errConnectionCut marks a connection that failed after the upstream had
// started answering.
var errConnectionCut = errors.New("connection cut")

// useTarget points the call at t: its scrubber (t's key, sparing what the
// caller wrote) and, for the Report, its provider, model and price.
func (c *call) useTarget(t *target) {
	c.scrub = t.scrub.sparing(c.req.callerTexts)
	c.report.Provider = t.provider
	c.report.TargetModel = cleanName(modelOr(t.model, c.req.Model), maxModelLen)
	c.report.price, c.report.priceVersion = t.price, t.priceVersion
	if t.price == nil && t.model == "" {
		if bp, ok := BuiltinPrice(c.req.Model); ok {
			c.report.price, c.report.priceVersion = &bp, PriceTableVersion
		}
	}
}

// holdBack passes a stream's events on. When another target remains to
// fall back to (hold), it passes them only from the first content: the
// opening ones (message_start, a block's start, pings) wait, so that when
// the attempt fails before any content, the next target's stream is the
// only one the client sees. Without one, they go out at once, as the
// upstream sends them.
//
// What is held is bounded, as the forwarded events are by the
// accumulator's checks: one message_start, one ping (the others say
// nothing more) and maxHeldBlocks block starts; an upstream that opens
// more without content, or a second message, has failed, and the call
// falls back.
type holdBack struct {
	forward func(Event) error
	hold    bool
	held    []Event
	started bool // a message_start is held
	pinged  bool // a ping is held
	blocks  int  // block starts held
	sent    bool // an event was passed on: this attempt's answer is the call's
}

// maxHeldBlocks bounds the blocks an attempt may open before any content:
// a provider opens a block and fills it.
const maxHeldBlocks = 8

func (h *holdBack) emit(ev Event) error {
	if h.hold && !h.sent {
		switch ev.Type {
		case EventPing:
			if h.pinged {
				return nil
			}
			h.pinged = true
		case EventMessageStart:
			if h.started {
				return errInvalidResponse(fmt.Errorf("%w: a second message_start before any content", errProviderFailed))
			}
			h.started = true
		case EventContentBlockStart:
			if h.blocks++; h.blocks > maxHeldBlocks {
				return errInvalidResponse(fmt.Errorf("%w: more than %d content blocks opened before any content", errProviderFailed, maxHeldBlocks))
			}
		}
		switch ev.Type {
		case EventMessageStart, EventPing, EventContentBlockStart:
			h.held = append(h.held, ev)
			return nil
		}
	}
	h.sent = true
	for _, e := range h.held {
		if err := h.forward(e); err != nil {
			return err
		}
	}
	h.held = nil
	return h.forward(ev)
}
