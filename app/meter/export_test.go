package meter

import (
	"context"
	"time"

	"parapet/models"
)

// QueueSize and Add open the Recorder's queue to the package's tests.
const QueueSize = queueSize

func (r *Recorder) Add(rec models.UsageRecord) error { return r.add(rec) }

// Reserve opens the Quota's reservation to the package's tests.
func (q *Quota) Reserve(ctx context.Context, orgID string, n, monthly int64, now time.Time) (Hold, int64, error) {
	return q.reserve(ctx, orgID, n, monthly, 0, now, time.Minute)
}
