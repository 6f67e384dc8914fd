package meter_test

import (
	"context"
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
	rec := meter.NewRecorder(db, slog.New(slog.NewTextHandler(logs, nil)))

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
