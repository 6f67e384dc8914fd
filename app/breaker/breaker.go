// Package breaker holds the gateway's circuit breakers, one per target
// (provider/model): it implements gateway.Breakers.
//
// Each instance counts the calls it makes itself (no shared write per
// call); when its counts open a breaker, the open deadline goes to the
// shared store — Redis when REDIS_URL is set, memory otherwise — and every
// instance sees it through a cached view refreshed at most every
// RefreshEvery. A call asks only that view, so a breaker costs no network
// round trip per call; after the cooldown, one probe is let through,
// claimed in the store so that one instance sends it.
package breaker

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// The rules.
const (
	ConsecutiveFailures = 5                // open after this many failures in a row
	WindowCalls         = 10               // or when more than half of at least this many calls…
	Window              = 30 * time.Second // …in this window failed
	FirstCooldown       = 30 * time.Second // without the provider's Retry-After
	MaxCooldown         = 5 * time.Minute  // the doubling stops here
	ProbeLease          = 30 * time.Second // a probe that never reports frees its claim after this
	RefreshEvery        = 100 * time.Millisecond
	storeTimeout        = time.Second // each read or write of the shared store
)

// State is one breaker's state as the store keeps it.
type State struct {
	Until    time.Time     // open until then; zero: closed
	Cooldown time.Duration // the last cooldown, doubled when a probe fails
}

// Store is where open breakers are shared.
type Store interface {
	// Load returns every open breaker.
	Load(ctx context.Context) (map[string]State, error)
	// Open opens key until s.Until unless it is already open longer:
	// a deadline only ever extends.
	Open(ctx context.Context, key string, s State) error
	// Close closes key (its probe succeeded).
	Close(ctx context.Context, key string) error
	// ClaimProbe reports whether this caller may send key's one probe.
	ClaimProbe(ctx context.Context, key string, lease time.Duration) (bool, error)
}

// Breakers implements gateway.Breakers over a Store.
type Breakers struct {
	store Store
	log   *slog.Logger

	mu     sync.Mutex
	view   map[string]State // the store's open breakers, as last loaded
	loaded time.Time
	// refreshing: a reload is running.
	refreshing bool
	counts     map[string]*counts
	probing    map[string]bool   // this instance holds key's probe
	writes     map[string]change // this instance's changes, kept over a load that began before them
	onChange   func(key, state string)
	shown      map[string]string
}

// change is a change this instance made to a breaker: nil state closed it.
type change struct {
	at    time.Time
	state *State
}

// counts is one instance's recent calls to a target.
type counts struct {
	consecutive    int
	start          time.Time // of the window
	calls, failers int
}

// New is the breakers over store, its view loaded once; onChange (may be
// nil) is told each key's state as this instance sees it change:
// "closed", "open" or "half_open" (for /metrics).
func New(store Store, log *slog.Logger, onChange func(key, state string)) *Breakers {
	b := &Breakers{store: store, log: log, view: map[string]State{}, counts: map[string]*counts{},
		probing: map[string]bool{}, writes: map[string]change{}, shown: map[string]string{}, refreshing: true, onChange: onChange}
	b.reload()
	return b
}

// refresh starts reloading the view when it is older than RefreshEvery,
// in the background: a call never waits for the store. b.mu is held.
func (b *Breakers) refresh(now time.Time) {
	if b.refreshing || now.Sub(b.loaded) < RefreshEvery {
		return
	}
	b.refreshing = true
	go b.reload()
}

