package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/models"
)

// textIn is the trimmed text of what sel finds in s.
func textIn(s interface {
	Find(string) *goquery.Selection
}, sel string) string {
	return strings.TrimSpace(s.Find(sel).Text())
}

// spendCall is a gateway call written as the gateway writes one.
type spendCall struct {
	org, key, model, provider string
	at                        time.Time
	status                    int
	cost                      int64
	attempts                  string
}

func recordCalls(t *testing.T, env *apptest.Env, calls []spendCall) []string {
	t.Helper()
	var recs []models.UsageRecord
	var ids []string
	for i, c := range calls {
		org, key, model, provider, attempts := c.org, c.key, c.model, c.provider, c.attempts
		status, in, out, cost, ms := c.status, int64(100), int64(10*(i+1)), c.cost, int64(50+i)
		e := &models.AuditEvent{OrgID: &org, ActorKeyID: &key, Action: models.ActionGatewayCall, Target: "POST /gateway/v1/chat",
			RequestID: fmt.Sprintf("req-%d-%s", i, c.at.Format("0102")), CreatedAt: c.at, Status: &status, Model: &model, Provider: &provider,
			InputTokens: &in, OutputTokens: &out, CostMicros: &cost, TotalMs: &ms, Attempts: &attempts}
		recs = append(recs, models.UsageRecord{Event: e, ProductID: models.GatewayProductID, Actor: key})
		ids = append(ids, e.RequestID)
	}
	if _, err := models.RecordUsage(context.Background(), env.DB.DB, recs); err != nil {
		t.Fatal(err)
	}
	return ids
}

