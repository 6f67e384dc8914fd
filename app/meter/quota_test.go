package meter_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/models"
)

// quotaOf is a Quota over a fresh database of d, and an organization
// entitled to a billion tokens a month.
func quotaOf(t *testing.T, d apptest.Database) (*meter.Quota, *models.DB, string) {
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
	return meter.NewQuota(db, nil, "", log, meter.NewRecorder(db, log, nil)), db, org.ID
}

// reserveAtOnce makes calls reservations of 100 tokens, all let go at
// the same moment, and returns their errors.
func reserveAtOnce(q *meter.Quota, orgID string, calls int) []error {
	start := make(chan struct{})
	errs := make([]error, calls)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, _, errs[i] = q.Reserve(context.Background(), orgID, 100, 1_000_000_000, time.Now())
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// When an instance's lease is spent under many calls at once, one of them
// takes the next lease and the others are served from it: one reservation
// in the database, not one a call queued behind the database's writer.
func TestQuotaTakesOneLeaseForParallelCalls(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			q, db, orgID := quotaOf(t, d)
			const calls = 64
			for _, err := range reserveAtOnce(q, orgID, calls) {
				if err != nil {
					t.Fatal(err)
				}
			}
			var leases int64
			if err := db.DB.Table("quota_reservations").Where("org_id = ?", orgID).Count(&leases).Error; err != nil {
				t.Fatal(err)
			}
			if leases != 1 {
				t.Fatalf("%d parallel calls took %d leases in the database, want 1", calls, leases)
			}
		})
	}
}

// When the database fails the lease being taken, the calls waiting for it
// fail with it rather than each trying the database in turn behind it (a
// slow failure would otherwise hold the last of them for as many times
// its length).
func TestQuotaWaitersShareTheLeasesDatabaseFailure(t *testing.T) {
	for _, d := range apptest.Databases(t) {
		t.Run(d.Name, func(t *testing.T) {
			q, db, orgID := quotaOf(t, d)
			down := errors.New("the database is down")
			var tries atomic.Int32
			err := db.DB.Callback().Row().Before("gorm:row").Register("test:down", func(tx *gorm.DB) {
				if strings.Contains(tx.Statement.SQL.String(), "SET reserved = reserved +") {
					tries.Add(1)
					time.Sleep(200 * time.Millisecond) // a slow failure: every call arrives meanwhile
					_ = tx.AddError(down)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			const calls = 64
			for i, err := range reserveAtOnce(q, orgID, calls) {
				if !errors.Is(err, down) {
					t.Fatalf("call %d: %v, want the database's failure", i, err)
				}
			}
			// One try, or two should a call start only after the first
			// failed; never one a call.
			if n := tries.Load(); n > 2 {
				t.Fatalf("%d calls waiting for one lease tried the database %d times", calls, n)
			}
		})
	}
}
