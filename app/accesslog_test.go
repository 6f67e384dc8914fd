package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The request line is written by hand; an operator's tools must see the
// line slog's handler would have written, in both formats, whatever the
// path holds.
func TestAccessLineIsSlogsLine(t *testing.T) {
	var odd strings.Builder
	for c := 0; c < 256; c++ {
		odd.WriteByte(byte(c)) // every byte, invalid UTF-8 included
	}
	paths := []string{"/v1/products", "", "/a b", "/a=b", `/"q"`, `/back\slash`, "/tab\there", "/new\nline",
		"/ünïcödé/日本", "/\u2028\u2029", "/nbsp\u00a0", "/\u202e", "/\x7f", "/\xff\xfe", "/\xe2\x82", odd.String()}
	at := time.Date(2026, 11, 25, 4, 47, 58, 307_000_000, time.UTC)
	durations := []time.Duration{0, time.Microsecond, 177 * time.Microsecond, 871*time.Microsecond + 400,
		1500 * time.Millisecond, 1000 * time.Second, 36 * time.Hour}
	times := []time.Time{at, at.Add(999_999_999), at.Add(1), at.In(time.FixedZone("X", 5*3600+1800)), at.Truncate(time.Second)}
	for _, json := range []bool{false, true} {
		for i, path := range paths {
			l := accessLine{at: times[i%len(times)], method: "GET", path: path, status: 200 + i, took: durations[i%len(durations)],
				bytes: int64(i * 1000), ip: "127.0.0.1", requestID: "req_u61JllcDNmPhjGQa7NdY"}
			if i%3 == 1 {
				l.method, l.ip = "PROPFIND", "2001:db8::1"
			}
			if got, want := string(l.appendTo(json)), slogLine(json, l); got != want {
				t.Errorf("json=%v path %q:\n got %s\nwant %s", json, path, got, want)
			}
		}
	}
}

// appendTo is the line in one format.
func (l *accessLine) appendTo(json bool) []byte {
	if json {
		return l.appendJSON(nil)
	}
	return l.appendText(nil)
}

// slogLine is the line as slog writes it.
func slogLine(json bool, l accessLine) string {
	var buf bytes.Buffer
	r := slog.NewRecord(l.at, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", l.method), slog.String("path", l.path), slog.Int("status", l.status),
		slog.Float64("duration_ms", float64(l.took.Microseconds())/1000), slog.Int64("bytes", l.bytes),
		slog.String("ip", l.ip), slog.String("request_id", l.requestID))
	if err := (LogOutput{W: &buf, JSON: json}).Logger().Handler().Handle(context.Background(), r); err != nil {
		panic(err)
	}
	return buf.String()
}
