package ratelimit

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// t0 is an arbitrary start with a sub-second part, so rounding is exercised.
var t0 = time.Date(2026, 3, 4, 5, 6, 7, 250_000_000, time.UTC)

// fakeClock is a controllable Clock, starting at t0.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t0+offset.
func (c *fakeClock) Set(offset time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t0.Add(offset)
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// logRecorder is a slog.Handler that keeps every record for assertions.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *logRecorder) WithGroup(string) slog.Handler            { return h }

func (h *logRecorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}

// count returns how many records have this level and message.
func (h *logRecorder) count(level slog.Level, msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.records {
		if r.Level == level && r.Message == msg {
			n++
		}
	}
	return n
}

// testRedis returns a client for TEST_REDIS_URL and a key prefix unique to
// the test, whose keys are deleted when the test ends; it skips the test when
// TEST_REDIS_URL is unset.
func testRedis(tb testing.TB) (*redis.Client, string) {
	tb.Helper()
	url := os.Getenv("TEST_REDIS_URL")
	if url == "" {
		tb.Skip("TEST_REDIS_URL not set: skipping test against a real Redis (e.g. TEST_REDIS_URL=redis://127.0.0.1:6379/0)")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		tb.Fatalf("TEST_REDIS_URL: %v", err)
	}
	client := redis.NewClient(opts)
	ctx := context.Background()
	if err := client.Ping(ctx).Err(); err != nil {
		tb.Fatalf("TEST_REDIS_URL is set but Redis does not answer: %v", err)
	}
	prefix := DefaultRedisPrefix + "test:" + strconv.FormatUint(rand.Uint64(), 36) + ":"
	tb.Cleanup(func() {
		iter := client.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			if err := client.Del(ctx, iter.Val()).Err(); err != nil {
				tb.Errorf("cleaning up %s: %v", iter.Val(), err)
			}
		}
		if err := iter.Err(); err != nil {
			tb.Errorf("cleaning up %s*: %v", prefix, err)
		}
		_ = client.Close()
	})
	return client, prefix
}

// newRedisClient returns another client (another "instance") for the same
// server as c, closed when the test ends.
func newRedisClient(tb testing.TB, c *redis.Client) *redis.Client {
	tb.Helper()
	other := redis.NewClient(c.Options())
	tb.Cleanup(func() { _ = other.Close() })
	return other
}
