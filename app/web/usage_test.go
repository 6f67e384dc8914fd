package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/models"
)

func TestUsagePage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		if res := env.Client().Get("/console/usage"); res.StatusCode != 303 {
			t.Errorf("signed out: %d", res.StatusCode)
		}
		c, s := playgroundSignedIn(t, env, "meter@example.com")
		text := func(doc *goquery.Document, sel string) string { return strings.TrimSpace(doc.Find(sel).Text()) }

		doc := c.Get("/console/usage").Doc(t)
		if text(doc, "[data-testid=quota-left]") != "1,000,000" || text(doc, "[data-testid=quota-monthly]") != "1,000,000" ||
			text(doc, "[data-testid=quota-used]") != "0" || text(doc, "[data-testid=entitlement]") != "entitled" {
			t.Errorf("quota before any call: left %q, monthly %q, used %q, %q", text(doc, "[data-testid=quota-left]"),
				text(doc, "[data-testid=quota-monthly]"), text(doc, "[data-testid=quota-used]"), text(doc, "[data-testid=entitlement]"))
		}
		if doc.Find("[data-testid=no-usage]").Length() != 1 || doc.Find("[data-testid=usage-row]").Length() != 0 {
			t.Error("usage rows before any call")
		}
		if href, _ := doc.Find("[data-testid=audit-link]").Attr("href"); href != "/console/audit?action=gateway.call" {
			t.Errorf("audit link %q", href)
		}
		if doc.Find(`.console-tabs a[href="/console/usage"][aria-current=page]`).Length() != 1 {
			t.Error("the Gateway usage tab is not marked current")
		}

		// One call from the playground, one through the API with the key.
		tok := c.CSRF("/gateway/app")
		if res := c.PostJSON("/gateway/app/chat", playgroundBody, "X-CSRF-Token", tok); res.StatusCode != 200 {
			t.Fatalf("playground call: %d %s", res.StatusCode, res.Body)
		}
		if res := env.Client().PostJSON("/gateway/v1/chat", playgroundBody, "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
			t.Fatalf("API call: %d %s", res.StatusCode, res.Body)
		}
		events := gatewayCalls(t, env, s.OrgID)
		if len(events) != 2 {
			t.Fatalf("%d audit events", len(events))
		}
		var used int64
		byActor := map[string]models.AuditEvent{}
		for _, e := range events {
			used += *e.InputTokens + *e.OutputTokens
			if e.ActorUserID != nil {
				byActor[*e.ActorUserID] = e
			} else {
				byActor[*e.ActorKeyID] = e
			}
		}

		doc = c.Get("/console/usage").Doc(t)
		if n := doc.Find("[data-testid=usage-row]").Length(); n != 2 {
			t.Fatalf("%d usage rows, want the user's and the key's", n)
		}
		for actor, e := range byActor {
			row := doc.Find(`[data-testid=usage-row][data-actor="` + actor + `"]`)
			if row.Length() != 1 {
				t.Errorf("no row for %s", actor)
				continue
			}
			if got, want := strings.TrimSpace(row.Find("[data-testid=usage-requests]").Text()), "1"; got != want {
				t.Errorf("%s requests %q", actor, got)
			}
			if got, want := strings.TrimSpace(row.Find("[data-testid=usage-input]").Text()), fmt.Sprint(*e.InputTokens); got != want {
				t.Errorf("%s input tokens %q, want %q", actor, got, want)
			}
			if got, want := strings.TrimSpace(row.Find("[data-testid=usage-output]").Text()), fmt.Sprint(*e.OutputTokens); got != want {
				t.Errorf("%s output tokens %q, want %q", actor, got, want)
			}
		}
		if row := doc.Find(`[data-testid=usage-row][data-actor="` + s.UserID + `"]`); !strings.Contains(row.Text(), s.Email) || !strings.Contains(row.Text(), "Playground") {
			t.Errorf("the user's row does not name them: %q", row.Text())
		}
		if row := doc.Find(`[data-testid=usage-row][data-actor="` + s.KeyID + `"]`); !strings.Contains(row.Text(), "seed-") || !strings.Contains(row.Text(), "API key") {
			t.Errorf("the key's row does not name it: %q", row.Text())
		}
		if got, want := text(doc, "[data-testid=quota-used]"), thousandsOf(used); got != want {
			t.Errorf("used %q, want %q", got, want)
		}
		if got, want := text(doc, "[data-testid=quota-left]"), thousandsOf(1_000_000-used); got != want {
			t.Errorf("left %q, want %q", got, want)
		}
		if v, _ := doc.Find("[data-testid=quota-progress]").Attr("value"); v != fmt.Sprint(used) {
			t.Errorf("progress value %q", v)
		}
		// The playground shows the same quota.
		if got := text(c.Get("/gateway/app").Doc(t), "[data-testid=tokens-left]"); got != thousandsOf(1_000_000-used) {
			t.Errorf("the playground shows %q tokens left", got)
		}

		if _, err := models.RevokeEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID); err != nil {
			t.Fatal(err)
		}
		// As for an operator elsewhere: the gateway rereads entitlements
		// within AllowanceTTL.
		apptest.Eventually(meter.AllowanceTTL+time.Second, func() bool {
			doc = c.Get("/console/usage").Doc(t)
			return text(doc, "[data-testid=entitlement]") == "not entitled"
		})
		if text(doc, "[data-testid=entitlement]") != "not entitled" || doc.Find("[data-testid=entitlement-note]").Length() != 1 {
			t.Errorf("after the revocation: %q", text(doc, "[data-testid=entitlement]"))
		}
	})
}

func TestUsagePageWithoutOrganization(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("loner@example.com")
		res := c.Get("/console/usage")
		if res.StatusCode != 200 {
			t.Fatalf("status %d", res.StatusCode)
		}
		doc := res.Doc(t)
		if doc.Find("[data-testid=no-org] a[href='/console/orgs']").Length() != 1 || doc.Find("[data-testid=quota]").Length() != 0 {
			t.Error("a user without an organization is not sent to create one")
		}
	})
}

// thousandsOf writes n as the pages do: 1,234,567.
func thousandsOf(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
