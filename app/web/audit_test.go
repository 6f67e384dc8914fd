package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"

	"github.com/PuerkitoBio/goquery"
)

// An organization with more events than the count goes to (a busy
// gateway writes one per call) sees "10,000+", and a page number past the
// last is the last page, not a scan of every event before it.
func TestAuditLogCountStopsAtTheCap(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "busy.audit@example.com")
		at := time.Now().UTC().Add(-time.Hour)
		events := make([]models.AuditEvent, models.AuditCountCap+60)
		for i := range events {
			events[i] = models.AuditEvent{ID: models.NewID("evt"), OrgID: &s.OrgID, Action: models.ActionGatewayCall,
				Target: "gateway", CreatedAt: at.Add(time.Duration(i) * time.Millisecond)}
		}
		if err := env.DB.WithContext(context.Background()).CreateInBatches(events, 500).Error; err != nil {
			t.Fatal(err)
		}
		c := env.Client()
		c.SignIn(s.Email, apptest.TestPassword)
		for _, path := range []string{"/console/audit", "/console/audit?action=gateway.call"} {
			doc := c.Get(path).Doc(t)
			if got := strings.TrimSpace(doc.Find("[data-testid=audit-total]").Text()); got != "10,000+ events · page 1 of 200" {
				t.Errorf("%s: %q", path, got)
			}
		}
		doc := c.Get("/console/audit?page=99999999").Doc(t)
		if got := strings.TrimSpace(doc.Find("[data-testid=audit-total]").Text()); got != "10,000+ events · page 200 of 200" {
			t.Errorf("a page past the last: %q", got)
		}
		if n := doc.Find("[data-testid=audit-table] tbody tr").Length(); n != 50 {
			t.Errorf("the last page lists %d events, want 50", n)
		}
	})
}

// Each time in the audit log is a <time> whose datetime a machine reads
// (RFC 3339, UTC) and whose text a person does, the same minute, the date
// kept on one line.
func TestAuditTimesReadForPeopleAndMachines(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "times.audit@example.com")
	c := env.Client()
	c.SignIn(s.Email, apptest.TestPassword)
	c.CreateKey("audited")
	times := c.Get("/console/audit").Doc(t).Find("[data-testid=audit-table] tbody tr time")
	if times.Length() == 0 {
		t.Fatal("no time in the audit log")
	}
	times.Each(func(_ int, tm *goquery.Selection) {
		dt, _ := tm.Attr("datetime")
		at, err := time.Parse(time.RFC3339, dt)
		if err != nil || at.Location() != time.UTC {
			t.Errorf("datetime %q: %v", dt, err)
			return
		}
		if got := tm.Text(); got != at.Format("2006-01-02 15:04")+" UTC" {
			t.Errorf("the time %s reads %q", dt, got)
		}
		if got := tm.Find("span.nowrap").Text(); got != at.Format("2006-01-02") {
			t.Errorf("the date kept on one line is %q", got)
		}
	})
}
