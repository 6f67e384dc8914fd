package throttle

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis keeps the counters in Redis, under prefix.
type Redis struct {
	client redis.UniversalClient
	prefix string
}

// NewRedis counts in client; keys are prefix+"throttle:"+key.
func NewRedis(client redis.UniversalClient, prefix string) *Redis {
	return &Redis{client: client, prefix: prefix + "throttle:"}
}

// hitScript counts and starts the window on the first hit, atomically
// inside Redis; it returns the count and the milliseconds left.
var hitScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`)

// forgiveScript takes one back, never below zero.
var forgiveScript = redis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`)

// Hit implements Counter.
func (r *Redis) Hit(ctx context.Context, key string, limit int, window time.Duration) (Result, error) {
	v, err := hitScript.Run(ctx, r.client, []string{r.prefix + key}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return Result{}, err
	}
	now := time.Now()
	return result(int(v[0]), limit, now.Add(time.Duration(v[1])*time.Millisecond), now, window), nil
}

// Sweep implements Counter: Redis expires the keys itself.
func (r *Redis) Sweep(context.Context) error { return nil }

// Forgive implements Counter.
func (r *Redis) Forgive(ctx context.Context, key string) error {
	return forgiveScript.Run(ctx, r.client, []string{r.prefix + key}).Err()
}
