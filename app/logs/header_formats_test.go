package logs

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// formatCase is one line of a real format and what a user sees of it: the
// category of its match ("" for none), its level word and its header.
type formatCase struct {
	line     string
	category Category
	level    string
	header   string
}

// seenAs analyses a line alone and returns its match's category, or "",
// and its header columns: the match's, or for a line that is no match
// (whose outlier shows none) those the header finder gives.
func seenAs(t *testing.T, line string) (Category, LineHeader) {
	t.Helper()
	res := analyze(t, line, Options{})
	if len(res.Matches) > 0 {
		return res.Matches[0].Category, res.Matches[0].LineHeader
	}
	var h header
	lh := LineHeader{Header: strings.TrimRight(line[:h.end([]byte(line))], " ")}
	if h.lvl1 > h.lvl0 {
		lh.Level = line[h.lvl0:h.lvl1]
	}
	return "", lh
}

func checkFormats(t *testing.T, cases []formatCase) {
	t.Helper()
	for _, c := range cases {
		cat, lh := seenAs(t, c.line)
		if cat != c.category || lh.Level != c.level || lh.Header != c.header {
			t.Errorf("%q:\n got %q level %q header %q\nwant %q level %q header %q",
				c.line, cat, lh.Level, lh.Header, c.category, c.level, c.header)
		}
	}
}

// Serilog's console output holds the time and a three-letter level in one
// bracket, as do other loggers a full date and level.
func TestSerilogLevels(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[10:00:00 INF] Handled request, error budget fine", "", "INF", "[10:00:00 INF]"},
		{"[10:00:01 ERR] Request ended", CategoryError, "ERR", "[10:00:01 ERR]"},
		{"[10:00:02 WRN] Retrying the upstream call", CategoryReliability, "WRN", "[10:00:02 WRN]"},
		{"[10:00:03 FTL] Host terminated", CategoryFatal, "FTL", "[10:00:03 FTL]"},
		{"[10:00:04 DBG] error handler registered", "", "DBG", "[10:00:04 DBG]"},
		{"[10:00:05 VRB] failed lookups cleared", "", "VRB", "[10:00:05 VRB]"},
		{"[2024-03-05 10:00:00 INFO] error budget fine", "", "INFO", "[2024-03-05 10:00:00 INFO]"},
		{"[2024-03-05 10:00:00 ERROR] disk full", CategoryError, "ERROR", "[2024-03-05 10:00:00 ERROR]"},
		// Not a level: a bracket of other words.
		{"[request 12 failed] retry later", CategoryError, "", ""},
	})
}

// Redis: pid and role, the time, and its level as one of "-*#." is the
// header. "*" (notice), "-" (verbose) and "." (debug) are quiet levels: a
// notice that mentions an error is no match. "#" is Redis's highest level,
// for its errors and warnings alike: the keywords decide.
func TestRedisHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"1:M 11 Mar 2024 10:15:19.123 * Ready to accept connections tcp", "", "*", "1:M 11 Mar 2024 10:15:19.123 *"},
		{"1:M 11 Mar 2024 10:15:21.123 # Background saving error", CategoryError, "#", "1:M 11 Mar 2024 10:15:21.123 #"},
		{"1:S 11 Mar 2024 10:15:21.123 # Timeout connecting to the MASTER...", CategoryReliability, "#", "1:S 11 Mar 2024 10:15:21.123 #"},
		{"1:M 11 Mar 2024 10:15:21.123 # Server initialized", "", "#", "1:M 11 Mar 2024 10:15:21.123 #"},
		{"42:C 11 Mar 2024 10:15:24.223 . Client closed connection id=5", "", ".", "42:C 11 Mar 2024 10:15:24.223 ."},
		{"1:M 11 Mar 2024 10:15:22.123 - Accepted 10.0.0.8:54321", "", "-", "1:M 11 Mar 2024 10:15:22.123 -"},
		{"1:M 11 Mar 2024 10:15:23.123 * Error reading the RDB preamble, retrying later", "", "*", "1:M 11 Mar 2024 10:15:23.123 *"},
		{"7:X 11 Mar 2024 10:15:23.123 * Sentinel ID is 4b6f", "", "*", "7:X 11 Mar 2024 10:15:23.123 *"},
		// A level word after the mark is the more precise.
		{"1:C 11 Mar 2024 10:15:19.001 # Warning: no config file specified", "", "Warning", "1:C 11 Mar 2024 10:15:19.001 # Warning:"},
		// Without Redis's "pid:role", "-" and "*" after a time are separators.
		{"2024-03-11 10:15:19 - disk error on sda", CategoryError, "", "2024-03-11 10:15:19 -"},
		{"2024-03-11 10:15:19 * disk error on sda", CategoryError, "", "2024-03-11 10:15:19 *"},
	})
}

// A level bracket after a thread bracket, and log4j's bracketed columns.
func TestBracketedLevelColumns(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2024-03-05 10:00:00 [main] [INFO] error budget fine", "", "INFO", "2024-03-05 10:00:00 [main] [INFO]"},
		{"2024-03-05 10:00:00 [main] [ERROR] disk full", CategoryError, "ERROR", "2024-03-05 10:00:00 [main] [ERROR]"},
		{"[2024-03-05 10:00:00,000] [INFO] [main] com.x.Y: error budget fine", "", "INFO",
			"[2024-03-05 10:00:00,000] [INFO] [main] com.x.Y:"},
		{"[2024-03-05 10:00:00,000] [ERROR] [main] com.x.Y: disk full", CategoryError, "ERROR",
			"[2024-03-05 10:00:00,000] [ERROR] [main] com.x.Y:"},
	})
}

// MySQL 8 writes [Note] and [System] for its quiet lines: an aborted
// connection noted is no error, whatever its message says.
func TestMySQLLevels(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2024-03-05T21:00:00.000000Z 10 [Note] [MY-010914] [Server] Aborted connection 10 to db: 'shop' user: 'app' host: '10.0.0.1' (Got an error reading communication packets).",
			"", "Note", "2024-03-05T21:00:00.000000Z 10 [Note] [MY-010914] [Server]"},
		{"2024-03-05T21:00:01.000000Z 0 [System] [MY-010931] [Server] ready for connections, crash recovery done",
			"", "System", "2024-03-05T21:00:01.000000Z 0 [System] [MY-010931] [Server]"},
		{"2024-03-05T21:00:02.000000Z 0 [Warning] [MY-010068] [Server] connection timed out",
			CategoryReliability, "Warning", "2024-03-05T21:00:02.000000Z 0 [Warning] [MY-010068] [Server]"},
		{"2024-03-05T21:00:03.000000Z 0 [ERROR] [MY-012574] [InnoDB] Unable to lock ./ibdata1",
			CategoryError, "ERROR", "2024-03-05T21:00:03.000000Z 0 [ERROR] [MY-012574] [InnoDB]"},
		// Only in brackets: a bare "System" after the time is the message.
		{"2024-03-05 10:00:00 System failure detected", CategoryError, "", "2024-03-05 10:00:00"},
	})
}

