package logs

import _ "embed"

// sample is our own built-in example: a small web/API service's log with
// requests, retries and timeouts, a database outage, a Java stack trace from
// a sidecar, a Go panic and its restart, and a few one-off events.
//
//go:embed sample.log
var sample string

// Sample returns the built-in sample log.
func Sample() string { return sample }
