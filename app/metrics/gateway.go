package metrics

import "github.com/prometheus/client_golang/prometheus"

// The gateway's series. Labels are small closed sets (dialect, outcome
// class, direction, reason), never a key, an organization or a path.
var (
	// GatewayUpstreamSeconds is the time from calling the upstream to the
	// end of its answer (or its failure), retry included.
	GatewayUpstreamSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "parapet_gateway_upstream_seconds",
		Help:    "Latency of gateway calls to the upstream LLM provider, by dialect and status class.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600},
	}, []string{"dialect", "status_class"})

	// GatewayTokens counts the tokens metered, by direction (in, out).
	GatewayTokens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "parapet_gateway_tokens_total",
		Help: "Tokens metered by the gateway, by direction (in: input, out: output).",
	}, []string{"direction"})

	// GatewayTokensIn and GatewayTokensOut are its two series, looked up
	// once rather than on every call.
	GatewayTokensIn, GatewayTokensOut = GatewayTokens.WithLabelValues("in"), GatewayTokens.WithLabelValues("out")

	// GatewayRefusals counts calls refused for quota or rate limit.
	GatewayRefusals = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "parapet_gateway_refusals_total",
		Help: "Gateway calls refused before the upstream, by reason (quota_exceeded, rate_limited).",
	}, []string{"reason"})

	// GatewayDraining is the calls (streamed or not) whose client left and
	// whose upstream is still being read to meter it (up to
	// GATEWAY_DRAIN_TIMEOUT each).
	GatewayDraining = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "parapet_gateway_draining_calls",
		Help: "Gateway calls whose client left, still reading the upstream to meter its usage.",
	})

	// GatewayRefusedAnonymous counts calls refused before any key or
	// session was known (no key, a bad key): they are not audited one row
	// each, so this is where a flood shows.
	GatewayRefusedAnonymous = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "parapet_gateway_refused_anonymous_total",
		Help: "Gateway calls refused before a key or session was known.",
	})
)

func init() {
	Registry.MustRegister(GatewayUpstreamSeconds, GatewayTokens, GatewayRefusals, GatewayDraining, GatewayRefusedAnonymous)
}
