package logs

import (
	"fmt"
	"os"
	"testing"
)

// The format tour: a synthetic sample of each format below (testdata/
// tour_*.log, 30 to 60 lines, each with a burst of errors), written as
// the program writes it, and what a user must see of it: its entries,
// the lines on the timeline, the matches by category, and one template,
// with the level word of its lines. Each caught a defect or holds what
// was checked by hand: a CRI log had no timeline (its runtime's times
// were dropped), a Node.js error's stack counted twice or not at all, GoogleTest's banner read as a progress bar, a VPC flow
// log's epoch columns and a Kubernetes Event's lastTimestamp were no
// times, Apache's "(111)Connection" was a value.
func TestFormatTour(t *testing.T) {
	tests := []struct {
		file           string
		entries, timed int
		byCategory     CategoryCnt
		template       string
		level          string // of the template's first example
	}{
		{"cri", 60, 60, CategoryCnt{Fatal: 6}, "runtime error: invalid memory address or nil pointer dereference", "panic"},
		{"gtest", 43, 0, CategoryCnt{Error: 7, Reliability: 4}, "[==========] Running <*> tests from <*> test suites.", ""},
		{"klog", 50, 50, CategoryCnt{Error: 6, Reliability: 6}, `Failed to pull image "nginx:<*>": rpc error: code = Unknown`, "E"},
		{"journal_iso", 50, 50, CategoryCnt{Error: 5}, "connect() failed (<*>: Connection refused) while connecting to upstream", ""},
		{"rfc5424", 50, 50, CategoryCnt{Error: 5}, "Database connection lost", "<11>"},
		{"nginx_error", 40, 40, CategoryCnt{Error: 6}, "signal process started", "notice"},
		{"apache_error", 40, 40, CategoryCnt{Error: 5}, "(111)Connection refused: AH00957: HTTP: attempt to connect to <*> (localhost) failed", "error"},
		{"postgres", 50, 50, CategoryCnt{Error: 5}, `duplicate key value violates unique constraint "<*>"`, "ERROR"},
		{"mysql", 40, 40, CategoryCnt{Error: 4}, "IP address '10.0.0.<*>' could not be resolved: Name or service not known", "Warning"},
		{"vpcflow", 41, 40, CategoryCnt{}, "<*> <*> <*> <*> REJECT OK", ""},
		{"alb", 40, 40, CategoryCnt{Reliability: 5}, "", ""},
		{"envoy", 40, 40, CategoryCnt{Reliability: 5}, "", ""},
		{"traefik_json", 30, 30, CategoryCnt{Reliability: 4}, "", ""},
		{"caddy", 40, 40, CategoryCnt{Reliability: 6}, "handled request", "info"},
		{"pino", 40, 40, CategoryCnt{Error: 5}, "request errored", "50"},
		{"bunyan", 40, 40, CategoryCnt{Error: 5}, "db query failed", "50"},
		{"gcp", 40, 40, CategoryCnt{Error: 5}, "upstream connect error", "ERROR"},
		{"azure", 30, 30, CategoryCnt{Error: 4}, "", ""},
		{"k8s_events_json", 30, 30, CategoryCnt{Error: 5}, "Back-off restarting failed container web in pod web", ""},
		{"spring", 40, 40, CategoryCnt{Error: 3}, "Servlet.service() for servlet [dispatcherServlet] threw exception", "ERROR"},
		{"rails", 40, 40, CategoryCnt{Error: 3}, "[req-<*>] ActiveRecord::RecordNotFound (Couldn't find Order with 'id'=<*>):", "ERROR"},
		// Node.js: an error's stack under the line that logs it joins it
		// (it was an entry of its own, its "Error:" a level: two
		// matches), and one under an INFO line is an entry of its own
		// (it joined the INFO entry, its error uncounted).
		{"node", 41, 40, CategoryCnt{Error: 3}, "TypeError: Cannot read properties of undefined (reading '<*>')", ""},
	}
	for _, tt := range tests {
		raw, err := os.ReadFile("testdata/tour_" + tt.file + ".log")
		if err != nil {
			t.Fatal(err)
		}
		res := analyze(t, string(raw), Options{IncludePatterns: true})
		timed := 0
		if res.Timeline != nil {
			timed = res.Timeline.TimedLines
		}
		if res.Summary.Entries != tt.entries || timed != tt.timed || res.Summary.ByCategory != tt.byCategory {
			t.Errorf("%s: %d entries, %d timed, matched %+v; want %d, %d, %+v",
				tt.file, res.Summary.Entries, timed, res.Summary.ByCategory, tt.entries, tt.timed, tt.byCategory)
		}
		if tt.template == "" {
			continue
		}
		found := false
		var all []string
		for _, tp := range res.Templates {
			all = append(all, fmt.Sprintf("%q", tp.Template))
			if tp.Template == tt.template {
				found = true
				if lvl := tp.Examples[0].Level; lvl != tt.level {
					t.Errorf("%s: %q has level %q, want %q", tt.file, tp.Template, lvl, tt.level)
				}
			}
		}
		if !found {
			t.Errorf("%s: no template %q among %v", tt.file, tt.template, all)
		}
	}
}
