package web_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/app/logs"
)

// burstLog is two hours of an API's log (Zookeeper-style timestamps, a
// line a minute) with an error burst from 11:10 to 11:20, and a few lines
// without a time: a stack trace's frames.
func burstLog() string {
	var b strings.Builder
	for i := range 120 {
		ts := fmt.Sprintf("2024-06-03 %02d:%02d:07,%03d", 10+i/60, i%60, i*7%1000)
		fmt.Fprintf(&b, "%s INFO  [api] GET /v2/items/%d 200 %dms\n", ts, 500+i, 4+i%11)
		if i >= 70 && i < 80 {
			fmt.Fprintf(&b, "%s ERROR [api] upstream inventory failed: connection refused by 10.2.0.%d:8443\n", ts, i)
			fmt.Fprintf(&b, "%s WARN  [api] circuit open, retrying in %ds\n", ts, i%5+1)
		}
		if i == 75 {
			b.WriteString("java.net.ConnectException: Connection refused\n\tat sun.nio.ch.Net.connect(Net.java:579)\n")
		}
	}
	return b.String()
}

// bucketOfMatches is, per bucket of res's timeline, the line numbers of
// the matches in it: what the page must show when that bucket is chosen.
func bucketOfMatches(res *logs.Result) map[int][]string {
	out := map[int][]string{}
	for i, m := range res.Matches {
		if b := res.Timeline.MatchBucket(i); b >= 0 {
			out[b] = append(out[b], strconv.Itoa(m.Line))
		}
	}
	return out
}

func TestLogsPageTimeline(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := logsSignedIn(t, env)
		token := c.CSRF("/logs/app")
		input := burstLog()
		want, err := logs.Analyze(context.Background(), []byte(input), logs.Options{IncludeParams: true})
		if err != nil || want.Timeline == nil {
			t.Fatalf("the engine: %v, timeline %v", err, want.Timeline)
		}
		frag := logsHTMX(t, c, token, input).Doc(t)
		tl := frag.Find("[data-testid=log-timeline]")
		if tl.Length() != 1 {
			t.Fatal("no timeline")
		}
		// Two hours in 5-minute buckets: 24 bars, each with a title, and
		// a button per bar.
		if n := tl.Find("[data-testid=timeline-bar]").Length(); n != 24 || n != len(want.Timeline.Buckets) {
			t.Errorf("%d bars, want 24", n)
		}
		if n := tl.Find("[data-testid=timeline-bar] > title").Length(); n != 24 {
			t.Errorf("%d bar titles", n)
		}
		if got := tl.Find("[data-testid=timeline-bar] > title").Eq(14).Text(); got != "2024-06-03 11:10–11:15 UTC: 15 lines, 5 error, 5 reliability" {
			t.Errorf("bar 15's title %q", got)
		}
		if got := tl.Find("[data-testid=timeline-summary]").Text(); !strings.Contains(got, "140 lines with a timestamp, in buckets of 5 minutes") || !strings.Contains(got, "; 2 lines without one, not counted. Choose a bar") {
			t.Errorf("summary %q", got)
		}
		if tl.Find("svg[style], [style]").Length() != 0 {
			t.Error("the chart has inline styles")
		}
		buttons := tl.Find("[data-testid=timeline-bucket]")
		if buttons.Length() != 24 || buttons.First().AttrOr("form", "") != "logs-form" || buttons.First().AttrOr("name", "") != "view" ||
			buttons.First().AttrOr("hx-target", "") != "#logs-result" {
			t.Fatalf("bucket buttons do not post the form: %d", buttons.Length())
		}

		// Choosing the bucket of 11:10: the matches of that bucket only,
		// the counts of that bucket, the bucket pressed.
		byBucket := bucketOfMatches(want)
		view := buttons.Eq(14).AttrOr("value", "")
		page := logsHTMX(t, c, token, input, "view", view).Doc(t)
		if got := logsAttrs(page, "[data-testid=match-row]", "data-line"); strings.Join(got, ",") != strings.Join(byBucket[14], ",") || len(got) != 10 {
			t.Errorf("bucket 15 shows lines %v, want %v", got, byBucket[14])
		}
		if got := page.Find("[data-testid=time-filter] strong").Text(); got != "2024-06-03 11:10–11:15 UTC" {
			t.Errorf("time filter %q", got)
		}
		if got := page.Find("[data-testid=filter-error]").Text(); got != "Error (5)" {
			t.Errorf("error filter in the bucket: %q", got)
		}
		if got := logsAttrs(page, "[data-testid=timeline-bucket][aria-pressed=true]", "data-bucket"); strings.Join(got, ",") != "15" {
			t.Errorf("pressed buckets %v", got)
		}
		// A bucket without matches says so; Show all times goes back.
		page = logsHTMX(t, c, token, input, "view", buttons.Eq(0).AttrOr("value", "")).Doc(t)
		if page.Find("[data-testid=no-bucket-matches]").Length() != 1 || page.Find("[data-testid=match-row]").Length() != 0 {
			t.Error("the first bucket has no matches, and does not say so")
		}
		clear := page.Find("[data-testid=time-filter-clear]").AttrOr("value", "")
		page = logsHTMX(t, c, token, input, "view", clear).Doc(t)
		if n := page.Find("[data-testid=match-row]").Length(); n != len(want.Matches) || page.Find("[data-testid=time-filter]").Length() != 0 {
			t.Errorf("all times: %d rows, want %d", n, len(want.Matches))
		}
		// A bucket of another log is not applied to an edited one.
		page = logsHTMX(t, c, token, input+"2024-06-03 12:00:07,000 ERROR [api] late\n", "view", view).Doc(t)
		if page.Find("[data-testid=time-filter]").Length() != 0 || page.Find("[data-testid=match-row]").Length() != len(want.Matches)+1 {
			t.Error("a bucket of the old log filtered the edited one")
		}

		// Without JavaScript the bucket button posts the whole form.
		body, ct := scanForm(t, map[string]string{"_csrf": token, "log": input, "view": view})
		res := c.Do("POST", "/logs/app", body, "Content-Type", ct)
		doc := res.Doc(t)
		if res.StatusCode != 200 || doc.Find("html").Length() != 1 || len(logsAttrs(doc, "#logs-result [data-testid=match-row]", "data-line")) != 10 {
			t.Errorf("bucket without JS: %d", res.StatusCode)
		}

		// A log without timestamps has no timeline.
		if logsHTMX(t, c, token, "ERROR a\nINFO b\n").Doc(t).Find("[data-testid=log-timeline]").Length() != 0 {
			t.Error("a timeline without timestamps")
		}
	})
}
