package metrics

import "github.com/prometheus/client_golang/prometheus"

// The routing series, by target: provider and the provider's model as
// GATEWAY_CONFIG names them ("*" for the one provider without it), a set
// the configuration bounds.
var (
	// GatewayTargetCalls counts attempts at each target by outcome: ok,
	// failed (the provider's failure, which its breaker counts) or
	// refused (an answer to the caller's error, or the caller leaving).
	GatewayTargetCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "parapet_gateway_target_calls_total",
		Help: "Gateway attempts at each provider and model, by outcome (ok, failed, refused).",
	}, []string{"provider", "model", "outcome"})

	// GatewayTargetSeconds is each attempt's latency.
	GatewayTargetSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "parapet_gateway_target_seconds",
		Help:    "Latency of gateway attempts at each provider and model.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600},
	}, []string{"provider", "model"})

	// GatewayBreakerState is each target's circuit breaker as this
	// instance sees it: 0 closed, 1 open, 2 half open (its probe may go).
	GatewayBreakerState = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "parapet_gateway_breaker_state",
		Help: "Circuit breaker of each gateway target: 0 closed, 1 open, 2 half open.",
	}, []string{"provider", "model"})
)

func init() {
	Registry.MustRegister(GatewayTargetCalls, GatewayTargetSeconds, GatewayBreakerState)
}
