package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/logs"
)

// logsSignedIn is a client signed in as a seeded user.
func logsSignedIn(t *testing.T, env *apptest.Env) *apptest.Client {
	t.Helper()
	s := env.Seed(t, "analyst@example.com")
	c := env.Client()
	if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatalf("sign in: %d", res.StatusCode)
	}
	return c
}

// logsHTMX posts the form the way htmx does: multipart, the CSRF token in
// a header, HX-Request set; extra is more fields (the view of a page
// button).
func logsHTMX(t *testing.T, c *apptest.Client, token, input string, extra ...string) *apptest.Response {
	t.Helper()
	fields := map[string]string{"log": input}
	for i := 0; i+1 < len(extra); i += 2 {
		fields[extra[i]] = extra[i+1]
	}
	body, ct := scanForm(t, fields)
	return c.Do("POST", "/logs/app", body, "Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", token)
}

func logsAttrs(doc *goquery.Document, sel, attr string) []string {
	var out []string
	doc.Find(sel).Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr(attr, "")) })
	return out
}

// longLog has 250 error lines and a fatal one (251 matches: three pages)
// and 150 lines of shapes seen once (151 outliers: two pages).
func longLog() string {
	var b strings.Builder
	for i := range 250 {
		fmt.Fprintf(&b, "2024-03-18T10:00:00Z ERROR [db] query %d failed\n", i)
	}
	for i := range 150 {
		fmt.Fprintf(&b, "2024-03-18T10:00:01Z INFO [job] step%s\n", strings.Repeat(" step", i))
	}
	b.WriteString("2024-03-18T10:00:02Z FATAL [main] out of memory\n")
	return b.String()
}

