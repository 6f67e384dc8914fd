package meter

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"parapet/models"
)

// Quota reserves a call's worst case against its organization's monthly
// tokens before the upstream is called, atomically across instances, and
// settles the hold to the real usage afterwards. With Redis (REDIS_URL) a
// Lua script does both, per call. Without it, the database does, with one
// conditional UPDATE; to keep that write off most calls, an instance
// reserves a lease — the call's worst case plus up to an eighth of what is
// left, at most LeaseMaxTokens — and serves the next calls' reservations
// from it in memory for LeaseWindow, then gives back what is unused. The
// usage record's transaction moves each call's real usage from the
// lease's reservation to the month's usage. Either way reservations never
// exceed the quota, so any number of parallel calls overspend by at most
// one call's reservation: the one whose real usage outgrew its estimate.
type Quota struct {
	db     *models.DB
	redis  redis.UniversalClient // nil: the database holds the reservations
	prefix string                // REDIS_PREFIX, before every key
	log    *slog.Logger
	rec    *Recorder // writes lease releases, after the usage queued before them

	mu       sync.Mutex
	leases   map[string]*lease   // the current lease per organization and month
	renewing map[string]*renewal // the lease being taken for a key
}

// renewal is a lease being taken: done is closed when it is in place or
// failed with err.
type renewal struct {
	done chan struct{}
	err  error
}

// Lease bounds (database reservations).
const (
	LeaseWindow    = time.Second
	LeaseMaxTokens = 100_000
)

// lease is tokens reserved in the database that this instance hands out to
// its calls.
type lease struct {
	id      string
	credit  int64 // reserved and not promised to a call
	left    int64 // the month's tokens neither used nor reserved, when leased
	inUse   int   // calls holding part of it
	retired bool  // no new calls: the credit goes back when inUse is 0
}

// Hold is one call's reservation.
type Hold struct {
	ID     string
	OrgID  string
	Period string
	Tokens int64
	lease  *lease // a database hold: part of this lease; else a Redis hold
}

// NewQuota reserves in Redis when rc is not nil (its keys after prefix),
// else in the database.
func NewQuota(db *models.DB, rc redis.UniversalClient, prefix string, log *slog.Logger, rec *Recorder) *Quota {
	return &Quota{db: db, redis: rc, prefix: prefix, log: log, rec: rec, leases: map[string]*lease{}, renewing: map[string]*renewal{}}
}

// reserve holds n tokens for orgID this month, within monthly; used is the
// month's usage as the database last said (Redis starts its count from
// it). It returns the hold and the tokens left after it, or
// models.ErrQuotaFull. A Redis that fails falls back to the database
// (which does not see the holds in Redis meanwhile: during an outage,
// instances may together overspend by the calls in flight).
func (q *Quota) reserve(ctx context.Context, orgID string, n, monthly, used int64, now time.Time, ttl time.Duration) (Hold, int64, error) {
	h := Hold{OrgID: orgID, Period: models.Period(now), Tokens: n}
	if q.redis != nil {
		h.ID = models.NewID("hold")
		left, err := q.reserveRedis(ctx, h, monthly, used, ttl)
		if err == nil || errors.Is(err, models.ErrQuotaFull) {
			return h, left, err
		}
		q.log.Warn("quota reservation in Redis failed; using the database", "error", err)
	}
	return q.reserveDB(ctx, h, monthly, used, now, ttl)
}

// reserveDB serves h from the current lease, or leases anew. One call at a
// time takes a new lease for a key; the calls that find the lease spent
// meanwhile wait for it rather than each writing a lease of its own: on a
// busy gateway the lease ran out under dozens of calls at once, which then
// queued for the database's writer behind the usage records.
func (q *Quota) reserveDB(ctx context.Context, h Hold, monthly, used int64, now time.Time, ttl time.Duration) (Hold, int64, error) {
	key := h.OrgID + "/" + h.Period
	for {
		q.mu.Lock()
		if l := q.leases[key]; l != nil && !l.retired && l.credit >= h.Tokens {
			l.credit -= h.Tokens
			l.inUse++
			h.ID, h.lease = l.id, l
			left := l.left + l.credit
			q.mu.Unlock()
			return h, left, nil
		}
		r := q.renewing[key]
		if r == nil {
			r = &renewal{done: make(chan struct{})}
			q.renewing[key] = r
			q.mu.Unlock()
			return q.renew(ctx, key, r, h, monthly, used, now, ttl)
		}
		q.mu.Unlock()
		select {
		case <-r.done:
			// A full quota may still hold a smaller call, and a renewal
			// its own caller gave up on tells nothing: try again. Any
			// other failure is the database's, and each waiting call
			// trying it in turn would only queue them behind it.
			if err := r.err; err != nil && !errors.Is(err, models.ErrQuotaFull) &&
				!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				return h, 0, err
			}
		case <-ctx.Done():
			return h, 0, ctx.Err()
		}
	}
}

// renew takes the lease of renewal r and then ends r, whatever happens,
// so that the calls waiting for it go on.
func (q *Quota) renew(ctx context.Context, key string, r *renewal, h Hold, monthly, used int64, now time.Time, ttl time.Duration) (_ Hold, left int64, err error) {
	defer func() {
		q.mu.Lock()
		delete(q.renewing, key)
		r.err = err
		q.mu.Unlock()
		close(r.done)
	}()
	return q.lease(ctx, key, h, monthly, used, now, ttl)
}

