package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"parapet/app/ratelimit"
)

// quietRedisLog drops go-redis's own dial-error lines: while Redis is down
// the limiter's fallback reports it, once a minute, instead of every call.
type quietRedisLog struct{}

func (quietRedisLog) Printf(context.Context, string, ...any) {}

// newLimiter is the in-memory limiter for one instance, or, with REDIS_URL,
// the Redis limiter every instance shares, falling back to memory while
// Redis is unreachable.
func newLimiter(redisURL, prefix string, log *slog.Logger) (ratelimit.Limiter, *redis.Client, error) {
	mem := ratelimit.NewMemory(nil, 0)
	if redisURL == "" {
		return mem, nil, nil
	}
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	// Without this, go-redis ignores context deadlines and a Redis that
	// accepts connections but never answers would stall requests.
	opts.ContextTimeoutEnabled = true
	redis.SetLogger(quietRedisLog{})
	client := redis.NewClient(opts)
	return ratelimit.NewFallback(ratelimit.NewRedis(client, prefix), mem, log, nil), client, nil
}
