package ratelimit

import (
	"context"
	"hash/maphash"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestMemoryRollingWindow(t *testing.T) {
	// Each step makes n requests at t0+at under 60 per minute; the first
	// `allowed` of them must succeed and the rest be refused. The last
	// decision of the step must have the listed remaining, reset and
	// retryAfter (offsets from t0).
	type step struct {
		at         time.Duration
		n          int
		allowed    int
		remaining  int
		reset      time.Duration
		retryAfter time.Duration
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the 61st waits exactly until the oldest leaves", []step{
			{at: 0, n: 1, allowed: 1, remaining: 59, reset: time.Minute},
			{at: 10 * time.Second, n: 59, allowed: 59, remaining: 0, reset: time.Minute},
			{at: 10 * time.Second, n: 1, allowed: 0, remaining: 0, reset: time.Minute, retryAfter: 50 * time.Second},
			{at: time.Minute - time.Nanosecond, n: 1, allowed: 0, remaining: 0, reset: time.Minute, retryAfter: time.Nanosecond},
			// One slot freed at exactly oldest+60s; the next frees when the
			// requests of t=10s leave.
			{at: time.Minute, n: 2, allowed: 1, remaining: 0, reset: 70 * time.Second, retryAfter: 10 * time.Second},
		}},
		{"rolling, not fixed: 30 before and 30 just across a boundary", []step{
			{at: 0, n: 30, allowed: 30, remaining: 30, reset: time.Minute},
			{at: 59 * time.Second, n: 30, allowed: 30, remaining: 0, reset: time.Minute},
			// A fixed window would allow 60 here; only the 30 of t=0 have left.
			{at: time.Minute, n: 31, allowed: 30, remaining: 0, reset: 119 * time.Second, retryAfter: 59 * time.Second},
			{at: 119*time.Second - time.Nanosecond, n: 1, allowed: 0, remaining: 0, reset: 119 * time.Second, retryAfter: time.Nanosecond},
			{at: 119 * time.Second, n: 31, allowed: 30, remaining: 0, reset: 120 * time.Second, retryAfter: time.Second},
		}},
		{"refused requests do not consume slots", []step{
			{at: 0, n: 60, allowed: 60, remaining: 0, reset: time.Minute},
			{at: 30 * time.Second, n: 1000, allowed: 0, remaining: 0, reset: time.Minute, retryAfter: 30 * time.Second},
			{at: time.Minute, n: 60, allowed: 60, remaining: 0, reset: 2 * time.Minute},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			m := NewMemory(clock.Now, 0)
			for i, st := range tt.steps {
				clock.Set(st.at)
				var d Decision
				for j := range st.n {
					var err error
					d, err = m.Allow(context.Background(), "key_a", DefaultLimit, DefaultWindow)
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if want := j < st.allowed; d.Allowed != want {
						t.Fatalf("step %d, request %d: Allowed = %v, want %v", i, j, d.Allowed, want)
					}
					checkInvariants(t, d, clock.Now())
				}
				if d.Remaining != st.remaining {
					t.Errorf("step %d: Remaining = %d, want %d", i, d.Remaining, st.remaining)
				}
				if want := t0.Add(st.reset); !d.Reset.Equal(want) {
					t.Errorf("step %d: Reset = t0+%v, want t0+%v", i, d.Reset.Sub(t0), st.reset)
				}
				if d.RetryAfter != st.retryAfter {
					t.Errorf("step %d: RetryAfter = %v, want %v", i, d.RetryAfter, st.retryAfter)
				}
			}
		})
	}
}

// checkInvariants checks what holds for every decision of every store.
func checkInvariants(t *testing.T, d Decision, now time.Time) {
	t.Helper()
	if d.Remaining < 0 || d.Remaining > d.Limit {
		t.Errorf("Remaining = %d outside [0, %d]", d.Remaining, d.Limit)
	}
	if d.Allowed && d.RetryAfter != 0 {
		t.Errorf("allowed with RetryAfter = %v", d.RetryAfter)
	}
	if !d.Allowed && (d.RetryAfter <= 0 || d.Remaining != 0) {
		t.Errorf("refused with RetryAfter = %v, Remaining = %d", d.RetryAfter, d.Remaining)
	}
	if !d.Allowed && !d.Reset.Equal(now.Add(d.RetryAfter)) {
		t.Errorf("refused: Reset = %v, want now+RetryAfter = %v", d.Reset, now.Add(d.RetryAfter))
	}
}

