// Package metrics holds the Prometheus series Parapet exports on /metrics.
// Every series is registered on Registry, never on the global default, so
// tests can build several apps in one process.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Registry is what /metrics serves.
var Registry = prometheus.NewRegistry()

func init() {
	Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}
