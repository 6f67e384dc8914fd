package app

import (
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"

	"parapet/app/breaker"
	"parapet/app/metrics"
)

// newBreakers is the gateway's circuit breakers: shared by every instance
// through Redis when REDIS_URL is set, else this instance's own; their
// states go to /metrics.
func newBreakers(rc *redis.Client, prefix string, log *slog.Logger) *breaker.Breakers {
	var store breaker.Store = breaker.NewMemory()
	if rc != nil {
		store = breaker.NewRedis(rc, prefix)
	}
	return breaker.New(store, log, func(key, state string) {
		provider, model, _ := strings.Cut(key, "/")
		metrics.GatewayBreakerState.WithLabelValues(provider, model).Set(map[string]float64{"closed": 0, "open": 1, "half_open": 2}[state])
	})
}
