package logs

import (
	"fmt"
	"strings"
	"testing"
)

// A container runtime's log is read as the program's: the level and time
// inside each record decide, a stack trace written a line per record is one
// entry, and a line the runtime cut in pieces is whole again, on its first
// piece's line, with no line number moved.
func TestContainerLogsAreUnwrapped(t *testing.T) {
	cri := func(i int, tag, msg string) string {
		return fmt.Sprintf("2024-03-05T19:00:%02d.000000000Z stdout %s %s\n", i%60, tag, msg)
	}
	docker := func(i int, tag, msg string) string {
		if tag == "F" {
			msg += "\n"
		}
		return fmt.Sprintf(`{"log":%q,"stream":"stdout","time":"2024-03-05T19:00:%02d.000000000Z"}`+"\n", msg, i%60)
	}
	for name, record := range map[string]func(int, string, string) string{"cri": cri, "docker": docker} {
		var b strings.Builder
		for i := range 30 {
			b.WriteString(record(i, "F", fmt.Sprintf(`{"level":"info","ts":"2024-03-05T19:00:%02dZ","msg":"retry policy: failed calls are retried","n":%d}`, i%60, i)))
		}
		b.WriteString(record(30, "F", "2024-03-05 19:00:30.000 ERROR 1 --- [main] c.x.Api : request failed")) // 31
		b.WriteString(record(31, "F", "java.lang.IllegalStateException: boom"))
		b.WriteString(record(32, "F", "\tat com.x.Api.handle(Api.java:12)"))
		b.WriteString(record(33, "P", "2024-03-05 19:00:33.000 WARN 1 --- [main] c.x.Api : a very long line, ")) // 34
		b.WriteString(record(34, "P", "cut by the runtime, "))
		b.WriteString(record(35, "F", "ends here with a timeout"))
		b.WriteString(record(36, "F", `{"level":"info","msg":"done"}`))
		res := analyze(t, b.String(), Options{})
		if s := res.Summary; s.Lines != 35 || s.BlankLines != 2 || s.Entries != 33 {
			t.Errorf("%s: summary %+v, want 35 lines (2 blank: the cut line's pieces) in 33 entries", name, s)
		}
		if len(res.Matches) != 2 {
			t.Errorf("%s: %d matches, want the error and the warning only (info lines saying \"failed\" do not count): %+v", name, len(res.Matches), res.Matches)
		}
		if m, ok := matchAt(res, 31); !ok || m.Category != CategoryError || !strings.HasSuffix(m.Text, "at com.x.Api.handle(Api.java:12)") {
			t.Errorf("%s: line 31: %+v, want the error with its trace", name, m)
		}
		if m, ok := matchAt(res, 34); !ok || m.Text != "2024-03-05 19:00:33.000 WARN 1 --- [main] c.x.Api : a very long line, cut by the runtime, ends here with a timeout" {
			t.Errorf("%s: line 34: %+v, want the cut line whole", name, m)
		}
	}
}

// A log that is not nearly all container records is read as it is.
func TestUnwrappedLeavesOtherLogsAlone(t *testing.T) {
	in := "2024-03-05T19:00:00.000000000Z stdout F hello\nplain line\n{\"log\":\"x\\n\",\"stream\":\"stdout\"}\nanother plain line\n"
	if got := string(unwrapped([]byte(in))); got != in {
		t.Errorf("unwrapped a mixed log: %q", got)
	}
}

// A container's lines without a time of their own have their runtime's,
// CRI's or Docker's, on the timeline: unwrapping dropped it, so such a
// log had no timeline. A line with its own time keeps it.
func TestContainerRuntimeTimes(t *testing.T) {
	cri := `2026-11-29T12:00:01.123456789Z stdout F GET /api/items/1 200 5ms
2026-11-29T12:00:02.000000001Z stdout P partial line part one 
2026-11-29T12:00:02.500000000Z stdout F and the rest
2026-11-29T12:00:03.000000000Z stderr F panic: runtime error: invalid memory address
2026-11-29T12:00:04.000000000Z stdout F 2026-11-29T11:59:00Z INFO own time wins
2026-11-29T12:00:58.000000000Z stdout F GET /api/items/2 200 7ms
`
	docker := `{"log":"GET /api/items/1 200 5ms\n","stream":"stdout","time":"2026-11-29T12:00:01.123456789Z"}
{"log":"panic: runtime error: invalid memory address\n","stream":"stderr","time":"2026-11-29T12:00:03.5Z"}
{"log":"2026-11-29T11:59:00Z INFO own time wins\n","stream":"stdout","time":"2026-11-29T12:00:04Z"}
{"log":"GET /api/items/2 200 7ms\n","stream":"stdout","time":"2026-11-29T12:00:58Z"}
`
	for _, c := range []struct {
		name, in string
		lines    int
	}{{"cri", cri, 5}, {"docker", docker, 4}} {
		res := analyze(t, c.in, Options{IncludePatterns: true})
		tl := res.Timeline
		if tl == nil {
			t.Errorf("%s: no timeline", c.name)
			continue
		}
		if tl.TimedLines != c.lines || tl.UntimedLines != 0 {
			t.Errorf("%s: %d lines timed, %d not; want %d and 0", c.name, tl.TimedLines, tl.UntimedLines, c.lines)
		}
		if tl.Start != "2026-11-29T11:59:00Z" || tl.End != "2026-11-29T12:01:00Z" {
			t.Errorf("%s: timeline from %s to %s; want 11:59:00 to 12:01:00", c.name, tl.Start, tl.End)
		}
		for _, tp := range res.Templates {
			if strings.HasPrefix(tp.Template, "GET") && (tp.First != "2026-11-29T12:00:01Z" || tp.Last != "2026-11-29T12:00:58Z") {
				t.Errorf("%s: %q from %s to %s", c.name, tp.Template, tp.First, tp.Last)
			}
		}
		if len(res.Matches) != 1 || tl.MatchBucket(0) < 0 {
			t.Errorf("%s: matches %+v, the panic's bucket %d", c.name, res.Matches, tl.MatchBucket(0))
		}
	}
}
