package throttle_test

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"parapet/app/apptest"
	"parapet/app/throttle"
	"parapet/models"
)

// counters are the stores under test: the database on each test database,
// and Redis when TEST_REDIS_URL names one.
func counters(t *testing.T) map[string]throttle.Counter {
	out := map[string]throttle.Counter{}
	for _, d := range apptest.Databases(t) {
		db, err := models.Open(apptest.FreshDatabaseURL(t, d), 20)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if _, err := db.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		out[d.Name] = throttle.NewDB(db.DB)
	}
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		opts, err := redis.ParseURL(u)
		if err != nil {
			t.Fatal(err)
		}
		c := redis.NewClient(opts)
		t.Cleanup(func() { c.Close() })
		out["redis"] = throttle.NewRedis(c, "test:"+models.RandomBase62(8)+":")
	}
	return out
}

// 30 parallel attempts on a limit of 10 let exactly 10 through: the check
// and the count are one step, so no attempt reads a stale count.
func TestHitIsAtomicUnderConcurrency(t *testing.T) {
	for name, c := range counters(t) {
		t.Run(name, func(t *testing.T) {
			var allowed atomic.Int32
			var wg sync.WaitGroup
			for range 30 {
				wg.Go(func() {
					r, err := c.Hit(context.Background(), "acct:a@example.com", 10, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if r.Allowed {
						allowed.Add(1)
					} else if r.RetryAfter <= 0 || r.RetryAfter > time.Minute {
						t.Errorf("refused with Retry-After %v", r.RetryAfter)
					}
				})
			}
			wg.Wait()
			if n := allowed.Load(); n != 10 {
				t.Fatalf("%d of 30 parallel attempts allowed, want exactly 10", n)
			}
		})
	}
}

// Forgive gives one attempt back; another key keeps its own count; a
// window that ended starts again.
func TestForgiveAndWindow(t *testing.T) {
	ctx := context.Background()
	for name, c := range counters(t) {
		t.Run(name, func(t *testing.T) {
			hit := func(key string, window time.Duration) throttle.Result {
				r, err := c.Hit(ctx, key, 2, window)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			hit("k", time.Minute)
			hit("k", time.Minute)
			if hit("k", time.Minute).Allowed {
				t.Fatal("third hit on a limit of 2 allowed")
			}
			if err := c.Forgive(ctx, "k"); err != nil {
				t.Fatal(err)
			}
			if r := hit("k", time.Minute); r.Allowed || r.Hits != 3 {
				t.Fatalf("after forgiving one of 3, hit gives %+v, want 3 hits refused", r)
			}
			if !hit("other", time.Minute).Allowed {
				t.Fatal("another key shares the count")
			}
			hit("short", 50*time.Millisecond)
			hit("short", 50*time.Millisecond)
			deadline := time.Now().Add(5 * time.Second)
			for !hit("short", 50*time.Millisecond).Allowed {
				if time.Now().After(deadline) {
					t.Fatal("the window never ended")
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// With Redis unreachable, attempts are counted in the database instead:
// the throttle still holds and never fails the request.
func TestFallbackToDatabase(t *testing.T) {
	db, err := models.Open(apptest.FreshDatabaseURL(t, apptest.Databases(t)[0]), 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { dead.Close() })
	var logs strings.Builder
	f := throttle.NewFallback(throttle.NewRedis(dead, ""), throttle.NewDB(db.DB), slog.New(slog.NewTextHandler(&logs, nil)))
	for i := range 3 {
		r, err := f.Hit(context.Background(), "k", 2, time.Minute)
		if err != nil || r.Allowed != (i < 2) {
			t.Fatalf("hit %d: %+v %v", i+1, r, err)
		}
	}
	if !strings.Contains(logs.String(), "Redis unavailable") || strings.Count(logs.String(), "Redis unavailable") != 1 {
		t.Errorf("log: %q, want one line", logs.String())
	}
	// What was counted in the database while Redis was down is swept
	// through the fallback once its window ends.
	if _, err := f.Hit(context.Background(), "brief", 2, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	apptest.WaitFor(t, 5*time.Second, "the ended counter swept", func() bool {
		var n int64
		if err := f.Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
		db.DB.Raw(`SELECT COUNT(*) FROM throttles WHERE key = ?`, "brief").Scan(&n)
		return n == 0
	})
}

// While Redis answers, a sweep through the fallback costs the database
// nothing: the counts there (an ended one left by an earlier process here)
// are only swept once this process has fallen back.
func TestFallbackSweepsTheDatabaseOnlyAfterFallingBack(t *testing.T) {
	u := os.Getenv("TEST_REDIS_URL")
	if u == "" {
		t.Skip("needs TEST_REDIS_URL (a Redis that answers)")
	}
	db, err := models.Open(apptest.FreshDatabaseURL(t, apptest.Databases(t)[0]), 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO throttles (key, hits, reset_at) VALUES ('left', 3, ?)`, time.Now().Add(-time.Hour)).Error; err != nil {
		t.Fatal(err)
	}
	opts, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	rc := redis.NewClient(opts)
	t.Cleanup(func() { rc.Close() })
	f := throttle.NewFallback(throttle.NewRedis(rc, "test:"+models.RandomBase62(8)+":"), throttle.NewDB(db.DB), slog.New(slog.DiscardHandler))
	if _, err := f.Hit(context.Background(), "k", 2, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := f.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int64
	db.Raw(`SELECT COUNT(*) FROM throttles WHERE key = 'left'`).Scan(&n)
	if n != 1 {
		t.Errorf("a sweep with Redis healthy touched the database (%d rows left of 1)", n)
	}
}
