package logs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// composeLog is Docker Compose's output of two services, interleaved: the
// web service logs an error with a Java stack trace, whose frames the db
// service's lines cut, and a Python traceback; the db service logs at its
// own levels. With colour, the prefixes are coloured as on a terminal.
func composeLog(sep string, colour bool) string {
	prefix := func(name string) string {
		p := fmt.Sprintf("%-6s|", name+sep+"1")
		if colour {
			p = "\x1b[36m" + p + "\x1b[0m"
		}
		return p + " "
	}
	web, db := prefix("web"), prefix("db")
	lines := []string{
		"Attaching to db" + sep + "1, web" + sep + "1",
		web + "2024-03-05 10:00:00.000  INFO 1 --- [main] c.x.App : started",                        // 2
		db + "2024-03-05 10:00:00.100 UTC [1] LOG:  database system is ready to accept connections", // 3
		web + "2024-03-05 10:00:01.000 ERROR 1 --- [http-1] c.x.Api : request failed",               // 4
		web + "java.lang.IllegalStateException: boom",                                               // 5
		db + "2024-03-05 10:00:01.100 UTC [7] LOG:  checkpoint starting: time",                      // 6
		web + "\tat com.x.Api.handle(Api.java:12)",                                                  // 7
		db + "\tcheckpoint detail",                                                                  // 8
		web + "\tat com.x.Api.run(Api.java:40)",                                                     // 9
		db + "2024-03-05 10:00:02.000 UTC [7] ERROR:  relation \"users\" does not exist",            // 10
		web + "2024-03-05 10:00:03.000  INFO 1 --- [main] c.x.App : retry policy loaded",            // 11
		web,                                  // 12: an empty line of web's
		"web" + sep + "1 exited with code 1", // 13
	}
	return strings.Join(lines, "\n") + "\n"
}

// Docker Compose's output is read service by service: the prefixes are
// taken off, so each line's own header and level are read, and a
// service's stack trace joins its own entry, never another service's,
// while every line number is the input's.
func TestComposeOutputIsReadPerService(t *testing.T) {
	for _, c := range []struct {
		sep    string
		colour bool
	}{{"-", false}, {"-", true}, {"_", true}} {
		in := composeLog(c.sep, c.colour)
		res := analyze(t, in, Options{IncludeAssignments: true})
		name := fmt.Sprintf("sep %q colour %v", c.sep, c.colour)
		if s := res.Summary; s.Lines != 12 || s.BlankLines != 1 || s.Entries != 8 {
			t.Errorf("%s: summary %+v, want 12 lines, 1 blank, 8 entries (web's trace joined, db's indented line to db's)", name, s)
		}
		m, ok := matchAt(res, 4)
		want := "2024-03-05 10:00:01.000 ERROR 1 --- [http-1] c.x.Api : request failed\njava.lang.IllegalStateException: boom\n" +
			"\tat com.x.Api.handle(Api.java:12)\n\tat com.x.Api.run(Api.java:40)"
		if !ok || m.Text != want || m.Category != CategoryError || m.Level != "ERROR" {
			t.Errorf("%s: line 4: %+v, want web's error with its own trace:\n%s", name, m, want)
		}
		if m, ok := matchAt(res, 10); !ok || m.Level != "ERROR" || strings.Contains(m.Text, "|") {
			t.Errorf("%s: line 10: %+v, want db's error, read by its level", name, m)
		}
		if len(res.Matches) != 2 {
			t.Errorf("%s: %d matches, want 2 (info lines saying retry do not count): %+v", name, len(res.Matches), res.Matches)
		}
		if !slices.IsSortedFunc(res.Outliers, func(x, y Outlier) int { return x.Line - y.Line }) {
			t.Errorf("%s: outliers not in line order: %+v", name, res.Outliers)
		}
		for _, o := range res.Outliers {
			if o.Line == 7 || o.Line == 8 || o.Line == 9 || o.Line == 12 {
				t.Errorf("%s: outlier on line %d, which continues an entry or is blank: %+v", name, o.Line, o)
			}
		}
		// Entries: Compose's note, 2, 3, 4 (with 5, 7 and 9), 6 (with 8), 10, 11, 13.
		if !slices.Equal(res.entryLines, []int{1, 2, 3, 4, 6, 10, 11, 13}) || len(res.Assignments) != 8 {
			t.Errorf("%s: entries on lines %v, want 1 2 3 4 6 10 11 13, in input order", name, res.entryLines)
		}
	}
}

// A log whose lines open with a padded column and a bar is no Compose
// output when the column is a level, or one unnumbered name.
func TestComposeLookalikesAreReadAsTheyAre(t *testing.T) {
	for _, in := range []string{
		"INFO    | started\nERROR   | boom\n\tat x.y(Z.java:1)\nINFO    | done\n",
		"app | started\napp | failed to bind\napp | done\n",
		"10:00:00 | 500 | 1.2ms | GET /x\n10:00:01 | 200 | 1.0ms | GET /y\n",
	} {
		if got, m := readable([]byte(in)); string(got) != in || m != nil {
			t.Errorf("readable(%q) = %q, %v: want it as it is", in, got, m)
		}
	}
}

// Compare reads each side's Compose output per service too, and reports
// examples and line numbers of each side's own input.
func TestCompareComposeOutput(t *testing.T) {
	base := composeLog("-", false)
	cur := strings.Replace(base, "relation", "table", 1)
	c, err := Compare(context.Background(), []byte(base), []byte(cur), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.New) != 1 || c.New[0].ExampleLine != 10 || !strings.HasPrefix(c.New[0].Example, "2024-03-05 10:00:02.000 UTC [7] ERROR:  table") {
		t.Errorf("new: %+v, want db's changed error on line 10, its prefix off", c.New)
	}
}