// Apache 2.4 writes "[module:level]" and a "[pid …]" column; the level
// decides.
func TestApache24Levels(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[Tue Mar 05 15:03:11.123456 2024] [proxy:error] [pid 100:tid 1] [client 1.2.3.4:5] AH01114: HTTP: failed to make connection to backend",
			CategoryError, "error", "[Tue Mar 05 15:03:11.123456 2024] [proxy:error] [pid 100:tid 1]"},
		{"[Tue Mar 05 15:03:10.123456 2024] [ssl:info] [pid 100:tid 1] AH01964: Connection to child 4 established (error count reset)",
			"", "info", "[Tue Mar 05 15:03:10.123456 2024] [ssl:info] [pid 100:tid 1]"},
		{"[Tue Mar 05 15:03:00.123456 2024] [mpm_event:notice] [pid 100:tid 1] AH00489: Apache configured -- resuming normal operations after a crash",
			"", "notice", "[Tue Mar 05 15:03:00.123456 2024] [mpm_event:notice] [pid 100:tid 1]"},
		{"[Tue Mar 05 15:03:12.123456 2024] [:error] [pid 7] [client 10.0.0.1:1] PHP Warning: x",
			CategoryError, "error", "[Tue Mar 05 15:03:12.123456 2024] [:error] [pid 7]"},
		{"[Tue Mar 05 15:03:13.123456 2024] [core:trace3] [pid 7] request failed over",
			"", "trace3", "[Tue Mar 05 15:03:13.123456 2024] [core:trace3] [pid 7]"},
	})
}

// Laravel's "env.LEVEL:" and a PostgreSQL log_line_prefix that glues the
// level to the prefix ("…:[12]:LOG:").
func TestLevelAtTheEndOfAToken(t *testing.T) {
	const pg = "2024-03-05 10:00:00 UTC:10.0.0.1(5432):app@db:[12]:"
	checkFormats(t, []formatCase{
		{"[2024-03-05 10:00:00] production.INFO: user exported error report", "", "INFO", "[2024-03-05 10:00:00] production.INFO:"},
		{"[2024-03-05 10:00:00] local.ERROR: Call to undefined method", CategoryError, "ERROR", "[2024-03-05 10:00:00] local.ERROR:"},
		{pg + "LOG:  connection received, error budget fine", "", "LOG", pg + "LOG:"},
		{pg + "ERROR:  relation \"x\" does not exist", CategoryError, "ERROR", pg + "ERROR:"},
		{pg + "FATAL:  password authentication failed", CategoryFatal, "FATAL", pg + "FATAL:"},
		{pg + "WARNING:  could not receive data: Connection reset by peer", CategoryReliability, "WARNING", pg + "WARNING:"},
		{pg + "DEBUG1:  error budget fine", "", "DEBUG1", pg + "DEBUG1:"},
	})
}

// Python's logging.basicConfig and Ruby's Logger open with the level.
func TestPythonAndRubyLevels(t *testing.T) {
	const ts = "[2024-03-05T10:00:00.123456 #1234]"
	checkFormats(t, []formatCase{
		{"INFO:app.worker:processed item 0 after error", "", "INFO", "INFO:app.worker:"},
		{"ERROR:app.worker:job stopped", CategoryError, "ERROR", "ERROR:app.worker:"},
		{"WARNING:urllib3.connectionpool:Retrying after connection broken", CategoryReliability, "WARNING",
			"WARNING:urllib3.connectionpool:"},
		{"ERROR: disk full", CategoryError, "ERROR", "ERROR:"}, // no logger: the generic header
		{"I, " + ts + "  INFO -- : Completed 500 Internal Server Error in 12ms", "", "INFO", "I, " + ts + "  INFO -- :"},
		{"E, " + ts + " ERROR -- : something bad", CategoryError, "ERROR", "E, " + ts + " ERROR -- :"},
		{"W, " + ts + "  WARN -- MyApp: retrying in 5s", CategoryReliability, "WARN", "W, " + ts + "  WARN -- MyApp:"},
		{"F, " + ts + " FATAL -- : shutting down", CategoryFatal, "FATAL", "F, " + ts + " FATAL -- :"},
	})
}

// A syslog priority's severity (PRI mod 8) is the line's level; the RFC
// 5424 header runs to the structured data.
func TestSyslogPriorityLevels(t *testing.T) {
	const v1 = "2024-03-05T13:00:00.000+01:00 host app 4242 ID47"
	checkFormats(t, []formatCase{
		{"<27>Mar  5 10:00:00 host app[1]: queue drained", CategoryError, "<27>", "<27>Mar  5 10:00:00 host app[1]:"},
		{"<30>Mar  5 10:00:00 host app[1]: error budget fine", "", "<30>", "<30>Mar  5 10:00:00 host app[1]:"},
		{"<28>Mar  5 10:00:00 host app[1]: upstream timeout", CategoryReliability, "<28>", "<28>Mar  5 10:00:00 host app[1]:"},
		{"<26>1 " + v1 + " - disk gone", CategoryFatal, "<26>", "<26>1 " + v1 + " -"},
		{"<30>1 " + v1 + ` [sd-id k="v" e="a \"]\" b"] error budget fine`, "", "<30>", "<30>1 " + v1 + ` [sd-id k="v" e="a \"]\" b"]`},
		{`<31>1 2024-03-05T13:00:00Z host app - - [a x="1"][b y="]"] failed to parse`, "", "<31>",
			`<31>1 2024-03-05T13:00:00Z host app - - [a x="1"][b y="]"]`},
		{"<3>[    1.234567] usb 1-1: device descriptor read/64", CategoryError, "<3>", "<3>[    1.234567]"},
		{"<6>[    1.234567] usb 1-1: reset, error count 0", "", "<6>", "<6>[    1.234567]"},
		// Not a priority: too many digits.
		{"<1234>x failed", CategoryError, "", ""},
	})
	// A match the priority made reports its category as the keyword,
	// not "<27>".
	res := analyze(t, "<27>Mar  5 10:00:00 host app[1]: queue drained\n", Options{})
	if len(res.Matches) != 1 || res.Matches[0].Keyword != "error" {
		t.Errorf("matches %+v, want one with the keyword error", res.Matches)
	}
}

// A klog header inside journald's header decides the level: a
// warning with a keyword is reliability, not an error.
func TestKlogInsideSyslog(t *testing.T) {
	const j = "Mar 05 14:00:01 node1 kubelet[812]: "
	checkFormats(t, []formatCase{
		{j + "W0305 14:00:01.000000     812 file.go:12] failed to sync, retrying", CategoryReliability, "W",
			j + "W0305 14:00:01.000000     812 file.go:12]"},
		{j + "E0305 14:00:01.000000     812 file.go:12] sync stopped", CategoryError, "E", j + "E0305 14:00:01.000000     812 file.go:12]"},
		{j + "I0305 14:00:01.000000     812 file.go:12] error count reset", "", "I", j + "I0305 14:00:01.000000     812 file.go:12]"},
		{j + "F0305 14:00:01.000000     812 file.go:12] cannot continue", CategoryFatal, "F", j + "F0305 14:00:01.000000     812 file.go:12]"},
		// No klog header: the message's keyword decides.
		{j + "W0305 failed to parse", CategoryError, "", "Mar 05 14:00:01 node1 kubelet[812]:"},
	})
}