func TestLogsPageNeedsSignIn(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	res := c.Get("/logs/app")
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin?next=%2Flogs%2Fapp" {
		t.Errorf("signed out: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// An htmx post from a session that expired is told where to go.
	res = c.Do("POST", "/logs/app", "log=ERROR", "Content-Type", "application/x-www-form-urlencoded", "HX-Request", "true",
		"X-CSRF-Token", c.CSRF("/console/signin"))
	if res.StatusCode != 401 || res.Header.Get("HX-Redirect") != "/console/signin" {
		t.Errorf("signed-out htmx post: %d %q", res.StatusCode, res.Header.Get("HX-Redirect"))
	}
}

func TestLogsPage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := logsSignedIn(t, env)
		res := c.Get("/logs/app")
		if res.StatusCode != 200 {
			t.Fatalf("page: %d", res.StatusCode)
		}
		doc := res.Doc(t)
		if got := strings.TrimSpace(doc.Find("label[for=logs-input]").Text()); got != "Log lines" {
			t.Errorf("textarea label %q", got)
		}
		form := doc.Find("form#logs-form")
		if form.AttrOr("enctype", "") != "multipart/form-data" || form.AttrOr("hx-post", "") != "/logs/app" || form.Find("input[name=_csrf]").AttrOr("value", "") == "" {
			t.Error("the form is not a multipart htmx form carrying the CSRF token")
		}
		if form.Find("textarea#logs-input[name=log]").Length() != 1 || form.Find("[data-testid=logs-submit]").Text() != "Analyze" {
			t.Error("the form has no log textarea or Analyze button")
		}
		if doc.Find("#logs-indicator.htmx-indicator").Text() != "Analyzing…" || form.AttrOr("hx-indicator", "") != "#logs-indicator" {
			t.Error("no progress indicator while the analysis runs")
		}
		if got := doc.Find("template#logs-sample").Text(); got != logs.Sample() {
			t.Errorf("the sample template holds %d bytes, not the sample", len(got))
		}
		fill := doc.Find("[data-testid=use-sample]")
		if fill.Text() != "Use sample data" || fill.AttrOr("data-fill", "") != "#logs-input" || fill.AttrOr("data-source", "") != "#logs-sample" {
			t.Error("Use sample data does not fill the textarea from the template")
		}
		zone := doc.Find("[data-dropzone]")
		accept := zone.Find("input[type=file]").AttrOr("accept", "")
		if zone.AttrOr("data-target", "") != "#logs-input" || zone.AttrOr("data-max-bytes", "") != "10485760" || !strings.Contains(accept, ".log") || !strings.Contains(accept, ".txt") {
			t.Error("no drop zone with a .log/.txt file picker for the textarea")
		}
		if !strings.Contains(doc.Find("#logs-input-help").Text(), "10 MiB and 200,000 lines") {
			t.Errorf("the limits are not stated: %q", doc.Find("#logs-input-help").Text())
		}
		if doc.Find("header a[aria-current=page]").Text() != "Logs" {
			t.Error("the navigation does not mark the log analyzer")
		}
		if doc.Find("[data-testid=logs-report]").Length() != 0 {
			t.Error("a report before any analysis")
		}
		token := c.CSRF("/logs/app")

		// htmx: the fragment with the summary, matches, outliers, templates.
		res = logsHTMX(t, c, token, logs.Sample())
		if res.StatusCode != 200 || strings.Contains(res.Body, "<html") {
			t.Fatalf("htmx analysis: %d, whole page: %v", res.StatusCode, strings.Contains(res.Body, "<html"))
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
		}
		frag := res.Doc(t)
		want, err := logs.Analyze(context.Background(), []byte(logs.Sample()), logs.Options{IncludeParams: true, IncludePatterns: true})
		if err != nil {
			t.Fatal(err)
		}
		for id, n := range map[string]int{"lines": want.Summary.Lines, "matched": want.Summary.Matched,
			"templates": want.Summary.Templates, "outliers": want.Summary.Outliers} {
			if got := strings.TrimSpace(frag.Find("[data-testid=summary-" + id + "] strong").Text()); got != thousandsOf(int64(n)) {
				t.Errorf("summary %s %q, want %d", id, got, n)
			}
		}
		for cat, n := range map[string]int{"fatal": want.Summary.ByCategory.Fatal, "error": want.Summary.ByCategory.Error, "reliability": want.Summary.ByCategory.Reliability} {
			if got := frag.Find("[data-testid=count-" + cat + "]").Text(); got != fmt.Sprintf("%d %s", n, cat) {
				t.Errorf("count %s: %q", cat, got)
			}
			if frag.Find("[data-filter-scope] [data-filter="+cat+"]").Length() != 1 {
				t.Errorf("no filter button for %s", cat)
			}
		}
		if frag.Find("[data-filter-scope] [data-filter='']").Length() != 1 {
			t.Error("no filter button for all categories")
		}
		if !strings.HasSuffix(frag.Find("[data-testid=summary-time] strong").Text(), "ms") {
			t.Errorf("time taken %q", frag.Find("[data-testid=summary-time] strong").Text())
		}
		rows := frag.Find("[data-testid=match-row]")
		if rows.Length() != len(want.Matches) {
			t.Fatalf("%d match rows, want %d", rows.Length(), len(want.Matches))
		}
		rows.Each(func(i int, row *goquery.Selection) {
			m := want.Matches[i]
			if row.AttrOr("data-kind", "") != string(m.Category) || row.Find(".badge-"+string(m.Category)).Text() != string(m.Category) {
				t.Errorf("row %d: kind %q, badge %q; want %s", i, row.AttrOr("data-kind", ""), row.Find(".badge").Text(), m.Category)
			}
			if got := row.Find("[data-testid=match-text]").Text(); got != m.Text {
				t.Errorf("row %d text %q, want %q", i, got, m.Text)
			}
			if got := row.Find("mark.kw").Text(); got != m.Text[m.Start:m.End] {
				t.Errorf("row %d marks %q, want %q", i, got, m.Text[m.Start:m.End])
			}
			if got := row.Find(".line-no").Text(); got != thousandsOf(int64(m.Line)) {
				t.Errorf("row %d line %q, want %d", i, got, m.Line)
			}
		})
		if got := frag.Find("[data-testid=matches-range]").Text(); got != fmt.Sprintf("%d matched lines", len(want.Matches)) {
			t.Errorf("matches range %q", got)
		}
		outliers := frag.Find("[data-testid=outlier-row]")
		if outliers.Length() != len(want.Outliers) || len(want.Outliers) == 0 {
			t.Fatalf("%d outlier rows, want %d", outliers.Length(), len(want.Outliers))
		}
		o := want.Outliers[0]
		first := outliers.First()
		if first.Find("[data-testid=outlier-text]").Text() != o.Text || first.Find("[data-testid=outlier-template]").Text() != o.Template ||
			first.Find("[data-testid=outlier-count]").Contents().First().Text() != fmt.Sprint(o.Count) {
			t.Errorf("first outlier %q, want %+v", first.Text(), o)
		}
		// The patterns lead: one row per template, with its count and
		// share, opening to its values and lines.
		if frag.Find("[data-testid=logs-report] section").First().AttrOr("id", "") != "log-patterns" {
			t.Error("the result does not lead with the patterns")
		}
		pats := frag.Find("[data-testid=pattern-row]")
		if pats.Length() != len(want.Templates) {
			t.Errorf("%d pattern rows, want %d", pats.Length(), len(want.Templates))
		}
		top := want.Templates[0]
		row0 := pats.First()
		if got := row0.Find("[data-testid=pattern-text]").Text(); got != top.Template {
			t.Errorf("top pattern %q, want %q", got, top.Template)
		}
		if got := row0.Find("[data-testid=pattern-count]").Text(); !strings.HasPrefix(got, fmt.Sprintf("%d lines · ", top.Count)) {
			t.Errorf("top pattern count %q, want %d lines", got, top.Count)
		}
		if ps := top.Params; len(ps) == 0 {
			t.Error("the sample's top template has no values to show")
		} else if vals := row0.Find("details [data-testid=pattern-values] dd code"); vals.Length() == 0 || vals.First().Text() != ps[0].Values[0].Value {
			t.Errorf("values behind the top template: %q, want row0 %q", vals.First().Text(), ps[0].Values[0].Value)
		}
		if row0.Find("details [data-testid=pattern-examples] [data-testid=pattern-example]").Length() == 0 {
			t.Error("the top pattern does not open to its row0 lines")
		}
		// Every matched line is under its pattern.
		perPattern := map[int]int{}
		for _, m := range want.Matches {
			perPattern[m.TemplateID] = min(perPattern[m.TemplateID]+1, 10)
		}
		shownLines := 0
		for _, n := range perPattern {
			shownLines += n
		}
		if n := frag.Find("[data-testid=pattern-match]").Length(); n != shownLines || n == 0 {
			t.Errorf("%d matched lines under patterns, want %d", n, shownLines)
		}
		if csv := frag.Find("template#logs-patterns-csv").Text(); !strings.HasPrefix(strings.TrimSpace(csv), "id,template,count,share_percent,category,matched,first,last") ||
			strings.Count(strings.TrimSpace(csv), "\n") != len(want.Templates) {
			t.Errorf("the patterns CSV:\n%s", csv)
		}
		// The download: the API's JSON body, with the time of this run.
		var got struct {
			Data *logs.Result `json:"data"`
		}
		raw := frag.Find("template#logs-json-data").Text()
		if err := json.Unmarshal([]byte(raw), &got); err != nil || got.Data == nil || !strings.HasPrefix(raw, `{"data":{"summary":`) {
			t.Fatalf("the JSON download is not the API's body: %v %.200s", err, raw)
		}
		got.Data.Summary.DurationMS, want.Summary.DurationMS = 0, 0
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(got.Data)
		if string(gotJSON) != string(wantJSON) {
			t.Error("the JSON download is not the engine's result")
		}
		b := frag.Find("[data-testid=download-json]")
		if b.AttrOr("data-download", "") != "#logs-json-data" || b.AttrOr("data-filename", "") != "log-analysis.json" || b.AttrOr("data-type", "") != "application/json" {
			t.Errorf("download button %v", b.Nodes)
		}
		// Everything fits on one page: no pager, the filter is the browser's.
		if frag.Find("[data-testid=matches-pager], [data-testid=outliers-pager]").Length() != 0 || frag.Find("[data-filter][hx-post]").Length() != 0 {
			t.Error("a pager or server-side filter for a result that fits on one page")
		}

		// Line text is always escaped, and the keyword is still marked.
		hostile := "2024-03-18T10:00:00Z ERROR <script>alert(1)</script> in <b onmouseover=x>handler</b>\n" +
			"<img src=x onerror=alert(2)> FATAL & \"quoted\" 'single'\n"
		res = logsHTMX(t, c, token, hostile)
		if strings.Contains(res.Body, "<script>alert(1)") || strings.Contains(res.Body, "<img src=x") || strings.Contains(res.Body, "<b onmouseover") {
			t.Errorf("the line text is not escaped:\n%s", res.Body)
		}
		if !strings.Contains(res.Body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Error("the escaped line is not shown")
		}
		frag = res.Doc(t)
		if frag.Find("script, img, b").Length() != 0 {
			t.Error("the line text made elements")
		}
		texts := frag.Find("[data-testid=log-matches] [data-testid=match-text]")
		if texts.Length() != 2 || texts.First().Text() != strings.Split(hostile, "\n")[0] || texts.Eq(1).Text() != strings.Split(hostile, "\n")[1] {
			t.Errorf("escaped lines read %q", texts.Text())
		}
		if got := logsAttrs(frag, "[data-testid=log-matches] mark.kw", "title"); len(got) != 2 || frag.Find("[data-testid=log-matches] mark.kw").First().Text() != "ERROR" || frag.Find("[data-testid=log-matches] mark.kw").Eq(1).Text() != "FATAL" {
			t.Errorf("marks %q", frag.Find("[data-testid=log-matches] mark.kw").Text())
		}
		if strings.Contains(frag.Find("template#logs-json-data").Text(), "</template") {
			t.Error("the JSON download can close its template")
		}

		// A line over 16 KiB is analysed on its first 16 KiB and flagged.
		frag = logsHTMX(t, c, token, "ERROR "+strings.Repeat("z", 20<<10)+"\nINFO fine\n").Doc(t)
		if frag.Find("[data-testid=match-row] [data-testid=cut]").Length() != 1 || !strings.Contains(frag.Find("[data-testid=summary-lines]").Text(), "1 line cut") {
			t.Errorf("the cut line is not flagged: %q", frag.Find("[data-testid=summary-lines]").Text())
		}
		if n := len(frag.Find("[data-testid=log-matches] [data-testid=match-text]").Text()); n > 2100 {
			t.Errorf("the table shows %d bytes of one line", n)
		}
	})
}

