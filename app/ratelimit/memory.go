package ratelimit

import (
	"container/heap"
	"context"
	"hash/maphash"
	"sync"
	"time"
)

// DefaultMaxKeys bounds how many keys a Memory tracks when NewMemory is given
// no maximum. A key costs about 100 bytes plus 8 per counted request.
const DefaultMaxKeys = 100_000

// maxShards spreads keys over independent mutexes so concurrent requests of
// different keys rarely wait for each other.
const maxShards = 64

// minRing is the first ring size of a key: most keys never come near their
// limit, so rings start small and grow up to the limit.
const minRing = 4

// Memory is a Limiter for a single process: per key, a ring buffer of the
// times of its allowed requests.
//
// Memory is bounded. A key whose newest counted request has left its window
// is idle: forgetting it loses nothing, and idle keys are dropped lazily as
// requests arrive in their shard. If a shard is still full when a new key
// arrives, the key closest to going idle is evicted; that key's next request
// then starts with a fresh budget. So the bound can only make the limiter more
// lenient, never refuse wrongly, and only when more than maxKeys keys are
// active within their window at once.
type Memory struct {
	now    Clock
	epoch  time.Time
	seed   maphash.Seed
	shards []memShard
}

// NewMemory returns a Memory reading time from now (nil: time.Now) that
// tracks at most maxKeys keys (<= 0: DefaultMaxKeys).
func NewMemory(now Clock, maxKeys int) *Memory {
	if now == nil {
		now = time.Now
	}
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	m := &Memory{
		now:    now,
		epoch:  now(),
		seed:   maphash.MakeSeed(),
		shards: make([]memShard, min(maxKeys, maxShards)),
	}
	// Share maxKeys out exactly, so the total never exceeds it.
	n := len(m.shards)
	for i := range m.shards {
		m.shards[i].maxKeys = maxKeys / n
		if i < maxKeys%n {
			m.shards[i].maxKeys++
		}
		m.shards[i].logs = make(map[string]*slidingLog)
	}
	return m
}

// Allow implements Limiter. It never returns an error for a valid rule.
func (m *Memory) Allow(_ context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if err := checkRule(limit, window); err != nil {
		return Decision{}, err
	}
	wall := m.now()
	// Stamps are nanoseconds since epoch: 8 bytes each, and measured on the
	// monotonic clock when the Clock provides one, so a wall-clock step
	// cannot stretch or shrink a window.
	now := int64(wall.Sub(m.epoch))
	win := int64(window)

	s := &m.shards[maphash.String(m.seed, key)%uint64(len(m.shards))]
	s.mu.Lock()
	defer s.mu.Unlock()

	s.sweep(now)
	l := s.logs[key]
	if l == nil {
		l = s.add(key)
	}
	// A request at t counts while now < t+window: at exactly t+window it is out.
	l.expire(now - win)
	allowed := l.n < limit
	if allowed {
		l.push(now, limit)
	}
	s.setIdleAt(l, l.at(l.n-1)+win)

	// With n requests counted, the count drops below limit when entry n-limit
	// leaves the window; while n < limit, the next slot to free is the oldest.
	// Entries beyond the limit exist only after the limit was lowered.
	frees := l.at(max(l.n-limit, 0)) + win
	d := Decision{
		Allowed:   allowed,
		Limit:     limit,
		Remaining: max(limit-l.n, 0),
		Reset:     wall.Add(time.Duration(frees - now)),
	}
	if !allowed {
		d.RetryAfter = time.Duration(frees - now)
	}
	return d, nil
}

// Len reports how many keys are tracked.
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		s := &m.shards[i]
		s.mu.Lock()
		n += len(s.logs)
		s.mu.Unlock()
	}
	return n
}

type memShard struct {
	mu      sync.Mutex
	maxKeys int
	logs    map[string]*slidingLog
	// idle orders the shard's keys by when they go idle, soonest first, so
	// sweeping and eviction are O(log n) and exact even when keys use
	// different windows.
	idle idleHeap
}

// sweep forgets the keys that are idle at now.
func (s *memShard) sweep(now int64) {
	for len(s.idle) > 0 && s.idle[0].idleAt <= now {
		s.dropFirst()
	}
}

func (s *memShard) add(key string) *slidingLog {
	if len(s.logs) >= s.maxKeys {
		s.dropFirst()
	}
	l := &slidingLog{key: key}
	s.logs[key] = l
	heap.Push(&s.idle, l)
	return l
}

// dropFirst forgets the key that goes idle soonest.
func (s *memShard) dropFirst() {
	l := heap.Pop(&s.idle).(*slidingLog)
	delete(s.logs, l.key)
}

func (s *memShard) setIdleAt(l *slidingLog, t int64) {
	if l.idleAt != t {
		l.idleAt = t
		heap.Fix(&s.idle, l.index)
	}
}

// slidingLog holds the times of one key's counted requests, oldest first, in
// a ring buffer that grows up to the key's limit and never beyond.
type slidingLog struct {
	key     string
	stamps  []int64
	head, n int
	idleAt  int64 // newest stamp + window: from then on nothing counts
	index   int   // position in memShard.idle
}

func (l *slidingLog) at(i int) int64 {
	return l.stamps[(l.head+i)%len(l.stamps)]
}

// expire drops the stamps at or before cutoff.
func (l *slidingLog) expire(cutoff int64) {
	for l.n > 0 && l.stamps[l.head] <= cutoff {
		l.head = (l.head + 1) % len(l.stamps)
		l.n--
	}
}

// push appends t; the caller has checked n < limit.
func (l *slidingLog) push(t int64, limit int) {
	if l.n == len(l.stamps) {
		grown := make([]int64, min(max(2*len(l.stamps), minRing), limit))
		for i := range l.n {
			grown[i] = l.at(i)
		}
		l.stamps, l.head = grown, 0
	}
	l.stamps[(l.head+l.n)%len(l.stamps)] = t
	l.n++
}

// idleHeap is a container/heap of logs, soonest idleAt first.
type idleHeap []*slidingLog

func (h idleHeap) Len() int           { return len(h) }
func (h idleHeap) Less(i, j int) bool { return h[i].idleAt < h[j].idleAt }
func (h idleHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *idleHeap) Push(x any) {
	l := x.(*slidingLog)
	l.index = len(*h)
	*h = append(*h, l)
}

func (h *idleHeap) Pop() any {
	old := *h
	l := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return l
}