// Lines of one format are entries of their own (a header was found on
// each, so none continues the line before) and only the lines whose level
// says so are matches.
func TestFormatLinesAreEntries(t *testing.T) {
	formats := []struct {
		name       string
		line, fail func(i int) string
	}{
		{"serilog", func(i int) string { return fmt.Sprintf("[10:00:%02d INF] Handled request %d", i, i) },
			func(i int) string { return fmt.Sprintf("[10:01:%02d ERR] Request %d ended", i, i) }},
		{"bracketed", func(i int) string { return fmt.Sprintf("[2024-03-05 10:00:%02d INFO] handled %d", i, i) },
			func(i int) string { return fmt.Sprintf("[2024-03-05 10:01:%02d ERROR] lost %d", i, i) }},
		{"python", func(i int) string { return fmt.Sprintf("INFO:app.worker:processed item %d after error", i) },
			func(i int) string { return fmt.Sprintf("ERROR:app.worker:item %d lost", i) }},
		{"ruby", func(i int) string {
			return fmt.Sprintf("I, [2024-03-05T10:00:%02d.123456 #1234]  INFO -- : Completed 500 Internal Server Error in %dms", i, i)
		}, func(i int) string {
			return fmt.Sprintf("E, [2024-03-05T10:01:%02d.123456 #1234] ERROR -- : item %d lost", i, i)
		}},
		{"mysql", func(i int) string {
			return fmt.Sprintf("2024-03-05T21:00:%02d.000000Z %d [Note] [MY-010914] [Server] Aborted connection %d (Got an error reading communication packets).", i, i, i)
		}, func(i int) string {
			return fmt.Sprintf("2024-03-05T21:01:%02d.000000Z 0 [ERROR] [MY-012574] [InnoDB] Unable to lock ./ibdata%d", i, i)
		}},
		{"syslog", func(i int) string {
			return fmt.Sprintf("<30>Mar  5 10:00:%02d host app[1]: handled %d, error budget fine", i, i)
		},
			func(i int) string { return fmt.Sprintf("<27>Mar  5 10:01:%02d host app[1]: item %d lost", i, i) }},
	}
	for _, f := range formats {
		var lines []string
		want := []int{}
		for i := range 40 {
			if i%10 == 9 {
				lines = append(lines, f.fail(i))
				want = append(want, i+1)
			} else {
				lines = append(lines, f.line(i))
			}
		}
		res := analyze(t, strings.Join(lines, "\n"), Options{})
		var got []int
		for _, m := range res.Matches {
			got = append(got, m.Line)
		}
		if res.Summary.Entries != len(lines) || !slices.Equal(got, want) {
			t.Errorf("%s: %d entries, matches on lines %v; want %d entries, matches on %v",
				f.name, res.Summary.Entries, got, len(lines), want)
		}
	}
}

// The header layouts (layout.go) only save work: every line of these
// formats, after lines that share its first bytes or differ from it only in
// digits, gets the header, level and words a fresh finder gives it.
func TestFormatHeadersWithLayouts(t *testing.T) {
	lines := []string{
		"[10:00:00 INF] Handled", "[10:00:00 INF]", "[10:00:00 INFO x", "[10:00:00 ERR] [x] y",
		"[Tue Mar 05 15:03:11.123456 2024] [proxy:error] [pid 100:tid 1] [client 1.2.3.4:5] AH01114: x",
		"[Tue Mar 05 15:03:11.123456 2024] [proxy:error] [pid 100:tid 1] AH01114: x",
		"[Tue Mar 05 15:03:11.123456 2024] [proxy:error] [pid x] AH01114: x",
		"INFO:app.worker:x", "INFO:app.worker x", "INFO:app.worker:", "INFO:app.worker", "INFO:", "INFO::x", "INFOS:a:b",
		"I, [2024-03-05T10:00:00.1 #1]  INFO -- : x", "I, [2024-03-05T10:00:00.1 #1]  INFO -- :x",
		"I, [2024-03-05T10:00:00.1 #1]  INFO -- :", "I, [2024-03-05T10:00:00.1 #1]  INFO -- a b: x",
		"I, [2024-03-05T10:00:00.1 #1]  INFO -", "E, [2024-03-05T10:00:00.1 #1]  INFO -- : x", "I, [2024-03-05T10:00:00.1 #1",
		"<27>Mar  5 10:00:00 host app[1]: x", "<27>", "<27", "<2x>", "<1234> x", "<3>[    1.234567] x",
		`<30>1 2024-03-05T13:00:00Z h a 1 m [s k="v"] x`, `<30>1 2024-03-05T13:00:00Z h a 1 m [s k="v"]x`,
		`<30>1 2024-03-05T13:00:00Z h a 1 m [s k="v"]`, `<30>1 2024-03-05T13:00:00Z h a 1 m [s k="v"][t] x`,
		`<30>1 2024-03-05T13:00:00Z h a 1 m [s k="]`, `<30>1 2024-03-05T13:00:00Z h a 1 m - x`,
		`<30>1 2024-03-05T13:00:00Z h a 1 m -x`, `<30>1 2024-03-05T13:00:00Z h a 1 m -`, `<30>1 2024-03-05T13:00:00Z h a  m - x`,
		`<30>1 2024-03-05T13:00:00Z h a 1`, `<30>12 2024-03-05T13:00:00Z h a 1 m - x`,
		"Mar 05 14:00:01 node1 kubelet[812]: W0305 14:00:01.000000  812 file.go:12] x",
		"Mar 05 14:00:01 node1 kubelet[812]: W0305 14:00:01.000000  812 file.go:12]",
		"Mar 05 14:00:01 node1 kubelet[812]: W0305 14:00:01.000000 x", "Mar 05 14:00:01 node1 kubelet[812]: W0305",
		"2024-03-05 10:00:00 UTC:10.0.0.1(5432):app@db:[12]:LOG:  x", "2024-03-05 10:00:00 UTC:10.0.0.1(5432):app@db:[12]:Log:  x",
		"[2024-03-05 10:00:00] production.INFO: x", "2024-03-05T21:00:00.000000Z 10 [Note] [MY-010914] [Server] x",
		"update-alternatives 2025-06-24 14:42:14: run", "nightly 2024-03-05 10:00:00: ERROR: x", "worker 1234: x",
		"2026-11-29 02:50:49.628 UTC [5876] app@db STATEMENT:  x", "2026-11-29 02:50:49.628 UTC [5876] DETAIL:  x",
		"2024/03/05 10:00:01 [error] 1234#1234: *5 open() x", "2024/03/05 10:00:01 [error] 1234#1234: *5x", "2024/03/05 10:00:01 [error] 1#1: *",
		"[    0.000000] Linux x", "Mar  5 10:00:01 host1 kernel: [    2.345678] x", "Mar  5 10:00:01 host1 kernel: [    2.345678x] x",
		"2026-11-29 02:29:03.150625+00:00 [info] <0.223.0> x", "2026-11-29 02:29:03.150625+00:00 [info] <0.223.0>",
		"2024-03-05 10:00:00.123  INFO 12345 --- [           main] c.e.App         : x", "2024-03-05 10:00:00.123  INFO 12345 ---",
		"2024-03-05 10:00:00.123  INFO 12345 ---x", "2024-03-05 10:00:00.123  INFO 12345 --- [main] c.e.App x",
		"Mar  5 10:00:01 host1 app[12]: 2024/03/05 10:00:01 x", "Mar  5 10:00:06 host1 gunicorn[77]: [2024-03-05 10:00:06 +0000] [77] [ERROR] x",
		"Mar  5 10:00:01 host1 app[12]: 10:00:01", "Mar  5 10:00:01 host1 app[12]: [10:00:01",
	}
	// Every line, then each with its digits changed, twice over.
	var all []string
	for range 2 {
		for _, l := range lines {
			all = append(all, l, strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return '0' + (r-'0'+3)%10
				}
				return r
			}, l))
		}
	}
	var memo header
	for _, line := range all {
		sameHeader(t, &memo, line)
	}
}

