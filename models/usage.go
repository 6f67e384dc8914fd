package models

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"

	"parapet/migrations"
)

// Period is the calendar month (UTC) quotas count in, e.g. "2026-11".
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

// Day is the UTC day usage is kept by, e.g. "2026-11-22".
func Day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// Allowance is what an organization may spend on a product this month.
type Allowance struct {
	Entitled      bool // holds an active entitlement
	Public        bool // the product is public (beta)
	MonthlyTokens int64
	UsedTokens    int64
}

// Left is the tokens left this month, never negative.
func (a Allowance) Left() int64 { return max(0, a.MonthlyTokens-a.UsedTokens) }

const allowanceSQL = `SELECT e.monthly_tokens, e.revoked_at IS NULL, p.lifecycle, COALESCE(u.tokens, 0)
	FROM entitlements e
	JOIN products p ON p.id = e.product_id
	LEFT JOIN usage_counters u ON u.org_id = e.org_id AND u.product_id = e.product_id AND u.period = ?
	WHERE e.org_id = ? AND e.product_id = ?`

// AllowanceOf reads the entitlement, the product's state and this period's
// usage in one query.
func AllowanceOf(ctx context.Context, db *gorm.DB, orgID, productID, period string) (Allowance, error) {
	return scanAllowance(db.WithContext(ctx).Raw(allowanceSQL, period, orgID, productID).Row())
}

// AllowanceStmt is AllowanceOf as a prepared statement: the gateway asks it
// on every call, and re-parsing the SQL each time cost more than running it.
type AllowanceStmt struct{ stmt *sql.Stmt }

// PrepareAllowance prepares the allowance query on db's pool.
func PrepareAllowance(db *DB) (*AllowanceStmt, error) {
	q := allowanceSQL
	if db.Dialect == migrations.Postgres {
		q = strings.NewReplacer("period = ?", "period = $1", "e.org_id = ?", "e.org_id = $2", "e.product_id = ?", "e.product_id = $3").Replace(q)
	}
	stmt, err := db.SQL().Prepare(q)
	if err != nil {
		return nil, err
	}
	return &AllowanceStmt{stmt: stmt}, nil
}

// Of reads an organization's allowance of a product this period.
func (a *AllowanceStmt) Of(ctx context.Context, orgID, productID, period string) (Allowance, error) {
	return scanAllowance(a.stmt.QueryRowContext(ctx, period, orgID, productID))
}

// Close releases the statement.
func (a *AllowanceStmt) Close() error { return a.stmt.Close() }

func scanAllowance(row *sql.Row) (Allowance, error) {
	var (
		a         Allowance
		lifecycle string
	)
	err := row.Scan(&a.MonthlyTokens, &a.Entitled, &lifecycle, &a.UsedTokens)
	if errors.Is(err, sql.ErrNoRows) {
		return Allowance{}, nil
	}
	if err != nil {
		return Allowance{}, err
	}
	a.Public = Product{Lifecycle: lifecycle}.Public()
	return a, nil
}

// UsageRecord is a metered call: its audit event and the actor (a key or
// user id) its usage counts for.
type UsageRecord struct {
	Event     *AuditEvent // nil for a record that only releases HoldTokens
	ProductID string
	Actor     string
	// HoldID, when set, is a quota reservation in the database that
	// HoldTokens leave in the same transaction that counts the usage: the
	// call's tokens, which move from reserved to used, or (without an
	// event) what is left of a lease that is given back.
	HoldID     string
	HoldTokens int64
	// Budgets are the money budgets the call's cost counts against.
	Budgets []BudgetCharge
}

// eventsPerInsert bounds the rows of one INSERT of a batch's events. The
// SQLite driver matches each bound value to its placeholder by a linear
// search, so one statement of n rows costs n² (a batch of 256 records
// took ~40 µs of CPU a record); a few rows a statement keep it linear and
// cost Postgres next to nothing, inside the one transaction.
const eventsPerInsert = 8

