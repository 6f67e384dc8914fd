package web_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/logs"
)

// deployLogs is a worker's log on the day before a deploy and the day
// of it: jobs run as before, the nightly vacuum is gone, lock waits went
// from 1 in 60 to 1 in 6, and a new error appears.
func deployLogs() (baseline, current string) {
	var b, c strings.Builder
	for i := range 240 {
		fmt.Fprintf(&b, "Jun  2 04:%02d:%02d worker7 jobs[311]: job %d done in %dms\n", i/60, i%60, 9000+i, 80+i%23)
		if i%60 == 0 {
			fmt.Fprintf(&b, "Jun  2 04:%02d:%02d worker7 jobs[311]: lock wait exceeded on table orders, retrying\n", i/60, i%60)
		}
		if i%80 == 5 {
			fmt.Fprintf(&b, "Jun  2 04:%02d:%02d worker7 postgres[90]: vacuum of orders finished: %d pages removed\n", i/60, i%60, 120+i)
		}
	}
	for i := range 240 {
		fmt.Fprintf(&c, "Jun  3 04:%02d:%02d worker7 jobs[311]: job %d done in %dms\n", i/60, i%60, 9500+i, 80+i%19)
		if i%6 == 0 {
			fmt.Fprintf(&c, "Jun  3 04:%02d:%02d worker7 jobs[311]: lock wait exceeded on table orders, retrying\n", i/60, i%60)
		}
		if i%48 == 7 {
			fmt.Fprintf(&c, "Jun  3 04:%02d:%02d worker7 jobs[311]: error: invoice %d could not be rendered: template missing\n", i/60, i%60, 700+i)
		}
	}
	return b.String(), c.String()
}

// compareHTMX posts the Compare form the way htmx does.
func compareHTMX(t *testing.T, c *apptest.Client, token, baseline, current string) *apptest.Response {
	t.Helper()
	body, ct := scanForm(t, map[string]string{"baseline": baseline, "current": current})
	return c.Do("POST", "/logs/app/compare", body, "Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", token)
}