// lease reserves a new lease for key in the database, h's tokens taken
// from it, and makes it the key's current one.
func (q *Quota) lease(ctx context.Context, key string, h Hold, monthly, used int64, now time.Time, ttl time.Duration) (Hold, int64, error) {
	size := h.Tokens + min(LeaseMaxTokens, max(0, monthly-used-h.Tokens)/8)
	mh := models.Hold{ID: models.NewID("hold"), OrgID: h.OrgID, ProductID: models.GatewayProductID, Period: h.Period,
		Tokens: size, ExpiresAt: now.Add(LeaseWindow + ttl)}
	left, err := models.ReserveQuota(ctx, q.db.DB, mh, monthly)
	if errors.Is(err, models.ErrQuotaFull) && size > h.Tokens {
		mh.Tokens = h.Tokens // the usage read may be stale: try the call's own worst case
		left, err = models.ReserveQuota(ctx, q.db.DB, mh, monthly)
	}
	if errors.Is(err, models.ErrQuotaFull) {
		// Holds of an instance that crashed may be taking the room.
		if released, rerr := models.ReleaseExpiredHolds(ctx, q.db.DB, h.OrgID, models.GatewayProductID, now); rerr == nil && released > 0 {
			left, err = models.ReserveQuota(ctx, q.db.DB, mh, monthly)
		}
	}
	if err != nil {
		return h, left, err
	}
	credit := mh.Tokens - h.Tokens // read below: once published, l.credit is the lock's
	l := &lease{id: mh.ID, credit: credit, left: left, inUse: 1}
	var release *models.UsageRecord
	q.mu.Lock()
	if old := q.leases[key]; old != nil {
		release = q.retire(old)
	}
	q.leases[key] = l
	q.mu.Unlock()
	q.giveBack(release)
	time.AfterFunc(LeaseWindow, func() {
		q.mu.Lock()
		if q.leases[key] == l {
			delete(q.leases, key)
		}
		release := q.retire(l)
		q.mu.Unlock()
		q.giveBack(release)
	})
	h.ID, h.lease = l.id, l
	return h, left + credit, nil
}

// forget retires an organization's leases (its entitlement is gone).
func (q *Quota) forget(orgID string) {
	var releases []*models.UsageRecord
	q.mu.Lock()
	for key, l := range q.leases {
		if strings.HasPrefix(key, orgID+"/") {
			delete(q.leases, key)
			releases = append(releases, q.retire(l))
		}
	}
	q.mu.Unlock()
	q.giveBack(releases...)
}

// retire stops new calls on a lease and, once no call holds part of it,
// returns the record that gives its credit back (nil while calls hold
// some, or when there is none). Called with q.mu held; the caller queues
// the record with giveBack after unlocking, since the recorder writes it
// itself when its queue is full, and a database write must not hold every
// organization's reservations up.
func (q *Quota) retire(l *lease) *models.UsageRecord {
	l.retired = true
	if l.inUse > 0 || l.credit == 0 {
		return nil
	}
	credit := l.credit
	l.credit = 0
	return &models.UsageRecord{HoldID: l.id, HoldTokens: max(credit, 0)}
}

// giveBack queues the lease releases retire returned.
func (q *Quota) giveBack(releases ...*models.UsageRecord) {
	for _, r := range releases {
		if r == nil {
			continue
		}
		if err := q.rec.add(*r); err != nil {
			q.log.Warn("giving back a quota lease failed; it expires by itself", "error", err)
		}
	}
}

// settled returns what a call did not use of its database hold to the
// lease; the call's usage record takes the used part from the lease's
// reservation.
func (q *Quota) settled(h Hold, used int64) {
	var release *models.UsageRecord
	q.mu.Lock()
	h.lease.credit += h.Tokens - used
	h.lease.inUse--
	if h.lease.retired {
		release = q.retire(h.lease)
	}
	q.mu.Unlock()
	q.giveBack(release)
}

// settle ends a Redis hold, counting the call's real usage; a database
// hold is settled by the call's usage record instead.
func (q *Quota) settle(ctx context.Context, h Hold, used int64) {
	if h.ID == "" {
		return
	}
	if h.lease != nil {
		q.settled(h, used)
		return
	}
	keys := q.redisKeys(h.OrgID, h.Period)
	if err := settleScript.Run(ctx, q.redis, keys, h.ID, used).Err(); err != nil {
		q.log.Warn("settling a quota hold in Redis failed; it expires by itself", "error", err)
	}
}

// Redis keeps per organization and month: the tokens used (started from
// the database's count, then advanced by every settled call), and the live
// holds (a sorted set by expiry, with their sizes in a hash). The keys
// share one hash tag so a cluster keeps them on one node.
func (q *Quota) redisKeys(orgID, period string) []string {
	tag := q.prefix + "parapet:quota:{" + orgID + ":" + period + "}:"
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
	res, err := reserveScript.Run(ctx, q.redis, q.redisKeys(h.OrgID, h.Period),
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
