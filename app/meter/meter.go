// Package meter governs gateway calls around the chat-proxy core: it
// admits a call only while the organization holds the gateway entitlement,
// the product is public and the month's token quota is not spent, and it
// records every call, API or playground, as exactly one audit event with
// its usage.
package meter

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/models"
)

// Errors of admission.
var (
	ErrNotEntitled = apierr.New(http.StatusForbidden, "not_entitled",
		"your organization is not entitled to use the gateway; ask an operator to grant it")
	ErrQuotaExceeded = apierr.New(http.StatusTooManyRequests, "quota_exceeded",
		"your organization has used its monthly gateway token quota; it renews on the first day of next month (UTC)")
)

// AllowanceTTL is how long an organization's entitlement and usage, read
// from the database, are reused. Reading them on every call was most of
// the gateway's added latency. This instance's own spending since the read
// is counted exactly (see Admit), so the TTL only delays what happens
// elsewhere: an operator's entitlement change, or other instances' usage,
// takes effect within it — as key revocations and product changes do.
const AllowanceTTL = time.Second

// allowanceRead is an allowance as read from the database, with this
// instance's spending and unwritten tokens at that moment.
type allowanceRead struct {
	models.Allowance
	period          string
	at              time.Time
	spentAtRead     int64
	unwrittenAtRead int64
}

// Admit checks, before any upstream call, that orgID may use the gateway
// now: it holds the entitlement, the product is public, and the month's
// tokens are not spent. Usage is what the database had recorded when read,
// plus what this instance had queued but not yet written then, plus what
// it has spent since. Concurrent calls may each pass while tokens remain,
// so an organization can overspend by at most one call each; usage itself
// is counted atomically from what the upstream reports.
func (r *Recorder) Admit(ctx context.Context, orgID string, now time.Time) error {
	period := models.Period(now)
	r.unwrittenMu.Lock()
	read, ok := r.allowances[orgID]
	r.unwrittenMu.Unlock()
	if !ok || read.period != period || now.Sub(read.at) >= AllowanceTTL || now.Before(read.at) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		// Note this instance's counters before the read: tokens recorded
		// meanwhile are then counted twice for a moment (never missed).
		r.unwrittenMu.Lock()
		spent, unwritten := r.spent[orgID], r.unwritten[orgID]
		r.unwrittenMu.Unlock()
		a, err := r.allowance.Of(ctx, orgID, models.GatewayProductID, period)
		if err != nil {
			return apierr.Unavailable(err)
		}
		read = allowanceRead{Allowance: a, period: period, at: now, spentAtRead: spent, unwrittenAtRead: unwritten}
		r.unwrittenMu.Lock()
		if len(r.allowances) >= 10_000 {
			clear(r.allowances)
		}
		r.allowances[orgID] = read
		r.unwrittenMu.Unlock()
	}
	if !read.Entitled || !read.Public {
		return ErrNotEntitled
	}
	r.unwrittenMu.Lock()
	spentSince := r.spent[orgID] - read.spentAtRead
	r.unwrittenMu.Unlock()
	if read.UsedTokens+read.unwrittenAtRead+spentSince >= read.MonthlyTokens {
		return ErrQuotaExceeded
	}
	return nil
}

// Call is what a gateway handler learned about one call, for its record.
type Call struct {
	OrgID  string
	KeyID  string // API calls
	UserID string // playground calls
	Req    *gateway.Request
	Report *gateway.Report
	Reply  *gateway.Message
}

const callKey = "gateway_call"

// Of returns the request's Call, creating it on first use.
func Of(c echo.Context) *Call {
	if call, ok := c.Get(callKey).(*Call); ok {
		return call
	}
	call := &Call{}
	c.Set(callKey, call)
	return call
}

// FromError converts the core's error to the API's.
func FromError(err error) error {
	if ge, ok := err.(*gateway.Error); ok {
		return &apierr.Error{Status: ge.Status, Code: ge.Code, Message: ge.Message, RetryAfter: ge.RetryAfter, Internal: ge.Internal}
	}
	return err
}

// Outcome is how a call ended, as the client saw it.
type Outcome struct {
	Status    int
	Code      string
	IP        string
	RequestID string
	Total     time.Duration
}

// Record makes the call's one audit event and its usage and hands them to
// the recorder, which writes them in one transaction whether or not the
// client is still there. Prompts and replies are kept only when logContent
// is set.
func (r *Recorder) Record(call *Call, o Outcome, logContent bool) error {
	e := &models.AuditEvent{Action: models.ActionGatewayCall, IP: o.IP, RequestID: o.RequestID,
		Status: &o.Status, TotalMs: ptr(o.Total.Milliseconds())}
	if o.Code != "" {
		e.ErrorCode = &o.Code
	}
	actor := ""
	if call.OrgID != "" {
		e.OrgID = &call.OrgID
	}
	if call.KeyID != "" {
		e.ActorKeyID, actor = &call.KeyID, call.KeyID
	}
	if call.UserID != "" {
		e.ActorUserID, actor = &call.UserID, call.UserID
	}
	e.Target = "gateway"
	if call.Req != nil {
		e.Model, e.Stream = &call.Req.Model, &call.Req.Stream
		e.Target = "gateway: " + call.Req.Model
	}
	if r := call.Report; r != nil {
		if r.Model != "" {
			e.Model = &r.Model
		}
		e.InputTokens, e.OutputTokens = ptr(int64(r.Usage.InputTokens)), ptr(int64(r.Usage.OutputTokens))
		e.UpstreamMs = ptr(r.Latency.Milliseconds())
		if r.ErrorCode != "" && o.Code == "" {
			// A stream that failed after it started answered 200 and ended
			// with an error event: record how it really ended.
			e.Status, e.ErrorCode = &r.Status, &r.ErrorCode
		}
	}
	if logContent && call.Req != nil {
		msgs := make([]map[string]string, 0, len(call.Req.Messages))
		for _, m := range call.Req.Messages {
			msgs = append(msgs, map[string]string{"role": m.Role, "content": m.Content})
		}
		content := map[string]any{"system": call.Req.System, "messages": msgs}
		if call.Reply != nil {
			content["reply"] = call.Reply.Text()
		}
		b, _ := json.Marshal(content)
		e.Detail = ptr(string(b))
	}
	return r.add(models.UsageRecord{Event: e, ProductID: models.GatewayProductID, Actor: actor})
}

func ptr[T any](v T) *T { return &v }
