package ratelimit

import (
	"context"
	"slices"
	"testing"
	"time"

	"parapet/app/arrival"
)

// arrived is a request's context as the app makes it: it answers the time
// the request arrived.
type arrived struct {
	context.Context
	at time.Time
}

func (c arrived) Value(key any) any {
	if key == arrival.Key {
		return &c.at
	}
	return c.Context.Value(key)
}

// A request is counted at its arrival, not when it reaches the limiter,
// and requests that reach the limiter in another order than they arrived
// keep the log oldest first.
func TestMemoryCountsRequestsWhenTheyArrived(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	clock := t0.Add(30 * time.Second) // the limiter's own clock: read only outside a request
	m := NewMemory(func() time.Time { return clock }, 10)
	at := func(d time.Duration) context.Context { return arrived{context.Background(), t0.Add(d)} }

	for _, d := range []time.Duration{2 * time.Second, time.Second, 3 * time.Second} {
		if dec, _ := m.Allow(at(d), "k", 3, time.Minute); !dec.Allowed {
			t.Fatalf("request arrived at +%v refused", d)
		}
	}
	var l *slidingLog
	for i := range m.shards {
		if found := m.shards[i].logs["k"]; found != nil {
			l = found
		}
	}
	stamps := make([]int64, l.n)
	for i := range l.n {
		stamps[i] = l.at(i)
	}
	if !slices.IsSorted(stamps) {
		t.Fatalf("the log is not oldest first: %v", stamps)
	}
	// The window counts from the arrivals (+2s is the oldest stamp), not
	// from the limiter's clock (+30s): the first slot frees at +62s.
	dec, _ := m.Allow(at(10*time.Second), "k", 3, time.Minute)
	if dec.Allowed || dec.Reset.Sub(t0) != 62*time.Second {
		t.Fatalf("fourth request: allowed %v, reset +%v; want refused until +62s", dec.Allowed, dec.Reset.Sub(t0))
	}
	if dec, _ := m.Allow(at(62*time.Second), "k", 3, time.Minute); !dec.Allowed {
		t.Fatal("a request arrived once the oldest left the window was refused")
	}
}
