package breaker

import (
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"parapet/models"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// stores are the memory store, and Redis when TEST_REDIS_URL is set: two
// Breakers on one store are two instances.
func stores(t *testing.T) map[string]func() Store {
	m := NewMemory()
	out := map[string]func() Store{"memory": func() Store { return m }}
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		opt, err := redis.ParseURL(u)
		if err != nil {
			t.Fatal(err)
		}
		rc := redis.NewClient(opt)
		t.Cleanup(func() { rc.Close() })
		prefix := "test:" + models.RandomBase62(10) + ":"
		out["redis"] = func() Store { return NewRedis(rc, prefix) }
	}
	return out
}

func TestBreakerRules(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			b := New(store(), quiet, nil)
			now := time.Now()
			// Four failures, a success, four failures: never five in a row.
			for i := 0; i < 9; i++ {
				b.Done("p/m", i != 4, 0, now)
			}
			if ok, _ := b.Allow("p/m", now); !ok {
				t.Fatal("opened before five failures in a row")
			}
			b.Done("p/m", true, 0, now)
			ok, until := b.Allow("p/m", now)
			if ok || !until.Equal(now.Add(FirstCooldown).Truncate(time.Millisecond)) && !until.Equal(now.Add(FirstCooldown)) {
				t.Fatalf("after five failures in a row: allowed %t until %v", ok, until)
			}
			// A caller's error is not reported as failed; a late failure
			// with a shorter Retry-After never shortens the deadline.
			b.Done("p/m", true, time.Second, now)
			if ok, u := b.Allow("p/m", now.Add(2*time.Second)); ok || u.Before(until) {
				t.Fatalf("the deadline shortened to %v", u)
			}
			// After the cooldown, one probe; it fails: the cooldown doubles.
			later := now.Add(FirstCooldown + time.Second)
			if ok, _ := b.Allow("p/m", later); !ok {
				t.Fatal("no probe after the cooldown")
			}
			if ok, _ := b.Allow("p/m", later); ok {
				t.Fatal("a second probe went through")
			}
			b.Done("p/m", true, 0, later)
			if ok, u := b.Allow("p/m", later.Add(FirstCooldown+time.Second)); ok || u.Sub(later) < 2*FirstCooldown-time.Millisecond {
				t.Fatalf("after a failed probe: allowed %t until %v (want %v)", ok, u.Sub(later), 2*FirstCooldown)
			}
			// The next probe succeeds: closed.
			again := later.Add(2*FirstCooldown + time.Second)
			if ok, _ := b.Allow("p/m", again); !ok {
				t.Fatal("no probe after the doubled cooldown")
			}
			b.Done("p/m", false, 0, again)
			if ok, _ := b.Allow("p/m", again); !ok {
				t.Fatal("a successful probe did not close the breaker")
			}
		})
	}
}

// More than half of at least ten calls in the window opens it, though
// never five failures in a row.
func TestBreakerOpensOnAFailureRate(t *testing.T) {
	b := New(NewMemory(), quiet, nil)
	now := time.Now()
	pattern := []bool{true, true, false, true, true, false, true, true, false, true} // 7 of 10 failed
	for i, failed := range pattern {
		b.Done("p/m", failed, 0, now)
		if ok, _ := b.Allow("p/m", now); ok != (i < len(pattern)-1) {
			t.Fatalf("after call %d: allowed %t", i+1, ok)
		}
	}
}

// Two instances on one store: the one that opens a breaker makes the
// other skip the target within a refresh, and after the cooldown exactly
// one of many concurrent callers on both gets the probe.
func TestBreakerSharedProbe(t *testing.T) {
	for name, store := range stores(t) {
		t.Run(name, func(t *testing.T) {
			st := store()
			a, b := New(st, quiet, nil), New(st, quiet, nil)
			now := time.Now()
			a.Done("p/m", true, 200*time.Millisecond, now)
			deadline := time.Now().Add(time.Second)
			for ok, _ := b.Allow("p/m", time.Now()); ok; ok, _ = b.Allow("p/m", time.Now()) {
				if time.Now().After(deadline) {
					t.Fatal("b never saw the breaker a opened")
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(250 * time.Millisecond) // the provider's Retry-After
			var probes atomic.Int32
			done := make(chan struct{})
			for i := 0; i < 20; i++ {
				go func(i int) {
					inst := a
					if i%2 == 1 {
						inst = b
					}
					if ok, _ := inst.Allow("p/m", time.Now()); ok {
						probes.Add(1)
					}
					done <- struct{}{}
				}(i)
			}
			for i := 0; i < 20; i++ {
				<-done
			}
			if probes.Load() != 1 {
				t.Errorf("%d probes went through, want 1", probes.Load())
			}
		})
	}
}
