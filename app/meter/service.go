package meter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/mail"
	"parapet/app/metrics"
	"parapet/app/ratelimit"
	"parapet/models"
)

// Config is what the service needs beyond its parts.
type Config struct {
	// LogContent keeps prompts and replies in the audit record.
	LogContent bool
	// UserRateLimit is a playground user's calls per minute (API keys are
	// limited by the API guard with the same budget).
	UserRateLimit int
	// RedisPrefix goes before every key the quota keeps in Redis
	// (REDIS_PREFIX), as before the limiter's and the throttle's.
	RedisPrefix string
	// HoldTTL is how long a quota reservation lives unless settled: longer
	// than any call (stream cap + drain), so only a crashed instance's
	// holds ever expire.
	HoldTTL time.Duration
	// Mail sends the budget alerts to owners; nil sends none.
	Mail mail.Mailer
}

// Service runs every gateway call: admit, call, record.
type Service struct {
	Proxy    *gateway.Proxy
	rec      *Recorder
	quota    *Quota
	budgets  *budgets
	policies *policies
	allow    *allowances
	limiter  ratelimit.Limiter
	cfg      Config
	log      *slog.Logger
	anon     *sampler
	started  time.Time
	answered inFlight // calls answered before their record was queued (see serve)
}

// NewService builds the service; rc, when not nil, holds quota
// reservations in Redis.
func NewService(proxy *gateway.Proxy, db *models.DB, rc redis.UniversalClient, limiter ratelimit.Limiter, log *slog.Logger, cfg Config) (*Service, error) {
	stmt, err := models.PrepareAllowance(db)
	if err != nil {
		return nil, err
	}
	bg := &budgets{db: db, redis: rc, prefix: cfg.RedisPrefix, log: log, mail: cfg.Mail, cache: map[string]budgetRead{}, alerted: map[string]bool{}}
	rec := NewRecorder(db, log, bg.alert)
	s := &Service{Proxy: proxy, rec: rec, quota: NewQuota(db, rc, cfg.RedisPrefix, log, rec), budgets: bg,
		policies: &policies{db: db, cache: map[string]policyRead{}},
		allow:    &allowances{stmt: stmt, m: map[string]allowanceRead{}}, limiter: limiter, cfg: cfg, log: log,
		anon: newSampler(AnonymousRowsPerMinute, time.Minute), started: time.Now().UTC().Truncate(time.Second)}
	return s, nil
}

// Flush waits until every call answered so far is recorded and written,
// and the budget alerts they caused are mailed.
func (s *Service) Flush() {
	s.answered.wait()
	s.rec.Flush()
	s.budgets.mailing.wait()
}

// Close writes the queued records and mails their budget alerts, then
// releases the upstream connections.
func (s *Service) Close() {
	s.rec.Close()
	s.budgets.mailing.wait()
	_ = s.allow.stmt.Close()
	s.Proxy.Close()
}

// Caller is who makes a call: a key of an organization (API), or a signed-in
// user acting for their current organization (playground).
type Caller struct {
	OrgID  string
	KeyID  string
	UserID string
	// Feature names the tool feature a call serves (logs.explain,
	// scan.fix), "" for the gateway's own endpoints; it marks the call's
	// audit record.
	Feature string
}

// target is the audit record's target of who's call: t, marked with the
// feature that made the call.
func (who Caller) target(t string) string {
	if who.Feature == "" {
		return t
	}
	return who.Feature + " via " + t
}

// Sink is a dialect's encoder of a streamed answer.
type Sink interface {
	Send(gateway.Event) error
	// SendError ends a started stream with an error in the dialect's shape.
	SendError(e *apierr.Error, requestID string) error
}

