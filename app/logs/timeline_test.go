package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// isoBurstLog is two hours of a service's log, a line every 20 seconds,
// with an error burst from 10:40 to 10:50: 30 errors and 5 retries.
func isoBurstLog() string {
	var b strings.Builder
	t0 := time.Date(2024, 3, 18, 10, 0, 0, 0, time.UTC)
	for i := range 360 {
		ts := t0.Add(time.Duration(i) * 20 * time.Second).Format("2006-01-02T15:04:05.000Z")
		fmt.Fprintf(&b, "%s INFO  [http] GET /api/v1/orders/%d 200 %dms\n", ts, 1000+i, 2+i%7)
		if ts >= "2024-03-18T10:40" && ts < "2024-03-18T10:50" {
			fmt.Fprintf(&b, "%s ERROR [db] query failed: connection to 10.0.0.%d:5432 lost\n", ts, i%200)
			if i%6 == 0 {
				fmt.Fprintf(&b, "%s WARN  [db] retrying in %dms\n", ts, 100*i)
			}
		}
	}
	return b.String()
}

func mustAnalyze(t *testing.T, input string) *Result {
	t.Helper()
	res, err := Analyze(context.Background(), []byte(input), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestTimelineISOErrorBurst(t *testing.T) {
	res := mustAnalyze(t, isoBurstLog())
	tl := res.Timeline
	if tl == nil {
		t.Fatal("no timeline")
	}
	// Two hours in at most 60 buckets: 5 minutes (2 minutes is no step).
	if tl.BucketSeconds != 300 || len(tl.Buckets) != 24 {
		t.Fatalf("width %ds, %d buckets; want 300s and 24", tl.BucketSeconds, len(tl.Buckets))
	}
	if tl.Start != "2024-03-18T10:00:00Z" || tl.End != "2024-03-18T12:00:00Z" {
		t.Errorf("span %s – %s", tl.Start, tl.End)
	}
	if tl.TimedLines != res.Summary.Lines || tl.UntimedLines != 0 {
		t.Errorf("timed %d, untimed %d of %d lines", tl.TimedLines, tl.UntimedLines, res.Summary.Lines)
	}
	total, errs := 0, 0
	for i, b := range tl.Buckets {
		total += b.Lines
		errs += b.Error
		burst := b.Start == "2024-03-18T10:40:00Z" || b.Start == "2024-03-18T10:45:00Z"
		if burst != (b.Error > 0) {
			t.Errorf("bucket %d (%s): %d errors", i, b.Start, b.Error)
		}
		if burst && (b.Error != 15 || b.Lines != 15+15+b.Reliability || b.Reliability == 0) {
			t.Errorf("burst bucket %s: %+v", b.Start, b)
		}
		if !burst && b.Lines != 15 {
			t.Errorf("quiet bucket %s: %d lines, want 15", b.Start, b.Lines)
		}
	}
	if total != res.Summary.Lines || errs != res.Summary.ByCategory.Error {
		t.Errorf("buckets hold %d lines and %d errors; the result %d and %d", total, errs, res.Summary.Lines, res.Summary.ByCategory.Error)
	}
	// A matched line is found in its bucket again.
	for k, m := range res.Matches {
		i := tl.MatchBucket(k)
		from, to := tl.BucketTimes(i)
		if i < 0 || m.Text[:16] < from.Format("2006-01-02T15:04") || m.Text[:16] >= to.Format("2006-01-02T15:04") {
			t.Fatalf("line %d is put in bucket %d (%s – %s)", m.Line, i, from, to)
		}
	}
}

// Syslog has no year: the analysis's current year, or the one before for
// a date more than a day ahead.
func TestTimelineSyslog(t *testing.T) {
	input := `Dec 31 23:58:01 web1 sshd[812]: Accepted publickey for deploy from 10.1.2.3 port 52113 ssh2
Dec 31 23:58:40 web1 sshd[812]: pam_unix(sshd:session): session opened for user deploy
Dec 31 23:59:59 web1 kernel: [99.1] Out of memory: Killed process 4242 (java)
Jan  1 00:00:30 web1 sshd[901]: error: maximum authentication attempts exceeded for root
Jan  1 00:01:10 web1 CRON[905]: (root) CMD (run-parts /etc/cron.hourly)
`
	res := mustAnalyze(t, input)
	now := time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)
	tl := newTimeline([]byte(input), res, now)
	if tl == nil {
		t.Fatal("no timeline")
	}
	if tl.BucketSeconds != 5 || tl.Start != "2024-12-31T23:58:00Z" || tl.End != "2025-01-01T00:01:15Z" {
		t.Errorf("width %d, span %s – %s", tl.BucketSeconds, tl.Start, tl.End)
	}
	var fatal, errs, lines int
	for _, b := range tl.Buckets {
		fatal, errs, lines = fatal+b.Fatal, errs+b.Error, lines+b.Lines
	}
	if lines != 5 || fatal != 1 || errs != 1 {
		t.Errorf("%d lines, %d fatal, %d errors", lines, fatal, errs)
	}
	if n := len(tl.Buckets); n != 39 {
		t.Errorf("%d buckets", n)
	}
}

func TestTimelineMixedWithUntimedLines(t *testing.T) {
	input := `2024-03-18 09:00:00,101 INFO  worker started
java.lang.IllegalStateException: pool closed
	at com.acme.Pool.take(Pool.java:88)

2024-03-18 09:30:00,250 ERROR worker failed: pool closed
a line without any time
2024-03-18 10:00:00,000 INFO  worker stopped
`
	res := mustAnalyze(t, input)
	tl := res.Timeline
	if tl == nil {
		t.Fatal("no timeline")
	}
	if tl.TimedLines != 3 || tl.UntimedLines != res.Summary.Lines-3 || tl.UntimedLines == 0 {
		t.Errorf("timed %d, untimed %d of %d", tl.TimedLines, tl.UntimedLines, res.Summary.Lines)
	}
	// An hour is 61 one-minute buckets, one too many: five minutes.
	if tl.BucketSeconds != 300 || len(tl.Buckets) != 13 {
		t.Errorf("width %d, %d buckets", tl.BucketSeconds, len(tl.Buckets))
	}
	// The exception line matches but has no time: in no bucket.
	errs := 0
	for _, b := range tl.Buckets {
		errs += b.Error
	}
	if errs != 1 {
		t.Errorf("%d errors in the buckets, want the one timed error line", errs)
	}
	for i, m := range res.Matches {
		if timed := strings.HasPrefix(m.Text, "2024-"); timed != (tl.MatchBucket(i) >= 0) {
			t.Errorf("match on line %d: bucket %d", m.Line, tl.MatchBucket(i))
		}
	}
}

func TestNoTimeline(t *testing.T) {
	if tl := mustAnalyze(t, "INFO starting\nERROR failed\n").Timeline; tl != nil {
		t.Errorf("timeline without timestamps: %+v", tl)
	}
	// A timestamp after the probe lines is not looked for.
	late := strings.Repeat("INFO tick\n", TimelineProbeLines) + "2024-03-18T09:00:00Z INFO late\n"
	if tl := mustAnalyze(t, late).Timeline; tl != nil {
		t.Error("a timestamp after the probe lines made a timeline")
	}
	if tl := mustAnalyze(t, strings.Repeat("INFO tick\n", TimelineProbeLines-1)+"2024-03-18T09:00:00Z INFO in time\n").Timeline; tl == nil || tl.TimedLines != 1 {
		t.Errorf("a timestamp on the last probe line: %+v", tl)
	}
}

func TestBucketWidth(t *testing.T) {
	for _, c := range []struct {
		span time.Duration
		want int64
	}{
		{0, 1}, {59 * time.Second, 1}, {time.Minute, 5}, {2 * time.Hour, 300}, {5 * time.Hour, 600},
		{24 * time.Hour, 1800}, {30 * 24 * time.Hour, 86400}, {3 * 365 * 24 * time.Hour, 30 * 86400},
		{100 * 365 * 24 * time.Hour, 2 * 365 * 86400},
	} {
		first := unixOf(1990, 1, 1, 0, 0, 0)
		w := bucketWidth(first, first+int64(c.span/time.Second))
		if w != c.want {
			t.Errorf("span %s: width %d, want %d", c.span, w, c.want)
		}
		if n := floorDiv(first+int64(c.span/time.Second), w) - floorDiv(first, w) + 1; n > MaxTimelineBuckets {
			t.Errorf("span %s: %d buckets", c.span, n)
		}
	}
}

// BenchmarkTimeline is the timeline's own pass over BenchmarkAnalyze's
// input, beside the line-splitting baseline.
func BenchmarkTimeline(b *testing.B) {
	in := benchInput(b)
	res, err := run(context.Background(), in, benchLines, Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	var tl, split time.Duration
	for b.Loop() {
		t0 := time.Now()
		splitLines(in)
		t1 := time.Now()
		newTimeline(in, res, now)
		tl += time.Since(t1)
		split += t1.Sub(t0)
	}
	b.ReportMetric(tl.Seconds()/split.Seconds(), "ratio")
}

// An epoch opens a line's timestamp only when the input's first lines
// agree on its width and their times are near: a PID or an id is none.
func TestTimelineEpochs(t *testing.T) {
	tests := []struct {
		name, input string
		timed       int    // lines on the timeline; 0 for no timeline
		start       string // the first bucket's start
	}{
		{"seconds", "1710151505 INFO up\n1710151565 ERROR boom\n1710151625 INFO ok\n", 3, "2024-03-11T10:05:05Z"},
		{"fraction", "1710151505.123 INFO up\n1710151505.900 ERROR boom\n", 2, "2024-03-11T10:05:05Z"},
		{"milliseconds", "1710151505123 INFO up\n1710151506123 ERROR boom\n", 2, "2024-03-11T10:05:05Z"},
		{"microseconds, tab", "1710151505123456\tINFO up\n1710151506123456\tERROR boom\n", 2, "2024-03-11T10:05:05Z"},
		{"untimed lines between", "1710151505 ERROR boom\n  at Foo.bar\n1710151506 INFO ok\n", 2, "2024-03-11T10:05:05Z"},
		{"PIDs", "4242 ERROR boom\n4243 INFO ok\n", 0, ""},
		{"nine digits", "946684799 ERROR boom\n946684800 INFO ok\n", 0, ""},
		{"ids far apart", "1000000001 ERROR order failed\n3000000002 INFO order ok\n", 0, ""},
		{"widths differ", "1710151505 ERROR boom\n1710151506123 INFO ok\n", 0, ""},
		{"a counter among epochs", "1710151505 ERROR boom\n42 INFO ok\n", 0, ""},
		{"glued to a word", "1710151505abc ERROR boom\n1710151506abc INFO ok\n", 0, ""},
	}
	for _, tt := range tests {
		tl := mustAnalyze(t, tt.input).Timeline
		switch {
		case tt.timed == 0 && tl != nil:
			t.Errorf("%s: a timeline of %d lines from %s", tt.name, tl.TimedLines, tl.Start)
		case tt.timed > 0 && tl == nil:
			t.Errorf("%s: no timeline", tt.name)
		case tt.timed > 0 && (tl.TimedLines != tt.timed || tl.Start != tt.start):
			t.Errorf("%s: %d timed lines from %s, want %d from %s", tt.name, tl.TimedLines, tl.Start, tt.timed, tt.start)
		}
	}
}
