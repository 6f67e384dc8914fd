package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/logs"
	"parapet/app/pool"
)

// An analysis that runs out of time is 503 service_unavailable saying so,
// whether its own deadline or the request's passed first, or the client
// left. Over HTTP no input within the limits takes long enough, so the
// handler is called here with a context that has already ended.
func TestAnalyzeLogsDeadline(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	gone, leave := context.WithCancel(context.Background())
	leave()
	for name, ctx := range map[string]context.Context{"deadline": expired, "client left": gone} {
		req := httptest.NewRequest(http.MethodPost, "/logs/v1/analyze", strings.NewReader(logs.Sample())).WithContext(ctx)
		req.Header.Set(echo.HeaderContentType, "text/plain")
		rec := httptest.NewRecorder()
		err := (&API{}).AnalyzeLogs(echo.New().NewContext(req, rec))
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable || ae.Code != "service_unavailable" ||
			!strings.Contains(ae.Message, "took too long") || !strings.Contains(ae.Message, "10s") {
			t.Errorf("%s: %v", name, err)
		}
		if rec.Body.Len() != 0 {
			t.Errorf("%s: the handler wrote a body: %s", name, rec.Body)
		}
	}
	if logs.Timeout > 30*time.Second {
		t.Errorf("logs.Timeout %s is longer than the request timeout", logs.Timeout)
	}
}

// The analysis pool's refusal reaches the AI help's caller as the tools
// answer it, 503 busy with Retry-After, not as an internal error.
func TestAIHelpBusyIsBusy(t *testing.T) {
	for name, e := range map[string]*apierr.Error{"logs": logsError(pool.Busy(time.Second)), "scan": scanError(pool.Busy(time.Second))} {
		if e.Status != 503 || e.Code != "busy" || e.RetryAfter < 1 {
			t.Errorf("%s: %+v", name, e)
		}
	}
}