// Long results are paged on the server without state: each page button
// posts the form again with its view, and gets its section back.
func TestLogsPagePaging(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := logsSignedIn(t, env)
		token := c.CSRF("/logs/app")
		input := longLog()
		frag := logsHTMX(t, c, token, input).Doc(t)
		if got := frag.Find("[data-testid=matches-range]").Text(); got != "Showing 1–100 of 251 matched lines" {
			t.Errorf("matches range %q", got)
		}
		if got := frag.Find("[data-testid=outliers-range]").Text(); got != "Showing 1–100 of 151 outliers" {
			t.Errorf("outliers range %q", got)
		}
		if n := frag.Find("[data-testid=match-row]").Length(); n != 100 {
			t.Errorf("page 1 has %d matches", n)
		}
		if frag.Find("[data-testid=matches-prev]").AttrOr("disabled", "no") == "no" || frag.Find("[data-testid=matches-page]").Text() != "Page 1 of 3" {
			t.Error("page 1: Previous is not disabled, or the page is not named")
		}
		next := frag.Find("[data-testid=matches-next]")
		view := next.AttrOr("value", "")
		if next.AttrOr("form", "") != "logs-form" || next.AttrOr("name", "") != "view" || next.AttrOr("hx-post", "") != "/logs/app" ||
			next.AttrOr("hx-target", "") != "#log-matches" || next.AttrOr("hx-encoding", "") != "multipart/form-data" || !strings.HasPrefix(view, "matches:2::1:") {
			t.Fatalf("the Next button does not post the form again for page 2: %v", next.Nodes[0].Attr)
		}
		// The filter asks the server when the matches are paged.
		if got := logsAttrs(frag, "[data-testid=category-filter] button[hx-post]", "data-testid"); len(got) != 4 {
			t.Errorf("server-side filters %v", got)
		}

		// Page 2 of the matches: the section alone, 101–200.
		res := logsHTMX(t, c, token, input, "view", view)
		page := res.Doc(t)
		if page.Find("section#log-matches").Length() != 1 || page.Find("[data-testid=logs-report], #log-outliers").Length() != 0 {
			t.Fatalf("page 2 is not the matches section alone: %.300s", res.Body)
		}
		if got := page.Find("[data-testid=matches-range]").Text(); got != "Showing 101–200 of 251 matched lines" {
			t.Errorf("page 2 range %q", got)
		}
		if lines := logsAttrs(page, "[data-testid=match-row]", "data-line"); len(lines) != 100 || lines[0] != "101" || lines[99] != "200" {
			t.Errorf("page 2 lines %v…", lines[:min(3, len(lines))])
		}
		// The last page, and past it.
		last := page.Find("[data-testid=matches-next]").AttrOr("value", "")
		page = logsHTMX(t, c, token, input, "view", last).Doc(t)
		if got := page.Find("[data-testid=matches-range]").Text(); got != "Showing 201–251 of 251 matched lines" || page.Find("[data-testid=matches-next][disabled]").Length() != 1 {
			t.Errorf("last page range %q", got)
		}
		page = logsHTMX(t, c, token, input, "view", strings.Replace(last, "matches:3:", "matches:99:", 1)).Doc(t)
		if got := page.Find("[data-testid=matches-range]").Text(); got != "Showing 201–251 of 251 matched lines" {
			t.Errorf("page 99 shows %q, want the last page", got)
		}

		// Filtered to fatal on the server.
		fatal := frag.Find("[data-testid=filter-fatal]").AttrOr("value", "")
		page = logsHTMX(t, c, token, input, "view", fatal).Doc(t)
		if got := page.Find("[data-testid=matches-range]").Text(); got != "1 fatal line" || page.Find("[data-testid=match-row]").AttrOr("data-kind", "") != "fatal" {
			t.Errorf("fatal filter: %q", got)
		}
		if page.Find("[data-testid=filter-fatal]").AttrOr("aria-pressed", "") != "true" || page.Find("[data-testid=filter-all]").AttrOr("aria-pressed", "") != "false" {
			t.Error("the fatal filter is not shown pressed")
		}

		// Page 2 of the outliers: its own section, 101–151.
		onext := frag.Find("[data-testid=outliers-next]")
		if onext.AttrOr("hx-target", "") != "#log-outliers" {
			t.Errorf("outliers Next targets %q", onext.AttrOr("hx-target", ""))
		}
		page = logsHTMX(t, c, token, input, "view", onext.AttrOr("value", "")).Doc(t)
		if page.Find("section#log-outliers").Length() != 1 || page.Find("#log-matches").Length() != 0 {
			t.Fatal("outliers page 2 is not the outliers section alone")
		}
		if got := page.Find("[data-testid=outliers-range]").Text(); got != "Showing 101–151 of 151 outliers" || page.Find("[data-testid=outlier-row]").Length() != 51 {
			t.Errorf("outliers page 2: %q, %d rows", got, page.Find("[data-testid=outlier-row]").Length())
		}

		// The log was edited since: the whole result, analysed anew,
		// replaces the old one.
		res = logsHTMX(t, c, token, "ERROR just one\n", "view", view)
		if res.Header.Get("HX-Retarget") != "#logs-result" || !strings.HasPrefix(res.Header.Get("HX-Reswap"), "innerHTML") {
			t.Errorf("an edited log pages into the old result: HX-Retarget %q", res.Header.Get("HX-Retarget"))
		}
		if doc := res.Doc(t); doc.Find("[data-testid=logs-report]").Length() != 1 || doc.Find("[data-testid=summary-lines] strong").Text() != "1" {
			t.Error("an edited log does not get the whole new result")
		}
		// …and an emptied one the problem, in place of the result.
		res = logsHTMX(t, c, token, "", "view", view)
		if res.Header.Get("HX-Retarget") != "#logs-result" || res.Doc(t).Find("[data-testid=input-problems]").Length() != 1 {
			t.Error("an emptied log while paging does not show the problem")
		}
		// A malformed view is the first page of everything.
		if got := logsHTMX(t, c, token, input, "view", "bogus").Doc(t).Find("[data-testid=matches-range]").Text(); got != "Showing 1–100 of 251 matched lines" {
			t.Errorf("malformed view: %q", got)
		}

		// Without JavaScript a page button submits the form: the whole
		// page with that page of the list and the log in the textarea.
		body, ct := scanForm(t, map[string]string{"_csrf": token, "log": input, "view": view})
		res = c.Do("POST", "/logs/app", body, "Content-Type", ct)
		doc := res.Doc(t)
		if res.StatusCode != 200 || doc.Find("html").Length() != 1 || doc.Find("#logs-result [data-testid=matches-range]").Text() != "Showing 101–200 of 251 matched lines" {
			t.Errorf("no-JS page 2: %d %q", res.StatusCode, doc.Find("[data-testid=matches-range]").Text())
		}
		if doc.Find("textarea#logs-input").Text() != input {
			t.Error("no-JS: the textarea does not hold the log")
		}
	})
}