// sameHeader checks that memo, with the layouts of the lines it read,
// finds in line the header, level and words a fresh finder finds.
func sameHeader(t *testing.T, memo *header, line string) {
	t.Helper()
	var fresh header
	s := []byte(line)
	got, want := memo.end(s), fresh.end(s)
	span := func(h *header) [][2]int32 {
		var ws [][2]int32
		for _, w := range h.words {
			if int(w.end) <= got { // words past the header are never read
				ws = append(ws, [2]int32{w.start, w.end})
			}
		}
		return ws
	}
	if got != want || memo.lvl0 != fresh.lvl0 || memo.lvl1 != fresh.lvl1 || !slices.Equal(span(memo), span(&fresh)) {
		t.Errorf("%q: header %d level %d-%d words %v with layouts; %d %d-%d %v without",
			line, got, memo.lvl0, memo.lvl1, span(memo), want, fresh.lvl0, fresh.lvl1, span(&fresh))
	}
	for _, w := range fresh.words {
		if w.end <= w.start || bytes.ContainsAny(s[w.start:w.end], " ") && s[w.start] != '[' {
			t.Errorf("%q: word %q", line, s[w.start:w.end])
		}
	}
}

// The layouts kept are bounded (maxLayouts, maxBranch): a log of more
// headers than they hold still gets from them what a fresh finder gives,
// before and after they are forgotten.
func TestHeaderLayoutsBounded(t *testing.T) {
	name := func(k int) string { // a name without digits: a layout of its own
		return string(rune('a'+k%26)) + string(rune('a'+k/26%26)) + string(rune('a'+k/676%26))
	}
	for _, c := range []struct{ threads, loggers int }{
		{maxBranch + 6, 2},    // more threads than a node's children
		{2, maxLayouts/2 + 6}, // more layouts than are kept
		{maxLayouts/maxBranch + 1, maxBranch - 1},
	} {
		var memo header
		for round := range 2 {
			for th := range c.threads {
				for lg := range c.loggers {
					sameHeader(t, &memo, fmt.Sprintf("2024-03-05 10:%02d:00,%03d INFO [%s] com.example.%s: started %d", round, th, name(th), name(lg), lg))
				}
			}
		}
		if n := len(memo.layouts.all); n == 0 || n > maxLayouts {
			t.Errorf("%d layouts kept", n)
		}
	}
}

func TestLevelOfWords(t *testing.T) {
	for t0, want := range map[string]levelKind{
		"<0>": levelFatal, "<1>": levelFatal, "<2>": levelFatal, "<3>": levelError, "<4>": levelWarn,
		"<5>": levelQuiet, "<6>": levelQuiet, "<7>": levelQuiet, "<27>": levelError, "<30>": levelQuiet,
		"<191>": levelQuiet, "<1234>": levelNone, "<>": levelNone, "<crit>": levelFatal,
		"INF": levelQuiet, "WRN": levelWarn, "FTL": levelFatal, "VRB": levelQuiet, "DEBUG1": levelQuiet,
		"trace8": levelQuiet, "Note": levelQuiet, "System": levelQuiet, "debug12": levelNone,
		"D1": levelQuiet, "D5": levelQuiet, "D6": levelNone, "dpanic": levelError, "DPANIC": levelError,
	} {
		if got := levelOf([]byte(t0)); got != want {
			t.Errorf("levelOf(%q) = %d, want %d", t0, got, want)
		}
	}
}

// In a log without levels, a message that opens with a word that could be
// a level in Title case ("Debug endpoint", "Log rotation") or with "I" is
// a sentence, not a quiet level hiding its keywords; a capital or
// separated level still is one.
func TestLevelWordsOpeningASentence(t *testing.T) {
	in := strings.Repeat("2024-03-05 10:00:00 worker started batch 1\n", 20) +
		"2024-03-05 10:00:10 Log rotation failed: permission denied\n" + // 21
		"2024-03-05 10:00:15 I failed to open /var/data\n" + // 22
		"2024-03-05 10:00:20 Notice period expired, account lock failed\n" + // 23
		"2024-03-05 10:00:30 Trace collector panic: nil map\n" + // 24
		"2024-03-05 10:00:35 Debug endpoint returned error 500\n" + // 25
		"2024-03-05 10:00:40 DEBUG retry failed, as debugging expects\n" + // 26: a level
		"2024-03-05 10:00:45 Info: cache failed over to replica\n" // 27: a level
	res := analyze(t, in, Options{})
	for line, cat := range map[int]Category{21: CategoryError, 22: CategoryError, 23: CategoryError, 24: CategoryFatal, 25: CategoryError} {
		if m, ok := matchAt(res, line); !ok || m.Category != cat || m.Level != "" && strings.HasPrefix(m.Text[20:], m.Level+" ") {
			t.Errorf("line %d: %+v, want a %s match, its first word no level", line, m, cat)
		}
	}
	for _, line := range []int{26, 27} {
		if m, ok := matchAt(res, line); ok {
			t.Errorf("line %d: %+v, want its quiet level to rule it out", line, m)
		}
	}
}

// journalctl -o short-iso: an ISO time, a host name with digits, then
// "name[pid]:". The host looks like a bare id column on most lines, but
// the header runs on to the process, as on other syslog lines, and a
// klog header after it is read too; journalctl's "-- Boot … --" stands
// alone, not as the rest of the line above.
func TestJournalShortISO(t *testing.T) {
	in := strings.Join([]string{
		"2024-01-02T15:04:05+0000 host1 systemd[1]: Started Daily apt download activities.",
		"2024-01-02T15:04:06+0000 host1 sshd[812]: Failed password for invalid user admin from 10.0.0.5 port 51234 ssh2",
		"2024-01-02T15:04:07+0000 host1 kernel: Out of memory: Killed process 4321 (java)",
		"2024-01-02T15:04:08+0000 host1 systemd[1]: myapp.service: Main process exited, code=exited, status=1/FAILURE",
		"2024-01-02T15:04:08+0000 host1 systemd[1]: myapp.service: Failed with result 'exit-code'.",
		"2024-01-02T15:04:09+0000 host1 systemd[1]: myapp.service: Scheduled restart job, restart counter is at 3.",
		`2024-01-02T15:04:10+0000 host1 kubelet[900]: I0102 15:04:10.123456     900 pod_workers.go:1298] "Error syncing pod is done"`,
		"2024-01-02T15:04:11+0000 host1 CRON[2222]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)",
		"-- Boot 3b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e --",
		"2024-01-02T15:05:00+0000 host1 kernel: Linux version 6.1.0-17-amd64",
	}, "\n")
	res := analyze(t, in, Options{IncludeAssignments: true})
	if res.Summary.Entries != 10 {
		t.Errorf("%d entries, want 10: the boot note is one", res.Summary.Entries)
	}
	for _, no := range []int{2, 4, 5, 6} {
		if m, ok := matchAt(res, no); !ok || !strings.HasSuffix(m.Header, "]:") {
			t.Errorf("line %d: header %q, want it to end with the process", no, m.Header)
		}
	}
	if _, ok := matchAt(res, 7); ok {
		t.Errorf("line 7 matched: its klog level I decides")
	}
}

