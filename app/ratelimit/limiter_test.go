package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestInvalidRule(t *testing.T) {
	limiters := map[string]Limiter{
		"memory":   NewMemory(nil, 0),
		"redis":    NewRedis(nil, ""), // rejected before Redis is touched
		"fallback": NewFallback(NewMemory(nil, 0), NewMemory(nil, 0), nil, nil),
	}
	rules := []struct {
		limit  int
		window time.Duration
	}{{0, time.Minute}, {-1, time.Minute}, {60, 0}, {60, -time.Second}}
	for name, l := range limiters {
		for _, r := range rules {
			if _, err := l.Allow(context.Background(), "key_a", r.limit, r.window); !errors.Is(err, ErrInvalidRule) {
				t.Errorf("%s: Allow(limit %d, window %v) error = %v, want ErrInvalidRule", name, r.limit, r.window, err)
			}
		}
	}
}
