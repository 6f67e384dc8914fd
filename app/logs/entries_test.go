package logs

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A Java stack trace with "Caused by:" and "... N more" is one error entry,
// numbered by its first line, never a run of outliers.
func TestJavaStackTraceIsOneEntry(t *testing.T) {
	in := readTestdata(t, "java_stack.log")
	res := analyze(t, in, Options{IncludeAssignments: true})
	s := res.Summary
	if s.Lines != 20 || s.Entries != 7 || len(res.Assignments) != 7 {
		t.Errorf("lines %d entries %d assignments %d, want 20, 7, 7", s.Lines, s.Entries, len(res.Assignments))
	}
	m, ok := matchAt(res, 3)
	if !ok || m.Category != CategoryError {
		t.Fatalf("line 3: %+v, want an error", m)
	}
	if !strings.HasSuffix(m.Text, "\t... 12 more") || strings.Count(m.Text, "\n") != 10 {
		t.Errorf("entry text does not hold the whole trace: %q", m.Text)
	}
	for _, o := range res.Outliers {
		if strings.HasPrefix(strings.TrimSpace(o.Text), "at ") || strings.HasPrefix(o.Text, "Caused by") {
			t.Errorf("a frame is an outlier of its own: %+v", o)
		}
	}
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, "Exception") || strings.Contains(tm.Template, "at ") {
			t.Errorf("template %q comes from a trace line", tm.Template)
		}
	}
	if m, ok := matchAt(res, 15); !ok || m.Category != CategoryReliability || !strings.Contains(m.Text, "Mailer.send") {
		t.Errorf("line 15 (a warning and its trace): %+v", m)
	}

	split := analyze(t, in, Options{SplitContinuations: true})
	if split.Summary.Entries != 20 || split.Summary.Lines != 20 {
		t.Errorf("split: %d entries of %d lines, want 20 of 20", split.Summary.Entries, split.Summary.Lines)
	}
}

// Python tracebacks: the body and the final exception line join the entry
// that logged it; a traceback after an INFO line is an entry of its own,
// and chained tracebacks stay one.
func TestPythonTraceback(t *testing.T) {
	res := analyze(t, readTestdata(t, "python_traceback.log"), Options{})
	if s := res.Summary; s.Lines != 20 || s.Entries != 6 || s.BlankLines != 2 {
		t.Errorf("summary %+v, want 20 lines in 6 entries, 2 blank", s)
	}
	m, ok := matchAt(res, 3)
	if !ok || m.Category != CategoryError || !strings.HasSuffix(m.Text, "ValueError: invalid literal for int() with base 10: 'x'") {
		t.Errorf("line 3: %+v", m)
	}
	m, ok = matchAt(res, 11)
	if !ok || m.Category != CategoryError || !strings.HasSuffix(m.Text, "RuntimeError: shutdown failed") {
		t.Errorf("line 11 (chained tracebacks): %+v", m)
	}
	if _, ok := matchAt(res, 10); ok {
		t.Error("the INFO line above a traceback took it")
	}
}

func TestContinues(t *testing.T) {
	j := joiner{rules: entryRules{timeHeader: true}}
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"\tat a.b.C.d(C.java:1)", true},
		{"at a.b.C.d(C.java:1)", true},
		{"Caused by: java.io.IOException: closed", true},
		{"\t... 12 more", true},
		{"java.lang.IllegalStateException: invoice already finalized", true},
		{"org.a.FooError", true},
		{"  continued message", true},
		{"2024-03-18 09:14:07,120 INFO next entry", false},
		{"[2024-03-18 09:14:07] next entry", false},
		{"Mar 18 09:14:07 host app[1]: next entry", false},
		{"I0318 09:14:07.000000 1 main.go:1] next entry", false},
		{"plain words without a timestamp", true},
	} {
		if got := continues(&j, tt.line); got != tt.want {
			t.Errorf("%q: continues %v, want %v", tt.line, got, tt.want)
		}
	}
	j = joiner{rules: entryRules{indentedInput: true}}
	if continues(&j, "  every line is indented") {
		t.Error("indentation joined lines of an input where most lines are indented")
	}
	if continues(&j, "no timestamps here") {
		t.Error("a line without a timestamp joined in an input without timestamps")
	}
}