// rsyslog's RFC 3339 time and journalctl -o short-iso name a program
// without a pid ("kernel:") after the host, as month-name syslog does:
// the header runs to it, so kernel lines group without the host. A
// capitalised word before a colon after such a time is a message's.
func TestZonedSyslogProgram(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29T02:03:06+0000 web-01 kernel: EXT4-fs (dm-0): re-mounted. Quota mode: none.", "", "",
			"2026-11-29T02:03:06+0000 web-01 kernel:"},
		{"2026-11-29T02:03:06.123456+00:00 db2.example.com kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting", "error", "",
			"2026-11-29T02:03:06.123456+00:00 db2.example.com kernel:"},
		{"2026-11-29T02:03:06Z ip-10-0-1-5 systemd: Started Session 42 of User root.", "", "",
			"2026-11-29T02:03:06Z ip-10-0-1-5 systemd:"},
		{"2026-11-29T02:03:06Z Starting server: port 8080", "", "", "2026-11-29T02:03:06Z"},
	})
	in := strings.Join([]string{
		"2026-11-29T02:03:06+0000 web-01 kernel: EXT4-fs (sda1): re-mounted. Quota mode: none.",
		"2026-11-29T02:03:07+0000 web-02 kernel: EXT4-fs (sdb1): re-mounted. Quota mode: none.",
		"2026-11-29T02:03:08+0000 db-1 kernel: EXT4-fs (nvme0n1p2): re-mounted. Quota mode: none.",
	}, "\n")
	res := analyze(t, in, Options{})
	if len(res.Templates) != 1 || strings.Contains(res.Templates[0].Template, "kernel") {
		t.Errorf("templates %+v, want one, without the host and kernel:", res.Templates)
	}
}

// log4j's %-5p pads a short level inside its brackets ("[INFO ]",
// Elasticsearch, many Java services) and Elasticsearch pads its logger
// too: the level is still the line's (an INFO line saying "failed" is no
// match) and the padded logger is header, not the message's first words.
func TestPaddedBracketLevel(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[2026-11-29T02:00:00,146][INFO ][o.e.c.r.a.AllocationService   ] [es-node-2] Cluster health status changed from [YELLOW] to [GREEN]",
			"", "INFO", "[2026-11-29T02:00:00,146][INFO ][o.e.c.r.a.AllocationService   ] [es-node-2]"},
		{"[2026-11-29T02:00:01,921][WARN ][o.e.x.s.a.AuthenticationService] [es-node-0] Authentication of [kibana] was terminated by realm [reserved] - failed to authenticate user [kibana]",
			CategoryReliability, "WARN", "[2026-11-29T02:00:01,921][WARN ][o.e.x.s.a.AuthenticationService] [es-node-0]"},
		{"2026-11-29 02:00:00,146 [INFO ] [main] failed login for user bob", "", "INFO", "2026-11-29 02:00:00,146 [INFO ] [main]"},
		{"2026-11-29 02:00:00,146 [DEBUG] [pool-1-thread-3] retry failed, next in 5s", "", "DEBUG", "2026-11-29 02:00:00,146 [DEBUG] [pool-1-thread-3]"},
	})
}

// log4j's classic layouts put the logger, then " - ", after the level:
// "%d [%t] %-5p %c - %m" (Kafka's tools, Hadoop's, many Java services),
// Cassandra's "%-5level [%thread] %date %F:%L - %msg". A qualified name
// or a class's CamelCase name before the dash is the logger, header; the
// template starts after it.
func TestLoggerDashHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29 02:00:00,146 [main] INFO  com.example.auth.LoginService - failed login for user bob", "", "INFO",
			"2026-11-29 02:00:00,146 [main] INFO  com.example.auth.LoginService -"},
		{"02:00:00.146 [pool-2-thread-1] WARN  o.a.k.c.NetworkClient - Connection to node 1 could not be established", "", "WARN",
			"02:00:00.146 [pool-2-thread-1] WARN  o.a.k.c.NetworkClient -"},
		{"INFO  [GossipStage:1] 2026-11-29 02:01:04,678 Gossiper.java:1083 - InetAddress /10.0.9.127:7000 is now DOWN", "", "INFO",
			"INFO  [GossipStage:1] 2026-11-29 02:01:04,678 Gossiper.java:1083 -"},
		{"2026-11-29 02:00:00,146 INFO  Starting - please wait", "", "INFO", "2026-11-29 02:00:00,146 INFO"},
		// A class's short name (logback's %logger{0}), maybe with its line.
		{"2026-11-29 02:00:00,146 [main] INFO  OrderService - failed payment retried for order 1234", "", "INFO",
			"2026-11-29 02:00:00,146 [main] INFO  OrderService -"},
		{"2026-11-29 02:00:00.123 INFO  [vert.x-eventloop-thread-1] MainVerticle:42 - Server started on port 8080", "", "INFO",
			"2026-11-29 02:00:00.123 INFO  [vert.x-eventloop-thread-1] MainVerticle:42 -"},
		{"2026-11-29 02:00:00,146 INFO  HTTP - ok", "", "INFO", "2026-11-29 02:00:00,146 INFO"},
	})
}

// zap's console encoder (Kubernetes controllers, many Go services) and
// loggers set to show the caller write its file and line after the level:
// header, so templates do not start with, or split by, a line number.
func TestCallerAfterLevel(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29T02:00:00.123Z\tINFO\tcontroller/reconcile.go:123\tReconciling\t{\"name\": \"web\"}", "", "INFO",
			"2026-11-29T02:00:00.123Z\tINFO\tcontroller/reconcile.go:123"},
		{"2026-11-29T02:00:00.123Z\tERROR\tserver/grpc.go:88\tfailed to serve\t{\"error\": \"closed\"}", CategoryError, "ERROR",
			"2026-11-29T02:00:00.123Z\tERROR\tserver/grpc.go:88"},
		{"2026-11-29 02:00:00,123 WARNING app.py:42 disk write failed, retrying", CategoryReliability, "WARNING",
			"2026-11-29 02:00:00,123 WARNING app.py:42"},
		{"2026-11-29 02:00:00,123 INFO config.yaml loaded", "", "INFO", "2026-11-29 02:00:00,123 INFO"},
	})
	in := "2026-11-29T02:00:00.123Z\tINFO\tcontroller/reconcile.go:123\tReconciling\n" +
		"2026-11-29T02:00:01.123Z\tINFO\tcontroller/reconcile.go:131\tReconciling\n"
	if res := analyze(t, in, Options{}); len(res.Templates) != 1 || res.Templates[0].Template != "Reconciling" {
		t.Errorf("templates %+v, want one: Reconciling", res.Templates)
	}
}

// PHP writes "Fatal error:" as its level: the header runs past "error:",
// so the template starts with what went wrong, as after "Warning:".
func TestPHPFatalError(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[29-Nov-2026 02:00:00 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function foo() in /var/www/index.php:3",
			CategoryFatal, "Fatal", "[29-Nov-2026 02:00:00 UTC] PHP Fatal error:"},
		{"[29-Nov-2026 02:00:01 UTC] PHP Warning:  Undefined variable $x in /var/www/a.php on line 12",
			"", "Warning", "[29-Nov-2026 02:00:01 UTC] PHP Warning:"},
		{"2026-11-29 02:00:02 ERROR error: connection refused", CategoryError, "ERROR", "2026-11-29 02:00:02 ERROR"},
	})
	in := "[29-Nov-2026 02:00:00 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function foo() in /var/www/index.php:3\n" +
		"[29-Nov-2026 02:00:05 UTC] PHP Fatal error:  Uncaught Error: Call to undefined function bar() in /var/www/index.php:9\n"
	if res := analyze(t, in, Options{}); len(res.Templates) != 1 || !strings.HasPrefix(res.Templates[0].Template, "Uncaught Error:") {
		t.Errorf("templates %+v, want one starting with Uncaught Error:", res.Templates)
	}
}

