package logs

import (
	"strings"
	"testing"
)

func TestOverwritten(t *testing.T) {
	for in, want := range map[string]string{
		"plain line\n":                "plain line\n",
		"crlf line\r\nnext\r\n":       "crlf line\r\nnext\r\n",
		"a 0%\ra 50%\ra Done\nnext\n": "a Done\nnext\n",
		"a 0%\ra Done\r\nnext\r\n":    "a Done\r\nnext\r\n",
		"bar [##..] \r\n":             "bar [##..] \r\n",
		"state one\r   \nnext\n":      "state one\r   \nnext\n",
		"first\rsecond\rthird":        "third",
		"keep\nx 1\rx 2\nkeep\ry\n":   "keep\nx 2\ny\n",
		"(Reading database ... \r(Reading database ... 5%\r(Reading database ... 81234 files installed.)\n": "(Reading database ... 81234 files installed.)\n",
		// A CRLF file: its line ends say so, and a '\r' inside a line
		// after them is left as it is.
		strings.Repeat("line\r\n", crlfFile) + "a 0%\ra Done\r\n":   strings.Repeat("line\r\n", crlfFile) + "a 0%\ra Done\r\n",
		strings.Repeat("line\r\n", crlfFile-1) + "a 0%\ra Done\r\n": strings.Repeat("line\r\n", crlfFile-1) + "a Done\r\n",
	} {
		if got := string(overwritten([]byte(in))); got != want {
			t.Errorf("overwritten(%q) = %q, want %q", in, got, want)
		}
	}
}

// apt and dpkg redraw their progress in place with '\r': a captured line
// is read as the terminal showed it last, so that each step is one
// template whatever states the capture caught. Line numbers do not move.
func TestProgressLinesReadAsShownLast(t *testing.T) {
	in := strings.Join([]string{
		"Reading package lists... 0%\rReading package lists... 100%\rReading package lists... Done",
		"Building dependency tree... 0%\rBuilding dependency tree... 50%\rBuilding dependency tree... Done",
		"(Reading database ... \r(Reading database ... 5%\r(Reading database ... 100%\r(Reading database ... 81234 files and directories currently installed.)",
		"Reading package lists... 0%\rReading package lists... Done",
		"(Reading database ... \r(Reading database ... 81240 files and directories currently installed.)",
		"E: Unable to locate package curll",
	}, "\n")
	res := analyze(t, in, Options{})
	want := map[string]int{
		"Reading package lists... Done":                                         2,
		"Building dependency tree... Done":                                      1,
		"(Reading database ... <*> files and directories currently installed.)": 2,
		"Unable to locate package curll":                                        1,
	}
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("template %q: %d lines, want %d (templates %v)", k, got[k], n, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("templates %v, want %v", got, want)
	}
	if m, ok := matchAt(res, 6); !ok || m.Level != "E" || m.Category != CategoryError {
		t.Errorf("line 6: %+v", m)
	}
}