// continues is what the analyzer makes of the joiner's answer.
func continues(j *joiner, line string) bool {
	cont, needHeader := j.continues([]byte(line), false)
	if needHeader {
		var h header
		cont = h.end([]byte(line)) == 0 && !h.firstTime && !standsAlone([]byte(line))
	}
	return cont
}

// A Go panic and a "fatal error:" with their goroutine dumps are one fatal
// entry each, whatever the log around them: its signal line, goroutine
// headers, function and file lines and "exit status" join the line that
// opened it, and none is an outlier or a template.
func TestGoPanicIsOneEntry(t *testing.T) {
	res := analyze(t, readTestdata(t, "go_panic.log"), Options{})
	if s := res.Summary; s.Lines != 25 || s.Entries != 8 || s.BlankLines != 3 {
		t.Errorf("summary %+v, want 25 lines in 8 entries, 3 blank", s)
	}
	for line, last := range map[int]string{4: "exit status 2", 21: "/app/worker.go:12 +0x5c"} {
		m, ok := matchAt(res, line)
		if !ok || m.Category != CategoryFatal || !strings.HasSuffix(m.Text, last) {
			t.Errorf("line %d: %+v, want a fatal entry ending %q", line, m, last)
		}
	}
	for _, o := range res.Outliers {
		if !strings.HasPrefix(o.Text, "level=") && o.Line != 4 && o.Line != 21 {
			t.Errorf("outlier %d %q: a trace line is an entry of its own", o.Line, o.Text)
		}
	}
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, "goroutine") || strings.Contains(tm.Template, "main.") {
			t.Errorf("template %q comes from a trace line", tm.Template)
		}
	}
}

// A Rust panic, of either format, is one fatal entry: its message line,
// backtrace and notes join the line that opened it.
func TestRustPanicIsOneEntry(t *testing.T) {
	res := analyze(t, readTestdata(t, "rust_panic.log"), Options{})
	if s := res.Summary; s.Lines != 16 || s.Entries != 6 {
		t.Errorf("summary %+v, want 16 lines in 6 entries", s)
	}
	for line, last := range map[int]string{3: "for a verbose backtrace.", 14: "to display a backtrace"} {
		m, ok := matchAt(res, line)
		if !ok || m.Category != CategoryFatal || !strings.HasSuffix(m.Text, last) {
			t.Errorf("line %d: %+v, want a fatal entry ending %q", line, m, last)
		}
	}
}

// A Ruby backtrace written without indentation, as Rails loggers do, is
// part of the entry that logged the exception.
func TestRubyBacktraceJoins(t *testing.T) {
	in := "I, [2024-03-18T09:00:00.100000 #1234]  INFO -- : Started POST \"/users\"\n" +
		"E, [2024-03-18T09:00:00.123456 #1234] ERROR -- : undefined method `name' for nil (NoMethodError)\n" +
		"app/models/user.rb:10:in `save'\n" +
		"app/controllers/users_controller.rb:5:in 'create'\n" +
		"/usr/lib/ruby/3.4.0/benchmark.rb:311:in `realtime'\n" +
		"I, [2024-03-18T09:00:01.000000 #1234]  INFO -- : Completed 500\n"
	res := analyze(t, in, Options{})
	if s := res.Summary; s.Lines != 6 || s.Entries != 3 {
		t.Errorf("summary %+v, want 6 lines in 3 entries", s)
	}
	if m, ok := matchAt(res, 2); !ok || m.Category != CategoryError || !strings.HasSuffix(m.Text, "in `realtime'") {
		t.Errorf("line 2: %+v, want an error entry ending with its last frame", m)
	}
}