// reload reads the store's open breakers into the view.
func (b *Breakers) reload() {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	began := time.Now()
	v, err := b.store.Load(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	// What this instance wrote while the load ran is newer than the load.
	for key, w := range b.writes {
		switch {
		case w.at.Before(began):
			delete(b.writes, key)
		case err != nil:
		case w.state == nil:
			delete(v, key)
		default:
			v[key] = *w.state
		}
	}
	b.refreshing, b.loaded = false, now
	if err != nil {
		// The last view stands: a store that is down lets calls through
		// rather than stopping the gateway.
		b.log.Warn("circuit breakers: store unreachable; using the last view", "error", err)
		return
	}
	b.view = v
	for key := range b.shown {
		b.show(key, now)
	}
	for key := range v {
		b.show(key, now)
	}
}

// show tells onChange key's state when it changed.
func (b *Breakers) show(key string, now time.Time) {
	st := "closed"
	if s, ok := b.view[key]; ok {
		st = "open"
		if !now.Before(s.Until) {
			st = "half_open"
		}
	}
	if b.shown[key] != st && b.onChange != nil {
		b.onChange(key, st)
	}
	b.shown[key] = st
}

// Allow lets a call through unless key is open; once its cooldown has
// ended, one probe (claimed in the store) goes through.
func (b *Breakers) Allow(key string, now time.Time) (bool, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refresh(now)
	s, open := b.view[key]
	if !open {
		return true, time.Time{}
	}
	if now.Before(s.Until) {
		return false, s.Until
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	ok, err := b.store.ClaimProbe(ctx, key, ProbeLease)
	if err != nil {
		b.log.Warn("circuit breakers: claiming a probe failed", "target", key, "error", err)
	}
	if !ok {
		return false, now.Add(time.Second) // another call is the probe
	}
	b.probing[key] = true
	b.show(key, now)
	return true, time.Time{}
}

// Done counts an attempt's end and opens, closes or extends key's
// breaker when it must.
func (b *Breakers) Done(key string, failed bool, retryAfter time.Duration, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.counts[key]
	if c == nil {
		c = &counts{start: now}
		b.counts[key] = c
	}
	if now.Sub(c.start) > Window {
		c.start, c.calls, c.failers = now, 0, 0
	}
	c.calls++
	probe := b.probing[key]
	delete(b.probing, key)
	if !failed {
		c.consecutive = 0
		if _, open := b.view[key]; open && probe {
			b.set(key, now, func(ctx context.Context) error { return b.store.Close(ctx, key) }, nil)
		}
		return
	}
	c.consecutive++
	c.failers++
	prev, open := b.view[key]
	var next State
	switch {
	case probe && open:
		// The probe failed: the cooldown doubles, up to MaxCooldown.
		next.Cooldown = min(MaxCooldown, max(prev.Cooldown*2, FirstCooldown))
	case retryAfter > 0:
		// The provider said when to come back: no call before then.
		next.Cooldown = max(prev.Cooldown, FirstCooldown)
	case !open && (c.consecutive >= ConsecutiveFailures || c.calls >= WindowCalls && 2*c.failers > c.calls):
		next.Cooldown = FirstCooldown
	default:
		return
	}
	wait := next.Cooldown
	if retryAfter > 0 {
		wait = retryAfter
	}
	next.Until = now.Add(wait)
	if open && prev.Until.After(next.Until) {
		next.Until = prev.Until // a deadline only ever extends
	}
	c.consecutive, c.start, c.calls, c.failers = 0, now, 0, 0
	b.set(key, now, func(ctx context.Context) error { return b.store.Open(ctx, key, next) }, &next)
}

// set writes a change to the store and to the view at once (the next
// refresh brings the other instances' changes). The store's deadline is
// made here, not by Done, which most calls leave without a change.
func (b *Breakers) set(key string, now time.Time, write func(context.Context) error, s *State) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := write(ctx); err != nil {
		b.log.Warn("circuit breakers: store write failed", "target", key, "error", err)
	}
	if s == nil {
		delete(b.view, key)
	} else {
		b.view[key] = *s
	}
	b.writes[key] = change{at: time.Now(), state: s}
	b.show(key, now)
}

// Snapshot is each breaker's state as this instance sees it now.
func (b *Breakers) Snapshot(now time.Time) map[string]State {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refresh(now)
	out := make(map[string]State, len(b.view))
	for k, v := range b.view {
		out[k] = v
	}
	return out
}