// Dialect is one endpoint's way of speaking: how a request is read and how
// the answer, the stream and the errors are written. (Errors answered
// before a stream starts go to the central error handler, which writes
// them in the route's dialect.)
type Dialect struct {
	Name  string // for metrics: chat, messages, openai, responses, playground
	Parse func([]byte, gateway.Defaults) (*gateway.Request, error)
	// Prepare, when set, takes what the request carries outside the body
	// (e.g. the anthropic-beta header).
	Prepare func(c echo.Context, req *gateway.Request)
	// Reply and Stream are given the request: an answer may repeat its
	// settings (the Responses API's does).
	Reply  func(c echo.Context, req *gateway.Request, msg *gateway.Message) error
	Stream func(sse *gateway.SSEWriter, req *gateway.Request) Sink
	// ErrorStatus, when set, is the status the dialect answers an error
	// with when it is not the error's own (the Messages API's 529 for an
	// overloaded upstream): the record says what the client got.
	ErrorStatus func(*apierr.Error) int
}

// call is what the service learned of one call, for its record.
type call struct {
	who     Caller
	dialect Dialect // its Name and ErrorStatus
	start   time.Time
	req     *gateway.Request
	embed   *gateway.EmbeddingsRequest // an embeddings call's, instead of req
	hold    Hold
	budgets []budgetHold
	route   gateway.RouteInfo
	report  *gateway.Report
	reply   *gateway.Message
	started bool // the stream's headers were sent: the answer is committed
	// answered: a non-streamed answer is on its way before the record
	// (counted in Service.answered until it is queued).
	answered bool
}

const servedKey = "gateway_served"

// Served reports whether Serve ran for this request (and recorded it).
func Served(c echo.Context) bool { return c.Get(servedKey) != nil }

// Serve runs one call in dialect d and records it, whatever happens: one
// audit event, the usage, the settled reservation, the metrics. An error
// it returns has not been answered yet; once a stream started, errors end
// the stream instead and Serve returns nil.
func (s *Service) Serve(c echo.Context, who Caller, d Dialect) error {
	c.Set(servedKey, true)
	k := &call{who: who, dialect: d, start: time.Now()}
	defer func() {
		// A panic in a dialect or the proxy still gets the call's record
		// (a 500) and settles its reservation; recoverPanic answers it.
		if r := recover(); r != nil {
			s.record(c, k, apierr.Internal(fmt.Errorf("panic: %v", r)))
			s.recorded(k)
			panic(r)
		}
	}()
	err := s.serve(c, k, d)
	s.record(c, k, err)
	s.recorded(k)
	if k.started {
		return nil
	}
	if gateway.Final(err) {
		c.Response().Header().Set(HeaderShouldRetry, "false")
	}
	return err
}

// recorded ends the count of k's answer as unrecorded.
func (s *Service) recorded(k *call) {
	if k.answered {
		k.answered = false
		s.answered.done()
	}
}

// ReadRequest reads a gateway call's JSON body and validates it with parse
// (a dialect's parser), filling what it omits from the configuration.
func (s *Service) ReadRequest(c echo.Context, parse func([]byte, gateway.Defaults) (*gateway.Request, error)) (*gateway.Request, error) {
	if err := httpx.RequireJSON(c); err != nil {
		return nil, err
	}
	body, err := httpx.ReadBody(c, gateway.MaxMediaBodyBytes)
	if err != nil {
		return nil, err
	}
	var req *gateway.Request
	if len(body) <= gateway.MaxBodyBytes || gateway.MayHoldMedia(body) {
		req, err = parse(body, s.Proxy.Defaults())
	}
	if len(body) > gateway.MaxBodyBytes && (req == nil || !req.HasMedia()) {
		// Only images and documents earn the larger limit: a body above
		// the smaller that does not carry one (or is not valid) is too
		// large, whatever else is wrong with it.
		msg := fmt.Sprintf("the request body is larger than the limit of %s (%s with images or documents)",
			httpx.FormatBytes(gateway.MaxBodyBytes), httpx.FormatBytes(gateway.MaxMediaBodyBytes))
		if err != nil {
			msg += "; besides, " + apierr.From(err).Message
		}
		return nil, apierr.PayloadTooLarge(msg)
	}
	return req, err
}