// A PHP fatal error's "Stack trace:", its numbered frames and its
// "thrown in" line are one entry with the error.
func TestPHPStackTraceJoins(t *testing.T) {
	res := analyze(t, readTestdata(t, "php_error.log"), Options{})
	if s := res.Summary; s.Lines != 8 || s.Entries != 3 {
		t.Errorf("summary %+v, want 8 lines in 3 entries", s)
	}
	if m, ok := matchAt(res, 2); !ok || m.Category != CategoryFatal || !strings.HasSuffix(m.Text, "on line 42") {
		t.Errorf("line 2: %+v, want a fatal entry ending with its \"thrown in\" line", m)
	}
}

// logback prints a cause's frames it shares as "... N common frames
// omitted", and with the root cause first each wrapping exception as
// "Wrapped by: …": they are part of the entry, whose lines open without a
// timestamp.
func TestLogbackRootCauseFirstJoins(t *testing.T) {
	in := "2024-03-11 10:15:04.123 WARN  [main] o.h.e.j.e.i.JdbcEnvironmentInitiator - HHH000342: Could not obtain connection\n" +
		"java.net.ConnectException: Connection refused\n" +
		"\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)\n" +
		"... 45 common frames omitted\n" +
		"Wrapped by: org.postgresql.util.PSQLException: Connection to db:5432 refused.\n" +
		"\tat org.postgresql.core.PGStream.createSocket(PGStream.java:243)\n" +
		"2024-03-11 10:15:05.123 INFO  [main] c.e.api.Application - Started\n"
	res := analyze(t, in, Options{})
	if s := res.Summary; s.Lines != 7 || s.Entries != 2 || s.Matched != 1 {
		t.Errorf("summary %+v, want 7 lines in 2 entries, 1 matched", s)
	}
	if m, ok := matchAt(res, 1); !ok || !strings.HasSuffix(m.Text, "(PGStream.java:243)") {
		t.Errorf("line 1: %+v, want the warning with its whole trace", m)
	}
}

// Ruby's Logger opens its lines with a timestamp too, after the level's
// letter: the exception Rails logs under an empty FATAL line, written
// without a header, joins it.
func TestRailsExceptionJoinsItsFatalLine(t *testing.T) {
	var in strings.Builder
	for i := range 20 {
		fmt.Fprintf(&in, "I, [2024-03-11T10:15:01.%06d #1]  INFO -- : Started GET \"/orders/%d\" for 10.0.0.1\n", i, i)
	}
	in.WriteString("F, [2024-03-11T10:15:02.323456 #1] FATAL -- :   \n" + // 21
		"ActiveRecord::RecordNotFound (Couldn't find Order with 'id'=1):\n" +
		"  \n" +
		"app/controllers/orders_controller.rb:5:in `show'\n" +
		"I, [2024-03-11T10:15:02.423456 #1]  INFO -- : Completed 404 Not Found in 12ms\n")
	res := analyze(t, in.String(), Options{})
	if s := res.Summary; s.Entries != 22 {
		t.Errorf("summary %+v, want 22 entries", s)
	}
	if m, ok := matchAt(res, 21); !ok || m.Category != CategoryFatal || !strings.Contains(m.Text, "RecordNotFound") {
		t.Errorf("line 21: %+v, want the fatal entry with its exception", m)
	}
}

// Laravel's exception: the context's "[stacktrace]" and frames, the
// "[previous exception]" with its own trace, and the "\"}" that closes the
// context are one entry with the error line; the lines after it are
// entries of their own.
func TestLaravelStackTraceJoins(t *testing.T) {
	res := analyze(t, readTestdata(t, "laravel.log"), Options{})
	if s := res.Summary; s.Lines != 13 || s.Entries != 5 || s.Matched != 1 {
		t.Errorf("summary %+v, want 13 lines in 5 entries, 1 matched", s)
	}
	if m, ok := matchAt(res, 2); !ok || m.Category != CategoryError || !strings.HasSuffix(m.Text, "#0 {main}\n\"} ") {
		t.Errorf("line 2: %+v, want an error entry ending with the context's end", m)
	}
}

