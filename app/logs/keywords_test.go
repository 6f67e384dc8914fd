package logs

import (
	"context"
	"strings"
	"testing"
)

// firstMatch analyses one line and returns its match, if any.
func firstMatch(t *testing.T, line string) (Match, bool) {
	t.Helper()
	res, err := Analyze(context.Background(), []byte(line), Options{})
	if err != nil {
		t.Fatalf("Analyze(%q): %v", line, err)
	}
	if len(res.Matches) == 0 {
		return Match{}, false
	}
	return res.Matches[0], true
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		line     string
		category Category // "" for no match
		keyword  string
		hit      string // the highlighted text
	}{
		{"terror alert in sector 7", "", "", ""},
		{"errorless run finished", "", "", ""},
		{"level=error msg=boom", CategoryError, "error", "error"},
		{"[ERROR] disk full", CategoryError, "error", "ERROR"},
		{`{"level":"error","msg":"write failed"}`, CategoryError, "failed", "failed"},
		{`{"level":"error","msg":"cache rebuilt"}`, CategoryError, "error", "error"},
		{"E1122 10:04:05.123456 1234 main.go:42] sync stopped", CategoryError, "error", "E"},
		{"F1122 10:04:05.123456 1234 main.go:42] cannot continue", CategoryFatal, "fatal", "F"},
		{"W1122 10:04:05.123456 1234 main.go:42] low disk", "", "", ""},
		{"error_code=0 errorCount=0", "", "", ""},
		{"ErrorCount: 0", "", "", ""},
		{"caught java.io.IOException: stream closed", CategoryError, "exception", "Exception"},
		{"NullPointerException at Foo.bar", CategoryError, "exception", "Exception"},
		{"java.lang.OutOfMemoryError: Java heap space", CategoryFatal, "out of memory", "OutOfMemory"},
		{"Out of memory: Killed process 4242 (java)", CategoryFatal, "out of memory", "Out of memory"},
		{"dial tcp 10.0.0.5:5432: connect: connection refused", CategoryReliability, "connection refused", "connection refused"},
		{"read: Connection reset by peer", CategoryReliability, "connection reset", "Connection reset"},
		{"request refused by policy", CategoryError, "refused", "refused"},
		{"open /etc/shadow: permission denied", CategoryError, "permission denied", "permission denied"},
		{"request timed out after 5s", CategoryReliability, "timed out", "timed out"},
		{"request timed-out after 5s", CategoryReliability, "timed out", "timed-out"},
		{"dial: connection\trefused", CategoryReliability, "connection refused", "connection\trefused"},
		{"TIMEOUT waiting for lock", CategoryReliability, "timeout", "TIMEOUT"},
		{"timeout while retrying, giving up with error", CategoryError, "error", "error"},
		{"error in handler, then panic", CategoryFatal, "panic", "panic"},
		{"Kernel panic - not syncing: VFS", CategoryFatal, "kernel panic", "Kernel panic"},
		{"Segmentation fault (core dumped)", CategoryFatal, "segmentation fault", "Segmentation fault"},
		{"job failed: 3 errors", CategoryError, "failed", "failed"},
		{"Retrying in 5s (attempt 2)", CategoryReliability, "retrying", "Retrying"},
		{"deadlock detected; transaction aborted", CategoryError, "aborted", "aborted"},
		{"upstream returned 503 Service Unavailable", CategoryReliability, "unavailable", "Unavailable"},
		{"429 Too Many Requests", CategoryReliability, "too many requests", "Too Many Requests"},
		{"pod OOMKilled", CategoryFatal, "oomkilled", "OOMKilled"},
		// Kubernetes' back-off states, whose last hump alone is no keyword.
		{"pod web-1 is in CrashLoopBackOff", CategoryReliability, "crashloopbackoff", "CrashLoopBackOff"},
		{`reason="ImagePullBackOff"`, CategoryReliability, "imagepullbackoff", "ImagePullBackOff"},
		// HAProxy's and Kubernetes' outages, which say neither error nor timeout.
		{"backend be_app has no server available!", CategoryReliability, "no server available", "no server available"},
		{"Server be_app/web1 is DOWN, reason: Layer7 wrong status, code: 500", CategoryReliability, "is down", "is DOWN"},
		{"5m  Warning  FailedScheduling  pod/web-1  0/3 nodes are available: 3 Insufficient cpu.", CategoryReliability, "failedscheduling", "FailedScheduling"},
		{"5m  Warning  Evicted  pod/web-1  The node was low on resource: memory.", CategoryReliability, "evicted", "Evicted"},
		{"target 10.0.0.5 unhealthy", CategoryReliability, "unhealthy", "unhealthy"},
		{"kernel-monitor OOMKilling: Killed process 1234 (java)", CategoryFatal, "oomkilling", "OOMKilling"},
		{"Warning  OOMKilling  kernel-monitor  Killed process 1234 (java)", CategoryReliability, "oomkilling", "OOMKilling"}, // the level decides
		{"proxy is downloading updates", "", "", ""},
		{"5m  Normal  Scheduled  pod/web-1  Successfully assigned default/web-1 to node1", "", "", ""},
		{"5m  Normal  Pulled  pod/web-1  Container image already present on machine", "", "", ""},
		{"traffic down 5% since Monday", "", "", ""},
		{"CRIT: temperature above threshold", CategoryFatal, "crit", "CRIT"},
		{"all systems nominal", "", "", ""},
		// Keys with no value and counts of none say there was no trouble.
		{`level=info msg="request done" err=<nil>`, "", "", ""},
		{`level=info msg="request done" error=null`, "", "", ""},
		{`{"level":"info","msg":"done","error":null}`, "", "", ""},
		{`{"level":"info","msg":"done","error": ""}`, "", "", ""},
		{"errors=0 warnings=2", "", "", ""},
		{"Errors: 0, warnings: 2", "", "", ""},
		{"error= retried=false", "", "", ""},
		{"Completed with 0 errors", "", "", ""},
		{"INFO no errors found", "", "", ""},
		{"finished without errors", "", "", ""},
		{"errors: 0 warnings: 2", "", "", ""},
		{"errors=5 warnings=2", CategoryError, "errors", "errors"},
		{"error: null pointer dereference", CategoryError, "error", "error"},
		{`{"level":"info","msg":"done","error":"disk full"}`, "", "", ""}, // the level decides
		{`{"msg":"done","error":"disk full"}`, CategoryError, "error", "error"},
		{"Completed with 3 errors", CategoryError, "errors", "errors"},
		{"0 errors, 1 timeout", CategoryReliability, "timeout", "timeout"},
		{"0 errors then an error", CategoryError, "error", "error"},
		{"Tests: 5 passed, 0 failed", "", "", ""},
		{"5 passed 0 failed", "", "", ""},
		{"0 failed, 5 passed", "", "", ""},
		{"found zero exceptions", "", "", ""},
		{"disk 0 failed", CategoryError, "failed", "failed"},
		// Ansible's recap: the 0 before is another key's value.
		{"web-03 : ok=2 changed=0 unreachable=0 failed=1 skipped=0", CategoryError, "failed", "failed"},
		{"web-01 : ok=3 changed=0 unreachable=0 failed=0 skipped=0", "", "", ""},
		{"(Allocation Failure) is the JVM's cause", "", "", ""},
		{"GPU 0 crashed", CategoryFatal, "crashed", "crashed"},
		{"partition 0 error", CategoryError, "error", "error"},
		{"transmit queue 0 timed out", CategoryReliability, "timed out", "timed out"},
		{"Request failed: null", CategoryError, "failed", "failed"},
		{"java.lang.IllegalStateException: null", CategoryError, "exception", "Exception"},
		{"request done, error: null", "", "", ""},
	}
	for _, tt := range tests {
		m, ok := firstMatch(t, tt.line)
		if tt.category == "" {
			if ok {
				t.Errorf("%q: unexpected match %q (%s)", tt.line, m.Keyword, m.Category)
			}
			continue
		}
		if !ok {
			t.Errorf("%q: no match, want %s %q", tt.line, tt.category, tt.keyword)
			continue
		}
		if m.Category != tt.category || m.Keyword != tt.keyword || m.Text[m.Start:m.End] != tt.hit {
			t.Errorf("%q: got %s %q at %q, want %s %q at %q", tt.line, m.Category, m.Keyword,
				m.Text[m.Start:m.End], tt.category, tt.keyword, tt.hit)
		}
	}
}

