package meter_test

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/app/meter"
	"parapet/models"
)

// In a database outage the recorder holds at most QueueSize records in
// memory, counting the batch its writer has taken and keeps retrying:
// past that, a call's record is written by the call itself, which then
// fails as the database does, instead of the queue growing without bound.
func TestRecorderHoldsAtMostItsQueueInAnOutage(t *testing.T) {
	pg := os.Getenv("TEST_DATABASE_URL")
	if pg == "" {
		t.Skip("needs TEST_DATABASE_URL (a real Postgres to cut off)")
	}
	u, err := url.Parse(apptest.FreshDatabaseURL(t, apptest.Database{Name: "postgres", URL: pg}))
	if err != nil {
		t.Fatal(err)
	}
	proxy := apptest.NewTCPProxy(t, u.Host)
	u.Host = proxy.Addr
	db, err := models.Open(u.String(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	logs := &apptest.SyncBuffer{}
	rec := meter.NewRecorder(db, slog.New(slog.NewTextHandler(logs, nil)), nil)

	proxy.Stop()
	record := func() models.UsageRecord {
		return models.UsageRecord{Event: &models.AuditEvent{Action: "test.record"}}
	}
	if err := rec.Add(record()); err != nil {
		t.Fatal(err)
	}
	apptest.WaitFor(t, 5*time.Second, "the writer retrying its batch", func() bool {
		return strings.Contains(logs.String(), "retrying")
	})
	for i := 1; i < meter.QueueSize; i++ {
		if err := rec.Add(record()); err != nil {
			t.Fatalf("record %d of %d refused: %v", i+1, meter.QueueSize, err)
		}
	}
	if err := rec.Add(record()); err == nil {
		t.Fatalf("a record past %d held in memory during the outage", meter.QueueSize)
	}

	proxy.Start()
	rec.Close()
	var n int64
	if err := db.Model(&models.AuditEvent{}).Where("action = ?", "test.record").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != meter.QueueSize {
		t.Errorf("%d records written once the database was back, want the %d held", n, meter.QueueSize)
	}
}

// A record is never lost over its text: a NUL or invalid UTF-8 in any
// text field (an upstream's model name, a reply kept with
// GATEWAY_LOG_CONTENT) is replaced, and the record and its usage are
// written on every database, Postgres included, which refuses both.
func TestRecorderWritesRecordsWhateverTheirText(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "text@example.com")
		rec := meter.NewRecorder(env.DB, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		bad := "evil\x00\x1b[31m\xff\xfe"
		e := &models.AuditEvent{Action: models.ActionGatewayCall, Target: "gateway: " + bad, IP: "127.0.0.1", RequestID: "req_text",
			OrgID: &s.OrgID, ActorKeyID: &s.KeyID, Model: &bad, Detail: &bad, InputTokens: ptr(int64(3)), OutputTokens: ptr(int64(4))}
		if err := rec.Add(models.UsageRecord{Event: e, ProductID: models.GatewayProductID, Actor: s.KeyID}); err != nil {
			t.Fatal(err)
		}
		rec.Close()
		var got models.AuditEvent
		if err := env.DB.Where("request_id = ?", "req_text").First(&got).Error; err != nil {
			t.Fatalf("the record was lost: %v", err)
		}
		const want = "evil\uFFFD\x1b[31m\uFFFD" // a run of invalid bytes is one U+FFFD
		if *got.Model != want || *got.Detail != want || got.Target != "gateway: "+want {
			t.Errorf("model %q, detail %q, target %q", *got.Model, *got.Detail, got.Target)
		}
		a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
		if err != nil || a.UsedTokens != 7 {
			t.Errorf("the month's counter: %d, %v; want 7", a.UsedTokens, err)
		}
	})
}

// A call that ends after its organization was deleted keeps its one
// gateway.call event, though its usage counters went with the
// organization; the calls of another organization in the same batch are
// written with their usage.
func TestRecorderKeepsTheCallOfADeletedOrganization(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		gone, kept := env.Seed(t, "gone@example.com"), env.Seed(t, "kept@example.com")
		logs := &apptest.SyncBuffer{}
		rec := meter.NewRecorder(env.DB, slog.New(slog.NewTextHandler(logs, nil)), nil)
		call := func(s apptest.Seeded, id string) models.UsageRecord {
			e := &models.AuditEvent{Action: models.ActionGatewayCall, Target: "gateway: m", IP: "127.0.0.1", RequestID: id,
				OrgID: &s.OrgID, ActorKeyID: &s.KeyID, InputTokens: ptr(int64(3)), OutputTokens: ptr(int64(4))}
			return models.UsageRecord{Event: e, ProductID: models.GatewayProductID, Actor: s.KeyID}
		}
		ctx := context.Background()
		if _, err := models.DeleteOrg(ctx, env.DB.DB, gone.OrgID, nil, &models.AuditEvent{Action: "org.delete", Target: "gone"}); err != nil {
			t.Fatal(err)
		}
		for _, r := range []models.UsageRecord{call(gone, "req_gone"), call(kept, "req_kept")} {
			if err := rec.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		rec.Close()
		var n int64
		if err := env.DB.Model(&models.AuditEvent{}).Where("request_id IN ?", []string{"req_gone", "req_kept"}).Count(&n).Error; err != nil || n != 2 {
			t.Fatalf("%d of the 2 calls' events written (%v); log: %s", n, err, logs.String())
		}
		a, err := models.AllowanceOf(ctx, env.DB.DB, kept.OrgID, models.GatewayProductID, models.Period(models.Now()))
		if err != nil || a.UsedTokens != 7 {
			t.Errorf("the other organization's counter: %d, %v; want 7", a.UsedTokens, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }
