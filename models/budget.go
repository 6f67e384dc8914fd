package models

import (
	"context"
	"errors"

	"gorm.io/gorm"
)

// Budget is a monthly budget in micro-dollars for an organization's
// gateway calls (KeyID "") or for one of its keys, with the month's spend
// and live reservations.
type Budget struct {
	OrgID         string
	KeyID         string
	MonthlyMicros int64
	SpentMicros   int64
	Reserved      int64
}

// MaxBudgetUSD bounds a monthly budget: a typo of a few zeros must not
// read as "no limit" to whoever reads it later.
const MaxBudgetUSD = 10_000_000

// ActionBudgetSet is the audit action of a budget set or cleared.
const ActionBudgetSet = "budget.set"

// ErrBudgetFull is ReserveBudget's answer when the hold does not fit.
var ErrBudgetFull = errors.New("the reservation does not fit in the budget")

// BudgetsOf lists the budgets that apply to a call by keyID ("" for a
// playground call: the organization's only) of orgID, with period's spend.
func BudgetsOf(ctx context.Context, db *gorm.DB, orgID, keyID, period string) ([]Budget, error) {
	var out []Budget
	err := db.WithContext(ctx).Raw(`SELECT b.org_id, b.key_id, b.monthly_micros, COALESCE(c.spent_micros, 0) AS spent_micros,
		COALESCE(c.reserved_micros, 0) AS reserved
		FROM gateway_budgets b LEFT JOIN budget_counters c ON c.org_id = b.org_id AND c.key_id = b.key_id AND c.period = ?
		WHERE b.org_id = ? AND (b.key_id = '' OR b.key_id = ?) ORDER BY b.key_id`, period, orgID, keyID).Scan(&out).Error
	return out, err
}

// SetBudget sets (micros > 0) or removes (micros 0) a budget.
func SetBudget(tx *gorm.DB, orgID, keyID string, micros int64) error {
	if micros == 0 {
		return tx.Exec(`DELETE FROM gateway_budgets WHERE org_id = ? AND key_id = ?`, orgID, keyID).Error
	}
	return tx.Exec(`INSERT INTO gateway_budgets (org_id, key_id, monthly_micros, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (org_id, key_id) DO UPDATE SET monthly_micros = excluded.monthly_micros, updated_at = excluded.updated_at`,
		orgID, keyID, micros, Now()).Error
}

// BudgetHold is one call's reservation against one budget.
type BudgetHold struct {
	ID, OrgID, KeyID, Period string
	Micros                   int64
	ExpiresAtMs              int64
}