func (s *Service) serve(c echo.Context, k *call, d Dialect) error {
	if k.who.OrgID == "" {
		return ErrNoOrganization
	}
	req, err := s.ReadRequest(c, d.Parse)
	if err != nil {
		return err
	}
	k.req = req
	if d.Prepare != nil {
		d.Prepare(c, req)
	}
	if k.route, err = s.Proxy.Route(req.Model); err != nil {
		return err
	}
	if err := s.policies.allowed(c.Request().Context(), k.who, req.Model); err != nil {
		return err
	}
	ctx := gateway.WithOnTarget(c.Request().Context(), routeHeaders(c.Response().Header()))
	// The reservation bounds the call's usage: the input bound, not its
	// estimate, so that parallel calls at the quota's edge overspend by at
	// most one call's reservation, whatever their text (emoji take about a
	// token a byte). It is settled to the real usage when the call ends.
	need := int64(gateway.InputTokensBound(req) + req.MaxTokens)
	if k.hold, err = s.admit(ctx, k, need, c.Response().Header()); err != nil {
		return err
	}
	if !req.Stream {
		// The server's write timeout is shorter than a long completion.
		_ = http.NewResponseController(c.Response().Writer).SetWriteDeadline(time.Now().Add(s.Proxy.Timeout() + 10*time.Second))
		msg, report, err := s.Proxy.Complete(ctx, req)
		k.report, k.reply = &report, msg
		c.Response().Header().Set("Server-Timing", serverTiming(time.Since(k.start)-report.Latency, report.Latency))
		if err != nil {
			return err
		}
		s.answered.add()
		k.answered = true
		return d.Reply(c, req, msg)
	}
	sse := gateway.NewSSEWriter(c.Response())
	called := time.Now()
	sse.OnStart = func(h http.Header) {
		// Known when the first event goes out: our time before the call,
		// and the upstream's to its first event.
		h.Set("Server-Timing", serverTiming(called.Sub(k.start), time.Since(called)))
	}
	sink := d.Stream(sse, req)
	msg, report, err := s.Proxy.Stream(ctx, req, sink.Send)
	k.report, k.reply, k.started = &report, msg, sse.Started()
	if err != nil && k.started && report.ErrorCode != gateway.CodeClientClosed {
		_ = sink.SendError(apierr.From(err), httpx.RequestID(c)) // best effort: the stream ends either way
	}
	return err
}

// Routing headers on every call that reached a provider: the provider and
// the provider's model of the attempt that answered (or the last), and
// how many attempts the call made.
const (
	HeaderProvider = "X-Parapet-Provider"
	HeaderModel    = "X-Parapet-Model"
	HeaderAttempts = "X-Parapet-Attempts"
)

// routeHeaders sets the routing headers before each attempt: a stream's
// go out with its first event, which the attempt that answers sends.
func routeHeaders(h http.Header) func(provider, model string, attempts int) {
	return func(provider, model string, attempts int) {
		httpx.SetValues(h, routeKeys, []string{provider, model, strconv.Itoa(attempts)})
	}
}

// The routing and quota headers' keys, in canonical form (httpx.SetValues).
var (
	routeKeys = []string{http.CanonicalHeaderKey(HeaderProvider), http.CanonicalHeaderKey(HeaderModel), http.CanonicalHeaderKey(HeaderAttempts)}
	quotaKeys = []string{http.CanonicalHeaderKey(HeaderQuotaLimit), http.CanonicalHeaderKey(HeaderQuotaRemaining), http.CanonicalHeaderKey(HeaderQuotaReset)}
)

// serverTiming is the Server-Timing header: the gateway's own time and the
// upstream's, in milliseconds.
func serverTiming(gw, up time.Duration) string {
	b := make([]byte, 0, 48)
	b = strconv.AppendFloat(append(b, "gateway;dur="...), float64(max(gw, 0).Microseconds())/1000, 'f', 1, 64)
	b = strconv.AppendFloat(append(b, ", upstream;dur="...), float64(up.Microseconds())/1000, 'f', 1, 64)
	return string(b)
}

