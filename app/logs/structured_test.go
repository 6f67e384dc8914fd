package logs

import (
	"reflect"
	"strings"
	"testing"
)

// checkMatches compares the matches' lines, categories and keywords.
func checkMatches(t *testing.T, res *Result, want map[int][2]string) {
	t.Helper()
	for _, m := range res.Matches {
		w, ok := want[m.Line]
		if !ok {
			t.Errorf("line %d: unexpected %s match %q", m.Line, m.Category, m.Keyword)
			continue
		}
		if string(m.Category) != w[0] || m.Keyword != w[1] {
			t.Errorf("line %d: %s %q, want %s %q", m.Line, m.Category, m.Keyword, w[0], w[1])
		}
		if !strings.EqualFold(m.Text[m.Start:m.End], m.Keyword) && m.Keyword != string(m.Category) {
			t.Errorf("line %d: highlight %q for keyword %q", m.Line, m.Text[m.Start:m.End], m.Keyword)
		}
		delete(want, m.Line)
	}
	for line, w := range want {
		t.Errorf("line %d: no match, want %s %q", line, w[0], w[1])
	}
}

// JSON lines: templated by their message field, the level field decides
// the category (an info line saying "error" is none), other fields are kept
// with the line; a plain line among them is read as usual.
func TestJSONLines(t *testing.T) {
	res := analyze(t, readTestdata(t, "service.jsonl"), Options{})
	if tm := templateWith(t, res, "request served"); tm.Template != "request served" || tm.Count != 3 {
		t.Errorf("request template %+v", tm)
	}
	if tm := templateWith(t, res, "charge declined"); tm.Template != "charge declined" || tm.Count != 2 {
		t.Errorf("charge template %+v", tm)
	}
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, `"level"`) || strings.Contains(tm.Template, "2024-03-18") {
			t.Errorf("template %q holds fields other than the message", tm.Template)
		}
	}
	checkMatches(t, res, map[int][2]string{
		5:  {"reliability", "timeout"},
		7:  {"error", "error"},
		8:  {"error", "error"},
		10: {"fatal", "out of memory"}, // log.level, nested
		12: {"error", "error"},         // pino's numeric level 50
		13: {"error", "error"},         // a plain line
	})
	m, _ := matchAt(res, 7)
	want := map[string]string{"time": "2024-03-18T09:14:11.450Z", "level": "error", "logger": "payments", "order": "88121", "reason": "card_declined"}
	if !reflect.DeepEqual(m.Fields, want) || m.Level != "error" {
		t.Errorf("line 7 fields %v level %q, want %v", m.Fields, m.Level, want)
	}
	if m, _ := matchAt(res, 12); m.Fields["err.type"] != "TypeError" {
		t.Errorf("line 12 fields %v, want nested keys joined by dots", m.Fields)
	}
}

// logfmt, and klog's structured form ("message" key=value ..., or the
// quoted message alone).
func TestLogfmtLines(t *testing.T) {
	res := analyze(t, readTestdata(t, "service.logfmt"), Options{})
	if tm := templateWith(t, res, "request served"); tm.Count != 3 {
		t.Errorf("request template %+v", tm)
	}
	if tm := templateWith(t, res, "Reconciling object"); tm.Template != "Reconciling object" || tm.Count != 2 {
		t.Errorf("klog template %+v", tm)
	}
	// klog's message is the leading quoted one, whatever keys follow (the
	// kubelet's event={…}), and also when no key follows.
	for msg, n := range map[string]int{"SyncLoop (PLEG): event for pod": 2, "Started kubelet": 1, "Successfully registered node": 1} {
		if tm := templateWith(t, res, msg); tm.Template != msg || tm.Count != n {
			t.Errorf("klog template %+v, want %q of %d lines", tm, msg, n)
		}
	}
	checkMatches(t, res, map[int][2]string{
		4:  {"reliability", "timeout"},
		5:  {"error", "error"},
		6:  {"error", "error"},
		8:  {"fatal", "out of memory"},
		11: {"error", "failed"},
	})
	if m, _ := matchAt(res, 6); m.Fields["reason"] != "insufficient funds" || m.Fields["order"] != "88122" {
		t.Errorf("line 6 fields %v", m.Fields)
	}
	if m, _ := matchAt(res, 11); m.Fields["err"] != "timeout waiting for pods" || m.Header == "" {
		t.Errorf("line 11 fields %v header %q", m.Fields, m.Header)
	}
}

// Malformed structured lines are plain text.
func TestMalformedStructured(t *testing.T) {
	for _, line := range []string{`{"msg": "unterminated`, `{"msg":"x"} trailing`, `a=1 b`, `msg="x`} {
		sp := scanStructured([]byte(line), 0)
		if sp.ok {
			t.Errorf("%q read as structured: %+v", line, sp)
		}
	}
}