// Celery writes its time, a colon, the level and the process in one
// bracket: the level is the line's, the bracket its header.
func TestCeleryHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[2026-11-29 02:00:00,123: INFO/MainProcess] Task tasks.add[7d1f8b2e] succeeded in 0.01s: retry failed once", "", "INFO",
			"[2026-11-29 02:00:00,123: INFO/MainProcess]"},
		{"[2026-11-29 02:00:01,456: ERROR/ForkPoolWorker-2] Task tasks.add[7d1f8b2e] raised unexpected: ValueError('x')", CategoryError, "ERROR",
			"[2026-11-29 02:00:01,456: ERROR/ForkPoolWorker-2]"},
		{"[2026-11-29 02:00:02,789: WARNING/MainProcess] consumer: Connection to broker lost. Trying to re-establish the connection...", "", "WARNING",
			"[2026-11-29 02:00:02,789: WARNING/MainProcess]"},
	})
}

// Tomcat's OneLineFormatter writes the class and method after the thread,
// with no separator: header, a qualified Java name; a dotted key opening
// the message is no class.
func TestTomcatHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"29-Nov-2026 02:00:00.123 SEVERE [main] org.apache.catalina.startup.Catalina.start Server startup failed", CategoryError, "SEVERE",
			"29-Nov-2026 02:00:00.123 SEVERE [main] org.apache.catalina.startup.Catalina.start"},
		{"29-Nov-2026 02:00:01.456 INFO [main] org.apache.coyote.AbstractProtocol.start Starting ProtocolHandler [\"http-nio-8080\"]", "", "INFO",
			"29-Nov-2026 02:00:01.456 INFO [main] org.apache.coyote.AbstractProtocol.start"},
		{"2026-11-29 02:00:02,789 INFO [main] mapreduce.task.attempt.id is deprecated", "", "INFO", "2026-11-29 02:00:02,789 INFO [main]"},
	})
}

// A program may write its name before the time, and a colon after it
// (Debian's update-alternatives, backup and cron scripts): the header
// runs to that colon, so templates hold no part of the time.
func TestProgramThenTimeHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"update-alternatives 2025-06-24 14:42:14: run with --install /usr/bin/pager pager /usr/bin/less 77", "", "",
			"update-alternatives 2025-06-24 14:42:14:"},
		{"backup-job 2024/03/05 10:00:00: snapshot done", "", "", "backup-job 2024/03/05 10:00:00:"},
		{"nightly 2024-03-05 10:00:00: ERROR: disk full", CategoryError, "ERROR", "nightly 2024-03-05 10:00:00: ERROR:"},
		// A number and a colon is no time: a count or a process id.
		{"worker 1234: started", "", "", ""},
	})
	lines := []string{
		"update-alternatives 2025-06-24 14:36:53: link group pager updated to point to /usr/bin/less",
		"update-alternatives 2026-09-22 04:55:32: link group java updated to point to /usr/bin/java",
		"update-alternatives 2026-09-22 04:56:12: link group awk updated to point to /usr/bin/mawk",
	}
	res := analyze(t, strings.Join(lines, "\n"), Options{})
	if len(res.Templates) != 1 || res.Templates[0].Template != "link group <*> updated to point to /usr/bin/<*>" {
		t.Errorf("templates %+v, want one without the time", res.Templates)
	}
}

// A key aligned to its value, as a program prints a table of settings
// under its level ("[INF]   Version:  2.9.10"), is the message's: a
// logger is followed by one space.
func TestAlignedKeyIsNoLogger(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[2977] 2026/11/29 02:28:58.416279 [INF]   Version:  2.9.10", "", "INF", "[2977] 2026/11/29 02:28:58.416279 [INF]"},
		{"2024-03-05 10:00:00,123 INFO  Max Heap:      512 MB", "", "INFO", "2024-03-05 10:00:00,123 INFO"},
		{"2024-03-05 10:00:00,123 INFO  Uptime:      5 days", "", "INFO", "2024-03-05 10:00:00,123 INFO"},
		// Loggers, padded or not.
		{"17/06/09 20:10:40 INFO SparkContext: Running Spark version 1.6.0", "", "INFO", "17/06/09 20:10:40 INFO SparkContext:"},
		{"2024-03-05 10:00:00,123 WARN  DataStreamer: Slow waitForAckedSeqno took 35000ms", "", "WARN", "2024-03-05 10:00:00,123 WARN  DataStreamer:"},
	})
}

// PostgreSQL writes what more it says of a line on lines of their own,
// "STATEMENT:", "DETAIL:", "HINT:" where the level stands, after the same
// fields (a user@database column with log_line_prefix's %u@%d): those
// fields are header, and the message opens with the word.
func TestPostgresDetailLines(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29 02:50:49.628 UTC [5876] postgres@postgres ERROR:  relation \"nope\" does not exist at character 15",
			CategoryError, "ERROR", "2026-11-29 02:50:49.628 UTC [5876] postgres@postgres ERROR:"},
		{"2026-11-29 02:50:49.628 UTC [5876] postgres@postgres STATEMENT:  select * from nope", "", "",
			"2026-11-29 02:50:49.628 UTC [5876] postgres@postgres"},
		{"2024-03-18 09:14:09.774 UTC [4251] DETAIL:  Key (id)=(88122) already exists.", "", "", "2024-03-18 09:14:09.774 UTC [4251]"},
	})
	lines := []string{
		"2026-11-29 02:50:49.628 UTC [5876] postgres@postgres STATEMENT:  select * from nope",
		"2026-11-29 02:50:49.722 UTC [5879] app@shop STATEMENT:  select * from orders",
		"2026-11-29 02:50:49.803 UTC [5882] report@stats STATEMENT:  select * from users",
	}
	res := analyze(t, strings.Join(lines, "\n"), Options{})
	if len(res.Templates) != 1 || res.Templates[0].Template != "STATEMENT: select * from <*>" {
		t.Errorf("templates %+v, want one without the user and database", res.Templates)
	}
}

// nginx's error log writes the process ("pid#tid:") after its [level],
// and the connection's number ("*5") after that: both are header.
func TestNginxErrorHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{`2024/03/05 10:00:01 [error] 1234#1234: *5 open() "/usr/share/nginx/html/favicon.ico" failed (2: No such file or directory), client: 10.0.0.5`,
			CategoryError, "error", "2024/03/05 10:00:01 [error] 1234#1234: *5"},
		{"2024/03/05 10:00:05 [notice] 1#1: signal process started", "", "notice", "2024/03/05 10:00:05 [notice] 1#1:"},
		// A count after a level is still the message's.
		{"2024-03-05 10:00:05 INFO 3 files copied", "", "INFO", "2024-03-05 10:00:05 INFO"},
	})
}

