package logs

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// templateWith returns the template holding the text, or fails.
func templateWith(t *testing.T, res *Result, text string) Template {
	t.Helper()
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, text) {
			return tm
		}
	}
	t.Fatalf("no template holds %q: %+v", text, res.Templates)
	return Template{}
}

// matchAt returns the match of a line, if any.
func matchAt(res *Result, line int) (Match, bool) {
	for _, m := range res.Matches {
		if m.Line == line {
			return m, true
		}
	}
	return Match{}, false
}

// A Windows CBS log: date, time, a padded level and a padded component
// column. The level decides the category; no template holds a header column.
func TestWindowsHeaderColumns(t *testing.T) {
	res := analyze(t, readTestdata(t, "windows_cbs.log"), Options{})
	for _, tm := range res.Templates {
		for _, col := range []string{"2016-09-28", "Info", "CBS ", "CSI "} {
			if strings.HasPrefix(tm.Template, col) || strings.Contains(tm.Template, " "+col) {
				t.Errorf("template %q holds the header column %q", tm.Template, col)
			}
		}
	}
	if tm := templateWith(t, res, "initialized by client WindowsUpdateAgent."); tm.Template != "Session: <*> initialized by client WindowsUpdateAgent." || tm.Count != 2 {
		t.Errorf("session template %+v", tm)
	}
	if tm := templateWith(t, res, "Read out cached"); tm.Count != 3 {
		t.Errorf("read-out template %+v, want 3 lines", tm)
	}
	// Info lines saying "Failed" are no match; the Error and Warning lines are.
	if len(res.Matches) != 2 {
		t.Fatalf("matches %+v, want the Error and the Warning line", res.Matches)
	}
	m, _ := matchAt(res, 21)
	if m.Category != CategoryError || m.Level != "Error" || m.Header != "2016-09-28 04:30:32, Error                 CBS" {
		t.Errorf("line 21: %+v", m)
	}
	if m.Text[m.Start:m.End] != "Error" {
		t.Errorf("line 21 highlights %q, want the level", m.Text[m.Start:m.End])
	}
	if m, _ := matchAt(res, 22); m.Category != CategoryReliability || m.Keyword != "failed" {
		t.Errorf("line 22: %+v, want reliability (a warning with a keyword)", m)
	}
}

// Windows' Event Viewer exported as text: the level, a US date and a
// 12-hour time whose AM or PM is header too, and the timeline reads it.
func TestWindowsEventExport(t *testing.T) {
	res := analyze(t, readTestdata(t, "windows_events.tsv"), Options{})
	for _, tm := range res.Templates {
		if strings.HasPrefix(tm.Template, "AM ") || strings.HasPrefix(tm.Template, "PM ") {
			t.Errorf("template %q holds the time's AM or PM", tm.Template)
		}
	}
	checkMatches(t, res, map[int][2]string{2: {"error", "error"}, 5: {"fatal", "critical"}})
	if tl := res.Timeline; tl == nil || tl.TimedLines != 5 || tl.Start != "2024-03-11T10:15:02Z" {
		t.Errorf("timeline %+v, want the 5 events from 10:15:02", tl)
	}
}

// Tab-separated columns before the message (a time, a level, a source of
// several words, an event id) are the header, wherever the level stands
// among them; the message alone is templated.
func TestTabSeparatedColumns(t *testing.T) {
	rows := [][]string{
		{"Information", "Service Control Manager", "7036", "The Windows Update service entered the running state."},
		{"Information", "Service Control Manager", "7036", "The Windows Update service entered the stopped state."},
		{"Error", "Service Control Manager", "7000", "The Print Spooler service failed to start due to the following error: The system cannot find the file specified."},
		{"Warning", "Microsoft-Windows-Time-Service", "36", "The time service has not synchronized the system time for 86400 seconds."},
		{"Critical", "Microsoft-Windows-Kernel-Power", "41", "The system has rebooted without cleanly shutting down first."},
		{"Information", "Microsoft-Windows-Winlogon", "7001", "User Logon Notification for Customer Experience Improvement Program"},
		{"Information", "Service Control Manager", "7036", "The Windows Update service entered the running state."},
	}
	for _, levelFirst := range []bool{true, false} {
		var b strings.Builder
		for i, r := range rows {
			cols := []string{fmt.Sprintf("2026-11-29 05:44:%02d", 16+i), r[0], r[1], r[2], r[3]}
			if !levelFirst {
				cols[1], cols[2] = r[1], r[0]
			}
			b.WriteString(strings.Join(cols, "\t") + "\n")
		}
		res := analyze(t, b.String(), Options{})
		if tm := templateWith(t, res, "Windows Update"); tm.Template != "The Windows Update service entered the <*> state." || tm.Count != 3 {
			t.Errorf("level first %v: %+v", levelFirst, tm)
		}
		for _, tm := range res.Templates {
			if strings.Contains(tm.Template, "Service Control Manager") || strings.Contains(tm.Template, "Microsoft-Windows") {
				t.Errorf("level first %v: template %q holds the source column", levelFirst, tm.Template)
			}
		}
		checkMatches(t, res, map[int][2]string{3: {"error", "error"}, 5: {"fatal", "critical"}})
		if m, _ := matchAt(res, 3); m.Level != "Error" || !strings.HasSuffix(m.Header, "\t7000") {
			t.Errorf("level first %v: line 3 level %q header %q", levelFirst, m.Level, m.Header)
		}
	}
	// One line alone is read so too.
	res := analyze(t, "2026-11-29 05:44:16\tInformation\tService Control Manager\t7036\tThe Windows Update service entered the running state.", Options{})
	if len(res.Templates) != 1 || res.Templates[0].Template != "The Windows Update service entered the running state." {
		t.Errorf("one line: %+v", res.Templates)
	}
}