func TestLogsComparePage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		anon := env.Client()
		if res := anon.Get("/logs/app/compare"); res.StatusCode != 303 || !strings.HasPrefix(res.Header.Get("Location"), "/console/signin") {
			t.Errorf("signed out: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		c := logsSignedIn(t, env)
		page := c.Get("/logs/app/compare")
		doc := page.Doc(t)
		if page.StatusCode != 200 || doc.Find("label[for=compare-baseline]").Length() != 1 || doc.Find("label[for=compare-current]").Length() != 1 ||
			doc.Find("[data-testid=mode-compare][aria-current=page]").Length() != 1 {
			t.Fatalf("the Compare page: %d", page.StatusCode)
		}
		if c.Get("/logs/app").Doc(t).Find("[data-testid=mode-analyze][aria-current=page]").Length() != 1 {
			t.Error("the analyzer does not mark its mode")
		}
		token := c.CSRF("/logs/app/compare")
		baseline, current := deployLogs()
		res := compareHTMX(t, c, token, baseline, current)
		frag := res.Doc(t)
		if !strings.HasPrefix(res.Body, "<section") || frag.Find("[data-testid=compare-report]").Length() != 1 {
			t.Fatalf("htmx did not get the report fragment: %.300s", res.Body)
		}
		row := func(kind string) (string, string, string) {
			r := frag.Find("[data-testid=" + kind + "-row]")
			if r.Length() != 1 {
				t.Fatalf("%d %s rows", r.Length(), kind)
			}
			return r.AttrOr("data-category", ""), r.Find("[data-testid=change-template]").Text(), r.Find("[data-testid=change-ratio]").Text()
		}
		if cat, tmpl, change := row("new"); cat != "error" || !strings.Contains(tmpl, "could not be rendered") || change != "↑ new" {
			t.Errorf("new: %s %q %s", cat, tmpl, change)
		}
		if _, tmpl, change := row("gone"); !strings.Contains(tmpl, "vacuum of orders") || change != "↓ gone" {
			t.Errorf("gone: %q %s", tmpl, change)
		}
		// 4 of 247 lines before, 40 of 285 after.
		if cat, tmpl, change := row("changed"); cat != "reliability" || !strings.Contains(tmpl, "lock wait exceeded") || change != "↑ 767%" {
			t.Errorf("changed: %s %q %s", cat, tmpl, change)
		}
		// Side by side: the count and the rate per 1,000 lines, plain.
		for id, want := range map[string]string{"change-baseline": "4", "change-baseline-rate": "16.2", "change-current": "40", "change-current-rate": "140"} {
			if got := frag.Find("[data-testid=changed-row] [data-testid=" + id + "]").Text(); got != want {
				t.Errorf("changed template's %s %q, want %q", id, got, want)
			}
		}
		if got := frag.Find("[data-testid=new-row] [data-testid=change-baseline]").Text(); got != "—" {
			t.Errorf("a new template's baseline count %q", got)
		}
		// New and gone lead.
		var order []string
		frag.Find("[data-testid=compare-report] > section").Each(func(_ int, s *goquery.Selection) { order = append(order, s.AttrOr("id", "")) })
		if strings.Join(order, ",") != "compare-new,compare-gone,compare-changed" {
			t.Errorf("sections in order %v", order)
		}
		if got := frag.Find("[data-testid=summary-unchanged] strong").Text(); got != "1" {
			t.Errorf("unchanged %q", got)
		}
		if !strings.HasPrefix(frag.Find("[data-testid=compare-json]").Text(), `{"data":{"summary":{"baseline_lines":247`) {
			t.Error("the JSON download is not the API's body")
		}

		// Problems are reports too.
		frag = compareHTMX(t, c, token, " \n", current).Doc(t)
		if got := frag.Find("[data-testid=input-problem]").Text(); !strings.HasPrefix(got, "Baseline: no log lines") {
			t.Errorf("blank baseline: %q", got)
		}
		frag = compareHTMX(t, c, token, baseline, strings.Repeat("a\n", logs.MaxCompareSideLines+1)).Doc(t)
		if got := frag.Find("[data-testid=input-problem]").Text(); !strings.Contains(got, "The current log has 100,001 lines, over the comparison's limit of 100,000 lines a side") {
			t.Errorf("too many lines: %q", got)
		}

		// Without JavaScript: the whole page, the logs kept in the form.
		res = c.PostForm("/logs/app/compare", url.Values{"_csrf": {token}, "baseline": {baseline}, "current": {current}})
		doc = res.Doc(t)
		if res.StatusCode != 200 || doc.Find("#compare-result [data-testid=new-row]").Length() != 1 || doc.Find("textarea#compare-current").Text() != current {
			t.Errorf("without JS: %d", res.StatusCode)
		}
		res = c.PostForm("/logs/app/compare", url.Values{"_csrf": {token}, "baseline": {strings.Repeat("x", logs.MaxCompareSideBytes)}, "current": {"b"}})
		if res.StatusCode != 413 || !strings.Contains(res.Doc(t).Find("[data-testid=input-problem]").Text(), "The baseline log is 5.0 MiB, over the comparison's limit of 5 MiB a side") {
			t.Errorf("over 5 MiB without JS: %d %s", res.StatusCode, res.Doc(t).Find("[data-testid=input-problem]").Text())
		}
		res = c.PostForm("/logs/app/compare", url.Values{"_csrf": {token}, "baseline": {"a"}, "current": {"\n"}})
		if res.StatusCode != 422 {
			t.Errorf("blank current without JS: %d", res.StatusCode)
		}
		// No token, no comparison.
		body, ct := scanForm(t, map[string]string{"baseline": baseline, "current": current})
		if res := c.Do("POST", "/logs/app/compare", body, "Content-Type", ct, "HX-Request", "true"); res.StatusCode != 403 {
			t.Errorf("no CSRF token: %d", res.StatusCode)
		}
	})
}

// A current log of all-different lines: the table counts every new
// template and says the JSON download has the first ones only.
func TestLogsComparePageTruncated(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := logsSignedIn(t, env)
	token := c.CSRF("/logs/app/compare")
	var b strings.Builder
	for i := range logs.MaxCompareListed + 3 {
		fmt.Fprintf(&b, "%c%c%c happened\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	doc := compareHTMX(t, c, token, "INFO hello\n", b.String()).Doc(t)
	sec := doc.Find("[data-testid=compare-new]")
	if got := sec.Find("h3").Text(); got != "New templates (1,003)" {
		t.Errorf("title %q", got)
	}
	if got := strings.Join(strings.Fields(sec.Find("p").First().Text()), " "); !strings.Contains(got, "the JSON download has the first 1,000 of 1,003") {
		t.Errorf("note %q", got)
	}
}
