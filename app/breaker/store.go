package breaker

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Memory is the store of one instance (no REDIS_URL).
type Memory struct {
	mu     sync.Mutex
	open   map[string]State
	probes map[string]time.Time // key's probe claimed until
}

// NewMemory is an empty memory store.
func NewMemory() *Memory {
	return &Memory{open: map[string]State{}, probes: map[string]time.Time{}}
}

func (m *Memory) Load(context.Context) (map[string]State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]State, len(m.open))
	for k, v := range m.open {
		out[k] = v
	}
	return out, nil
}

func (m *Memory) Open(_ context.Context, key string, s State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur, ok := m.open[key]; ok && cur.Until.After(s.Until) {
		s.Until = cur.Until
	}
	m.open[key] = s
	delete(m.probes, key)
	return nil
}

func (m *Memory) Close(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.open, key)
	delete(m.probes, key)
	return nil
}

func (m *Memory) ClaimProbe(_ context.Context, key string, lease time.Duration) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if until, ok := m.probes[key]; ok && now.Before(until) {
		return false, nil
	}
	m.probes[key] = now.Add(lease)
	return true, nil
}

// Redis is the store every instance shares: one hash of open breakers
// (target → "until_ms:cooldown_ms") and one key per claimed probe.
type Redis struct {
	rc     redis.UniversalClient
	hash   string
	prefix string
}

// NewRedis is the store in rc, its keys after prefix (REDIS_PREFIX).
func NewRedis(rc redis.UniversalClient, prefix string) *Redis {
	return &Redis{rc: rc, hash: prefix + "gateway:breakers", prefix: prefix + "gateway:breaker-probe:"}
}

func (r *Redis) Load(ctx context.Context) (map[string]State, error) {
	all, err := r.rc.HGetAll(ctx, r.hash).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]State, len(all))
	for k, v := range all {
		until, cooldown, ok := strings.Cut(v, ":")
		u, err1 := strconv.ParseInt(until, 10, 64)
		c, err2 := strconv.ParseInt(cooldown, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			continue // not ours: ignored rather than trusted
		}
		out[k] = State{Until: time.UnixMilli(u), Cooldown: time.Duration(c) * time.Millisecond}
	}
	return out, nil
}

// openScript sets a breaker's deadline unless the one stored is later:
// two instances opening it at once keep the longer.
var openScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur then
  local deadline = tonumber(string.match(cur, '^(%d+):'))
  if deadline and deadline > tonumber(ARGV[2]) then
    redis.call('HSET', KEYS[1], ARGV[1], deadline .. ':' .. ARGV[3])
    redis.call('DEL', KEYS[2])
    return 0
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[3])
redis.call('DEL', KEYS[2])
return 1
`)

func (r *Redis) Open(ctx context.Context, key string, s State) error {
	return openScript.Run(ctx, r.rc, []string{r.hash, r.prefix + key}, key,
		strconv.FormatInt(s.Until.UnixMilli(), 10), strconv.FormatInt(s.Cooldown.Milliseconds(), 10)).Err()
}

func (r *Redis) Close(ctx context.Context, key string) error {
	_, err := r.rc.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HDel(ctx, r.hash, key)
		p.Del(ctx, r.prefix+key)
		return nil
	})
	return err
}

func (r *Redis) ClaimProbe(ctx context.Context, key string, lease time.Duration) (bool, error) {
	ok, err := r.rc.SetNX(ctx, r.prefix+key, "1", lease).Result()
	if err != nil {
		return false, fmt.Errorf("claim probe: %w", err)
	}
	return ok, nil
}
