package logs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// A fixed "now" for the formats without a year.
var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func TestTimestampFormats(t *testing.T) {
	utc := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.Unix()
	}
	cases := []struct {
		line string
		want string // RFC 3339; "" for no timestamp
	}{
		{"2024-03-18T09:14:02.117Z INFO starting", "2024-03-18T09:14:02Z"},
		{"2024-03-18T09:14:02+02:00 INFO starting", "2024-03-18T07:14:02Z"},
		{"2024-03-18T09:14:02.5-0530 x", "2024-03-18T14:44:02Z"},
		{"2024-03-18T09:14:02+01 x", "2024-03-18T08:14:02Z"},
		{"2024-03-18 09:14:02 +0100 x", "2024-03-18T08:14:02Z"},
		{"2024-03-18T09:14:02 no zone is UTC", "2024-03-18T09:14:02Z"},
		{"2015-07-29 17:41:44,747 - INFO  [QuorumPeer] - Notification", "2015-07-29T17:41:44Z"},
		{"2024/03/18 09:14:02 [error] 12#0: connect() failed", "2024-03-18T09:14:02Z"},
		{"- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO", "2005-06-03T15:42:50Z"},
		{"Dec 10 06:55:46 LabSZ sshd[24200]: reverse mapping checking", "2025-12-10T06:55:46Z"},
		{"Mar  9 06:06:20 combo syslogd 1.4.1: restart.", "2026-03-09T06:06:20Z"},
		{"Mar 11 11:00:00 host app: within a day ahead is this year", "2026-03-11T11:00:00Z"},
		{"[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok", "2005-12-04T04:47:44Z"},
		{"Sun Dec  4 04:47:44 2005 asctime", "2005-12-04T04:47:44Z"},
		// Apache 2.4: a fraction of the second before the year, not a
		// yearless syslog time after the weekday.
		{"[Tue Mar 05 15:03:10.123456 2024] [proxy:error] [pid 100:tid 1] AH01114: x", "2024-03-05T15:03:10Z"},
		{"Tue Mar  5 15:03:10.5 2024 asctime", "2024-03-05T15:03:10Z"},
		{"081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1", "2008-11-09T20:36:15Z"},
		{"I0102 15:04:05.000000    1234 main.go:42] started", "2026-01-02T15:04:05Z"},
		{"E1122 07:01:02.5 1 x.go:1] failed", "2025-11-22T07:01:02Z"},
		{`127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326`, "2000-10-10T20:55:36Z"},
		{`{"level":"error","ts":1700000000.123,"msg":"boom"}`, "2023-11-14T22:13:20Z"},
		{`{"time":1700000000123,"msg":"ms"}`, "2023-11-14T22:13:20Z"},
		{`{"timestamp":1700000000123456,"msg":"µs"}`, "2023-11-14T22:13:20Z"},
		{`{"msg":"late field", "@timestamp": "2024-03-18T09:14:02Z"}`, "2024-03-18T09:14:02Z"},
		// 12-hour times: after an ISO date, and Windows' Event Viewer's
		// US date, month first.
		{"2024-03-18 01:14:02 PM ERROR boom", "2024-03-18T13:14:02Z"},
		{"2024-03-18 12:14:02.5 AM after midnight", "2024-03-18T00:14:02Z"},
		{"2024-03-18 12:14:02 PM noon", "2024-03-18T12:14:02Z"},
		{"Error\t3/11/2024 1:15:02 PM\tService Control Manager\t7000", "2024-03-11T13:15:02Z"},
		{"Information\t12/1/2024 9:05:00 AM\tx", "2024-12-01T09:05:00Z"},
		{"11/30/2024 12:00:00 AM x", "2024-11-30T00:00:00Z"},
		// Day, month name and year: Tomcat's and PHP's, Redis's, RFC 1123.
		{"11-Mar-2024 10:15:05.123 INFO [main] org.apache.catalina.startup.Catalina.start", "2024-03-11T10:15:05Z"},
		{"[11-Mar-2024 10:15:06 UTC] PHP Fatal error:  Uncaught Error", "2024-03-11T10:15:06Z"},
		{"1:M 11 Mar 2024 10:15:19.123 * Ready to accept connections tcp", "2024-03-11T10:15:19Z"},
		{"Mon, 11 Mar 2024 10:15:02 GMT x", "2024-03-11T10:15:02Z"},
		{"11 Mar 2024 10:15:02 +0100 x", "2024-03-11T09:15:02Z"},
		// Airflow's web view: a comma after the date.
		{"[2026-11-29, 10:00:03 UTC] {taskinstance.py:1937} ERROR - Task failed with exception", "2026-11-29T10:00:03Z"},
		// Erlang's reports (RabbitMQ before 3.7), the day maybe of one digit.
		{"=INFO REPORT==== 29-Nov-2026::10:00:00 ===", "2026-11-29T10:00:00Z"},
		{"=ERROR REPORT==== 8-Feb-2026::11:58:42.123456 ===", "2026-02-08T11:58:42Z"},
		// Day-first dotted dates (German tools), ISO 8601's basic format
		// and a compact date with a time, journald's JSON export.
		{"11.03.2024 10:15:05 ERROR Verbindung abgebrochen", "2024-03-11T10:15:05Z"},
		{"[11.03.2024 10:15:05,123] INFO x", "2024-03-11T10:15:05Z"},
		{"11.03.2024 10:15:05.123+01:00 x", "2024-03-11T09:15:05Z"},
		{"20240311T101505Z ERROR boom", "2024-03-11T10:15:05Z"},
		{"20240311T101505.123+0100 x", "2024-03-11T09:15:05Z"},
		{"20240311 10:15:05 x", "2024-03-11T10:15:05Z"},
		{"I 20240311 10:15:05.5 x", "2024-03-11T10:15:05Z"},
		{`{"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1710151505123456","PRIORITY":"3","MESSAGE":"boom"}`, "2024-03-11T10:05:05Z"},
		{`{"MESSAGE":"boom","_SOURCE_REALTIME_TIMESTAMP":"1710151504000000","__REALTIME_TIMESTAMP":"1710151505123456"}`, "2024-03-11T10:05:04Z"},
		// Android's logcat: month and day, no year.
		{"03-09 06:06:20.123  1234  1250 I ActivityManager: Start proc", "2026-03-09T06:06:20Z"},
		{"12-31 23:59:59.999  1234  1250 E AndroidRuntime: FATAL EXCEPTION: main", "2025-12-31T23:59:59Z"},
		{"13-09 06:06:20.123 no such month", ""},
		// JSON time fields of other names: Serilog's compact JSON,
		// MongoDB's, a Kubernetes audit event's, CloudTrail's.
		{`{"@t":"2026-11-29T05:44:16.123Z","@mt":"Hello {Name}","Name":"x"}`, "2026-11-29T05:44:16Z"},
		{`{"t":{"$date":"2026-11-29T05:44:31.123+00:00"},"s":"I","c":"NETWORK","msg":"Connection accepted"}`, "2026-11-29T05:44:31Z"},
		{`{"kind":"Event","verb":"get","requestReceivedTimestamp":"2026-11-29T05:44:16.123456Z","stageTimestamp":"2026-11-29T05:44:17.000000Z"}`, "2026-11-29T05:44:16Z"},
		{`{"eventVersion":"1.08","eventTime":"2026-11-29T05:44:16Z","eventName":"GetObject"}`, "2026-11-29T05:44:16Z"},
		// Django's runserver: an access log's date, a space before the
		// hour; MariaDB's hour padded with a space.
		{`[29/Nov/2026 05:44:16] "GET / HTTP/1.1" 200 1234`, "2026-11-29T05:44:16Z"},
		{"2026-11-29  5:44:20 0 [Note] mysqld: ready for connections.", "2026-11-29T05:44:20Z"},
		// Not timestamps.
		{"10.0.0.1 10:15:05 an address", ""},
		{"2026-11-29  x:44:20 no hour", ""},
		{"31.02.2024 10:15:05 no such day", ""},
		{"20241311T101505Z no such month", ""},
		{"12345678 10:15:05 no such date", ""},
		{"1710151505 ERROR an epoch is read only when the first lines agree", ""},
		{"11-Foo-2024 10:15:05 not a month", ""},
		{"3/11/2024 13:15:02 day or month first, no AM or PM to tell", ""},
		{"3/11/2024 13:15:02 PM no such hour", ""},
		{"13/11/2024 1:15:02 PM no such month", ""},
		{"INFO no time here", ""},
		{"2024-03-18 a date alone", ""},
		{"2024-13-18T09:14:02Z bad month", ""},
		{"2023-02-29T09:14:02Z not a leap year", ""},
		{"2024-03-18T25:14:02Z bad hour", ""},
		{"x2024-03-18T09:14:02Z inside a word", ""},
		{"release 081109 203615 not at the start", ""},
		{"Foo 10 06:55:46 not a month", ""},
		{`{"ts":42,"msg":"too early"}`, ""},
		{"                                                                 2024-03-18T09:14:02Z past the window", ""},
	}
	for _, c := range cases {
		p := stampParser{now: testNow}
		got, ok := p.parse([]byte(c.line))
		switch {
		case c.want == "" && ok:
			t.Errorf("%q: found %s, want none", c.line, rfc3339(got))
		case c.want != "" && !ok:
			t.Errorf("%q: no timestamp, want %s", c.line, c.want)
		case c.want != "" && got != utc(c.want):
			t.Errorf("%q: %s, want %s", c.line, rfc3339(got), c.want)
		}
	}
}