// ReserveBudget holds h.Micros against its budget this period, atomically
// (one conditional UPDATE: the row lock serializes concurrent holds), and
// returns what is left after it, or ErrBudgetFull, when nothing is held.
// Holds of a crashed instance, once expired, are released and the hold
// tried again.
func ReserveBudget(ctx context.Context, db *gorm.DB, h BudgetHold, nowMs int64) (left int64, err error) {
	err = db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`INSERT INTO budget_counters (org_id, key_id, period) VALUES (?, ?, ?) ON CONFLICT (org_id, key_id, period) DO NOTHING`,
			h.OrgID, h.KeyID, h.Period).Error; err != nil {
			return err
		}
		for attempt := 0; ; attempt++ {
			var rows []struct{ Left int64 }
			err := tx.Raw(`UPDATE budget_counters SET reserved_micros = reserved_micros + ?
				WHERE org_id = ? AND key_id = ? AND period = ?
				AND spent_micros + reserved_micros + ? <= (SELECT monthly_micros FROM gateway_budgets WHERE org_id = ? AND key_id = ?)
				RETURNING (SELECT monthly_micros FROM gateway_budgets WHERE org_id = ? AND key_id = ?) - spent_micros - reserved_micros AS "left"`,
				h.Micros, h.OrgID, h.KeyID, h.Period, h.Micros, h.OrgID, h.KeyID, h.OrgID, h.KeyID).Scan(&rows).Error
			if err != nil {
				return err
			}
			if len(rows) == 1 {
				left = rows[0].Left
				return tx.Exec(`INSERT INTO budget_holds (id, org_id, key_id, period, micros, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
					h.ID, h.OrgID, h.KeyID, h.Period, h.Micros, h.ExpiresAtMs).Error
			}
			if attempt > 0 {
				return ErrBudgetFull
			}
			released, err := releaseExpiredBudgetHolds(tx, h.OrgID, h.KeyID, nowMs)
			if err != nil {
				return err
			}
			if released == 0 {
				return ErrBudgetFull
			}
		}
	})
	return left, err
}

func releaseExpiredBudgetHolds(tx *gorm.DB, orgID, keyID string, nowMs int64) (int, error) {
	var expired []BudgetHold
	if err := tx.Raw(`SELECT id, period, micros FROM budget_holds WHERE org_id = ? AND key_id = ? AND expires_at < ?`, orgID, keyID, nowMs).
		Scan(&expired).Error; err != nil {
		return 0, err
	}
	for _, e := range expired {
		if err := tx.Exec(`UPDATE budget_counters SET reserved_micros = reserved_micros - ? WHERE org_id = ? AND key_id = ? AND period = ?`,
			e.Micros, orgID, keyID, e.Period).Error; err != nil {
			return 0, err
		}
		if err := tx.Exec(`DELETE FROM budget_holds WHERE id = ?`, e.ID).Error; err != nil {
			return 0, err
		}
	}
	return len(expired), nil
}

// BudgetCharge is what a call's record does to one budget: it adds the
// call's cost to the month's spend and, for a hold in the database, ends
// the hold (HoldID; a hold in Redis is settled there).
type BudgetCharge struct {
	OrgID, KeyID, Period string
	HoldID               string
}

// BudgetSpend is a budget's spend this period once a call's cost was
// charged to it: what its alerts compare with it.
type BudgetSpend struct {
	OrgID, KeyID, Period       string
	MonthlyMicros, SpentMicros int64
}

// chargeBudget applies c with the call's cost, inside the record's
// transaction: the spend and the end of the hold land together. It
// returns the budget's spend after it (MonthlyMicros 0 for a budget
// cleared meanwhile).
func chargeBudget(tx *gorm.DB, c BudgetCharge, cost int64) (BudgetSpend, error) {
	var held int64
	if c.HoldID != "" {
		var rows []struct{ Micros int64 }
		if err := tx.Raw(`DELETE FROM budget_holds WHERE id = ? RETURNING micros`, c.HoldID).Scan(&rows).Error; err != nil {
			return BudgetSpend{}, err
		}
		if len(rows) == 1 { // else it expired and was released meanwhile
			held = rows[0].Micros
		}
	}
	s := BudgetSpend{OrgID: c.OrgID, KeyID: c.KeyID, Period: c.Period}
	err := tx.Raw(`INSERT INTO budget_counters (org_id, key_id, period, spent_micros, reserved_micros) VALUES (?, ?, ?, ?, 0)
		ON CONFLICT (org_id, key_id, period) DO UPDATE SET spent_micros = budget_counters.spent_micros + excluded.spent_micros,
		reserved_micros = budget_counters.reserved_micros - ?
		RETURNING spent_micros, COALESCE((SELECT monthly_micros FROM gateway_budgets WHERE org_id = ? AND key_id = ?), 0) AS monthly_micros`,
		c.OrgID, c.KeyID, c.Period, cost, held, c.OrgID, c.KeyID).Row().Scan(&s.SpentMicros, &s.MonthlyMicros)
	return s, err
}

// MarkBudgetAlert records that a budget's threshold (50, 80, 100) was
// passed this period; it reports whether this is the first time (the
// mail goes once).
func MarkBudgetAlert(ctx context.Context, db *gorm.DB, orgID, keyID, period string, threshold int) (bool, error) {
	res := db.WithContext(ctx).Exec(`INSERT INTO budget_alerts (org_id, key_id, period, threshold) VALUES (?, ?, ?, ?)
		ON CONFLICT (org_id, key_id, period, threshold) DO NOTHING`, orgID, keyID, period, threshold)
	return res.RowsAffected == 1, res.Error
}
