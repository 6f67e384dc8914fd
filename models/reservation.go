package models

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// A quota reservation ("hold") is a gateway call's worst case, held
// against its organization's monthly quota from admission until the
// call's usage is recorded. usage_counters.reserved is the sum of the live
// holds of that month, so admission is one conditional UPDATE: it fits
// when tokens + reserved + the new hold stay within the entitlement's
// monthly_tokens. Each hold is also a row with an expiry: the record of
// the call releases it, and a hold whose instance crashed is released
// once expired (ReleaseExpiredHolds).

// Hold is one quota reservation.
type Hold struct {
	ID        string
	OrgID     string
	ProductID string
	Period    string
	Tokens    int64
	ExpiresAt time.Time
}

// ErrQuotaFull is Reserve's answer when the hold does not fit.
var ErrQuotaFull = errors.New("the reservation does not fit in the quota")

type counterRow struct {
	Tokens   int64
	Reserved int64
}

// ReserveQuota holds h.Tokens against h's organization's quota for
// h.Period. It returns what is left after the hold (monthly tokens minus
// used and held), or ErrQuotaFull, in which case nothing is held.
func ReserveQuota(ctx context.Context, db *gorm.DB, h Hold, monthly int64) (left int64, err error) {
	err = db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, ok, err := reserve(tx, h)
		if err == nil && !ok {
			// The month's counter may not exist yet: create it, then try
			// once more.
			if err = tx.Exec(`INSERT INTO usage_counters (org_id, product_id, period, requests, tokens, reserved) VALUES (?, ?, ?, 0, 0, 0)
				ON CONFLICT (org_id, product_id, period) DO NOTHING`, h.OrgID, h.ProductID, h.Period).Error; err == nil {
				row, ok, err = reserve(tx, h)
			}
		}
		if err != nil {
			return err
		}
		if !ok {
			return ErrQuotaFull
		}
		left = monthly - row.Tokens - row.Reserved
		return tx.Exec(`INSERT INTO quota_reservations (id, org_id, product_id, period, tokens, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			h.ID, h.OrgID, h.ProductID, h.Period, h.Tokens, h.ExpiresAt.UnixMilli()).Error
	})
	return left, err
}

// reserve is the one conditional UPDATE: it adds the hold only when it
// fits under the entitlement's monthly tokens, atomically (the row lock
// serializes concurrent reservations on every database).
func reserve(tx *gorm.DB, h Hold) (counterRow, bool, error) {
	var rows []counterRow
	err := tx.Raw(`UPDATE usage_counters SET reserved = reserved + ?
		WHERE org_id = ? AND product_id = ? AND period = ?
		AND tokens + reserved + ? <= (SELECT monthly_tokens FROM entitlements WHERE org_id = ? AND product_id = ? AND revoked_at IS NULL)
		RETURNING tokens, reserved`,
		h.Tokens, h.OrgID, h.ProductID, h.Period, h.Tokens, h.OrgID, h.ProductID).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return counterRow{}, false, err
	}
	return rows[0], true, nil
}

// takeFromHold removes up to n tokens from a hold and as many from its
// counter's reserved sum, and deletes the hold once it is empty. A hold
// already released (expired and swept) changes nothing. (A hold is only
// ever changed by its own instance's record writer, or swept once expired.)
func takeFromHold(tx *gorm.DB, id string, n int64) error {
	var holds []Hold
	if err := tx.Raw(`SELECT org_id, product_id, period, tokens FROM quota_reservations WHERE id = ?`, id).Scan(&holds).Error; err != nil || len(holds) == 0 {
		return err
	}
	h := holds[0]
	take := min(n, h.Tokens)
	q := tx.Exec(`UPDATE quota_reservations SET tokens = ? WHERE id = ?`, h.Tokens-take, id)
	if h.Tokens-take <= 0 {
		q = tx.Exec(`DELETE FROM quota_reservations WHERE id = ?`, id)
	}
	if q.Error != nil || q.RowsAffected == 0 {
		return q.Error
	}
	h.Tokens = take
	return unreserve(tx, []Hold{h})
}

func unreserve(tx *gorm.DB, holds []Hold) error {
	for _, h := range holds {
		if err := tx.Exec(`UPDATE usage_counters SET reserved = CASE WHEN reserved > ? THEN reserved - ? ELSE 0 END
			WHERE org_id = ? AND product_id = ? AND period = ?`, h.Tokens, h.Tokens, h.OrgID, h.ProductID, h.Period).Error; err != nil {
			return err
		}
	}
	return nil
}

// ReleaseExpiredHolds releases an organization's holds that expired before
// now, the holds of calls whose instance died before recording them. It
// returns how many tokens it released.
func ReleaseExpiredHolds(ctx context.Context, db *gorm.DB, orgID, productID string, now time.Time) (int64, error) {
	var released int64
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var holds []Hold
		if err := tx.Raw(`DELETE FROM quota_reservations WHERE org_id = ? AND product_id = ? AND expires_at < ? RETURNING org_id, product_id, period, tokens`,
			orgID, productID, now.UnixMilli()).Scan(&holds).Error; err != nil {
			return err
		}
		for _, h := range holds {
			released += h.Tokens
		}
		return unreserve(tx, holds)
	})
	return released, err
}