// An hour padded with a space (MariaDB's) is read, and the date of such a
// line is not served from the memo to the next line with the same date.
func TestTimestampPaddedHour(t *testing.T) {
	p := stampParser{now: testNow}
	for _, c := range []struct{ line, want string }{
		{"2026-11-29  9:59:59 0 [Note] a", "2026-11-29T09:59:59Z"},
		{"2026-11-29 10:00:00 0 [Note] b", "2026-11-29T10:00:00Z"},
		{"2026-11-29  9:00:01 0 [Note] c", "2026-11-29T09:00:01Z"},
		{"2026-11-29 11:00:02 0 [Note] d", "2026-11-29T11:00:02Z"},
		{"2026-11-29 11:00:03 0 [Note] e", "2026-11-29T11:00:03Z"},
	} {
		got, ok := p.parse([]byte(c.line))
		if !ok || rfc3339(got) != c.want {
			t.Errorf("%q: %s %v, want %s", c.line, rfc3339(got), ok, c.want)
		}
	}
}

// A parser that remembered one format still reads a line of another.
func TestTimestampFormatChanges(t *testing.T) {
	p := stampParser{now: testNow}
	for _, line := range []string{
		"081109 203615 148 INFO a",
		"2015-07-29 17:41:44,747 - INFO b",
		"081109 203616 148 INFO c",
	} {
		if _, ok := p.parse([]byte(line)); !ok {
			t.Errorf("%q: no timestamp", line)
		}
	}
}

