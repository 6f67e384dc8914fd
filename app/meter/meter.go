// Package meter is the gateway service: one place that runs every gateway
// call, whatever its dialect (our /chat, Anthropic's /messages, OpenAI's
// /chat/completions and /responses, the playground): it admits the call
// (entitlement, the playground's rate limit, a quota reservation of the worst case),
// calls the upstream through the chat-proxy core, and records it (settles
// the reservation to the real usage, one audit event, metrics). The HTTP
// handlers are thin dialect adapters around Serve.
package meter

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"parapet/app/apierr"
	"parapet/models"
)

// Errors of admission.
var (
	ErrNotEntitled = apierr.New(http.StatusForbidden, "not_entitled",
		"your organization is not entitled to use the gateway; ask an operator to grant it")
	ErrNoOrganization = apierr.New(http.StatusForbidden, "no_organization", "choose or create an organization in the console first")
)

// errQuotaExceeded says what did not fit: the call's worst case (input
// bound + max_tokens) against what is left of the month.
func errQuotaExceeded(need, left int64) *apierr.Error {
	return apierr.New(http.StatusTooManyRequests, "quota_exceeded",
		"this call could use up to "+itoa(need)+" tokens (a token per byte of text, 8 per message, + max_tokens) and your organization has "+itoa(max(left, 0))+
			" left of its monthly gateway quota; lower max_tokens, or wait until the quota renews on the first day of next month (UTC)")
}

// AllowanceTTL is how long an organization's entitlement, read from the
// database, is reused: reading it on every call was most of the gateway's
// added latency. An operator's entitlement change takes effect within it,
// as key revocations and product changes do. (The quota itself is never
// cached: every call reserves atomically.)
const AllowanceTTL = time.Second

type allowanceRead struct {
	models.Allowance
	period string
	at     time.Time
}

// allowances caches entitlement reads per organization.
type allowances struct {
	stmt *models.AllowanceStmt
	mu   sync.Mutex
	m    map[string]allowanceRead
}

func (a *allowances) of(ctx context.Context, orgID string, now time.Time) (models.Allowance, error) {
	period := models.Period(now)
	a.mu.Lock()
	read, ok := a.m[orgID]
	a.mu.Unlock()
	if ok && read.period == period && now.Sub(read.at) < AllowanceTTL && !now.Before(read.at) {
		return read.Allowance, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	al, err := a.stmt.Of(ctx, orgID, models.GatewayProductID, period)
	if err != nil {
		return models.Allowance{}, apierr.Unavailable(err)
	}
	a.mu.Lock()
	if len(a.m) >= 10_000 {
		clear(a.m)
	}
	a.m[orgID] = allowanceRead{Allowance: al, period: period, at: now}
	a.mu.Unlock()
	return al, nil
}

// forget drops an organization's cached read (after a refusal for quota,
// so the next call sees the operator's change at once).
func (a *allowances) forget(orgID string) {
	a.mu.Lock()
	delete(a.m, orgID)
	a.mu.Unlock()
}

func ptr[T any](v T) *T { return &v }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
