package metrics

import (
	"net/http"
	"sync"
	"sync/atomic"
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

// routeSeries are one route's series, resolved once: finding a series by
// its label values (hashing and validating them) costs more than counting.
type routeSeries struct {
	area, route, method string
	duration            prometheus.Observer
	requests            [len(statusClasses)]atomic.Pointer[prometheus.Counter]
}

type routeKey struct{ area, route, method string }

// routes holds a routeSeries per area, route template and method: a
// bounded set, since the route is a template and the method one of ten.
var routes sync.Map

// ObserveRequest counts one answered request.
func ObserveRequest(area, route, method string, status int, d time.Duration) {
	k := routeKey{area, route, knownMethod(method)}
	v, ok := routes.Load(k)
	if !ok {
		v, _ = routes.LoadOrStore(k, &routeSeries{area: k.area, route: k.route, method: k.method,
			duration: httpDuration.WithLabelValues(k.area, k.route, k.method)})
	}
	s := v.(*routeSeries)
	class := 0
	if i := status / 100; i >= 1 && i <= 5 {
		class = i
	}
	s.counter(class).Inc()
	s.duration.Observe(d.Seconds())
}

// counter is the request counter of a status class, made on first use so
// that only the classes a route answered are exported.
func (s *routeSeries) counter(class int) prometheus.Counter {
	if c := s.requests[class].Load(); c != nil {
		return *c
	}
	c := httpRequests.WithLabelValues(s.area, s.route, s.method, statusClasses[class])
	s.requests[class].Store(&c)
	return c
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