func TestLogsPageInputProblems(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := logsSignedIn(t, env)
		token := c.CSRF("/logs/app")
		problem := func(res *apptest.Response) (string, string) {
			t.Helper()
			if res.StatusCode != 200 {
				t.Errorf("htmx problem answered %d", res.StatusCode)
			}
			d := res.Doc(t)
			if d.Find("[data-testid=logs-report]").Length() != 0 {
				t.Error("a problem shows a report")
			}
			return d.Find("[data-testid=input-problems] h2").Text(), d.Find("[data-testid=input-problem]").Text()
		}

		// No log lines.
		for _, in := range []string{"", " \n\t\n", "\r\n\r\n"} {
			if h, p := problem(logsHTMX(t, c, token, in)); h != "No log lines" || !strings.Contains(p, "no log lines") {
				t.Errorf("%q: %q %q", in, h, p)
			}
		}
		// Over 10 MiB: a message naming the limit, not an error page.
		big := strings.Repeat(strings.Repeat("x", 99)+"\n", logs.MaxInputBytes/100+1)
		if h, p := problem(logsHTMX(t, c, token, big)); h != "The input is over a limit" || !strings.Contains(p, "10 MiB") {
			t.Errorf("oversize: %q %q", h, p)
		}
		// A textarea sends CRLF: 10 MiB of LF log is not over the limit
		// because of it.
		crlf := strings.Repeat(strings.Repeat("y", 99)+"\r\n", logs.MaxInputBytes/100)
		if res := logsHTMX(t, c, token, crlf); res.Doc(t).Find("[data-testid=logs-report]").Length() != 1 {
			t.Errorf("10 MiB sent with CRLF: %q", res.Doc(t).Find("[data-testid=input-problem]").Text())
		}
		// Over the whole form's bound: refused before it is read.
		if _, p := problem(logsHTMX(t, c, token, strings.Repeat("x", 2*logs.MaxInputBytes+100<<10))); !strings.Contains(p, "10 MiB") {
			t.Errorf("huge: %q", p)
		}
		// Over 200,000 lines.
		if _, p := problem(logsHTMX(t, c, token, strings.Repeat("a\n", logs.MaxLines+5))); !strings.Contains(p, "200,005 lines") || !strings.Contains(p, "200,000 lines") {
			t.Errorf("too many lines: %q", p)
		}
		// Nothing of the input reaches the logs.
		logsHTMX(t, c, token, "ERROR zz-log-marker\n")
		logsHTMX(t, c, token, strings.Repeat("zz-log-marker\n", logs.MaxLines+1))
		if strings.Contains(env.Logs.String(), "zz-log-marker") {
			t.Error("the analysed input appears in the logs")
		}
	})
}