// Quota headers on every admitted call: the month's tokens, what is left
// after this call's reservation, and when the quota renews (Unix seconds).
const (
	HeaderQuotaLimit     = "X-Quota-Limit"
	HeaderQuotaRemaining = "X-Quota-Remaining"
	HeaderQuotaReset     = "X-Quota-Reset"
	// HeaderShouldRetry is the header the Anthropic and OpenAI SDKs
	// read before retrying; it says "false" on quota_exceeded and on an
	// upstream's refusal of the request (gateway.Final).
	HeaderShouldRetry = "X-Should-Retry"
)

// admit checks the entitlement and, for a playground user, the rate limit,
// then reserves the call's worst case.
func (s *Service) admit(ctx context.Context, k *call, need int64, h http.Header) (Hold, error) {
	now := time.Now()
	al, err := s.entitled(ctx, k.who.OrgID, now, false)
	if err != nil {
		return Hold{}, err
	}
	if k.who.KeyID == "" {
		if err := s.limitUser(ctx, k.who.UserID, h); err != nil {
			return Hold{}, err
		}
	}
	// Money first: the record releases these holds whatever happens next.
	if k.budgets, err = s.budgets.reserve(ctx, k, now, s.cfg.HoldTTL); err != nil {
		if ae := apierr.From(err); ae.Code == "budget_exceeded" {
			h.Set(HeaderShouldRetry, "false")
		}
		return Hold{}, err
	}
	hold, left, err := s.quota.reserve(ctx, k.who.OrgID, need, al.MonthlyTokens, al.UsedTokens, now, s.cfg.HoldTTL)
	httpx.SetInts(h, quotaKeys, al.MonthlyTokens, max(left, 0), nextMonth(now).Unix())
	switch {
	case errors.Is(err, models.ErrQuotaFull):
		// The database refuses a revoked entitlement at once: say so.
		if _, err := s.entitled(ctx, k.who.OrgID, now, true); err != nil {
			return Hold{}, err
		}
		// Retrying will not help before the quota renews: both official
		// SDKs retry a 429 (three calls in a second and a half, each
		// audited) unless told not to.
		h.Set(HeaderShouldRetry, "false")
		return Hold{}, errQuotaExceeded(need, left)
	case err != nil:
		return Hold{}, apierr.Unavailable(err)
	}
	return hold, nil
}

func nextMonth(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
}

// limitUser counts a playground call against the user's budget.
func (s *Service) limitUser(ctx context.Context, userID string, h http.Header) error {
	d, err := s.limiter.Allow(ctx, "gateway:user:"+userID, s.cfg.UserRateLimit, time.Minute)
	if err != nil {
		return apierr.Internal(err)
	}
	d.SetHeaders(h)
	if !d.Allowed {
		return apierr.RateLimited("too many messages: wait a few seconds and send again", d.RetryAfterSeconds())
	}
	return nil
}

