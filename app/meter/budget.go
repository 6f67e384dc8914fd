package meter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
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
	// Cents as people write them ($25.00), and the micro-dollars only
	// where they count ($0.00015).
	s := strings.TrimRight(strconv.FormatFloat(float64(micros)/1e6, 'f', 6, 64), "0")
	if i := strings.IndexByte(s, '.'); len(s)-i < 3 {
		s += strings.Repeat("0", 3-(len(s)-i))
	}
	return "$" + s
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
	alerted map[string]bool       // thresholds this instance saw reached
	mailing inFlight              // alerts being mailed
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
		need = k.route.Price.WorstMicros(gateway.InputTokensBound(k.req), k.req.MaxTokens, k.req.LongCache())
	case k.embed != nil:
		need = k.route.Price.WorstMicros(k.embed.InputTokensBound(), 0, false)
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

// alert mails the organization's owners when a budget's spend, as a
// commit of records left it, is at or past 50, 80 or 100% of it: once
// each per month (budget_alerts; this instance's memo spares a database
// write per call past a threshold). The spend is the database's, with
// the call's own cost and every call recorded before it on any instance,
// so the call that passes a threshold sees it passed however calls
// overlap, and one that jumps past two mails both. The mails go behind
// the writer: a slow mail server must not hold up the records, and so
// the budgets' holds.
func (b *budgets) alert(spends []models.BudgetSpend) {
	var due []budgetAlert
	b.mu.Lock()
	for _, s := range spends {
		for _, t := range budgetThresholds {
			if s.SpentMicros*100 < s.MonthlyMicros*int64(t) {
				break
			}
			a := budgetAlert{s, t}
			if b.alerted[a.memo()] {
				continue
			}
			if len(b.alerted) >= 10_000 {
				clear(b.alerted)
			}
			b.alerted[a.memo()] = true
			due = append(due, a)
		}
	}
	if len(due) > 0 {
		b.mailing.add()
	}
	b.mu.Unlock()
	if len(due) > 0 {
		go b.send(due)
	}
}

// budgetAlert is a threshold a budget's spend reached.
type budgetAlert struct {
	spend     models.BudgetSpend
	threshold int
}

func (a budgetAlert) memo() string {
	return fmt.Sprintf("%s/%s/%s/%d", a.spend.OrgID, a.spend.KeyID, a.spend.Period, a.threshold)
}

// send mails the alerts not yet recorded by any instance, in order.
func (b *budgets) send(due []budgetAlert) {
	ctx := context.Background()
	for _, a := range due {
		first, err := models.MarkBudgetAlert(ctx, b.db.DB, a.spend.OrgID, a.spend.KeyID, a.spend.Period, a.threshold)
		if err != nil {
			b.log.Warn("recording a budget alert failed", "error", err)
			b.mu.Lock()
			delete(b.alerted, a.memo()) // the next call past it tries again
			b.mu.Unlock()
			continue
		}
		if first {
			b.mailOwners(ctx, a)
		}
	}
	b.mailing.done()
}

func (b *budgets) mailOwners(ctx context.Context, a budgetAlert) {
	if b.mail == nil {
		return
	}
	s := a.spend
	// An address not confirmed yet is mailed nothing but verification
	// links and password resets: it may be someone else's.
	var owners []string
	if err := b.db.WithContext(ctx).Raw(`SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.org_id = ? AND m.role = ? AND u.email_verified_at IS NOT NULL`, s.OrgID, models.RoleOwner).Scan(&owners).Error; err != nil {
		b.log.Warn("reading the owners for a budget alert failed", "error", err)
		return
	}
	what := "Your organization's monthly gateway budget"
	if s.KeyID != "" {
		// Owners know a key by its name; the id tells apart two of one name.
		var name string
		if err := b.db.WithContext(ctx).Raw(`SELECT name FROM api_keys WHERE id = ?`, s.KeyID).Scan(&name).Error; err != nil {
			b.log.Warn("reading the key for a budget alert failed", "error", err)
		}
		what = fmt.Sprintf("The monthly gateway budget of key %q (%s)", name, s.KeyID)
	}
	body := fmt.Sprintf("%s (%s) has reached %d%% in %s.\n\nCalls that would pass it are refused with budget_exceeded. The console's usage page shows the spend by day, model and key.\n",
		what, usd(s.MonthlyMicros), a.threshold, s.Period)
	for _, to := range owners {
		if err := b.mail.Send(ctx, mail.Message{To: to, Subject: fmt.Sprintf("Parapet: %d%% of a gateway budget spent", a.threshold), Body: body}); err != nil {
			b.log.Warn("mailing a budget alert failed", "error", err)
		}
	}
}
