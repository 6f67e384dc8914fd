package meter_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apptest"
	"parapet/app/gateway"
	"parapet/app/meter"
	"parapet/app/ratelimit"
	"parapet/models"
)

// A dialect that panics after the upstream answered still leaves the
// call's record (a 500 with its usage, which settles its reservation); the
// panic goes on to the app's recovery.
func TestPanickingCallIsRecorded(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
	s := env.Seed(t, "panic@example.com")
	proxy, err := gateway.New(gateway.Config{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := meter.NewService(proxy, env.DB, nil, ratelimit.NewMemory(time.Now, 100), log, meter.Config{HoldTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	d := meter.Dialect{Name: "test", Parse: gateway.ParseChatRequest,
		Reply: func(echo.Context, *gateway.Request, *gateway.Message) error { panic("boom") }}

	req := httptest.NewRequest(http.MethodPost, "/gateway/v1/chat", strings.NewReader(`{"messages":[{"role":"user","content":"hi"}],"max_tokens":50}`))
	req.Header.Set("Content-Type", "application/json")
	c := echo.New().NewContext(req, httptest.NewRecorder())
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("the panic did not go on: %v", r)
			}
		}()
		_ = svc.Serve(c, meter.Caller{OrgID: s.OrgID, KeyID: s.KeyID}, d)
	}()
	svc.Flush()

	var evs []models.AuditEvent
	if err := env.DB.Where("action = ? AND org_id = ?", models.ActionGatewayCall, s.OrgID).Find(&evs).Error; err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Status == nil || *evs[0].Status != 500 || evs[0].OutputTokens == nil || *evs[0].OutputTokens == 0 {
		t.Fatalf("want one record of a 500 with the upstream's usage, got %+v", evs)
	}
}