// record makes the call's one audit event with its usage, settles its
// reservation, and counts it in the metrics.
func (s *Service) record(c echo.Context, k *call, err error) {
	e := s.event(c, k.who, err)
	if err != nil && k.dialect.ErrorStatus != nil {
		e.Status = ptr(k.dialect.ErrorStatus(apierr.From(err)))
	}
	e.TotalMs = ptr(time.Since(k.start).Milliseconds())
	e.Target = "gateway"
	if k.req != nil {
		e.Model, e.Stream = &k.req.Model, &k.req.Stream
		e.Target = "gateway: " + k.req.Model
	}
	if k.embed != nil {
		e.Model, e.Stream = &k.embed.Model, ptr(false)
		e.Target = "gateway: " + k.embed.Model + " (embeddings)"
	}
	e.Target = k.who.target(e.Target)
	var used int64
	if r := k.report; r != nil {
		if r.Model != "" {
			e.Model = &r.Model
		}
		u := r.Usage
		used = int64(u.Total()) // every bucket once: the quota counts their sum
		e.InputTokens, e.OutputTokens = ptr(int64(u.InputTokens)), ptr(int64(u.OutputTokens))
		e.CacheWriteTokens, e.CacheReadTokens = ptr(int64(u.CacheCreationInputTokens)), ptr(int64(u.CacheReadInputTokens))
		e.ReasoningTokens = ptr(int64(u.ReasoningTokens))
		e.UpstreamMs = ptr(r.Latency.Milliseconds())
		if r.UsageFlag != "" {
			e.UsageFlag = &r.UsageFlag
		}
		routeRecord(e, r)
		if k.started && r.ErrorCode != "" {
			// A stream that failed after it started answered 200 and
			// ended with an error event: record how it really ended.
			e.Status, e.ErrorCode = &r.Status, &r.ErrorCode
		}
		metrics.GatewayUpstreamSeconds.WithLabelValues(k.dialect.Name, statusClass(*e.Status)).Observe(r.Latency.Seconds())
		metrics.GatewayTokensIn.Add(float64(r.Usage.AllInput()))
		metrics.GatewayTokensOut.Add(float64(r.Usage.OutputTokens))
	}
	if s.cfg.LogContent && k.req != nil {
		e.Detail = content(k.req, k.reply)
	}
	// Redis holds are settled now (the record is written behind the
	// response); a database hold's usage leaves its reservation in the
	// record's own transaction.
	bg := context.WithoutCancel(c.Request().Context())
	s.quota.settle(bg, k.hold, used)
	var cost int64
	if e.CostMicros != nil {
		cost = *e.CostMicros
	}
	s.budgets.settle(bg, k.budgets, cost)
	rec := modelsRecord(e, k.who)
	rec.Budgets = charges(k.budgets)
	if k.hold.lease != nil {
		rec.HoldID, rec.HoldTokens = k.hold.ID, used
	}
	s.add(rec)
}

// event starts a gateway.call audit event for who, with how it ended and
// when: now, as the call ends, not when the recorder's batch is written.
func (s *Service) event(c echo.Context, who Caller, err error) *models.AuditEvent {
	e := &models.AuditEvent{Action: models.ActionGatewayCall, IP: c.RealIP(), RequestID: httpx.RequestID(c), Status: ptr(http.StatusOK),
		CreatedAt: models.Now()}
	if err != nil {
		ae := apierr.From(err)
		e.Status, e.ErrorCode = &ae.Status, &ae.Code
		switch ae.Code {
		case "quota_exceeded", "rate_limited":
			metrics.GatewayRefusals.WithLabelValues(ae.Code).Inc()
		}
	}
	if who.OrgID != "" {
		e.OrgID = &who.OrgID
	}
	if who.KeyID != "" {
		e.ActorKeyID = &who.KeyID
	}
	if who.UserID != "" {
		e.ActorUserID = &who.UserID
	}
	return e
}

func (s *Service) add(rec models.UsageRecord) {
	if err := s.rec.add(rec); err != nil {
		s.log.Error("gateway audit record lost", "request_id", rec.Event.RequestID, "error", err)
	}
}

// modelsRecord is an event as the usage record of who's call.
func modelsRecord(e *models.AuditEvent, who Caller) models.UsageRecord {
	a := who.UserID
	if who.KeyID != "" {
		a = who.KeyID
	}
	return models.UsageRecord{Event: e, ProductID: models.GatewayProductID, Actor: a}
}

func statusClass(status int) string { return strconv.Itoa(status/100) + "xx" }

// Entitled refuses an organization that may not use the gateway now.
func (s *Service) Entitled(ctx context.Context, orgID string) error {
	_, err := s.entitled(ctx, orgID, time.Now(), false)
	return err
}

