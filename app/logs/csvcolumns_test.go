package logs

import (
	"reflect"
	"strings"
	"testing"
)

// Windows' Event Viewer exported as CSV: the columns before the message
// are the header, the Level column the level, and a quoted message of
// several lines is one entry with its row.
func TestWindowsEventCSV(t *testing.T) {
	res := analyze(t, readTestdata(t, "windows_events.csv"), Options{})
	if s := res.Summary; s.Lines != 14 || s.Entries != 9 {
		t.Errorf("summary %+v, want 14 lines in 9 entries", s)
	}
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	want := map[string]int{
		"Level,Date and Time,Source,Event ID,Task Category":                                             1, // the title row
		"The Windows Update service entered the <*> state.":                                             2,
		"The BITS service entered the <*> state.":                                                       2,
		"Faulting application name: <*>.exe, version: <*>.0.0, time stamp: <*>":                         2,
		"NtpClient was unable to set a domain peer to use as a time source because of discovery error.": 1,
		"The system has rebooted without cleanly shutting down first.":                                  1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("templates %v, want %v", got, want)
	}
	checkMatches(t, res, map[int][2]string{3: {"error", "error"}, 7: {"reliability", "error"}, 10: {"error", "error"}, 14: {"fatal", "critical"}})
	m, _ := matchAt(res, 3)
	if m.Level != "Error" || m.Header != "Error,11/29/2026 10:00:05 AM,Application Error,1000,(100)" || !strings.HasSuffix(m.Text, `0xc0000005"`) {
		t.Errorf("line 3: %+v", m)
	}
	if tl := res.Timeline; tl == nil || tl.TimedLines != 8 {
		t.Errorf("timeline %+v, want the 8 events", tl)
	}
}

// A CSV log that names its message column: the title row is no row (it
// holds no time), and an unquoted message's commas are the message's.
func TestCSVWithMessageColumn(t *testing.T) {
	in := `timestamp,level,component,message
2026-11-29 10:00:00,INFO,api,request served in 12ms
2026-11-29 10:00:01,ERROR,db,"connection lost, retrying"
2026-11-29 10:00:02,INFO,api,request served in 15ms
2026-11-29 10:00:03,ERROR,db,connection lost, retrying
2026-11-29 10:00:04,INFO,cache,request served in 9ms
`
	res := analyze(t, in, Options{})
	if tm := templateWith(t, res, "request served"); tm.Template != "request served in <*>" || tm.Count != 3 {
		t.Errorf("template %+v", tm)
	}
	if tm := templateWith(t, res, "connection lost"); tm.Template != "connection lost, retrying" || tm.Count != 2 {
		t.Errorf("template %+v", tm)
	}
	checkMatches(t, res, map[int][2]string{3: {"error", "error"}, 5: {"error", "error"}})
}