// The JSON formats of common loggers and platforms, each read with its
// level and message: bunyan's and pino's numbers, Google Cloud's severity
// (and an exported entry's textPayload or nested jsonPayload.message),
// Elastic's log.level (dotted or nested), logrus and zap, Serilog's compact
// JSON (whose events leave out "@l" at Information), OpenTelemetry's
// severity_text and body, GELF's syslog level and short_message, and
// journald's PRIORITY and MESSAGE, zap's dpanic, MongoDB's "s" (a
// severity letter; any other "s" is no level).
func TestJSONLoggerFormats(t *testing.T) {
	lines := []struct {
		line  string
		cat   string // "" for no match
		msg   string // the template, or a part of it
		level string
	}{
		{`{"name":"app","hostname":"h1","pid":1,"level":50,"msg":"handler blew up","time":"2024-01-02T15:04:05.000Z","v":0}`, "error", "handler blew up", "50"},
		{`{"name":"app","hostname":"h1","pid":1,"level":60,"msg":"cannot go on","time":"2024-01-02T15:04:05.000Z","v":0}`, "fatal", "cannot go on", "60"},
		{`{"name":"app","hostname":"h1","pid":1,"level":30,"msg":"error budget is fine","time":"2024-01-02T15:04:05.000Z","v":0}`, "", "error budget is fine", "30"},
		{`{"severity":"ERROR","message":"payment declined upstream","logging.googleapis.com/trace":"projects/p/traces/abc"}`, "error", "payment declined upstream", "ERROR"},
		{`{"severity":"INFO","message":"error page shown"}`, "", "error page shown", "INFO"},
		{`{"insertId":"x1","severity":"ERROR","textPayload":"disk quota reached","resource":{"type":"k8s_container"}}`, "error", "disk quota reached", "ERROR"},
		{`{"insertId":"x2","severity":"INFO","jsonPayload":{"message":"retry scheduled","attempt":2},"resource":{"type":"gce_instance"}}`, "", "retry scheduled", "INFO"},
		{`{"@timestamp":"2024-01-02T15:04:05.000Z","log.level":"error","message":"cannot index doc","ecs.version":"1.6.0"}`, "error", "cannot index doc", "error"},
		{`{"@timestamp":"2024-01-02T15:04:05.000Z","log":{"level":"info","logger":"x"},"message":"errors=3 retried","ecs":{"version":"8.0"}}`, "", "errors=<*> retried", "info"},
		{`{"level":"error","msg":"logrus lost the lock","time":"2024-01-02T15:04:05Z"}`, "error", "logrus lost the lock", "error"},
		{`{"level":"info","ts":1704207845.123,"caller":"main.go:12","msg":"zap served","error":"none"}`, "", "zap served", "info"},
		{`{"@t":"2024-01-02T15:04:05.0000000Z","@mt":"Failed to process {OrderId}","@l":"Error","OrderId":12}`, "error", "Failed to process {OrderId}", "Error"},
		{`{"@t":"2024-01-02T15:04:06.0000000Z","@mt":"Processed {OrderId} after a timeout","OrderId":12}`, "", "Processed {OrderId} after a timeout", ""},
		{`{"@t":"2024-01-02T15:04:07.0000000Z","@m":"Slow retry of 12","@l":"Warning"}`, "reliability", "Slow retry of <*>", "Warning"},
		{`{"timestamp":"2024-01-02T15:04:05Z","severity_text":"ERROR","body":"otel export failed"}`, "error", "otel export failed", "ERROR"},
		{`{"version":"1.1","host":"h1","short_message":"backend is down","level":2,"_app":"shop"}`, "fatal", "backend is down", "2"},
		{`{"version":"1.1","host":"h1","short_message":"cache error rate fine","level":6}`, "", "cache error rate fine", "6"},
		{`{"__REALTIME_TIMESTAMP":"1704207845000000","PRIORITY":"3","SYSLOG_IDENTIFIER":"sshd","MESSAGE":"fatal: no hostkey alg","_PID":"812"}`, "error", "fatal: no hostkey alg", "3"},
		{`{"__REALTIME_TIMESTAMP":"1704207845000001","PRIORITY":"6","SYSLOG_IDENTIFIER":"systemd","MESSAGE":"Stopped failed unit cleanup.","_PID":"1"}`, "", "Stopped failed unit cleanup.", "6"},
		{`{"level":"dpanic","ts":1704207845.124,"caller":"main.go:13","msg":"impossible state reached"}`, "error", "impossible state reached", "dpanic"},
		{`{"t":{"$date":"2024-01-02T15:04:05.123+00:00"},"s":"W","c":"NETWORK","id":4615610,"ctx":"conn6","msg":"Failed to check socket connectivity","attr":{"error":"Connection reset by peer"}}`, "reliability", "Failed to check socket connectivity", "W"},
		{`{"t":{"$date":"2024-01-02T15:04:05.124+00:00"},"s":"I","c":"REPL","id":21392,"ctx":"ReplCoord-0","msg":"New replica set config in use, error count reset","attr":{}}`, "", "New replica set config in use, error count reset", "I"},
		{`{"t":{"$date":"2024-01-02T15:04:05.125+00:00"},"s":"D2","c":"QUERY","id":20967,"ctx":"conn7","msg":"Retrying plan after failure","attr":{}}`, "", "Retrying plan after failure", "D2"},
		{`{"t":{"$date":"2024-01-02T15:04:05.126+00:00"},"s":"F","c":"-","id":23095,"ctx":"conn5","msg":"Assertion at shutdown","attr":{"msgid":28559}}`, "fatal", "Assertion at shutdown", "F"},
		{`{"s":3,"msg":"error rate computed"}`, "error", "error rate computed", ""},
	}
	var in []string
	for _, l := range lines {
		in = append(in, l.line)
	}
	res := analyze(t, strings.Join(in, "\n"), Options{IncludeAssignments: true})
	for i, l := range lines {
		m, matched := matchAt(res, i+1)
		switch {
		case l.cat == "" && matched:
			t.Errorf("line %d: %s match %q, want none (level %q)", i+1, m.Category, m.Keyword, l.level)
		case l.cat != "" && (!matched || string(m.Category) != l.cat || m.Level != l.level):
			t.Errorf("line %d: %+v, want a %s match at level %q", i+1, m, l.cat, l.level)
		}
		if tm := res.Templates[res.Assignments[i]-1].Template; tm != l.msg {
			t.Errorf("line %d: template %q, want %q", i+1, tm, l.msg)
		}
	}
	if m, _ := matchAt(res, 6); m.Fields["resource.type"] != "k8s_container" || m.Fields["textPayload"] != "" {
		t.Errorf("line 6 fields %v, want the resource and not the message", m.Fields)
	}
}