// TestKeywordsInEveryPart checks the three parts lineKeyword looks at: the
// header, the literal message tokens and masked values.
func TestKeywordsInEveryPart(t *testing.T) {
	tests := []struct{ line, keyword string }{
		{"2024-01-02 03:04:05 FATAL [main] app.Server: shutting down", "fatal"},
		{"2024-01-02 03:04:05 WARN [main] app.Server: backoff 200ms", "backoff"},
		{`2024-01-02 03:04:05 WARN [main] app.Server: result err="connection refused"`, "err"},
		{`2024-01-02 03:04:05 WARN [main] app.Server: result cause="upstream unavailable"`, "unavailable"},
	}
	for _, tt := range tests {
		if m, ok := firstMatch(t, tt.line); !ok || m.Keyword != tt.keyword {
			t.Errorf("%q: got %q (found %v), want %q", tt.line, m.Keyword, ok, tt.keyword)
		}
	}
}

func TestKeywordTable(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Keywords() {
		if seen[k.Word] {
			t.Errorf("duplicate keyword %q", k.Word)
		}
		seen[k.Word] = true
		if k.Category.severity() == 0 {
			t.Errorf("%q: unknown category %q", k.Word, k.Category)
		}
	}
	Keywords()[0].Word = "changed"
	if Keywords()[0].Word == "changed" {
		t.Error("Keywords returns the table itself, not a copy")
	}
}

// Header words are searched for keywords once per place in a header layout,
// whatever their digits (see wordKeyword): that holds while no keyword has
// a digit.
func TestKeywordsHaveNoDigits(t *testing.T) {
	for _, k := range keywordTable {
		if strings.ContainsAny(k.Word, "0123456789") {
			t.Errorf("keyword %q has a digit", k.Word)
		}
	}
}