// entitled returns orgID's allowance, or ErrNotEntitled. A refusal is
// never taken from the cache: the database is asked again (fresh skips
// the cache from the start), so a grant takes effect at once;
// a revocation within AllowanceTTL (and LeaseWindow), when this instance
// rereads it and gives back its lease.
func (s *Service) entitled(ctx context.Context, orgID string, now time.Time, fresh bool) (models.Allowance, error) {
	if fresh {
		s.allow.forget(orgID)
	}
	al, err := s.allow.of(ctx, orgID, now)
	if err == nil && !(al.Entitled && al.Public) && !fresh {
		return s.entitled(ctx, orgID, now, true)
	}
	if err != nil {
		return al, err
	}
	if !al.Entitled || !al.Public {
		s.quota.forget(orgID)
		return al, ErrNotEntitled
	}
	return al, nil
}

// ModelList is GET /gateway/v1/models' answer; the ids of its first and
// last models are null when it is empty.
type ModelList struct {
	Object  string  `json:"object"`
	Data    []Model `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
}

// Page is one page of l as Anthropic's models.list pages: at most limit
// models after the one named afterID, or the last limit before the one
// named beforeID (neither: from the start); has_more says whether more
// lie beyond the page in that direction. A cursor not in the list gives
// an empty page.
func (l ModelList) Page(afterID, beforeID string, limit int) ModelList {
	at := func(id string) int {
		for i, m := range l.Data {
			if m.ID == id {
				return i
			}
		}
		return -1
	}
	var data []Model
	var hasMore bool
	switch {
	case afterID != "":
		if i := at(afterID); i >= 0 {
			data = l.Data[i+1:]
		}
		hasMore = len(data) > limit
		data = data[:min(limit, len(data))]
	case beforeID != "":
		if i := at(beforeID); i >= 0 {
			data = l.Data[:i]
		}
		hasMore = len(data) > limit
		data = data[max(0, len(data)-limit):]
	default:
		data = l.Data
		hasMore = len(data) > limit
		data = data[:min(limit, len(data))]
	}
	p := ModelList{Object: l.Object, Data: append([]Model{}, data...), HasMore: hasMore}
	if len(p.Data) > 0 {
		p.FirstID, p.LastID = &p.Data[0].ID, &p.Data[len(p.Data)-1].ID
	}
	return p
}

// Model is one model in both SDKs' shapes.
type Model struct {
	ID          string `json:"id"`
	Object      string `json:"object"`
	Type        string `json:"type"`
	DisplayName string `json:"display_name"`
	CreatedAt   string `json:"created_at"`
	Created     int64  `json:"created"`
	OwnedBy     string `json:"owned_by"`
	// Kind is what the model serves: "chat" (messages, chat/completions)
	// or "embeddings".
	Kind string `json:"kind"`
}

// Models lists the models callers may name: GATEWAY_CONFIG's model
// names; or, with one provider behind every name, the configured default
// and the default embeddings model when the provider serves embeddings
// and one is configured. created_at is when this gateway started serving
// it.
func (s *Service) Models() ModelList {
	d := s.Proxy.Defaults()
	model := func(id, kind string) Model {
		return Model{ID: id, Object: "model", Type: "model", DisplayName: id, CreatedAt: s.started.Format(time.RFC3339),
			Created: s.started.Unix(), OwnedBy: "parapet", Kind: kind}
	}
	l := ModelList{Object: "list", Data: []Model{}}
	for _, id := range s.Proxy.ModelNames() {
		kind := "chat"
		if id == d.EmbeddingModel {
			kind = "embeddings"
		}
		l.Data = append(l.Data, model(id, kind))
	}
	if !s.Proxy.Routed() && d.EmbeddingModel != "" && s.Proxy.Embeddings() && !slices.Contains(s.Proxy.ModelNames(), d.EmbeddingModel) {
		l.Data = append(l.Data, model(d.EmbeddingModel, "embeddings"))
	}
	if len(l.Data) > 0 {
		l.FirstID, l.LastID = &l.Data[0].ID, &l.Data[len(l.Data)-1].ID
	}
	return l
}
