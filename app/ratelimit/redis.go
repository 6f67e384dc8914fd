package ratelimit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix namespaces the limiter's keys in a shared Redis.
const DefaultRedisPrefix = "parapet:rl:"

// allowScript decides one request atomically: Redis runs a script without
// interleaving other commands, so concurrent requests from any number of
// instances are counted exactly.
//
// Time comes from the Redis server (TIME), not from the callers, so instances
// with skewed clocks still agree on every window. Scores are microseconds
// since the Unix epoch (about 1.8e15, exact in a Lua double). The script
// calls TIME before writing, which needs effects replication: the only mode
// since Redis 7 and the default since Redis 5.
//
// KEYS[1]: sorted set of the key's allowed requests, scored by time.
// ARGV[1]: limit; ARGV[2]: window in µs; ARGV[3]: a member unique to this request.
// Returns {allowed (0/1), counted requests, µs when the next slot frees, now in µs}.
var allowScript = redis.NewScript(`
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  count = count + 1
  allowed = 1
end
local rank = math.max(count - limit, 0)
local frees = tonumber(redis.call('ZRANGE', KEYS[1], rank, rank, 'WITHSCORES')[2]) + window
return {allowed, count, frees, now}
`)

// Redis is a Limiter shared by every instance of the service: one sorted set
// per key, stored under prefix+key in plain text (keys are ids or IP
// addresses, never secrets), expiring one window after its newest request.
// Decisions are on the Redis server's clock, Reset included.
//
// Allow uses ctx for the round trip, but a go-redis client ignores context
// deadlines unless its options set ContextTimeoutEnabled. Set it: Fallback
// then bounds a call with its context alone; otherwise it has to run every
// call on a goroutine of its own to stop waiting, which costs latency.
type Redis struct {
	client   redis.UniversalClient
	prefix   string
	instance string // random per process, so members never collide across instances
	seq      atomic.Uint64
}

// NewRedis returns a Redis limiter on client; an empty prefix means
// DefaultRedisPrefix.
func NewRedis(client redis.UniversalClient, prefix string) *Redis {
	if prefix == "" {
		prefix = DefaultRedisPrefix
	}
	return &Redis{
		client:   client,
		prefix:   prefix,
		instance: strconv.FormatUint(rand.Uint64(), 36),
	}
}

// Allow implements Limiter. It returns an error when Redis cannot answer.
func (r *Redis) Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if err := checkRule(limit, window); err != nil {
		return Decision{}, err
	}
	// Round the window up to whole microseconds, the scores' unit.
	windowUS := int64((window + time.Microsecond - 1) / time.Microsecond)
	member := r.instance + ":" + strconv.FormatUint(r.seq.Add(1), 36)
	res, err := allowScript.Run(ctx, r.client, []string{r.prefix + key}, limit, windowUS, member).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: redis: %w", err)
	}
	if len(res) != 4 {
		return Decision{}, fmt.Errorf("ratelimit: redis: script returned %d values, want 4", len(res))
	}
	allowed, count, freesUS, nowUS := res[0] == 1, int(res[1]), res[2], res[3]
	d := Decision{
		Allowed:   allowed,
		Limit:     limit,
		Remaining: max(limit-count, 0),
		Reset:     time.UnixMicro(freesUS),
	}
	if !allowed {
		d.RetryAfter = time.Duration(freesUS-nowUS) * time.Microsecond
	}
	return d, nil
}

// honoursDeadlines reports whether the client gives up when a call's context
// ends, which go-redis does only with ContextTimeoutEnabled.
func (r *Redis) honoursDeadlines() bool {
	switch c := r.client.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}
