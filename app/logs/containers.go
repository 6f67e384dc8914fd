package logs

import (
	"bytes"
	"math"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// A container runtime writes each line of a container's output wrapped in
// its own record: the CRI format of Kubernetes nodes
// (/var/log/containers/*.log: "2024-03-05T19:00:00.000000000Z stdout F
// message") and Docker's json-file driver ({"log":"message\n",
// "stream":"stdout","time":"..."}). Read as they are, every line has the
// runtime's header, the program's own level and timestamp are lost in the
// message, and a stack trace is never joined. When nearly every sampled
// line is one kind of record, unwrapped reads the messages instead. A
// line cut by the runtime (CRI's "P" tag, a Docker record whose message
// does not end with a newline) is joined to the rest of it, on the line
// of its first piece; the lines of the later pieces are left blank, so
// no line number moves.

type wrapper uint8

const (
	notWrapped wrapper = iota
	wrappedCRI
	wrappedDocker
)

// wrapSample is how many non-blank lines decide whether input is wrapped.
const wrapSample = 64

// unwrapped is input with each container record replaced by its message,
// or input itself when it is not such a log.
func unwrapped(input []byte) []byte {
	out, _ := unwrappedTimes(input)
	return out
}

// unwrappedTimes is unwrapped, with the runtime's time of each line of
// the result, in Unix seconds (noTime for none; nil when input is not
// wrapped): a program that writes no time of its own, as most do inside
// a container, has the time its runtime read the line (see
// stampLog.read), which unwrapping would drop.
func unwrappedTimes(input []byte) ([]byte, []int64) {
	w := wrapperOf(input)
	if w == notWrapped {
		return input, nil
	}
	out := make([]byte, 0, len(input))
	times := make([]int64, 0, lineCount(input))
	timed := false
	var pending []byte // pieces of a cut line, waiting for its end
	var waiting int    // lines left blank behind it
	var at int64       // the time of its first piece
	for start := 0; start < len(input); {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimSuffix(line, []byte("\r"))
		msg, whole, ok := unwrapLine(w, line)
		t := int64(noTime)
		if ok {
			if v, found := recordTime(w, line); found {
				t, timed = v, true
			}
		}
		switch {
		case !ok:
			msg, whole = line, true // not a record: kept as it is
		case !whole:
			if waiting == 0 {
				at = t
			}
			pending = append(pending, msg...)
			waiting++
			continue
		}
		if waiting > 0 {
			msg = append(pending, msg...)
			t = at
		}
		out = append(out, msg...)
		times = append(times, t)
		for ; waiting > 0; waiting-- {
			out = append(out, '\n')
			times = append(times, noTime)
		}
		pending = pending[:0]
		out = append(out, '\n')
	}
	for k := range waiting { // the input ends inside a cut line
		if k == 0 {
			times = append(times, at)
		} else {
			times = append(times, noTime)
		}
	}
	if !timed {
		times = nil
	}
	out = append(out, pending...) // the input may end inside a cut line
	for ; waiting > 0; waiting-- {
		out = append(out, '\n')
	}
	return out, times
}

// noTime marks a line without a runtime time.
const noTime = math.MinInt64

// recordTime is the time of a container record, in Unix seconds: CRI's
// first field, Docker's "time".
func recordTime(w wrapper, line []byte) (int64, bool) {
	var ts []byte
	if w == wrappedCRI {
		ts, _, _ = bytes.Cut(line, []byte(" "))
	} else {
		k := bytes.LastIndex(line, []byte(`"time":"`))
		if k < 0 {
			return 0, false
		}
		ts = line[k+len(`"time":"`):]
		e := bytes.IndexByte(ts, '"')
		if e < 0 {
			return 0, false
		}
		ts = ts[:e]
	}
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return 0, false
	}
	return t.Unix(), true
}

// wrapperOf is the kind of record nearly every sampled line is (all but
// one in ten), or notWrapped.
func wrapperOf(input []byte) wrapper {
	var lines, cri, docker int
	for start := 0; start < len(input) && lines < wrapSample; {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !hasNonSpace(line) {
			continue
		}
		lines++
		if _, _, ok := unwrapLine(wrappedCRI, line); ok {
			cri++
		} else if _, _, ok := unwrapLine(wrappedDocker, line); ok {
			docker++
		}
	}
	switch {
	case lines == 0:
		return notWrapped
	case cri*10 >= lines*9:
		return wrappedCRI
	case docker*10 >= lines*9:
		return wrappedDocker
	}
	return notWrapped
}

// unwrapLine is the message of one record, whether it ends its line
// (whole), and whether line is such a record at all.
func unwrapLine(w wrapper, line []byte) (msg []byte, whole, ok bool) {
	if w == wrappedCRI {
		return criMessage(line)
	}
	return dockerMessage(line)
}

// criMessage reads "TIMESTAMP STREAM TAG MESSAGE": an RFC 3339 time,
// stdout or stderr, F (full) or P (partial), one space before each.
func criMessage(line []byte) (msg []byte, whole, ok bool) {
	ts, rest, found := bytes.Cut(line, []byte(" "))
	if !found || len(ts) < len("2006-01-02T15:04:05Z") || ts[4] != '-' || ts[10] != 'T' {
		return nil, false, false
	}
	stream, rest, found := bytes.Cut(rest, []byte(" "))
	if !found || string(stream) != "stdout" && string(stream) != "stderr" {
		return nil, false, false
	}
	tag, msg, _ := bytes.Cut(rest, []byte(" "))
	switch string(tag) {
	case "F":
		return msg, true, true
	case "P":
		return msg, false, true
	}
	return nil, false, false
}

// dockerRecord is a line of Docker's json-file log.
type dockerRecord struct {
	Log    *string `json:"log"`
	Stream string  `json:"stream"`
}

// dockerMessage reads {"log":"...","stream":"...","time":"..."}; the
// message ends its line when it ends with a newline (Docker cuts lines
// longer than 16 KiB into records without one).
func dockerMessage(line []byte) (msg []byte, whole, ok bool) {
	if len(line) < 2 || line[0] != '{' || !bytes.Contains(line, []byte(`"log"`)) {
		return nil, false, false
	}
	var r dockerRecord
	if jsonv2.Unmarshal(line, &r, jsontext.AllowInvalidUTF8(true)) != nil || r.Log == nil || r.Stream == "" {
		return nil, false, false
	}
	s := *r.Log
	whole = len(s) > 0 && s[len(s)-1] == '\n'
	s = trimNewline(s)
	// A message holds no newline of its own but the last (Docker writes a
	// record per line); any other would move line numbers.
	return bytes.ReplaceAll([]byte(s), []byte("\n"), []byte(" ")), whole, true
}

func trimNewline(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
		if n > 1 && s[n-2] == '\r' {
			s = s[:n-2]
		}
	}
	return s
}
