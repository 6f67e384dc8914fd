package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The request series. route is the route template (/v1/products/:slug),
// never the raw path, so a client cannot grow the number of series.
var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "parapet_http_requests_total",
		Help: "HTTP requests answered, by area, route template, method and status class.",
	}, []string{"area", "route", "method", "status_class"})
	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "parapet_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request (to the end of the response), by area, route template and method.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
	}, []string{"area", "route", "method"})
)

func init() { Registry.MustRegister(httpRequests, httpDuration) }

// statusClasses are the status_class label's values, by status / 100.
var statusClasses = [...]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}

// ObserveRequest counts one answered request.
func ObserveRequest(area, route, method string, status int, d time.Duration) {
	class := statusClasses[0]
	if i := status / 100; i >= 1 && i <= 5 {
		class = statusClasses[i]
	}
	method = knownMethod(method)
	httpRequests.WithLabelValues(area, route, method, class).Inc()
	httpDuration.WithLabelValues(area, route, method).Observe(d.Seconds())
}

// knownMethod keeps the method label to the standard methods: a client
// may send any token as its method.
func knownMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}
