package ratelimit

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestRedisConcurrentInstancesAreExact(t *testing.T) {
	client, prefix := testRedis(t)
	// Two clients with their own connection pools stand for two instances.
	instances := []*Redis{NewRedis(client, prefix), NewRedis(newRedisClient(t, client), prefix)}
	const limit, perInstance, each = 25, 8, 20 // 320 requests for 25 slots

	var (
		mu        sync.Mutex
		remaining []int // of the allowed requests
		refused   int
		wg        sync.WaitGroup
	)
	for _, inst := range instances {
		for range perInstance {
			wg.Go(func() {
				for range each {
					d, err := inst.Allow(context.Background(), "key_a", limit, 10*time.Second)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if d.Allowed {
						remaining = append(remaining, d.Remaining)
					} else {
						refused++
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(remaining) != limit || refused != 2*perInstance*each-limit {
		t.Fatalf("%d allowed and %d refused, want exactly %d allowed of %d", len(remaining), refused, limit, 2*perInstance*each)
	}
	// Atomic decisions see every count exactly once: 24, 23, ..., 0.
	slices.Sort(remaining)
	for i, r := range remaining {
		if r != i {
			t.Fatalf("Remaining of allowed requests = %v, want each of 0..%d once", remaining, limit-1)
		}
	}
	if n := client.ZCard(context.Background(), prefix+"key_a").Val(); n != limit {
		t.Errorf("ZCARD = %d, want %d: refused requests must not be recorded", n, limit)
	}
}

func TestRedisRollingWindow(t *testing.T) {
	client, prefix := testRedis(t)
	r := NewRedis(client, prefix)
	const limit, window = 5, time.Second
	ctx := context.Background()
	allow := func(wantAllowed bool, wantRemaining int) Decision {
		t.Helper()
		before := time.Now()
		d, err := r.Allow(ctx, "key_a", limit, window)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed != wantAllowed || d.Remaining != wantRemaining || d.Limit != limit {
			t.Fatalf("got %+v, want allowed=%v remaining=%d", d, wantAllowed, wantRemaining)
		}
		// Redis time and ours come from the same host here; allow for scheduling.
		if d.Reset.Before(before.Add(-50*time.Millisecond)) || d.Reset.After(time.Now().Add(window+50*time.Millisecond)) {
			t.Fatalf("Reset %v is not within a window of now %v", d.Reset, before)
		}
		if !wantAllowed && (d.RetryAfter <= 0 || d.RetryAfter > window) {
			t.Fatalf("RetryAfter = %v, want in (0, %v]", d.RetryAfter, window)
		}
		return d
	}

	first := allow(true, 4)
	allow(true, 3)
	allow(true, 2)
	// Elapsed time is the subject: a sliding window on Redis's clock, which
	// no fake clock reaches.
	time.Sleep(400 * time.Millisecond)
	allow(true, 1)
	allow(true, 0)
	refused := allow(false, 0)
	if !refused.Reset.Equal(first.Reset) {
		t.Errorf("refused: Reset = %v, want the first request's slot %v", refused.Reset, first.Reset)
	}
	if refused.RetryAfter > 600*time.Millisecond {
		t.Errorf("RetryAfter = %v, want <= 600ms: the first request was 400ms ago", refused.RetryAfter)
	}

	// Once the first three have left, exactly three slots are free: a fixed
	// window starting at the first request would now allow five.
	time.Sleep(refused.RetryAfter + 50*time.Millisecond) // the window itself, as above
	allow(true, 2)
	allow(true, 1)
	allow(true, 0)
	allow(false, 0)
}

func TestRedisKeyLayoutAndExpiry(t *testing.T) {
	client, prefix := testRedis(t)
	r := NewRedis(client, prefix)
	ctx := context.Background()
	if _, err := r.Allow(ctx, "key_a", 5, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	ttl := client.PTTL(ctx, prefix+"key_a").Val()
	if ttl <= 0 || ttl > 1500*time.Millisecond {
		t.Errorf("PTTL of %skey_a = %v, want in (0, 1.5s]", prefix, ttl)
	}
	if n := client.ZCard(ctx, prefix+"key_a").Val(); n != 1 {
		t.Errorf("ZCARD = %d, want 1", n)
	}
}

// BenchmarkRedisAllow measures Allow from parallel goroutines against a
// baseline of a bare PING round trip on the same client, and reports the ratio.
func BenchmarkRedisAllow(b *testing.B) {
	client, prefix := testRedis(b)
	ctx := context.Background()
	base := baselines{}
	b.Run("baseline=ping", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := client.Ping(ctx).Err(); err != nil {
					b.Error(err)
					return
				}
			}
		})
		base.record(b)
	})
	b.Run("allow", func(b *testing.B) {
		r := NewRedis(client, prefix)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				// One key at 60 per minute: after 60 requests the benchmark
				// measures the common refused path, as under a flood.
				if _, err := r.Allow(ctx, "key_a", DefaultLimit, DefaultWindow); err != nil {
					b.Error(err)
					return
				}
			}
		})
		base.report(b)
	})
}
