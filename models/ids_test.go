package models

import (
	"regexp"
	"testing"
	"time"
)

// An event id sorts by its time, whatever the random part, and ids made in
// the same millisecond still differ.
func TestNewEventIDSortsByTime(t *testing.T) {
	shape := regexp.MustCompile(`^evt_[0-9A-Za-z]{20}$`)
	t0 := time.Date(2026, 11, 28, 23, 59, 59, 999_000_000, time.UTC)
	prev := ""
	for i := range 2000 {
		id := NewEventID(t0.Add(time.Duration(i) * time.Millisecond))
		if !shape.MatchString(id) {
			t.Fatalf("id %q is not evt_ and 20 base62 characters", id)
		}
		if id <= prev {
			t.Fatalf("id %q made later sorts before %q", id, prev)
		}
		prev = id
	}
	seen := map[string]bool{}
	for range 10000 {
		id := NewEventID(t0)
		if seen[id] {
			t.Fatalf("id %q made twice in one millisecond", id)
		}
		seen[id] = true
	}
}