func TestClosers(t *testing.T) {
	for in, want := range map[string]bool{
		"}": true, "});": true, "],": true, `"} `: true, `"}`: true,
		`"`: false, "": false, `""}`: false, "} x": false,
	} {
		if got := closers([]byte(in)); got != want {
			t.Errorf("closers(%q) = %v, want %v", in, got, want)
		}
	}
}

// In a timestamped log a line without a timestamp continues the entry
// above, unless it stands alone: another writer's record (a JSON object, a
// logfmt line with a level), a Go panic, a shell's note of a dead process,
// or a line that opens with a time the header finder does not know. Each
// of those is an entry of its own and its level or keyword counts.
func TestTimestampedLogKeepsOtherWritersLines(t *testing.T) {
	in := strings.Repeat("2024-03-05T18:00:00Z INFO served /metrics in 3ms\n", 85) +
		"2024-03-05T18:00:01Z INFO config loaded:\n" +
		"max_conns 100, on error retry\n" + // 87: the message goes on
		`{"time":"2024-03-06T10:00:00Z","level":"error","msg":"payment declined"}` + "\n" + // 88
		"level=error msg=\"queue full\" component=worker\n" + // 89
		"2024-03-05T18:00:02Z INFO served /metrics in 3ms\n" +
		"fatal error: concurrent map writes\n" + // 91
		"\n" +
		"goroutine 7 [running]:\n" +
		"main.worker()\n" +
		"\t/app/worker.go:12 +0x5c\n" +
		"Segmentation fault (core dumped)\n" + // 96
		"[10:00:03 ERR] Handled request failed\n" + // 97
		"2024-03-05T18:00:03Z INFO served /metrics in 3ms\n"
	res := analyze(t, in, Options{})
	if s := res.Summary; s.Entries != 93 {
		t.Errorf("summary %+v, want 93 entries", s)
	}
	for line, cat := range map[int]Category{88: CategoryError, 89: CategoryError, 91: CategoryFatal, 96: CategoryFatal, 97: CategoryError} {
		if m, ok := matchAt(res, line); !ok || m.Category != cat {
			t.Errorf("line %d: %+v, want a %s match", line, m, cat)
		}
	}
	if m, ok := matchAt(res, 86); ok {
		t.Errorf("the INFO entry with its continued message matched: %+v", m)
	}
	if m, ok := matchAt(res, 91); ok && !strings.HasSuffix(m.Text, "/app/worker.go:12 +0x5c") {
		t.Errorf("the Go trace is not one entry: %q", m.Text)
	}
}

// Indentation is a continuation also where most lines are indented: deep
// Java stack traces, .NET's console log (a header line, the message
// indented under it). Only input indented as a whole (every line, or
// timestamped lines behind the indentation) is read line by line.
func TestMostlyIndentedInputs(t *testing.T) {
	var java, dotnet, pasted strings.Builder
	for i := range 10 {
		fmt.Fprintf(&java, "2024-03-05 10:00:%02d ERROR request %d failed\njava.lang.IllegalStateException: boom\n", i, i)
		for k := range 25 {
			fmt.Fprintf(&java, "\tat com.x.C%d.m(C.java:%d)\n", k, k)
		}
		fmt.Fprintf(&dotnet, "info: Microsoft.Hosting.Lifetime[0]\n      Request %d finished in 12ms\n", i)
		fmt.Fprintf(&pasted, "    2024-03-05 10:00:%02d INFO request %d done\n", i, i)
	}
	dotnet.WriteString("fail: Shop.Api.Orders[0]\n      Order failed\n      System.Exception: boom\n         at Shop.Api.Orders.Post() in /src/Orders.cs:line 9\n")
	for _, tc := range []struct {
		name    string
		in      string
		entries int
	}{
		{"java", java.String(), 10},
		{"dotnet", dotnet.String(), 11},
		{"indented as a whole", pasted.String(), 10},
	} {
		if got := analyze(t, tc.in, Options{}).Summary.Entries; got != tc.entries {
			t.Errorf("%s: %d entries, want %d", tc.name, got, tc.entries)
		}
	}
	res := analyze(t, dotnet.String(), Options{})
	if m, ok := matchAt(res, 21); !ok || !strings.HasSuffix(m.Text, "line 9") {
		t.Errorf("the .NET error is not one entry with its exception: %+v", m)
	}
}

