package app

import (
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"parapet/app/jsonstr"
)

// LogOutput is where the process logs, and in which format: JSON lines in
// production (for log drains), readable text otherwise. The logger and the
// request lines write there alike. W must take concurrent writes (os.Stderr
// does); each line is one Write.
type LogOutput struct {
	W    io.Writer
	JSON bool
}

// NewLogOutput is the process's log output: standard error.
func NewLogOutput(c Config) LogOutput { return LogOutput{W: os.Stderr, JSON: c.Production()} }

// Logger is the process logger, writing to o.
func (o LogOutput) Logger() *slog.Logger {
	if o.JSON {
		return slog.New(slog.NewJSONHandler(o.W, nil))
	}
	return slog.New(slog.NewTextHandler(o.W, nil))
}

// accessLine is the line observe writes for each request. It is written
// by hand, byte for byte as the logger's handler would write it
// (accesslog_test.go compares them): through slog's generic path it was a
// fifth of the chain a GET /v1/products takes.
type accessLine struct {
	at            time.Time
	method, path  string
	status        int
	took          time.Duration
	bytes         int64
	ip, requestID string
}

var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// write writes the line to o.
func (l *accessLine) write(o LogOutput) {
	bp := lineBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	if o.JSON {
		b = l.appendJSON(b)
	} else {
		b = l.appendText(b)
	}
	_, _ = o.W.Write(b)
	*bp = b
	lineBuffers.Put(bp)
}

// appendText is slog.TextHandler's line: the time to the millisecond,
// then key=value pairs, a value quoted when it needs to be.
func (l *accessLine) appendText(b []byte) []byte {
	b = append(b, "time="...)
	b = appendMillis(b, l.at)
	b = append(b, " level=INFO msg=request method="...)
	b = appendTextString(b, l.method)
	b = append(b, " path="...)
	b = appendTextString(b, l.path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(l.status), 10)
	b = append(b, " duration_ms="...)
	b = strconv.AppendFloat(b, l.durationMillis(), 'g', -1, 64)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, l.bytes, 10)
	b = append(b, " ip="...)
	b = appendTextString(b, l.ip)
	b = append(b, " request_id="...)
	b = appendTextString(b, l.requestID)
	return append(b, '\n')
}

// appendJSON is slog.JSONHandler's line.
func (l *accessLine) appendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = l.at.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"request","method":`...)
	b = jsonstr.Append(b, l.method, jsonstr.Slog)
	b = append(b, `,"path":`...)
	b = jsonstr.Append(b, l.path, jsonstr.Slog)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(l.status), 10)
	b = append(b, `,"duration_ms":`...)
	b = strconv.AppendFloat(b, l.durationMillis(), 'f', -1, 64) // as encoding/json writes it below 1e21
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, l.bytes, 10)
	b = append(b, `,"ip":`...)
	b = jsonstr.Append(b, l.ip, jsonstr.Slog)
	b = append(b, `,"request_id":`...)
	b = jsonstr.Append(b, l.requestID, jsonstr.Slog)
	return append(b, "}\n"...)
}

// durationMillis is the time taken in milliseconds, to the microsecond.
func (l *accessLine) durationMillis() float64 { return float64(l.took.Microseconds()) / 1000 }

// appendMillis writes t in RFC 3339 with exactly three decimals, as
// slog's text handler does.
func appendMillis(b []byte, t time.Time) []byte {
	const prefix = len("2006-01-02T15:04:05.000")
	n := len(b)
	// RFC3339Nano trims trailing zeros: a tenth of a millisecond more
	// keeps four decimals, and the fourth is dropped.
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefix], b[n+prefix+1:]...)
}

// appendTextString writes s bare when it is printable and holds no space,
// '=' or '"', and Go-quoted otherwise, as slog's text handler does.
func appendTextString(b []byte, s string) []byte {
	if textNeedsQuotes(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func textNeedsQuotes(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
