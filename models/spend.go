package models

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"
)

// MonthOf parses a month ("2026-11") and returns its first instant and
// the next month's, UTC.
func MonthOf(period string) (from, to time.Time, err error) {
	from, err = time.Parse("2006-01", period)
	if err != nil || from.Year() < 2000 || from.Year() > 9999 {
		return time.Time{}, time.Time{}, fmt.Errorf("%q is not a month (YYYY-MM)", period)
	}
	return from, from.AddDate(0, 1, 0), nil
}

// SpendTotal is one group's calls, tokens (every input bucket and the
// output) and cost in micro-dollars (of the calls with a price).
type SpendTotal struct {
	Name       string // the day, model, provider or key name
	Actor      string // for a key's or user's total: its id
	Requests   int64
	Tokens     int64
	CostMicros int64
}

// SpendByDay sums an organization's gateway usage of each day of the
// month that had any, oldest first, from the daily counters.
func SpendByDay(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time) ([]SpendTotal, error) {
	var out []SpendTotal
	err := db.WithContext(ctx).Raw(`SELECT day AS name, SUM(requests) AS requests, SUM(input_tokens + output_tokens) AS tokens, SUM(cost_micros) AS cost_micros
		FROM usage_daily WHERE org_id = ? AND product_id = ? AND day >= ? AND day < ?
		GROUP BY day ORDER BY day`, orgID, GatewayProductID, Day(from), Day(to)).Scan(&out).Error
	return out, err
}

// SpendByActor sums the month's usage of each key or playground user,
// dearest first, from the daily counters.
func SpendByActor(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time) ([]SpendTotal, error) {
	var out []SpendTotal
	err := db.WithContext(ctx).Raw(`SELECT d.actor, COALESCE(MAX(k.name), MAX(u.email), d.actor) AS name, SUM(d.requests) AS requests,
		SUM(d.input_tokens + d.output_tokens) AS tokens, SUM(d.cost_micros) AS cost_micros
		FROM usage_daily d
		LEFT JOIN api_keys k ON k.id = d.actor
		LEFT JOIN users u ON u.id = d.actor
		WHERE d.org_id = ? AND d.product_id = ? AND d.day >= ? AND d.day < ?
		GROUP BY d.actor ORDER BY cost_micros DESC, tokens DESC, name`, orgID, GatewayProductID, Day(from), Day(to)).Scan(&out).Error
	return out, err
}

// gatewayCalls is the month's gateway.call events of an organization:
// the (org_id, action, created_at, id) index answers it.
func gatewayCalls(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time) *gorm.DB {
	return db.WithContext(ctx).Table("audit_events").
		Where("audit_events.org_id = ? AND audit_events.action = ? AND audit_events.created_at >= ? AND audit_events.created_at < ?",
			orgID, ActionGatewayCall, from, to)
}

const callTokensSQL = `COALESCE(input_tokens, 0) + COALESCE(cache_write_tokens, 0) + COALESCE(cache_read_tokens, 0) + COALESCE(output_tokens, 0)`

// SpendBy sums the month's calls by column (model or provider), dearest
// first; calls without one are grouped under "".
func SpendBy(ctx context.Context, db *gorm.DB, orgID, column string, from, to time.Time) ([]SpendTotal, error) {
	if column != "model" && column != "provider" {
		return nil, fmt.Errorf("no spend by %q", column)
	}
	var out []SpendTotal
	err := gatewayCalls(ctx, db, orgID, from, to).
		Select("COALESCE(" + column + ", '') AS name, COUNT(*) AS requests, SUM(" + callTokensSQL + ") AS tokens, COALESCE(SUM(cost_micros), 0) AS cost_micros").
		Group("COALESCE(" + column + ", '')").Order("cost_micros DESC, tokens DESC, name").Scan(&out).Error
	return out, err
}

// TargetStatsCap bounds the calls whose attempts the target statistics
// read: the month's latest this many. Percentiles need every latency, and
// a busy month is not worth reading whole for a page view.
const TargetStatsCap = 20_000

// TargetStats is one target's (provider and provider's model) attempts.
type TargetStats struct {
	Provider, Model string
	Attempts        int64
	Errors          int64 // attempts that failed (status 0 or ≥ 400)
	P50Ms, P95Ms    int64
}

// ErrorPercent is the share of failed attempts, rounded, 0–100.
func (t TargetStats) ErrorPercent() int64 {
	if t.Attempts == 0 {
		return 0
	}
	return (t.Errors*100 + t.Attempts/2) / t.Attempts
}

// attempt is one entry of an event's attempts (see AuditEvent).
type attempt struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Status   int    `json:"status"`
	Ms       int64  `json:"ms"`
}