// Node.js prints a thrown error's properties over several lines, closed by
// a "}" alone at the start of a line: the whole error is one entry.
func TestClosingBracketContinues(t *testing.T) {
	in := "[2024-01-02T15:04:05.123Z] INFO: up\n" +
		"Error: Connection terminated unexpectedly\n" +
		"    at Connection.<anonymous> (/app/node_modules/pg/lib/client.js:132:73)\n" +
		"    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {\n" +
		"  code: 'ECONNRESET'\n" +
		"}\n" +
		"[2024-01-02T15:04:06.123Z] INFO: restarting\n"
	res := analyze(t, in, Options{})
	if res.Summary.Entries != 3 {
		t.Errorf("%d entries, want 3: the error with its properties is one", res.Summary.Entries)
	}
	if m, ok := matchAt(res, 2); !ok || !strings.HasSuffix(m.Text, "}") {
		t.Errorf("line 2: %+v, want the error up to its closing bracket", m)
	}
}

// An Erlang report (RabbitMQ before 3.7) is one entry, its header line and
// the lines under it up to the blank line: templated by its message, the
// header line its header and its kind's level.
func TestErlangReports(t *testing.T) {
	res := analyze(t, readTestdata(t, "rabbitmq_reports.log"), Options{RareThreshold: 1})
	if s := res.Summary; s.Lines != 26 || s.Entries != 9 || s.BlankLines != 8 {
		t.Errorf("summary %+v, want 26 lines in 9 entries, 8 blank", s)
	}
	if tm := templateWith(t, res, "accepting AMQP"); tm.Template != "accepting AMQP connection <0.<*>.0> (10.0.0.<*> -> <*>)" || tm.Count != 3 {
		t.Errorf("template %+v", tm)
	}
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, "REPORT") {
			t.Errorf("template %q holds a report header", tm.Template)
		}
	}
	m, ok := matchAt(res, 19)
	if !ok || m.Category != CategoryError || m.Level != "ERROR" || m.Header != "=ERROR REPORT==== 29-Nov-2026::10:00:05 ===" ||
		!strings.HasSuffix(m.Text, "{handshake_timeout,frame_header}") {
		t.Errorf("line 19: %+v", m)
	}
	levels := map[string]int{}
	for _, o := range res.Outliers {
		levels[o.Level]++
	}
	if want := map[string]int{"INFO": 5, "WARNING": 1, "ERROR": 2, "": 1}; !reflect.DeepEqual(levels, want) {
		t.Errorf("levels %v, want %v", levels, want)
	}
	if m, ok := matchAt(res, 30); !ok || m.Category != CategoryFatal || strings.Count(m.Text, "\n") != 4 {
		t.Errorf("line 30 (a crash report): %+v", m)
	}
}

// A .NET stack trace is one entry with the line that logged it, its
// marks between frames ("--- End of stack trace from previous location
// ---") included.
func TestDotnetStackTrace(t *testing.T) {
	in := `2026-11-29 10:00:00.123 +00:00 [INF] Application started
2026-11-29 10:00:01.123 +00:00 [ERR] Unhandled exception processing request /orders
System.InvalidOperationException: Sequence contains no elements
   at System.Linq.ThrowHelper.ThrowNoElementsException()
--- End of stack trace from previous location ---
   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.Execute()
 ---> System.IO.IOException: disk full
   --- End of inner exception stack trace ---
--- End of inner exception stack trace ---
2026-11-29 10:00:02.123 +00:00 [INF] Request finished
`
	res := analyze(t, in, Options{})
	if s := res.Summary; s.Lines != 10 || s.Entries != 3 || s.Templates != 3 {
		t.Errorf("summary %+v, want 10 lines in 3 entries, 3 templates", s)
	}
	if m, ok := matchAt(res, 2); !ok || !strings.HasSuffix(m.Text, "--- End of inner exception stack trace ---") {
		t.Errorf("line 2: %+v", m)
	}
}