// RecordUsage writes metered calls in one transaction: each call's audit
// event, its month's counter and its day's row for the actor, and what
// leaves each quota hold. Counters are incremented in the database (never
// read-modify-write), so concurrent writers cannot lose each other's
// tokens; the transaction means a call is recorded whole or not at all.
// The increments of a batch are summed first, so a busy gateway writes one
// row per counter, day and hold per batch rather than per call. It returns
// the spend, once the batch is committed, of each budget it charged a cost.
func RecordUsage(ctx context.Context, db *gorm.DB, recs []UsageRecord) ([]BudgetSpend, error) {
	type monthKey struct{ org, product, period string }
	type dayKey struct{ org, product, actor, day string }
	months, days, holds := map[monthKey]*usageSums{}, map[dayKey]*usageSums{}, map[string]int64{}
	var events []*AuditEvent
	type charge struct {
		BudgetCharge
		cost int64
	}
	var charges []charge
	for _, r := range recs {
		if r.HoldID != "" {
			holds[r.HoldID] += r.HoldTokens
		}
		e := r.Event
		if e == nil {
			continue
		}
		if e.CreatedAt.IsZero() {
			e.CreatedAt = Now()
		}
		if e.ID == "" {
			e.ID = NewEventID(e.CreatedAt)
		}
		events = append(events, e)
		if e.OrgID == nil {
			continue
		}
		var in, out, cost int64
		// Every input bucket counts, each once (see UsageRecord).
		for _, n := range []*int64{e.InputTokens, e.CacheWriteTokens, e.CacheReadTokens} {
			if n != nil {
				in += *n
			}
		}
		if e.OutputTokens != nil {
			out = *e.OutputTokens
		}
		if e.CostMicros != nil {
			cost = *e.CostMicros
		}
		for _, b := range r.Budgets {
			charges = append(charges, charge{b, cost})
		}
		bump(months, monthKey{*e.OrgID, r.ProductID, Period(e.CreatedAt)}, in+out, 0, cost)
		bump(days, dayKey{*e.OrgID, r.ProductID, r.Actor, Day(e.CreatedAt)}, in, out, cost)
	}
	var spends []BudgetSpend
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if len(events) > 0 {
			if err := tx.CreateInBatches(events, eventsPerInsert).Error; err != nil {
				return err
			}
		}
		for k, m := range months {
			if err := tx.Exec(`INSERT INTO usage_counters (org_id, product_id, period, requests, tokens, cost_micros) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (org_id, product_id, period) DO UPDATE SET requests = usage_counters.requests + excluded.requests, tokens = usage_counters.tokens + excluded.tokens,
				cost_micros = usage_counters.cost_micros + excluded.cost_micros`,
				k.org, k.product, k.period, m.requests, m.in, m.cost).Error; err != nil {
				return err
			}
		}
		for k, d := range days {
			if err := tx.Exec(`INSERT INTO usage_daily (org_id, product_id, actor, day, requests, input_tokens, output_tokens, cost_micros) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (org_id, product_id, actor, day) DO UPDATE SET requests = usage_daily.requests + excluded.requests,
				input_tokens = usage_daily.input_tokens + excluded.input_tokens, output_tokens = usage_daily.output_tokens + excluded.output_tokens,
				cost_micros = usage_daily.cost_micros + excluded.cost_micros`,
				k.org, k.product, k.actor, k.day, d.requests, d.in, d.out, d.cost).Error; err != nil {
				return err
			}
		}
		for id, n := range holds {
			if err := takeFromHold(tx, id, n); err != nil {
				return err
			}
		}
		for _, c := range charges {
			s, err := chargeBudget(tx, c.BudgetCharge, c.cost)
			if err != nil {
				return err
			}
			if c.cost > 0 && s.MonthlyMicros > 0 {
				spends = append(spends, s)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return spends, nil
}

// usageSums is a batch's increments of one counter row.
type usageSums struct{ requests, in, out, cost int64 }

func bump[K comparable](m map[K]*usageSums, k K, in, out, cost int64) {
	if m[k] == nil {
		m[k] = &usageSums{}
	}
	m[k].requests++
	m[k].in += in
	m[k].out += out
	m[k].cost += cost
}

// DailyUsage is one actor's usage on one day.
type DailyUsage struct {
	Actor        string
	ActorName    string
	Day          string
	Requests     int64
	InputTokens  int64
	OutputTokens int64
	CostMicros   int64 // the calls' cost in micro-dollars (those with a price)
}

// UsageByDay lists an organization's usage of a product from a day until
// (before) another, newest day first, with each actor's display name (key
// name or email).
func UsageByDay(ctx context.Context, db *gorm.DB, orgID, productID, sinceDay, untilDay string) ([]DailyUsage, error) {
	var rows []DailyUsage
	err := db.WithContext(ctx).Raw(`SELECT d.actor, COALESCE(k.name, u.email, d.actor) AS actor_name, d.day, d.requests, d.input_tokens, d.output_tokens, d.cost_micros
		FROM usage_daily d
		LEFT JOIN api_keys k ON k.id = d.actor
		LEFT JOIN users u ON u.id = d.actor
		WHERE d.org_id = ? AND d.product_id = ? AND d.day >= ? AND d.day < ?
		ORDER BY d.day DESC, actor_name`, orgID, productID, sinceDay, untilDay).Scan(&rows).Error
	return rows, err
}
