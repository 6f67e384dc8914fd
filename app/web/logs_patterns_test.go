package web_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
)

// The patterns view's filters narrow it on the server: a search, a
// category, one pattern and a JSON field's value, each sent as a form
// field beside the log; htmx puts them in the page's address, which
// shows them again before any analysis. Malformed values are ignored.
func TestLogsPatternsFilters(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := logsSignedIn(t, env)
	token := c.CSRF("/logs/app")
	log := strings.Join([]string{
		"2024-03-18T10:00:00Z INFO cache refreshed in 5ms",
		"2024-03-18T10:00:01Z INFO cache refreshed in 7ms",
		"2024-03-18T10:00:02Z ERROR db query failed: timeout",
		"2024-03-18T10:00:03Z WARN retrying upstream call",
		`{"level":"error","msg":"upload failed","region":"eu-west"}`,
		`{"level":"error","msg":"upload failed","region":"us-east"}`,
		"=cmd|' /C calc'!A0 happened",
	}, "\n") + "\n"
	rows := func(extra ...string) ([]string, *apptest.Response) {
		t.Helper()
		res := logsHTMX(t, c, token, log, extra...)
		var out []string
		res.Doc(t).Find("[data-testid=pattern-row] [data-testid=pattern-text]").Each(func(_ int, s *goquery.Selection) {
			out = append(out, s.Text())
		})
		return out, res
	}
	all, res := rows()
	if len(all) != 5 || res.Header.Get("HX-Push-Url") != "/logs/app" {
		t.Fatalf("unfiltered: %q, address %q", all, res.Header.Get("HX-Push-Url"))
	}
	if got, res := rows("q", "CACHE"); len(got) != 1 || !strings.Contains(got[0], "cache refreshed") || res.Header.Get("HX-Push-Url") != "/logs/app?q=CACHE" {
		t.Errorf("search: %q, address %q", got, res.Header.Get("HX-Push-Url"))
	}
	if got, _ := rows("cat", "error"); len(got) != 2 {
		t.Errorf("category error: %q, want the db and upload patterns", got)
	}
	if got, _ := rows("pattern", "2"); len(got) != 1 {
		t.Errorf("pattern 2: %q", got)
	}
	got, res := rows("field", "region=eu-west")
	doc := res.Doc(t)
	if len(got) != 1 || got[0] != "upload failed" || doc.Find("[data-testid=pattern-match]").Length() != 1 ||
		!strings.Contains(doc.Find("[data-testid=pattern-match]").Text(), "eu-west") {
		t.Errorf("field region=eu-west: %q, lines %q", got, doc.Find("[data-testid=pattern-match]").Text())
	}
	if doc.Find("[data-testid=filter-field]").AttrOr("value", "") != "region=eu-west" || doc.Find("[data-testid=filter-field]").AttrOr("form", "") != "logs-form" {
		t.Error("the filter bar does not keep the field filter in the form")
	}
	if got, _ := rows("q", "no such text"); len(got) != 0 {
		t.Errorf("a search for nothing: %q", got)
	}
	if got, _ := rows("cat", "bogus", "pattern", "-3", "field", "novalue"); len(got) != 5 {
		t.Errorf("malformed filters should be ignored: %q", got)
	}
	// The CSV export: one row per pattern, a formula-like cell defused.
	_, res = rows()
	csv := res.Doc(t).Find("template#logs-patterns-csv").Text()
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 6 || !strings.Contains(csv, `'=cmd|`) {
		t.Errorf("CSV:\n%s", csv)
	}
	// A shared address shows its view before any analysis.
	page := c.Get("/logs/app?q=cache&cat=error&field=region%3Deu-west").Doc(t)
	if page.Find("[data-testid=pending-filter]").Length() != 1 || page.Find("[data-testid=filter-q]").AttrOr("value", "") != "cache" ||
		page.Find("[data-testid=filter-cat] option[selected]").AttrOr("value", "") != "error" {
		t.Error("the shared address does not show its view")
	}
	if c.Get("/logs/app").Doc(t).Find("[data-testid=pending-filter]").Length() != 0 {
		t.Error("a view shown without one in the address")
	}
}