// The kernel's uptime, padded or not, opens dmesg's lines and the
// kernel's lines in syslog: it is header, as a time.
func TestKernelUptimeHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"[    0.000000] Linux version 6.1.0-17-amd64 (debian-kernel@lists.debian.org)", "", "", "[    0.000000]"},
		{"[12347.000001] usb 1-1: new high-speed USB device number 2 using xhci_hcd", "", "", "[12347.000001]"},
		{"Mar  5 10:00:01 host1 kernel: [    2.345678] EXT4-fs (sda1): mounted filesystem with ordered data mode.", "", "",
			"Mar  5 10:00:01 host1 kernel: [    2.345678]"},
		// Another bracket after a syslog header is the message's.
		{"Mar  5 10:00:01 host1 app[12]: [main] started", "", "", "Mar  5 10:00:01 host1 app[12]:"},
	})
	lines := []string{
		"Mar  5 10:00:01 host1 kernel: [    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable",
		"Mar  5 10:00:01 host1 kernel: [    0.000000] BIOS-e820: [mem 0x0000000000100000-0x00000000bffdffff] usable",
		"Mar  5 10:00:09 host1 kernel: [   12.000000] BIOS-e820: [mem 0x0000000100000000-0x000000023fffffff] usable",
	}
	res := analyze(t, strings.Join(lines, "\n"), Options{})
	if len(res.Templates) != 1 || res.Templates[0].Template != "BIOS-e820: [mem <*>] usable" {
		t.Errorf("templates %+v, want one without the uptime", res.Templates)
	}
}

// RabbitMQ (Erlang's logger) writes the process after the level:
// "<0.223.0>" is header; one further on is the message's.
func TestErlangProcessHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29 02:29:03.150625+00:00 [info] <0.223.0> Running boot step pre_boot defined by app rabbit", "", "info",
			"2026-11-29 02:29:03.150625+00:00 [info] <0.223.0>"},
		{"2026-11-29 02:29:03.150625+00:00 [error] <0.1021.0> closing AMQP connection <0.1018.0> (127.0.0.1:5672)", CategoryError, "error",
			"2026-11-29 02:29:03.150625+00:00 [error] <0.1021.0>"},
		{"2026-11-29 02:29:03.150625+00:00 [info] <0.1.2.3> x", "", "info", "2026-11-29 02:29:03.150625+00:00 [info]"},
	})
}

// Spring Boot's default pattern writes the process id and "---" after the
// level, then the thread padded in brackets and the logger padded before
// " : ": all header.
func TestSpringBootHeader(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2024-03-05 10:00:00.123  INFO 12345 --- [           main] com.example.demo.DemoApplication         : Started DemoApplication in 3.456 seconds (JVM running for 4.012)",
			"", "INFO", "2024-03-05 10:00:00.123  INFO 12345 --- [           main] com.example.demo.DemoApplication         :"},
		{"2024-03-05T10:00:02.123+01:00 ERROR 12345 --- [demo] [nio-8080-exec-2] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] threw exception",
			CategoryError, "ERROR", "2024-03-05T10:00:02.123+01:00 ERROR 12345 --- [demo] [nio-8080-exec-2] o.a.c.c.C.[.[.[/].[dispatcherServlet]    :"},
		// A count after a level is the message's.
		{"2024-03-05 10:00:05 INFO 3 files copied --- done", "", "INFO", "2024-03-05 10:00:05 INFO"},
	})
}

// A program's output kept by syslog or journald keeps the program's own
// header after "name[pid]:": when it opens with a date or a time, it is
// header too, and its level is the line's.
func TestProgramHeaderInsideSyslog(t *testing.T) {
	checkFormats(t, []formatCase{
		{"Mar  5 10:00:01 host1 app[12]: 2024/03/05 10:00:01 listening on :8080", "", "", "Mar  5 10:00:01 host1 app[12]: 2024/03/05 10:00:01"},
		{"Mar  5 10:00:06 host1 gunicorn[77]: [2024-03-05 10:00:06 +0000] [77] [ERROR] Worker (pid:79) was sent SIGKILL! Perhaps out of memory?",
			CategoryError, "ERROR", "Mar  5 10:00:06 host1 gunicorn[77]: [2024-03-05 10:00:06 +0000] [77] [ERROR]"},
		{"2024-03-05T10:00:07+0000 host1 api[9]: 2024-03-05 10:00:07,123 - myapp.worker - INFO - failed batch 18 retried", "", "INFO",
			"2024-03-05T10:00:07+0000 host1 api[9]: 2024-03-05 10:00:07,123 - myapp.worker - INFO -"},
		// What is no time stays the message's: an address, a count.
		{"Mar  5 10:00:01 host1 sshd[12]: 10.0.0.1 connected", "", "", "Mar  5 10:00:01 host1 sshd[12]:"},
		{"Mar  5 10:00:01 host1 sshd[12]: 5 more sessions opened", "", "", "Mar  5 10:00:01 host1 sshd[12]:"},
	})
}

// Django's verbose format: the module, the process and the thread after
// the time are header (a module named like a level, "log", too); one
// number alone after a word is the message's. runserver's lines are
// access lines, their status decides.
func TestDjangoFormats(t *testing.T) {
	checkFormats(t, []formatCase{
		{"INFO 2026-11-29 05:44:16,123 views 1234 140234 Request finished", "", "INFO", "INFO 2026-11-29 05:44:16,123 views 1234 140234"},
		{"WARNING 2026-11-29 05:44:18,456 log 1234 140236 Not Found: /favicon.ico", "", "WARNING", "WARNING 2026-11-29 05:44:18,456 log 1234 140236"},
		{"ERROR 2026-11-29 05:44:19,789 log 1234 140237 Internal Server Error: /api/orders/", CategoryError, "ERROR",
			"ERROR 2026-11-29 05:44:19,789 log 1234 140237"},
		{"DEBUG 2026-11-29 05:44:20,001 db.backends 1234 140238 (0.002) SELECT 1; args=()", "", "DEBUG", "DEBUG 2026-11-29 05:44:20,001 db.backends 1234 140238"},
		{"WARNING 2026-11-29 05:44:18,456 retrying 3 times", CategoryReliability, "WARNING", "WARNING 2026-11-29 05:44:18,456"},
		{`[29/Nov/2026 05:44:18] "POST /api/orders/ HTTP/1.1" 500 145`, CategoryError, "", "[29/Nov/2026 05:44:18]"},
		{`[29/Nov/2026 05:44:19] "GET /favicon.ico HTTP/1.1" 404 179`, "", "", "[29/Nov/2026 05:44:19]"},
	})
	in := strings.Join([]string{
		"INFO 2026-11-29 05:44:16,123 views 1234 140234 Request finished",
		"INFO 2026-11-29 05:44:17,123 views 1234 140235 Request finished",
		"INFO 2026-11-29 05:44:18,123 autoreload 1234 140236 Watching for file changes with StatReloader",
		`[29/Nov/2026 05:44:16] "GET / HTTP/1.1" 200 1234`,
		`[29/Nov/2026 05:44:17] "GET /static/css/site.css HTTP/1.1" 304 0`,
	}, "\n")
	res := analyze(t, in, Options{})
	if tm := templateWith(t, res, "Request finished"); tm.Template != "Request finished" || tm.Count != 2 {
		t.Errorf("%+v", tm)
	}
	if tm := templateWith(t, res, "GET"); tm.Template != `"GET /<*> HTTP/1.1" <*> <*>` || tm.Count != 2 {
		t.Errorf("%+v", tm)
	}
}

