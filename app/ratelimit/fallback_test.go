package ratelimit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	msgDown = "rate limiter: redis unavailable, limiting from memory"
	msgBack = "rate limiter: redis back"
)

// togglePrimary stands in for Redis, the edge of the world, in the tests of
// the switching logic: it fails while down, waits for its context to end
// while hung, and otherwise allows everything with a Remaining of 42, so its
// answers are recognisable.
type togglePrimary struct {
	down, hang atomic.Bool
	calls      atomic.Int64
}

func (p *togglePrimary) Allow(ctx context.Context, _ string, limit int, _ time.Duration) (Decision, error) {
	p.calls.Add(1)
	if p.hang.Load() {
		<-ctx.Done()
		return Decision{}, ctx.Err()
	}
	if p.down.Load() {
		return Decision{}, errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")
	}
	return Decision{Allowed: true, Limit: limit, Remaining: 42}, nil
}

func TestFallbackSwitchesAndProbes(t *testing.T) {
	clock := newFakeClock()
	primary := &togglePrimary{}
	logs := &logRecorder{}
	f := NewFallback(primary, NewMemory(clock.Now, 0), slog.New(logs), clock.Now)

	// Each step sets the primary up or down, moves the clock, makes one
	// request, and checks who answered, how often the primary was called in
	// total, and how many warnings and recoveries were logged in total.
	steps := []struct {
		name        string
		down        bool
		advance     time.Duration
		fromPrimary bool
		calls       int64
		warns, back int
	}{
		{"healthy", false, 0, true, 1, 0, 0},
		{"redis dies", true, 0, false, 2, 1, 0},
		{"degraded: no probe within a second", true, 999 * time.Millisecond, false, 2, 1, 0},
		{"degraded: probe after a second, no second warning", true, time.Millisecond, false, 3, 1, 0},
		{"degraded: back up but not probed yet", false, 500 * time.Millisecond, false, 3, 1, 0},
		{"probe finds it back", false, 500 * time.Millisecond, true, 4, 1, 1},
		{"healthy again: every request asks redis", false, 0, true, 5, 1, 1},
		// A flap within a minute of the last warning is not reported, and
		// neither is its recovery.
		{"flaps down", true, 10 * time.Second, false, 6, 1, 1},
		{"flaps back", false, time.Second, true, 7, 1, 1},
		{"down a minute after the last warning", true, time.Minute, false, 8, 2, 1},
		{"still down a minute later: warned again", true, time.Minute, false, 9, 3, 1},
		{"back", false, time.Second, true, 10, 3, 2},
	}
	for _, st := range steps {
		primary.down.Store(st.down)
		clock.Advance(st.advance)
		d, err := f.Allow(context.Background(), "key_a", 1000, time.Hour)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := d.Remaining == 42; got != st.fromPrimary || !d.Allowed {
			t.Errorf("%s: %+v, want allowed and from primary = %v", st.name, d, st.fromPrimary)
		}
		if got := primary.calls.Load(); got != st.calls {
			t.Errorf("%s: primary called %d times, want %d", st.name, got, st.calls)
		}
		if w, b := logs.count(slog.LevelWarn, msgDown), logs.count(slog.LevelInfo, msgBack); w != st.warns || b != st.back {
			t.Errorf("%s: %d warnings and %d recoveries logged, want %d and %d", st.name, w, b, st.warns, st.back)
		}
	}
}

func TestFallbackAnswersFromMemoryWhenRedisIsDead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there any more: connection refused
	client := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = client.Close() })

	clock := newFakeClock()
	logs := &logRecorder{}
	f := NewFallback(NewRedis(client, ""), NewMemory(clock.Now, 0), slog.New(logs), clock.Now)
	for i := range 4 {
		d, err := f.Allow(context.Background(), "key_a", 3, time.Minute)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if d.Allowed != (i < 3) || d.Remaining != max(2-i, 0) {
			t.Fatalf("request %d: %+v, want the memory limiter's answer", i, d)
		}
	}
	if n := logs.count(slog.LevelWarn, msgDown); n != 1 {
		t.Errorf("%d warnings after the first requests, want 1", n)
	}
	clock.Advance(30 * time.Second)
	_, _ = f.Allow(context.Background(), "key_a", 3, time.Minute)
	if n := logs.count(slog.LevelWarn, msgDown); n != 1 {
		t.Errorf("%d warnings 30s into the outage, want 1", n)
	}
	clock.Advance(30 * time.Second)
	_, _ = f.Allow(context.Background(), "key_a", 3, time.Minute)
	if n := logs.count(slog.LevelWarn, msgDown); n != 2 {
		t.Errorf("%d warnings a minute into the outage, want 2", n)
	}
}

func TestFallbackDoesNotWaitForAHungRedis(t *testing.T) {
	// A server that accepts connections and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}
	}()

	// With go-redis defaults the client ignores context deadlines and would
	// wait 3s or more; Fallback must bound the call either way.
	for _, contextTimeouts := range []bool{false, true} {
		client := redis.NewClient(&redis.Options{Addr: ln.Addr().String(), ContextTimeoutEnabled: contextTimeouts})
		t.Cleanup(func() { _ = client.Close() })
		f := NewFallback(NewRedis(client, ""), NewMemory(nil, 0), slog.New(&logRecorder{}), nil)
		if f.direct != contextTimeouts {
			t.Errorf("ContextTimeoutEnabled %v: direct = %v", contextTimeouts, f.direct)
		}
		start := time.Now()
		d, err := f.Allow(context.Background(), "key_a", 3, time.Minute)
		if err != nil || !d.Allowed {
			t.Fatalf("ContextTimeoutEnabled %v: got %+v, %v; want an allowed decision from memory", contextTimeouts, d, err)
		}
		// primaryTimeout is 1s; the bound is loose so a slow machine
		// passes while a stall of go-redis's own timeouts does not.
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("ContextTimeoutEnabled %v: Allow took %v with a hung Redis", contextTimeouts, took)
		}
	}
}