// Without JavaScript the form posts itself and the whole page comes back
// with the report and the input; problems get a 4xx status.
func TestLogsPageWithoutJavaScript(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := logsSignedIn(t, env)
	token := c.CSRF("/logs/app")
	body, ct := scanForm(t, map[string]string{"_csrf": token, "log": logs.Sample()})
	res := c.Do("POST", "/logs/app", body, "Content-Type", ct)
	if res.StatusCode != 200 {
		t.Fatalf("form post: %d", res.StatusCode)
	}
	doc := res.Doc(t)
	if doc.Find("html").Length() != 1 || doc.Find("#logs-result [data-testid=match-row]").Length() == 0 || doc.Find("#logs-result [data-testid=outlier-row]").Length() == 0 {
		t.Error("the page does not show the report under the form")
	}
	if got := doc.Find("textarea#logs-input").Text(); got != logs.Sample() {
		t.Errorf("the textarea holds %d bytes, not the input", len(got))
	}
	// The classic url-encoded form works too.
	res = c.PostForm("/logs/app", url.Values{"_csrf": {token}, "log": {"  \n"}})
	if res.StatusCode != 422 || res.Doc(t).Find("[data-testid=input-problem]").Length() != 1 {
		t.Errorf("empty without JS: %d", res.StatusCode)
	}
	res = c.PostForm("/logs/app", url.Values{"_csrf": {token}, "log": {strings.Repeat("a\n", logs.MaxLines+1)}})
	if res.StatusCode != 413 || !strings.Contains(res.Doc(t).Find("[data-testid=input-problem]").Text(), "200,000 lines") {
		t.Errorf("too many lines without JS: %d", res.StatusCode)
	}
	// A form too large to read its token from says so, in the page.
	body, ct = scanForm(t, map[string]string{"_csrf": token, "log": strings.Repeat("x", 21<<20)})
	res = c.Do("POST", "/logs/app", body, "Content-Type", ct)
	if res.StatusCode != 413 || !strings.Contains(res.Doc(t).Find("main").Text(), "over 20 MiB") {
		t.Errorf("a 21 MiB form without JS: %d", res.StatusCode)
	}
}