// A message with escaped quotes (containerd's logfmt, a JSON string) is
// templated as the same message logged as plain text reads: the quoted
// value masked, the template without backslashes.
func TestEscapedQuotesInMessage(t *testing.T) {
	in := `time="2026-11-29T10:00:01Z" level=error msg="failed to \"pull\" image \"nginx:1\"" error="rpc error: code = NotFound"
time="2026-11-29T10:00:02Z" level=error msg="failed to \"push\" image \"redis:7\"" error="rpc error: code = NotFound"
{"level":"error","msg":"failed to \"pull\" image \"busybox:1.36\""}
time="2026-11-29T10:00:03Z" level=info msg="StartContainer for \"5f3a2b\" returns successfully"
time="2026-11-29T10:00:04Z" level=info msg="StartContainer for \"5f3a2b\" returns successfully"
{"level":"info","msg":"loading plugin \"io.containerd.grpc.v1.cri\"...","path":"C:\\data"}
{"level":"info","msg":"loading plugin \"io.containerd.grpc.v1.cri\"...","path":"C:\\data"}
`
	res := analyze(t, in, Options{})
	want := map[string]int{
		`failed to "<*>" image "<*>"`:                   3,
		`StartContainer for "<*>" returns successfully`: 2,
		`loading plugin "<*>"...`:                       2,
	}
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("templates %v, want %v", got, want)
	}
	if res.Summary.ByCategory.Error != 3 {
		t.Errorf("errors %d, want 3", res.Summary.ByCategory.Error)
	}
}

// A JSON line whose message field is empty, as Traefik's access log
// writes "msg":"", is templated by its fields, the empty message shown
// as it is: it vanished, so that the key after it read as its value
// ("msg": "time": …).
func TestEmptyJSONMessage(t *testing.T) {
	in := `{"DownstreamStatus":200,"RequestPath":"/a","level":"info","msg":"","time":"2026-11-29T12:00:00Z"}
{"DownstreamStatus":200,"RequestPath":"/b","level":"info","msg":"","time":"2026-11-29T12:00:01Z"}
`
	res := analyze(t, in, Options{})
	if len(res.Templates) != 1 || !strings.Contains(res.Templates[0].Template, `"msg": "" "time":`) {
		t.Errorf("templates %+v; want one showing \"msg\": \"\"", res.Templates)
	}
}