// zap's console encoder writes its fields as JSON in a last column, after
// the message: the message stays the template's head, the fields follow.
// A table of values without a time is no header either.
func TestTabColumnsBeforeFieldsOrWithoutTime(t *testing.T) {
	in := strings.Join([]string{
		"2026-11-29T05:44:16.123Z\tINFO\tctrl/reconcile.go:123\tReconciling object\t{\"object\": \"default/web\", \"gen\": 3}",
		"2026-11-29T05:44:17.123Z\tINFO\tctrl/reconcile.go:123\tReconciling object\t{\"object\": \"default/api\", \"gen\": 4}",
		"2026-11-29T05:44:18.123Z\tERROR\tctrl/reconcile.go:150\tReconciler error\t{\"object\": \"default/api\", \"error\": \"conflict\"}",
		"2026-11-29T05:44:19.123Z\tINFO\tctrl/manager.go:50\tStarting workers\t{\"worker count\": 1}",
		"2026-11-29T05:44:20.123Z\tINFO\tctrl/manager.go:60\tShutting down",
	}, "\n")
	res := analyze(t, in, Options{})
	if tm := templateWith(t, res, "Reconciling"); !strings.HasPrefix(tm.Template, "Reconciling object {") || tm.Count != 2 {
		t.Errorf("%+v", tm)
	}
	in = strings.Join([]string{
		"web\tnginx\trunning\tserves the public site",
		"api\tgo\trunning\tserves the API",
		"db\tpostgres\tstopped\tholds the orders",
		"cache\tredis\trunning\tholds the sessions",
	}, "\n")
	res = analyze(t, in, Options{})
	if tm := templateWith(t, res, "postgres"); !strings.HasPrefix(tm.Template, "db postgres") {
		t.Errorf("a table's columns were taken for a header: %+v", tm)
	}
}

// An HPC-style log: bare columns (log id, node, component, state, time,
// flag) and no level; the message alone is templated.
func TestBareHeaderColumns(t *testing.T) {
	res := analyze(t, readTestdata(t, "hpc.log"), Options{})
	for _, tm := range res.Templates {
		for _, col := range []string{"node-", "unix.hw", "action", "107", "gige"} {
			if strings.Contains(tm.Template, col) {
				t.Errorf("template %q holds the header column %q", tm.Template, col)
			}
		}
	}
	want := map[string]int{
		"Component State Change: Component <*> is in the unavailable state (HWID=<*>)": 5,
		"clusterAddMember (command <*>)":                                               3,
		"bootGenvmunix (command <*>)":                                                  3,
		"Link error on broadcast tx":                                                   3,
	}
	for _, tm := range res.Templates {
		if n, ok := want[tm.Template]; ok && n != tm.Count {
			t.Errorf("%q: %d lines, want %d", tm.Template, tm.Count, n)
		}
		delete(want, tm.Template)
	}
	for tm := range want {
		t.Errorf("no template %q: %+v", tm, res.Templates)
	}
	if m, ok := matchAt(res, 14); !ok || m.Header != "462221 gige7 gige.server alarm 1084680778 1" {
		t.Errorf("line 14: %+v", m)
	}
}

// A recognised level decides the category, whatever the message says.
func TestLevelDecidesCategory(t *testing.T) {
	in := strings.Join([]string{
		"2024-03-18 09:14:07,001 INFO [main] app.Db: error budget is fine",
		"2024-03-18 09:14:08,001 ERROR [main] app.Db: query took too long",
		"2024-03-18 09:14:09,001 WARN [main] app.Db: retrying after timeout",
		"2024-03-18 09:14:10,001 WARN [main] app.Db: cache is cold",
		"2024-03-18 09:14:11,001 FATAL [main] app.Db: giving up",
		"2024-03-18 09:14:12,001 DEBUG [main] app.Db: panic handler installed",
		"E0318 09:14:13.000000 1 main.go:12] cannot sync pods",
		"I0318 09:14:14.000000 1 main.go:12] error count reset",
		"Mar 18 09:14:15 host app[12]: connection refused by upstream",
	}, "\n")
	res := analyze(t, in, Options{})
	want := map[int]Category{2: CategoryError, 3: CategoryReliability, 5: CategoryFatal, 7: CategoryError, 9: CategoryReliability}
	for _, m := range res.Matches {
		if want[m.Line] != m.Category {
			t.Errorf("line %d: %s (%q), want %q", m.Line, m.Category, m.Keyword, want[m.Line])
		}
		delete(want, m.Line)
	}
	for line, c := range want {
		t.Errorf("line %d: no match, want %s", line, c)
	}
}