func TestLogsPageNeedsCSRFToken(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := logsSignedIn(t, env)
	body, ct := scanForm(t, map[string]string{"log": logs.Sample()})
	for name, headers := range map[string][]string{
		"no token":    {"Content-Type", ct, "HX-Request", "true"},
		"wrong token": {"Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", "forged"},
		"form field":  {"Content-Type", ct},
	} {
		if res := c.Do("POST", "/logs/app", body, headers...); res.StatusCode != 403 {
			t.Errorf("%s: %d", name, res.StatusCode)
		}
	}
}

// An input of all-different lines: the page says how many outliers and
// templates the analysis leaves out of its lists, and counts them all.
func TestLogsPageTruncated(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := logsSignedIn(t, env)
	token := c.CSRF("/logs/app")
	var b strings.Builder
	n := logs.MaxResultOutliers + 5
	for i := range n {
		fmt.Fprintf(&b, "%c%c%c happened\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	frag := logsHTMX(t, c, token, b.String()).Doc(t)
	if got := frag.Find("[data-testid=outliers-left-out]").Text(); !strings.HasPrefix(got, "5 later outliers are not listed") || !strings.Contains(got, "the first 1,000 of 1,005") {
		t.Errorf("outliers note %q", got)
	}
	if got := frag.Find("[data-testid=patterns-range]").Text(); !strings.Contains(got, "1,005 patterns") || !strings.Contains(got, "The first 100 are shown") || !strings.Contains(got, "The 5 rarest are not listed") {
		t.Errorf("templates note %q", strings.Join(strings.Fields(got), " "))
	}
	// A log of error lines lists its first MaxResultMatches matches and
	// says how many more there are.
	b.Reset()
	for i := range logs.MaxResultMatches + 5 {
		fmt.Fprintf(&b, "ERROR request %d failed\n", i)
	}
	frag = logsHTMX(t, c, token, b.String()).Doc(t)
	if got := frag.Find("[data-testid=matches-left-out]").Text(); !strings.HasPrefix(got, "5 later matched lines are not listed") || !strings.Contains(got, "the first 10,000") {
		t.Errorf("matches note %q", got)
	}
	sample := logsHTMX(t, c, token, logs.Sample()).Doc(t)
	if sample.Find("[data-testid=outliers-left-out]").Length() != 0 || sample.Find("[data-testid=matches-left-out]").Length() != 0 ||
		strings.Contains(sample.Find("[data-testid=patterns-range]").Text(), "not listed") {
		t.Error("the sample's page says something is left out")
	}
}