func TestUnixOfMatchesTime(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 2, 29, 23, 59, 59, 0, time.UTC),
		time.Date(2024, 12, 31, 12, 0, 1, 0, time.UTC),
		time.Date(2099, 3, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got := unixOf(int64(tm.Year()), int(tm.Month()), tm.Day(), tm.Hour(), tm.Minute(), tm.Second()); got != tm.Unix() {
			t.Errorf("%s: %d, want %d", tm, got, tm.Unix())
		}
	}
}

// FuzzTimestamp: any line parses without a panic to a time in the
// accepted years; a found time printed as RFC 3339 at the start of a line
// reads back the same; and a parser that read another line first finds a
// timestamp when a fresh one does, the same one when it is read at the
// same place in the same format (the memo saves work, nothing else).
func FuzzTimestamp(f *testing.F) {
	seeds := []string{
		"2024-03-18T09:14:02.117Z INFO", "Dec 10 06:55:46 LabSZ", "[Sun Dec 04 04:47:44 2005]", "081109 203615 148",
		"I0102 15:04:05.000000", "2005-06-03-15.42.50.675872", "[Tue Mar 05 15:03:10.123456 2024]", `{"ts":1700000000}`, `a [10/Oct/2000:13:55:36 -0700]`,
		"2024-03-18 09:14:02 +", "2024-03-18T09:14:02+9", `{"time":"`,
		"2024-03-18 01:14:02 PM", "3/11/2024 1:15:02 PM", "12/1/2024 12:05:00 AM", "11-Mar-2024 10:15:05.123", "1:M 11 Mar 2024 10:15:19.123 *",
		"11.03.2024 10:15:05,123", "20240311T101505.5Z", "=INFO REPORT==== 8-Feb-2016::11:58:42 ===", "[2026-11-29, 10:00:03 UTC] x", "20240311 10:15:05 x", `{"__REALTIME_TIMESTAMP":"1710151505123456"}`,
	}
	for i, s := range seeds {
		f.Add(seeds[(i+1)%len(seeds)], s)
	}
	f.Add("2024-03-18T09:14:02Z a", "2024-03-18T09:14:59+01:00 b")
	f.Add("2024-03-18T09:14:02Z a", "2024-03-18T09:14:61Z b")
	f.Add("081109 203615 a", "081109 2036159 b")
	f.Add("Dec 10 06:55:46 a", "Dec 10 06:55:4")
	f.Add("[Sun Dec 04 04:47:44 2005] a", "[Sun Dec 04 04:47:45 2011] b") // the memo's minute, another year
	f.Add("[Sun Dec 04 04:47:44 2005] a", "[Sun Dec 04 04:47:45.123 2005] b")
	f.Add("[Sun Dec 04 04:47:44 2005] a", "[Sun Dec 04 04:47:45 20051] b")
	f.Add("2015-07-29 19:13:24 a", "2010-87-29 19:13:24 b") // an invalid date whose fields' bits overlap a valid one's
	f.Add("Mar 11 06:00:00 a", "Mar 11 18:00:00 b")         // a day ahead of testNow: the year before from noon on
	f.Add("I0311 06:00:00.000000 a", "I0311 18:00:00.000000 b")
	f.Add("2015-07-29 19:13:24 a", "2015-07-29 19:14:24 b")
	f.Add("1710151505 a", "1710151506.5 b")
	f.Add("1710151505123 a", "1710151506123\tb")
	lo, hi := unixOf(1969, 12, 31, 0, 0, 0), unixOf(2100, 1, 2, 0, 0, 0)
	f.Fuzz(func(t *testing.T, prev, line string) {
		epochs := epochWidth([]byte(prev + "\n" + line)) // lines opening with an epoch: read if they agree
		fresh := stampParser{now: testNow, epochDigits: epochs}
		got, ok := fresh.parse([]byte(line))
		primed := stampParser{now: testNow, epochDigits: epochs}
		primed.parse([]byte(prev))
		again, ok2 := primed.parse([]byte(line))
		if ok2 != ok || (primed.lastFmt == fresh.lastFmt && primed.lastAt == fresh.lastAt && again != got) {
			t.Fatalf("%q after %q: %d %v; fresh %d %v", line, prev, again, ok2, got, ok)
		}
		if !ok {
			return
		}
		if got < lo || got > hi {
			t.Fatalf("%q: %d is out of range", line, got)
		}
		back, ok := (&stampParser{now: testNow}).parse([]byte(rfc3339(got) + " x"))
		if !ok || back != got {
			t.Fatalf("%q: %s does not read back (%d, %v)", line, rfc3339(got), back, ok)
		}
	})
}

