package meter

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"parapet/models"
)

// Quota reserves a call's worst case against its organization's monthly
// tokens before the upstream is called, atomically across instances, and
// settles the hold to the real usage afterwards. With Redis (REDIS_URL) a
// Lua script does both; without it, one conditional UPDATE in the database
// reserves and the usage record's transaction settles. Either way any
// number of parallel calls overspend by at most one call's hold: the one
// whose real usage outgrew its estimate.
type Quota struct {
	db    *models.DB
	redis redis.UniversalClient // nil: the database holds the reservations
	log   *slog.Logger
}

// Hold is one call's reservation.
type Hold struct {
	ID     string
	OrgID  string
	Period string
	Tokens int64
	inDB   bool // held in the database (settled by the record), else in Redis
}

// NewQuota reserves in Redis when rc is not nil, else in the database.
func NewQuota(db *models.DB, rc redis.UniversalClient, log *slog.Logger) *Quota {
	return &Quota{db: db, redis: rc, log: log}
}

// reserve holds n tokens for orgID this month, within monthly; used is the
// month's usage as the database last said (Redis starts its count from
// it). It returns the hold and the tokens left after it, or
// models.ErrQuotaFull. A Redis that fails falls back to the database.
func (q *Quota) reserve(ctx context.Context, orgID string, n, monthly, used int64, now time.Time, ttl time.Duration) (Hold, int64, error) {
	h := Hold{ID: models.NewID("hold"), OrgID: orgID, Period: models.Period(now), Tokens: n}
	if q.redis != nil {
		left, err := q.reserveRedis(ctx, h, monthly, used, ttl)
		if err == nil || errors.Is(err, models.ErrQuotaFull) {
			return h, left, err
		}
		q.log.Warn("quota reservation in Redis failed; using the database", "error", err)
	}
	h.inDB = true
	mh := models.Hold{ID: h.ID, OrgID: orgID, ProductID: models.GatewayProductID, Period: h.Period, Tokens: n, ExpiresAt: now.Add(ttl)}
	left, err := models.ReserveQuota(ctx, q.db.DB, mh, monthly)
	if errors.Is(err, models.ErrQuotaFull) {
		// Holds of an instance that crashed may be taking the room.
		if released, rerr := models.ReleaseExpiredHolds(ctx, q.db.DB, orgID, models.GatewayProductID, now); rerr == nil && released > 0 {
			left, err = models.ReserveQuota(ctx, q.db.DB, mh, monthly)
		}
	}
	return h, left, err
}

// settle ends a Redis hold, counting the call's real usage; a database
// hold is settled by the call's usage record instead.
func (q *Quota) settle(ctx context.Context, h Hold, used int64) {
	if h.inDB || h.ID == "" {
		return
	}
	keys := redisKeys(h.OrgID, h.Period)
	if err := settleScript.Run(ctx, q.redis, keys, h.ID, used).Err(); err != nil {
		q.log.Warn("settling a quota hold in Redis failed; it expires by itself", "error", err)
	}
}

// Redis keeps per organization and month: the tokens used (started from
// the database's count, then advanced by every settled call), and the live
// holds (a sorted set by expiry, with their sizes in a hash). The keys
// share one hash tag so a cluster keeps them on one node.
func redisKeys(orgID, period string) []string {
	tag := "parapet:quota:{" + orgID + ":" + period + "}:"
	return []string{tag + "used", tag + "holds", tag + "sizes"}
}

// redisTTL keeps a month's keys a little past the month.
const redisTTL = 40 * 24 * time.Hour

// reserveScript: ARGV hold id, tokens, monthly, used (database), hold ttl
// ms, key ttl s. Returns {1, left} or {0, left}.
var reserveScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local used = redis.call('GET', KEYS[1])
if not used then
  used = ARGV[4]
  redis.call('SET', KEYS[1], used, 'EX', ARGV[6])
end
used = tonumber(used)
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('HDEL', KEYS[3], unpack(expired))
end
local held = 0
for _, v in ipairs(redis.call('HVALS', KEYS[3])) do held = held + tonumber(v) end
local n = tonumber(ARGV[2])
local monthly = tonumber(ARGV[3])
if used + held + n > monthly then
  return {0, monthly - used - held}
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], n)
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[6])
return {1, monthly - used - held - n}
`)

// settleScript: ARGV hold id, tokens used. The usage counts even when the
// hold had expired meanwhile.
var settleScript = redis.NewScript(`
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[2])
end
return 1
`)

func (q *Quota) reserveRedis(ctx context.Context, h Hold, monthly, used int64, ttl time.Duration) (int64, error) {
	res, err := reserveScript.Run(ctx, q.redis, redisKeys(h.OrgID, h.Period),
		h.ID, h.Tokens, monthly, used, ttl.Milliseconds(), strconv.Itoa(int(redisTTL.Seconds()))).Int64Slice()
	if err != nil {
		return 0, err
	}
	if len(res) != 2 {
		return 0, errors.New("unexpected answer from the quota script")
	}
	if res[0] == 0 {
		return res[1], models.ErrQuotaFull
	}
	return res[1], nil
}
