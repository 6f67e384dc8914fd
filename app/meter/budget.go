package meter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/mail"
	"parapet/models"
)

// Money budgets: a monthly budget in micro-dollars per organization and,
// optionally, per key. A call reserves its worst-case cost — the dearest
// price among its route's targets × its worst-case tokens — against each
// budget that applies before a provider is called, atomically across
// instances (the quota's Lua script in Redis when REDIS_URL is set, else
// one conditional UPDATE), and its record settles the reservation to the
// real cost. So any number of parallel calls overspend a budget by at
// most one call's reservation.

// BudgetTTL is how long the budgets of an organization and key, read from
// the database, are reused: a budget set or cleared applies within it.
// (What is spent and reserved is never cached: every call reserves.)
const BudgetTTL = time.Second

// Budget thresholds: the owners are mailed once each per month.
var budgetThresholds = []int{50, 80, 100}

func errBudgetExceeded(scope string, need, left int64) *apierr.Error {
	return apierr.New(http.StatusTooManyRequests, "budget_exceeded",
		fmt.Sprintf("this call could cost up to %s and %s has %s left of its monthly budget; lower max_tokens, or ask an owner to raise the budget",
			usd(need), scope, usd(max(left, 0))))
}

func errPriceUnknown(model string) *apierr.Error {
	return apierr.New(http.StatusForbidden, "price_unknown",
		fmt.Sprintf("model %q has no price, so a money budget cannot admit it: the operator sets its price in GATEWAY_CONFIG", model))
}

// usd formats micro-dollars as dollars.
func usd(micros int64) string {
	return "$" + strconv.FormatFloat(float64(micros)/1e6, 'f', 6, 64)
}

type budgetRead struct {
	list   []models.Budget
	period string
	at     time.Time
}

// budgets reserves and settles a call's cost against its budgets.
type budgets struct {
	db     *models.DB
	redis  redis.UniversalClient
	prefix string
	log    *slog.Logger
	mail   mail.Mailer // nil: no alerts

	mu      sync.Mutex
	cache   map[string]budgetRead // by org/key
	alerted map[string]bool       // thresholds this instance has recorded
}

// budgetHold is a call's reservation against one budget.
type budgetHold struct {
	budget models.Budget
	period string
	id     string
	redis  bool // held in Redis; else a row of budget_holds
}

func (b *budgets) of(ctx context.Context, orgID, keyID string, now time.Time) ([]models.Budget, error) {
	period, ck := models.Period(now), orgID+"/"+keyID
	b.mu.Lock()
	read, ok := b.cache[ck]
	b.mu.Unlock()
	if ok && read.period == period && now.Sub(read.at) < BudgetTTL && !now.Before(read.at) {
		return read.list, nil
	}
	list, err := models.BudgetsOf(ctx, b.db.DB, orgID, keyID, period)
	if err != nil {
		return nil, apierr.Unavailable(err)
	}
	b.mu.Lock()
	if len(b.cache) >= 10_000 {
		clear(b.cache)
	}
	b.cache[ck] = budgetRead{list: list, period: period, at: now}
	b.mu.Unlock()
	return list, nil
}

// reserve holds the call's worst-case cost against each budget of its
// organization and key. On a refusal the holds it made are returned with
// the error: the call's record releases them.
func (b *budgets) reserve(ctx context.Context, k *call, now time.Time, ttl time.Duration) ([]budgetHold, error) {
	list, err := b.of(ctx, k.who.OrgID, k.who.KeyID, now)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	if k.route.Price == nil {
		return nil, errPriceUnknown(k.route.Name)
	}
	var need int64
	switch {
	case k.req != nil:
		need = k.route.Price.WorstMicros(gateway.InputTokensBound(k.req), k.req.MaxTokens)
	case k.embed != nil:
		need = k.route.Price.WorstMicros(k.embed.InputTokensBound(), 0)
	}
	var holds []budgetHold
	for _, bg := range list {
		h := budgetHold{budget: bg, period: models.Period(now), id: models.NewID("bhold")}
		left, err := b.hold(ctx, &h, need, now, ttl)
		if err != nil {
			if errors.Is(err, models.ErrBudgetFull) {
				scope := "your organization"
				if bg.KeyID != "" {
					scope = "this key"
				}
				return holds, errBudgetExceeded(scope, need, left)
			}
			return holds, apierr.Unavailable(err)
		}
		holds = append(holds, h)
	}
	return holds, nil
}