// The usage page of a chosen month shows that month's calls of the
// viewer's organization only — its first and last instants included, the
// months around it and another organization's calls never — as day
// charts, totals, target statistics, a filtered, paged log and a CSV of
// every call.
func TestUsageMonth(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c, a := playgroundSignedIn(t, env, "month@example.com")
		b := env.Seed(t, "other@example.com")
		_, evilKey := env.SeedKey(t, a.OrgID, "=HYPERLINK(\"x\")")
		oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
		ok := `[{"provider":"anthropic","model":"claude-sonnet-4-5","status":200,"code":"","ms":100}]`
		fellBack := `[{"provider":"anthropic","model":"claude-sonnet-4-5","status":503,"code":"overloaded","ms":20},{"provider":"openai","model":"gpt-4.1","status":200,"code":"","ms":300}]`
		calls := []spendCall{
			{a.OrgID, a.KeyID, "smart", "anthropic", oct.Add(-time.Microsecond), 200, 1000, ok},            // September's last
			{a.OrgID, a.KeyID, "smart", "anthropic", oct, 200, 2000, ok},                                   // October's first
			{a.OrgID, a.KeyID, "smart", "openai", oct.AddDate(0, 0, 14), 200, 3000, fellBack},              // October 15
			{a.OrgID, evilKey, "cheap", "openai", oct.AddDate(0, 1, 0).Add(-time.Microsecond), 429, 0, ok}, // October's last
			{a.OrgID, a.KeyID, "smart", "anthropic", oct.AddDate(0, 1, 0), 200, 5000, ok},                  // November's first
			{b.OrgID, b.KeyID, "secret-model", "anthropic", oct.AddDate(0, 0, 3), 200, 7000, ok},           // another organization's
		}
		for i := 0; i < 50; i++ { // enough for a second page of the log
			calls = append(calls, spendCall{a.OrgID, a.KeyID, "smart", "anthropic", oct.AddDate(0, 0, 20).Add(time.Duration(i) * time.Second), 200, 10, ok})
		}
		ids := recordCalls(t, env, calls)
		octIDs := append([]string{ids[1], ids[2], ids[3]}, ids[6:]...)

		doc := c.Get("/console/usage?month=2026-10").Doc(t)
		if got := textIn(doc, "[data-testid=spend-month]"); got != "October 2026" {
			t.Errorf("month %q", got)
		}
		if got, want := textIn(doc, "[data-testid=spend-total]"), "$0.0055"; got != want { // 2,000 + 3,000 + 0 + 50 × 10 µ$
			t.Errorf("spend %q, want %q", got, want)
		}
		if got := textIn(doc, "[data-testid=spend-requests]"); got != "53" {
			t.Errorf("calls %q, want 53", got)
		}
		if n := doc.Find("[data-testid=chart-cost] [data-testid=chart-bar]").Length(); n != 31 {
			t.Errorf("%d bars, want one for each of October's 31 days", n)
		}
		if h, _ := doc.Find("[data-testid=chart-cost] [data-testid=chart-bar]").Eq(14).Attr("height"); h != "100" {
			t.Errorf("October 15 (the dearest day) bar height %q, want 100", h)
		}
		if h, _ := doc.Find("[data-testid=chart-cost] [data-testid=chart-bar]").Eq(1).Attr("height"); h != "0" {
			t.Errorf("October 2 (no calls) bar height %q, want 0", h)
		}
		if got := textIn(doc, `[data-testid=totals-model] [data-name=smart] [data-testid=totals-cost]`); got != "$0.0055" {
			t.Errorf("smart's cost %q, want $0.0055", got)
		}
		if doc.Find(`[data-testid=totals-provider] [data-name=openai]`).Length() != 1 || doc.Find(`[data-testid=totals-key] [data-testid=totals-row]`).Length() != 2 {
			t.Errorf("providers or keys missing:\n%s", doc.Find("[data-testid=totals-provider], [data-testid=totals-key]").Text())
		}
		// Targets from the attempts: anthropic failed once of 53 attempts.
		row := doc.Find(`[data-testid=target-row][data-target="anthropic/claude-sonnet-4-5"]`)
		if got := textIn(row, "[data-testid=target-errors]"); got != "2%" {
			t.Errorf("anthropic's error rate %q, want 2%% (1 of 53)", got)
		}
		if got := textIn(row, "[data-testid=target-p95]"); got != "100 ms" {
			t.Errorf("anthropic's p95 %q", got)
		}
		if got := textIn(doc.Find(`[data-testid=target-row][data-target="openai/gpt-4.1"]`), "[data-testid=target-p50]"); got != "300 ms" {
			t.Errorf("openai's p50 %q", got)
		}
		page := doc.Text()
		for _, never := range []string{"secret-model", ids[0], ids[4], ids[5]} {
			if strings.Contains(page, never) || doc.Find(`[data-request="`+never+`"]`).Length() > 0 {
				t.Errorf("October's page shows %q, of another month or organization", never)
			}
		}
		// The log: 50 a page, newest first, then the rest.
		if n := doc.Find("[data-testid=call-row]").Length(); n != 50 || doc.Find("[data-testid=calls-next]").Length() != 1 {
			t.Errorf("first page: %d calls, next link %d", n, doc.Find("[data-testid=calls-next]").Length())
		}
		if got, _ := doc.Find("[data-testid=call-row]").First().Attr("data-request"); got != ids[3] {
			t.Errorf("newest call %q, want October's last %q", got, ids[3])
		}
		next, _ := doc.Find("[data-testid=calls-next]").Attr("href")
		if n := c.Get(next).Doc(t).Find("[data-testid=call-row]").Length(); n != 3 {
			t.Errorf("second page %s: %d calls, want 3", next, n)
		}
		for q, want := range map[string][]string{
			"status=429":                 {ids[3]},
			"status=error":               {ids[3]},
			"model=cheap":                {ids[3]},
			"key=" + evilKey:             {ids[3]},
			"key=" + b.KeyID:             nil, // another organization's key finds nothing
			"model=smart&status=200":     nil, // counted below
			"model=secret-model":         nil,
			"key=" + a.KeyID + "&page=2": {ids[1]},
		} {
			res := c.Get("/console/usage?month=2026-10&" + q)
			if res.StatusCode != 200 {
				t.Errorf("%s: %d", q, res.StatusCode)
				continue
			}
			rows := res.Doc(t).Find("[data-testid=call-row]")
			if q == "model=smart&status=200" {
				if rows.Length() != 50 {
					t.Errorf("%s: %d rows, want a full page", q, rows.Length())
				}
				continue
			}
			var got []string
			for i := range rows.Length() {
				id, _ := rows.Eq(i).Attr("data-request")
				got = append(got, id)
			}
			if q == "key="+a.KeyID+"&page=2" {
				got = got[len(got)-1:] // the page's oldest
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %v, want %v", q, got, want)
			}
		}
		for _, bad := range []string{"month=2026-13", "month=oct", "month=2099-01", "status=abc", "status=99", "page=0", "page=201"} {
			if res := c.Get("/console/usage?" + bad); res.StatusCode != 400 {
				t.Errorf("%s: %d, want 400", bad, res.StatusCode)
			}
		}

		// The CSV holds every call of October, and nothing else.
		res := c.Get("/console/usage/calls.csv?month=2026-10")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "parapet-gateway-2026-10.csv") {
			t.Fatalf("csv: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
		}
		records, err := csv.NewReader(strings.NewReader(res.Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, r := range records[1:] {
			got[r[len(r)-1]] = r
		}
		if len(records) != 1+len(octIDs) || len(got) != len(octIDs) {
			t.Errorf("csv: %d rows, want %d", len(records)-1, len(octIDs))
		}
		for _, id := range octIDs {
			if got[id] == nil {
				t.Errorf("csv lacks %s", id)
			}
		}
		if r := got[ids[3]]; r == nil || !strings.HasPrefix(r[2], "'=HYPERLINK") || r[6] != "429" || r[13] != "0.000000" {
			t.Errorf("October's last call in the csv: %q", r)
		}
		if strings.Contains(res.Body, "secret-model") {
			t.Error("the csv holds another organization's call")
		}
		if res := c.Get("/console/usage/calls.csv?month=2026-9"); res.StatusCode != 400 {
			t.Errorf("bad month csv: %d", res.StatusCode)
		}
		// The other organization's owner sees its own call only.
		other := env.Client()
		other.SignIn(b.Email, apptest.TestPassword)
		body := other.Get("/console/usage/calls.csv?month=2026-10").Body
		if n := strings.Count(body, "\n"); n != 2 || !strings.Contains(body, "secret-model") {
			t.Errorf("the other organization's csv:\n%s", body)
		}
	})
}