// TargetStatsOf computes each target's error rate and p50/p95 latency from
// the attempts of the month's latest TargetStatsCap calls; capped says the
// month had more. Busiest target first.
func TargetStatsOf(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time) (stats []TargetStats, capped bool, err error) {
	rows, err := gatewayCalls(ctx, db, orgID, from, to).Select("attempts").
		Order("audit_events.created_at DESC, audit_events.id DESC").Limit(TargetStatsCap + 1).Rows()
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	type acc struct {
		TargetStats
		ms []int64
	}
	by := map[[2]string]*acc{}
	n := 0
	for rows.Next() {
		if n++; n > TargetStatsCap {
			capped = true
			break
		}
		var raw sql.NullString
		if err := rows.Scan(&raw); err != nil {
			return nil, false, err
		}
		var as []attempt
		if !raw.Valid || json.Unmarshal([]byte(raw.String), &as) != nil {
			continue
		}
		for _, a := range as {
			k := [2]string{a.Provider, a.Model}
			if by[k] == nil {
				by[k] = &acc{TargetStats: TargetStats{Provider: a.Provider, Model: a.Model}}
			}
			t := by[k]
			t.Attempts++
			if a.Status == 0 || a.Status >= 400 {
				t.Errors++
			}
			t.ms = append(t.ms, a.Ms)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	for _, t := range by {
		slices.Sort(t.ms)
		t.P50Ms, t.P95Ms = percentile(t.ms, 50), percentile(t.ms, 95)
		stats = append(stats, t.TargetStats)
	}
	sort.Slice(stats, func(i, j int) bool {
		if stats[i].Attempts != stats[j].Attempts {
			return stats[i].Attempts > stats[j].Attempts
		}
		return stats[i].Provider+"/"+stats[i].Model < stats[j].Provider+"/"+stats[j].Model
	})
	return stats, capped, nil
}

// percentile is the nearest-rank p-th percentile of sorted values.
func percentile(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := (len(sorted)*p + 99) / 100 // ceil(n·p/100), 1-based
	return sorted[max(rank, 1)-1]
}

// CallFilter narrows the request log: a key id, a model name, a status
// ("error": 400 and above or none; else an exact code).
type CallFilter struct {
	Key, Model string
	ErrorsOnly bool
	Code       int
}

// CallRow is one gateway call as the request log and its CSV show it.
type CallRow struct {
	AuditEvent
	ActorEmail   *string
	ActorKeyName *string
}

func filteredCalls(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time, f CallFilter) *gorm.DB {
	q := gatewayCalls(ctx, db, orgID, from, to)
	if f.Key != "" {
		q = q.Where("audit_events.actor_key_id = ?", f.Key)
	}
	if f.Model != "" {
		q = q.Where("audit_events.model = ?", f.Model)
	}
	if f.ErrorsOnly {
		q = q.Where("(audit_events.status IS NULL OR audit_events.status >= 400)")
	} else if f.Code != 0 {
		q = q.Where("audit_events.status = ?", f.Code)
	}
	return q.Select("audit_events.*, users.email AS actor_email, api_keys.name AS actor_key_name").
		Joins("LEFT JOIN users ON users.id = audit_events.actor_user_id").
		Joins("LEFT JOIN api_keys ON api_keys.id = audit_events.actor_key_id").
		Order("audit_events.created_at DESC, audit_events.id DESC")
}

// CallsPage lists a page of the month's calls, newest first.
func CallsPage(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time, f CallFilter, limit, offset int) ([]CallRow, error) {
	var out []CallRow
	err := filteredCalls(ctx, db, orgID, from, to, f).Limit(limit).Offset(offset).Scan(&out).Error
	return out, err
}

// EachCall calls fn with every call of the month, newest first, reading
// them one at a time (a month may hold millions).
func EachCall(ctx context.Context, db *gorm.DB, orgID string, from, to time.Time, f CallFilter, fn func(*CallRow) error) error {
	q := filteredCalls(ctx, db, orgID, from, to, f)
	rows, err := q.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r CallRow
		if err := q.ScanRows(rows, &r); err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// OrgBudgets lists every budget of an organization (its own first, then
// its keys') with period's spend.
func OrgBudgets(ctx context.Context, db *gorm.DB, orgID, period string) ([]Budget, error) {
	var out []Budget
	err := db.WithContext(ctx).Raw(`SELECT b.org_id, b.key_id, b.monthly_micros, COALESCE(c.spent_micros, 0) AS spent_micros,
		COALESCE(c.reserved_micros, 0) AS reserved
		FROM gateway_budgets b LEFT JOIN budget_counters c ON c.org_id = b.org_id AND c.key_id = b.key_id AND c.period = ?
		WHERE b.org_id = ? ORDER BY b.key_id`, period, orgID).Scan(&out).Error
	return out, err
}

// OrgModelPolicies lists every model policy of an organization (its own
// first, then its keys').
func OrgModelPolicies(ctx context.Context, db *gorm.DB, orgID string) ([]ModelPolicy, error) {
	var rows []struct{ KeyID, Models string }
	if err := db.WithContext(ctx).Raw(`SELECT key_id, models FROM gateway_model_policies WHERE org_id = ? ORDER BY key_id`, orgID).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]ModelPolicy, len(rows))
	for i, r := range rows {
		out[i] = ModelPolicy{KeyID: r.KeyID, Models: strings.Fields(r.Models)}
	}
	return out, nil
}