func (b *budgets) hold(ctx context.Context, h *budgetHold, need int64, now time.Time, ttl time.Duration) (int64, error) {
	bg := h.budget
	if b.redis != nil {
		res, err := reserveScript.Run(ctx, b.redis, b.redisKeys(bg, h.period), h.id, need, bg.MonthlyMicros, bg.SpentMicros,
			ttl.Milliseconds(), strconv.Itoa(int(redisTTL.Seconds()))).Int64Slice()
		if err == nil && len(res) == 2 {
			h.redis = true
			if res[0] == 0 {
				return res[1], models.ErrBudgetFull
			}
			return res[1], nil
		}
		b.log.Warn("budget reservation in Redis failed; using the database", "error", err)
	}
	return models.ReserveBudget(ctx, b.db.DB, models.BudgetHold{ID: h.id, OrgID: bg.OrgID, KeyID: bg.KeyID, Period: h.period,
		Micros: need, ExpiresAtMs: now.Add(ttl).UnixMilli()}, now.UnixMilli())
}

// redisKeys are a budget's month in Redis, in the quota's layout (used,
// holds, sizes) under their own tag.
func (b *budgets) redisKeys(bg models.Budget, period string) []string {
	tag := b.prefix + "parapet:budget:{" + bg.OrgID + ":" + bg.KeyID + ":" + period + "}:"
	return []string{tag + "used", tag + "holds", tag + "sizes"}
}

// settle ends the Redis holds with the call's cost; database holds end in
// the call's record (charges).
func (b *budgets) settle(ctx context.Context, holds []budgetHold, cost int64) {
	for _, h := range holds {
		if !h.redis {
			continue
		}
		if err := settleScript.Run(ctx, b.redis, b.redisKeys(h.budget, h.period), h.id, cost).Err(); err != nil {
			b.log.Warn("settling a budget hold in Redis failed; it expires by itself", "error", err)
		}
	}
}

// charges are what the call's record does to its budgets.
func charges(holds []budgetHold) []models.BudgetCharge {
	var out []models.BudgetCharge
	for _, h := range holds {
		c := models.BudgetCharge{OrgID: h.budget.OrgID, KeyID: h.budget.KeyID, Period: h.period}
		if !h.redis {
			c.HoldID = h.id
		}
		out = append(out, c)
	}
	return out
}

// alert mails the organization's owners when a call's cost took a budget
// past 50, 80 or 100% this month, once each per month.
func (b *budgets) alert(ctx context.Context, holds []budgetHold, cost int64) {
	for _, h := range holds {
		for _, t := range crossed(h.budget, cost) {
			memo := fmt.Sprintf("%s/%s/%s/%d", h.budget.OrgID, h.budget.KeyID, h.period, t)
			b.mu.Lock()
			seen := b.alerted[memo]
			if len(b.alerted) >= 10_000 {
				clear(b.alerted)
			}
			b.alerted[memo] = true
			b.mu.Unlock()
			if seen {
				continue // this instance saw it: no database write per call past a threshold
			}
			first, err := models.MarkBudgetAlert(ctx, b.db.DB, h.budget.OrgID, h.budget.KeyID, h.period, t)
			if err != nil {
				b.log.Warn("recording a budget alert failed", "error", err)
				continue
			}
			if first {
				b.mailOwners(ctx, h, t)
			}
		}
	}
}

func (b *budgets) mailOwners(ctx context.Context, h budgetHold, threshold int) {
	if b.mail == nil {
		return
	}
	var owners []string
	if err := b.db.WithContext(ctx).Raw(`SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND m.role = ?`,
		h.budget.OrgID, models.RoleOwner).Scan(&owners).Error; err != nil {
		b.log.Warn("reading the owners for a budget alert failed", "error", err)
		return
	}
	what := "Your organization's monthly gateway budget"
	if h.budget.KeyID != "" {
		what = "The monthly gateway budget of key " + h.budget.KeyID
	}
	for _, to := range owners {
		body := fmt.Sprintf("%s (%s) has reached %d%% in %s.\n\nCalls that would pass it are refused with budget_exceeded. The console's usage page shows the spend by day, model and key.\n",
			what, usd(h.budget.MonthlyMicros), threshold, h.period)
		if err := b.mail.Send(ctx, mail.Message{To: to, Subject: fmt.Sprintf("Parapet: %d%% of a gateway budget spent", threshold), Body: body}); err != nil {
			b.log.Warn("mailing a budget alert failed", "error", err)
		}
	}
}

// crossed is the thresholds a call's cost took a budget past: spent
// before the call (as last read) and after.
func crossed(bg models.Budget, cost int64) []int {
	var out []int
	for _, t := range budgetThresholds {
		line := bg.MonthlyMicros * int64(t) / 100
		if bg.SpentMicros+cost >= line && cost > 0 {
			out = append(out, t)
		}
	}
	return out
}
