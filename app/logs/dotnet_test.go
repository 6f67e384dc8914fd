package logs

import (
	"strings"
	"testing"
)

// .NET's console log: an entry is templated by the message under its
// header line, not by the category alone; the header line is its header
// and its first word the level (dbug and trce quiet, fail an error).
func TestDotnetConsoleLog(t *testing.T) {
	res := analyze(t, readTestdata(t, "dotnet_console.log"), Options{IncludeAssignments: true})
	if s := res.Summary; s.Entries != 8 || s.Templates != 6 {
		t.Errorf("summary %+v, want 8 entries of 6 templates", s)
	}
	for msg, n := range map[string]int{
		"Now listening on: <*>": 1, "Application started. Press Ctrl+C to shut down.": 1,
		"Request finished HTTP/1.1 GET ":                                   3,
		"An unhandled exception has occurred while executing the request.": 1,
	} {
		if tm := templateWith(t, res, msg); !strings.HasPrefix(tm.Template, msg) || tm.Count != n {
			t.Errorf("template %+v, want %q… of %d entries", tm, msg, n)
		}
	}
	checkMatches(t, res, map[int][2]string{
		9:  {"error", "500"},
		11: {"error", "fail"},
		17: {"reliability", "failure"}, // line 5's dbug rules out its retry and timeout
	})
	if m, _ := matchAt(res, 9); m.Text[m.Start:m.End] != "500" || m.Header != "info: Microsoft.AspNetCore.Hosting.Diagnostics[2]" || m.Level != "info" {
		t.Errorf("line 9: %q highlighted, header %q, level %q", m.Text[m.Start:m.End], m.Header, m.Level)
	}
	if m, _ := matchAt(res, 11); !strings.HasSuffix(m.Text, "ThrowNoElementsException()") || m.Level != "fail" {
		t.Errorf("line 11: %+v, want the error entry whole, at level fail", m)
	}
	// Read line by line, the header lines are entries of their own again.
	split := analyze(t, readTestdata(t, "dotnet_console.log"), Options{SplitContinuations: true})
	if s := split.Summary; s.Entries != 18 {
		t.Errorf("split: summary %+v, want 18 entries", s)
	}
}