func TestMemoryRemainingCountsDown(t *testing.T) {
	m := NewMemory(newFakeClock().Now, 0)
	for i := range 65 {
		d, err := m.Allow(context.Background(), "key_a", 60, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if want := max(59-i, 0); d.Remaining != want {
			t.Fatalf("request %d: Remaining = %d, want %d", i+1, d.Remaining, want)
		}
	}
}

func TestMemoryKeysAreIndependent(t *testing.T) {
	m := NewMemory(newFakeClock().Now, 0)
	ctx := context.Background()
	for range 3 {
		if _, err := m.Allow(ctx, "key_a", 3, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if d, _ := m.Allow(ctx, "key_a", 3, time.Minute); d.Allowed {
		t.Fatal("key_a: 4th request allowed under a limit of 3")
	}
	d, _ := m.Allow(ctx, "key_b", 3, time.Minute)
	if !d.Allowed || d.Remaining != 2 {
		t.Fatalf("key_b after key_a is exhausted: %+v, want allowed with 2 remaining", d)
	}
}

func TestMemoryLimitChanges(t *testing.T) {
	clock := newFakeClock()
	m := NewMemory(clock.Now, 0)
	ask := func(at time.Duration, limit int) Decision {
		t.Helper()
		clock.Set(at)
		d, err := m.Allow(context.Background(), "key_a", limit, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for i := range 10 { // one request a second at t=0..9s
		if d := ask(time.Duration(i)*time.Second, 10); !d.Allowed {
			t.Fatalf("request %d refused under a limit of 10", i)
		}
	}
	tests := []struct {
		name       string
		at         time.Duration
		limit      int
		allowed    bool
		remaining  int
		reset      time.Duration
		retryAfter time.Duration
	}{
		// 10 counted, limit 5: the count drops below 5 when the 6th (t=5s) leaves.
		{"lowered below the count", 10 * time.Second, 5, false, 0, 65 * time.Second, 55 * time.Second},
		{"lowered, just before a slot frees", 65*time.Second - time.Nanosecond, 5, false, 0, 65 * time.Second, time.Nanosecond},
		{"lowered, slot freed", 65 * time.Second, 5, true, 0, 66 * time.Second, 0},
		{"raised again", 65 * time.Second, 8, true, 2, 66 * time.Second, 0},
	}
	for _, tt := range tests {
		d := ask(tt.at, tt.limit)
		if d.Allowed != tt.allowed || d.Limit != tt.limit || d.Remaining != tt.remaining ||
			!d.Reset.Equal(t0.Add(tt.reset)) || d.RetryAfter != tt.retryAfter {
			t.Errorf("%s: got allowed=%v limit=%d remaining=%d reset=t0+%v retryAfter=%v, want %v %d %d t0+%v %v",
				tt.name, d.Allowed, d.Limit, d.Remaining, d.Reset.Sub(t0), d.RetryAfter,
				tt.allowed, tt.limit, tt.remaining, tt.reset, tt.retryAfter)
		}
	}
}

func TestMemoryConcurrentRequestsAreExact(t *testing.T) {
	m := NewMemory(newFakeClock().Now, 0)
	const limit, goroutines, each = 60, 32, 20
	var allowed [2]atomic.Int64
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				key := g % 2 // two keys interleaved, each asked 320 times
				d, err := m.Allow(context.Background(), "key_"+strconv.Itoa(key), limit, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					allowed[key].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for key := range allowed {
		if got := allowed[key].Load(); got != limit {
			t.Errorf("key_%d: %d of %d concurrent requests allowed, want exactly %d", key, got, goroutines/2*each, limit)
		}
	}
}

func TestMemoryKeyCountIsBounded(t *testing.T) {
	tests := []struct{ maxKeys, keys int }{
		{1, 100}, {10, 1000}, {128, 10_000}, {1000, 50_000},
	}
	for _, tt := range tests {
		m := NewMemory(newFakeClock().Now, tt.maxKeys)
		for i := range tt.keys {
			if d, _ := m.Allow(context.Background(), "ip:"+strconv.Itoa(i), 60, time.Minute); !d.Allowed {
				t.Fatalf("maxKeys %d: a new key was refused", tt.maxKeys)
			}
			if i%100 == 0 || i == tt.keys-1 {
				if n := m.Len(); n > tt.maxKeys {
					t.Fatalf("maxKeys %d: %d keys tracked after %d", tt.maxKeys, n, i+1)
				}
			}
		}
	}
}

func TestMemoryIdleKeysAreSwept(t *testing.T) {
	clock := newFakeClock()
	m := NewMemory(clock.Now, 0)
	ctx := context.Background()
	for i := range 5000 {
		_, _ = m.Allow(ctx, "old:"+strconv.Itoa(i), 60, time.Minute)
	}
	if n := m.Len(); n != 5000 {
		t.Fatalf("tracked %d keys, want 5000", n)
	}
	// At t0+60s every old key is idle; traffic in every shard drops them.
	clock.Set(time.Minute)
	for i := range 5000 {
		_, _ = m.Allow(ctx, "new:"+strconv.Itoa(i), 60, time.Minute)
	}
	if n := m.Len(); n != 5000 {
		t.Fatalf("tracked %d keys after the old ones went idle, want the 5000 new ones", n)
	}
}

func TestMemoryEvictsIdleKeysFirst(t *testing.T) {
	clock := newFakeClock()
	m := NewMemory(clock.Now, 2*maxShards) // two keys per shard
	ctx := context.Background()
	// Pick keys that land in the same shard as "hot".
	shard := func(k string) uint64 { return maphash.String(m.seed, k) % uint64(len(m.shards)) }
	var same []string
	for i := 0; len(same) < 3; i++ {
		if k := "k" + strconv.Itoa(i); shard(k) == shard("hot") {
			same = append(same, k)
		}
	}
	idle, new1, new2 := same[0], same[1], same[2]
	allow := func(at time.Duration, key string) Decision {
		t.Helper()
		clock.Set(at)
		d, err := m.Allow(ctx, key, 3, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	allow(0, idle)
	for range 3 {
		allow(30*time.Second, "hot")
	}
	// idle is idle from t=60s; the shard is full when new1 arrives at t=61s:
	// idle must go, not hot, whose budget is still spent.
	allow(61*time.Second, new1)
	if d := allow(61*time.Second, "hot"); d.Allowed {
		t.Fatal("hot was evicted while an idle key was there to drop")
	}
	// Shard full of active keys: the one closest to idle (hot) is evicted and
	// its next request gets a fresh budget, the documented leniency.
	allow(62*time.Second, new2)
	if d := allow(62*time.Second, "hot"); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("hot after eviction: %+v, want a fresh budget", d)
	}
}

// BenchmarkMemoryAllow measures Allow from parallel goroutines over 10,000
// keys against a baseline of the cheapest possible limiter (a fixed-window
// counter: one map increment under one mutex), and reports the ratio.
func BenchmarkMemoryAllow(b *testing.B) {
	keys := make([]string, 10_000)
	for i := range keys {
		keys[i] = "key_" + strconv.Itoa(i)
	}
	base := baselines{}
	b.Run("baseline=mutex-map-counter", func(b *testing.B) {
		var mu sync.Mutex
		counts := make(map[string]int)
		var next atomic.Uint64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				k := keys[next.Add(1)%uint64(len(keys))]
				mu.Lock()
				counts[k]++
				mu.Unlock()
			}
		})
		base.record(b)
	})
	rules := []struct {
		name   string
		limit  int
		window time.Duration
	}{
		// Every request is allowed and recorded; each key holds ~100 stamps.
		{"allowed", 1_000_000, time.Second},
		// Every key is exhausted after its first request.
		{"refused", 1, time.Hour},
	}
	for _, r := range rules {
		b.Run(r.name, func(b *testing.B) {
			m := NewMemory(nil, 0)
			var next atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					k := keys[next.Add(1)%uint64(len(keys))]
					if _, err := m.Allow(context.Background(), k, r.limit, r.window); err != nil {
						b.Error(err)
						return
					}
				}
			})
			base.report(b)
		})
	}
}

// baselines keeps a baseline's ns/op per GOMAXPROCS, so that the ratios
// stay right when -cpu runs a benchmark at several settings.
type baselines map[int]float64

func (bs baselines) record(b *testing.B) {
	bs[runtime.GOMAXPROCS(0)] = nsPerOp(b)
}

// report reports ns/op relative to the baseline measured in the same run
// (absent when -bench filtered the baseline out).
func (bs baselines) report(b *testing.B) {
	if base := bs[runtime.GOMAXPROCS(0)]; base > 0 {
		b.ReportMetric(nsPerOp(b)/base, "x-baseline")
	}
}

func nsPerOp(b *testing.B) float64 {
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}