// The memo's reading of a line (its date the line before's) is the full
// parse's: the Loghub samples' lines, in order and with random digits of
// their time of day and date changed, read by one parser and each by a
// fresh one, give the same times (where both read them at the same place
// in the same format: a parser tries the place of the line before's first).
func TestTimestampMemoMatchesFullParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	memo := stampParser{now: testNow}
	for _, sys := range gaSystems {
		for _, line := range bytes.Split(loghubLog(t, sys.name), []byte{'\n'}) {
			line = bytes.Clone(line)
			for range 2 {
				if k := rng.IntN(24); k < len(line) && isDigit(line[k]) {
					line[k] = byte('0' + rng.IntN(10))
				}
			}
			got, ok := memo.parse(line)
			fresh := stampParser{now: testNow}
			want, ok2 := fresh.parse(line)
			if ok != ok2 || memo.lastFmt == fresh.lastFmt && memo.lastAt == fresh.lastAt && got != want {
				t.Fatalf("%s %q: %d %v, fresh parser %d %v", sys.name, line, got, ok, want, ok2)
			}
		}
	}
}

// An epoch in a column of its own, as an AWS VPC flow log has its
// window's start and end, times the lines that agree on it, under a
// title row; numbers that do not agree on a column are no time.
func TestEpochColumn(t *testing.T) {
	vpc := "version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end action log-status\n"
	for i := range 6 {
		action := "ACCEPT"
		if i == 4 {
			action = "REJECT"
		}
		vpc += fmt.Sprintf("2 123456789012 eni-0a1b2c3d 10.0.0.%d 10.0.1.5 %d 443 6 %d %d %d %d %s OK\n",
			i, 40000+i, i+1, 60*(i+1), 1795003200+60*i, 1795003260+60*i, action)
	}
	res := analyze(t, vpc, Options{})
	tl := res.Timeline
	if tl == nil || tl.TimedLines != 6 || tl.UntimedLines != 1 || tl.Start != "2026-11-18T12:00:00Z" {
		t.Errorf("VPC flow log: timeline %+v; want 6 lines timed from 2026-11-18T12:00:00Z", tl)
	}
	// Ids of ten digits in no one column.
	mixed := "order 1795003200 shipped\nuser 42 placed order 1795003201\norder 1795003202 shipped\nuser 7 placed order 1795003203\n"
	if res := analyze(t, mixed, Options{}); res.Timeline != nil {
		t.Errorf("ids in different columns read as times: %+v", res.Timeline)
	}
}

// A Kubernetes Event (kubectl get events -o json, an event exporter's
// lines) has its time in lastTimestamp, its eventTime null: such a log
// had no timeline.
func TestKubernetesEventTime(t *testing.T) {
	in := `{"kind":"Event","involvedObject":{"kind":"Pod","name":"web-1"},"reason":"BackOff","message":"Back-off restarting failed container","eventTime":null,"firstTimestamp":"2026-11-29T11:50:00Z","lastTimestamp":"2026-11-29T12:00:00Z","count":3,"type":"Warning"}
{"kind":"Event","involvedObject":{"kind":"Pod","name":"web-2"},"reason":"Pulled","message":"Container image already present","eventTime":null,"firstTimestamp":"2026-11-29T12:00:30Z","lastTimestamp":"2026-11-29T12:00:30Z","count":1,"type":"Normal"}
`
	res := analyze(t, in, Options{})
	if tl := res.Timeline; tl == nil || tl.TimedLines != 2 || tl.Start != "2026-11-29T12:00:00Z" {
		t.Errorf("timeline %+v; want 2 lines from 12:00:00, their lastTimestamp", tl)
	}
}
