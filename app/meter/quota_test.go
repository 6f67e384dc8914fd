package meter_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/models"
)

// When an instance's lease is spent under many calls at once, one of them
// takes the next lease and the others are served from it: one reservation
// in the database, not one a call queued behind the database's writer.
func TestQuotaTakesOneLeaseForParallelCalls(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := models.Open(apptest.FreshDatabaseURL(t, d), 8)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			user, err := models.CreateUser(ctx, db.DB, "lease@example.com", "x")
			if err != nil {
				t.Fatal(err)
			}
			org, err := models.CreateOrg(ctx, db.DB, "Lease", user.ID, 1_000_000_000)
			if err != nil {
				t.Fatal(err)
			}
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			q := meter.NewQuota(db, nil, "", log, meter.NewRecorder(db, log, nil))
			const calls = 64
			var wg sync.WaitGroup
			errs := make(chan error, calls)
			for range calls {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _, err := q.Reserve(ctx, org.ID, 100, 1_000_000_000, time.Now())
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			var leases int64
			if err := db.DB.Table("quota_reservations").Where("org_id = ?", org.ID).Count(&leases).Error; err != nil {
				t.Fatal(err)
			}
			if leases != 1 {
				t.Fatalf("%d parallel calls took %d leases in the database, want 1", calls, leases)
			}
		})
	}
}
