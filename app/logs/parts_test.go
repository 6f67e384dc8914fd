package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPartsChangeNothing reads inputs in one pass and in parts, and wants
// the same result whatever the options: the Loghub samples (five timestamp
// formats, header columns), the test inputs (stack traces, tracebacks, JSON
// and logfmt lines), and inputs made for where parts meet: an entry or a
// traceback open there, Docker Compose's services, CRLF and blank lines, invalid UTF-8, a cut line,
// and timestamps whose place depends on lines long before. It also wants
// the parts kept where they may be (the Loghub samples) and dropped where
// they may not (see want).
func TestPartsChangeNothing(t *testing.T) {
	inputs := map[string][]byte{"sample": []byte(Sample())}
	var all []byte
	for _, sys := range gaSystems {
		raw := loghubLog(t, sys.name)
		inputs[sys.name] = raw
		all = append(all, raw...)
	}
	inputs["loghub"] = all
	files, _ := filepath.Glob("testdata/*.*")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = bytes.Repeat(raw, 20)
	}
	inputs["one long trace"] = traceInput()
	inputs["tracebacks"] = tracebackInput()
	inputs["mixed"] = mixedInput()
	inputs["stamp places"] = stampPlaceInput()
	inputs["compose"] = []byte(strings.Repeat(composeLog("-", true), 200)) // segments, lines moved

	// want is how many parts of 4 must be kept, -1 for any.
	want := map[string]int{"loghub": 4, "HDFS": 4, "BGL": 4, "one long trace": 1, "stamp places": 1}
	masks := []Mask{{Name: "job", Regex: `job-[0-9]+`}}
	for name, in := range inputs {
		total := bytes.Count(in, []byte{'\n'}) + 1
		for _, opts := range []Options{{}, {SplitContinuations: true}, {IncludeAssignments: true}, {IncludePatterns: true}, {Masks: masks, NamedPlaceholders: true}} {
			_, x := analyseInParts(t, in, total, opts, 1)
			for _, parts := range []int{2, 4, 7} {
				kept, y := analyseInParts(t, in, total, opts, parts)
				if !bytes.Equal(x, y) {
					t.Errorf("%s %+v: %d parts changed the result:\n%s", name, opts, parts, firstDiff(x, y))
				}
				if w, ok := want[name]; ok && parts == 4 && !opts.SplitContinuations && kept != w {
					t.Errorf("%s %+v: %d of 4 parts kept, want %d", name, opts, kept, w)
				}
			}
		}
	}
}

// How many parts an input is read in: one per processor for a large
// input, one for a small one, and one with IncludeParams, whose bounded
// value counts two parts could not add up (see parts.go).
func TestPartsOf(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		opts  Options
		lines int
		want  int
	}{
		{Options{}, MaxLines, min(procs, MaxLines/minPartLines)},
		{Options{}, 2*minPartLines - 1, 1},
		{Options{IncludeParams: true}, MaxLines, 1},
	} {
		if got := partsOf(c.opts, c.lines); got != c.want {
			t.Errorf("%+v, %d lines: %d parts, want %d", c.opts, c.lines, got, c.want)
		}
	}
}

// analyseInParts analyses in in parts and returns how many were kept and
// the result's JSON.
func analyseInParts(t *testing.T, in []byte, total int, opts Options, parts int) (int, []byte) {
	t.Helper()
	masks, err := compileMasks(opts.Masks)
	if err != nil {
		t.Fatal(err)
	}
	in, moved := readable(in)
	a := newAnalyzer(opts, in, total, masks, moved)
	a.parts = parts
	res, err := a.run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	moved.restore(res)
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return a.parts, out
}

func firstDiff(x, y []byte) string {
	k := 0
	for k < len(x) && k < len(y) && x[k] == y[k] {
		k++
	}
	return fmt.Sprintf("one pass: …%s…\nin parts: …%s…", x[max(0, k-80):min(len(x), k+80)], y[max(0, k-80):min(len(y), k+80)])
}

