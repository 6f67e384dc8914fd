package throttle

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// DB keeps the counters in the throttles table (migration 00004).
type DB struct {
	db  *gorm.DB
	now func() time.Time
}

// NewDB counts in db.
func NewDB(db *gorm.DB) *DB { return &DB{db: db, now: func() time.Time { return time.Now().UTC() }} }

// hitSQL is the whole check-and-count in one statement: a new key, or one
// whose window has ended, starts again at 1; otherwise the count goes up
// by one. The database serialises the statements on the row, so each
// caller reads back a distinct count.
const hitSQL = `INSERT INTO throttles (key, hits, reset_at) VALUES (?, 1, ?)
ON CONFLICT (key) DO UPDATE SET
    hits     = CASE WHEN throttles.reset_at <= ? THEN 1 ELSE throttles.hits + 1 END,
    reset_at = CASE WHEN throttles.reset_at <= ? THEN excluded.reset_at ELSE throttles.reset_at END
RETURNING hits, reset_at`

// Hit implements Counter.
func (d *DB) Hit(ctx context.Context, key string, limit int, window time.Duration) (Result, error) {
	now := d.now().Truncate(time.Microsecond)
	var row struct {
		Hits    int
		ResetAt time.Time
	}
	if err := d.db.WithContext(ctx).Raw(hitSQL, key, now.Add(window), now, now).Scan(&row).Error; err != nil {
		return Result{}, err
	}
	return result(row.Hits, limit, row.ResetAt, now, window), nil
}

// Forgive implements Counter.
func (d *DB) Forgive(ctx context.Context, key string) error {
	return d.db.WithContext(ctx).Exec(`UPDATE throttles SET hits = hits - 1 WHERE key = ? AND hits > 0`, key).Error
}

// Sweep implements Counter: the table holds only live counters.
func (d *DB) Sweep(ctx context.Context) error {
	return d.db.WithContext(ctx).Exec(`DELETE FROM throttles WHERE reset_at <= ?`, d.now()).Error
}