func TestFallbackCallerCancellationIsNotAnOutage(t *testing.T) {
	clock := newFakeClock()
	primary := &togglePrimary{}
	logs := &logRecorder{}
	f := NewFallback(primary, NewMemory(clock.Now, 0), slog.New(logs), clock.Now)
	primary.hang.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := f.Allow(ctx, "key_a", 3, time.Minute)
	if err != nil || !d.Allowed || d.Remaining != 2 {
		t.Fatalf("got %+v, %v; want an allowed decision from memory", d, err)
	}
	if n := logs.count(slog.LevelWarn, msgDown); n != 0 {
		t.Errorf("%d warnings for a cancelled caller, want 0", n)
	}
	// Not degraded: with the clock standing still, only a healthy Fallback
	// asks the primary.
	primary.hang.Store(false)
	if d, _ := f.Allow(context.Background(), "key_a", 3, time.Minute); d.Remaining != 42 {
		t.Errorf("after a cancelled caller: %+v, want the primary's answer", d)
	}
}

// proxy forwards TCP connections to a target and can be stopped and started
// again on the same address, to take a real Redis away and bring it back.
type proxy struct {
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func (p *proxy) start(t *testing.T) {
	t.Helper()
	addr := p.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = in.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, in, out)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); _ = out.Close() }()
			go func() { _, _ = io.Copy(in, out); _ = in.Close() }()
		}
	}()
}

func (p *proxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.ln.Close()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

func TestFallbackWithRealRedisGoesAndComesBack(t *testing.T) {
	direct, prefix := testRedis(t)
	p := &proxy{target: direct.Options().Addr}
	p.start(t)
	t.Cleanup(p.stop)
	opts := *direct.Options()
	opts.Addr = p.addr
	client := redis.NewClient(&opts)
	t.Cleanup(func() { _ = client.Close() })

	clock := newFakeClock()
	logs := &logRecorder{}
	f := NewFallback(NewRedis(client, prefix), NewMemory(clock.Now, 0), slog.New(logs), clock.Now)
	ctx := context.Background()
	allow := func(wantRemaining int) {
		t.Helper()
		d, err := f.Allow(ctx, "key_a", 5, time.Minute)
		if err != nil || !d.Allowed || d.Remaining != wantRemaining {
			t.Fatalf("got %+v, %v; want allowed with %d remaining", d, err, wantRemaining)
		}
	}
	counted := func() int64 { return direct.ZCard(ctx, prefix+"key_a").Val() }

	allow(4)
	allow(3)
	if n := counted(); n != 2 {
		t.Fatalf("Redis counts %d requests, want 2", n)
	}

	p.stop()
	// Memory was kept warm with the two requests Redis allowed.
	allow(2)
	if n := logs.count(slog.LevelWarn, msgDown); n != 1 {
		t.Fatalf("%d warnings after Redis went away, want 1", n)
	}

	p.start(t)
	// The first probe may meet a pooled connection the proxy closed; go-redis
	// drops it, and a later probe succeeds.
	for range 5 {
		clock.Advance(probeEvery)
		if _, err := f.Allow(ctx, "key_a", 5, time.Minute); err != nil {
			t.Fatal(err)
		}
		if logs.count(slog.LevelInfo, msgBack) == 1 {
			break
		}
	}
	if n := logs.count(slog.LevelInfo, msgBack); n != 1 {
		t.Fatalf("%d recoveries logged after Redis came back, want 1", n)
	}
	if n := counted(); n != 3 {
		t.Errorf("Redis counts %d requests after recovery, want 3", n)
	}
}

// BenchmarkFallbackAllow measures the cost Fallback adds against the Redis
// limiter alone as baseline: with a client that ignores context deadlines
// (go-redis default) every call runs on a goroutine of its own; with
// ContextTimeoutEnabled it is called directly.
func BenchmarkFallbackAllow(b *testing.B) {
	client, prefix := testRedis(b)
	opts := *client.Options()
	opts.ContextTimeoutEnabled = true
	withTimeouts := redis.NewClient(&opts)
	b.Cleanup(func() { _ = withTimeouts.Close() })
	r := NewRedis(client, prefix)
	limiters := []struct {
		name string
		l    Limiter
	}{
		{"baseline=redis", r},
		{"fallback-default-client", NewFallback(r, NewMemory(nil, 0), nil, nil)},
		{"fallback-context-timeouts", NewFallback(NewRedis(withTimeouts, prefix), NewMemory(nil, 0), nil, nil)},
	}
	base := baselines{}
	for _, lim := range limiters {
		b.Run(lim.name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := lim.l.Allow(context.Background(), "key_a", DefaultLimit, DefaultWindow); err != nil {
						b.Error(err)
						return
					}
				}
			})
			if lim.l == Limiter(r) {
				base.record(b)
			} else {
				base.report(b)
			}
		})
	}
}