// traceInput is one entry: a line, then Java frames that open without
// indentation, so that no part can start on an entry of its own.
func traceInput() []byte {
	var b strings.Builder
	b.WriteString("2024-01-02 03:04:05 ERROR main failed\n")
	for i := range 400 {
		fmt.Fprintf(&b, "at com.example.pkg%d.Worker.run(Worker.java:%d)\n", i%7, i)
	}
	return []byte(b.String())
}

// tracebackInput is Python tracebacks printed between log lines, some at a
// quiet level, with CRLF line ends.
func tracebackInput() []byte {
	var b strings.Builder
	for i := range 300 {
		level := []string{"INFO", "ERROR", "WARNING"}[i%3]
		fmt.Fprintf(&b, "2024-01-02 03:%02d:%02d %s worker-%d job %d done\r\n", i/60%60, i%60, level, i%4, i)
		if i%5 == 0 {
			b.WriteString("Traceback (most recent call last):\r\n  File \"a.py\", line 3, in <module>\r\n    run()\r\n")
			b.WriteString("ValueError: bad value\r\n\r\n")
		}
	}
	return []byte(b.String())
}

// mixedInput is JSON lines, logfmt and plain lines, blank lines, invalid
// UTF-8 and a line over MaxLineBytes.
func mixedInput() []byte {
	var b bytes.Buffer
	for i := range 600 {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, `{"ts":"2024-01-02T03:04:%02dZ","level":"error","msg":"upstream timed out","id":%d}`+"\n", i%60, i)
		case 1:
			fmt.Fprintf(&b, "time=2024-01-02T03:04:%02dZ level=info msg=\"job-%d done\" took=%dms\n", i%60, i, i%17)
		case 2:
			fmt.Fprintf(&b, "2024-01-02T03:04:%02dZ WARN cache \xff\xfe miss key=%d\n\n", i%60, i)
		case 3:
			fmt.Fprintf(&b, "2024-01-02T03:04:%02dZ ERROR disk full on /dev/sd%c\n    at mount %d\n", i%60, 'a'+i%4, i)
		case 4:
			if i%60 == 4 {
				fmt.Fprintf(&b, "2024-01-02T03:04:%02dZ INFO big %s\n", i%60, strings.Repeat("x", MaxLineBytes+10))
			}
		default:
			fmt.Fprintf(&b, "2024-01-02T03:04:%02dZ INFO job-%d started\n", i%60, i)
		}
	}
	return b.Bytes()
}

// stampPlaceInput has lines with two timestamps. Its first line has only
// the second's, at the same place, so the second is read on every line
// after: a part starting later, having read only lines with both before
// it, would read the first.
func stampPlaceInput() []byte {
	var b strings.Builder
	b.WriteString(strings.Repeat("-", 26) + " 2024-05-06T07:08:09Z boot\n")
	for i := range 400 {
		fmt.Fprintf(&b, "2024-01-02T03:%02d:%02dZ ERROR 2024-05-06T07:%02d:00Z retry %d\n", i/60%60, i%60, i%60, i)
	}
	return []byte(b.String())
}

// TestTogetherRaisesAPartsPanic wants a panic on another goroutine raised
// on the caller's, after every part has ended, where the server's
// recovery turns it into a 500 instead of ending the process.
func TestTogetherRaisesAPartsPanic(t *testing.T) {
	ended := make([]bool, 3)
	defer func() {
		if r := recover(); r != "part 2" {
			t.Fatalf("recovered %v, want the part's panic", r)
		}
		if !ended[0] || !ended[1] {
			t.Fatalf("parts ended: %v", ended)
		}
	}()
	together(3, func(k int) {
		if k == 2 {
			panic("part 2")
		}
		ended[k] = true
	})
	t.Fatal("no panic")
}

// TestPartsStopWithTheContext wants an analysis in parts to end with the
// context's error.
func TestPartsStopWithTheContext(t *testing.T) {
	in := bytes.Repeat([]byte("2024-01-02T03:04:05Z ERROR disk full\n"), 20_000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := newAnalyzer(Options{}, in, 20_000, nil, nil)
	a.parts = 2
	if _, err := a.run(ctx, in); err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}
