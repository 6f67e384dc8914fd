package meter

import (
	"encoding/json"
	"time"

	"parapet/app/gateway"
	"parapet/app/metrics"
	"parapet/models"
)

// routeRecord puts what routing did into a call's record: the provider,
// every attempt, the cost and its prices' version; and counts each
// attempt in its target's metrics.
func routeRecord(e *models.AuditEvent, r *gateway.Report) {
	if r.Provider != "" {
		e.Provider = &r.Provider
	}
	if len(r.Tries) > 0 {
		if b, err := json.Marshal(r.Tries); err == nil {
			e.Attempts = ptr(string(b))
		}
	}
	if micros, version, ok := r.Cost(); ok {
		e.CostMicros, e.PriceVersion = &micros, &version
	}
	for _, a := range r.Tries {
		outcome := "ok"
		switch {
		case a.Failed():
			outcome = "failed"
		case a.Code != "":
			outcome = "refused"
		}
		metrics.GatewayTargetCalls.WithLabelValues(a.Provider, a.MetricModel(), outcome).Inc()
		metrics.GatewayTargetSeconds.WithLabelValues(a.Provider, a.MetricModel()).Observe((time.Duration(a.Ms) * time.Millisecond).Seconds())
	}
}