// Java's GC logs: the legacy format writes its message in one bracket
// group after the time and uptime; the group is the message, not header.
// "(Allocation Failure)" is the cause of a routine young collection, no
// failure. Unified logging (JDK 9+) keeps its tags in the header.
func TestJavaGCLog(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29T05:44:21.000+0000: 5.123: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->10736K(251392K), 0.0123456 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]",
			"", "", "2026-11-29T05:44:21.000+0000: 5.123:"},
		{"5.123: [GC pause (G1 Evacuation Pause) (young), 0.0057 secs]", "", "", "5.123:"},
		{"2026-11-29T05:44:21.000+0000: 9.123: [Full GC (Allocation Failure) java.lang.OutOfMemoryError: Java heap space",
			CategoryFatal, "", "2026-11-29T05:44:21.000+0000: 9.123:"},
		{"[2026-11-29T05:44:19.133+0000][3.244s][warning][gc,alloc] GC(2) To-space exhausted", "", "warning",
			"[2026-11-29T05:44:19.133+0000][3.244s][warning][gc,alloc]"},
		{"[2026-11-29T05:44:17.133+0000][1.244s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 9.876ms", "", "info",
			"[2026-11-29T05:44:17.133+0000][1.244s][info][gc          ]"},
		// Not the JVM's cause: an allocation that failed.
		{"2026-11-29 05:44:21 Memory allocation failure in pool 3", CategoryError, "", "2026-11-29 05:44:21"},
	})
	in := strings.Join([]string{
		"2026-11-29T05:44:21.000+0000: 5.123: [GC (Allocation Failure) [PSYoungGen: 65536K->10720K(76288K)] 65536K->10736K(251392K), 0.0123456 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]",
		"2026-11-29T05:44:22.000+0000: 6.123: [GC (Allocation Failure) [PSYoungGen: 76256K->10736K(76288K)] 76272K->10760K(251392K), 0.0133456 secs] [Times: user=0.03 sys=0.01, real=0.01 secs]",
	}, "\n")
	res := analyze(t, in, Options{})
	if len(res.Templates) != 1 || !strings.HasPrefix(res.Templates[0].Template, "[GC (Allocation Failure) [PSYoungGen:") || len(res.Matches) != 0 {
		t.Errorf("templates %+v, matches %+v", res.Templates, res.Matches)
	}
}

// Cisco's "%FACILITY-SEVERITY-MNEMONIC:" tag is header, its digit the
// syslog severity: 3 an error, 4 a warning, 5 and 6 quiet.
func TestCiscoSeverityTag(t *testing.T) {
	checkFormats(t, []formatCase{
		{"Nov 29 05:44:19 fw1 : %ASA-4-106023: Deny tcp src outside:10.0.0.1/51234 dst inside:10.1.0.5/22 by access-group \"OUTSIDE_IN\"",
			"", "4", "Nov 29 05:44:19 fw1 : %ASA-4-106023:"},
		{"Nov 29 05:44:19 fw1 : %ASA-4-733100: Object drop rate 1 exceeded, connection timed out",
			CategoryReliability, "4", "Nov 29 05:44:19 fw1 : %ASA-4-733100:"},
		{"Nov 29 05:44:21 fw1 : %ASA-3-710003: TCP access denied by ACL from 10.0.0.3/51236 to outside:10.1.0.1/22",
			CategoryError, "3", "Nov 29 05:44:21 fw1 : %ASA-3-710003:"},
		{"Nov 29 05:44:22 sw1 123: Nov 29 05:44:22.123: %LINK-3-UPDOWN: Interface GigabitEthernet0/1, changed state to down",
			CategoryError, "3", "Nov 29 05:44:22 sw1 123: Nov 29 05:44:22.123: %LINK-3-UPDOWN:"},
		{"Nov 29 05:44:25 sw1 126: Nov 29 05:44:25.123: %SEC_LOGIN-5-LOGIN_SUCCESS: Login Success [user: admin]",
			"", "5", "Nov 29 05:44:25 sw1 126: Nov 29 05:44:25.123: %SEC_LOGIN-5-LOGIN_SUCCESS:"},
		{"2026 Nov 29 05:44:26 nx1 %ETHPORT-5-IF_DOWN_LINK_FAILURE: Interface Ethernet1/1 is down (Link failure)",
			"", "5", "2026 Nov 29 05:44:26 nx1 %ETHPORT-5-IF_DOWN_LINK_FAILURE:"},
		// No severity digit: no tag.
		{"Nov 29 05:44:27 host app: %CPU-HIGH: load at 99%, failed to shed", CategoryError, "", "Nov 29 05:44:27 host app:"},
	})
}

// HashiCorp's hclog pads its bracketed level to five letters ("[INFO]  ",
// "[ERROR] ") and writes its logger's name after it, one word or
// qualified: the name is header, so a message is one template whatever
// logger wrote it. A lower-case word after a level not so padded opens the
// message.
func TestHclogLoggerNames(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29T10:00:02.200Z [INFO]  agent: Synced node info", "", "INFO", "2026-11-29T10:00:02.200Z [INFO]  agent:"},
		{"2026-11-29T10:00:01.200Z [ERROR] nomad.client: running driver failed", CategoryError, "ERROR", "2026-11-29T10:00:01.200Z [ERROR] nomad.client:"},
		{"2026-11-29T10:00:03.000Z [DEBUG] worker: dequeued evaluation: eval_id=e1", "", "DEBUG", "2026-11-29T10:00:03.000Z [DEBUG] worker:"},
		{"2026-11-29T10:00:00.800Z [INFO]  proxy environment: http_proxy=\"\"", "", "INFO", "2026-11-29T10:00:00.800Z [INFO]"},
		{"2026-11-29 10:00:00 [INFO] note: cache warmed", "", "INFO", "2026-11-29 10:00:00 [INFO]"},
	})
	res := analyze(t, `2026-11-29T10:00:02.200Z [INFO]  agent: Synced node info
2026-11-29T10:00:02.300Z [INFO]  agent: Synced node info
2026-11-29T10:00:02.400Z [INFO]  agent.client: Synced node info
2026-11-29T10:00:02.500Z [WARN]  consul: Synced node info
`, Options{})
	if len(res.Templates) != 1 || res.Templates[0].Template != "Synced node info" || res.Templates[0].Count != 4 {
		t.Errorf("templates %+v, want one, Synced node info", res.Templates)
	}
}

// GitHub Actions' marks after the runner's time are levels, glued to the
// message: a debug line saying "failure()" is no error; "##[group]" is
// the message's.
func TestGitHubActionsLevels(t *testing.T) {
	checkFormats(t, []formatCase{
		{"2026-11-29T10:00:09.4234567Z ##[error]Process completed with exit code 1.", CategoryError, "error", "2026-11-29T10:00:09.4234567Z ##[error]"},
		{"2026-11-29T10:00:10.2234567Z ##[debug]Evaluating: failure()", "", "debug", "2026-11-29T10:00:10.2234567Z ##[debug]"},
		{"2026-11-29T10:00:10.3234567Z ##[warning]Retrying the upload", CategoryReliability, "warning", "2026-11-29T10:00:10.3234567Z ##[warning]"},
		{"2026-11-29T10:00:00.1234567Z ##[group]Run actions/checkout@v4", "", "", "2026-11-29T10:00:00.1234567Z"},
	})
	res := analyze(t, `2026-11-29T10:00:10.1234567Z ##[debug]Evaluating: failure()
2026-11-29T10:00:10.2234567Z ##[debug]Evaluating: success()
2026-11-29T10:00:10.3234567Z ##[error]Process completed with exit code 1.
`, Options{})
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, "##[") {
			t.Errorf("template %q holds the mark", tm.Template)
		}
	}
	if len(res.Matches) != 1 || res.Matches[0].Line != 3 {
		t.Errorf("matches %+v, want line 3 alone", res.Matches)
	}
}
