package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// healthTimeFormat is ISO 8601 in UTC with exactly three fractional digits
// and a Z, as the spec requires (time.RFC3339Nano would drop zeros).
const healthTimeFormat = "2006-01-02T15:04:05.000Z"

// HealthResponse is the body of GET /v1/health.
type HealthResponse struct {
	Status string `json:"status"`
	Time   string `json:"time"`
}

// Health answers that the service is up. It needs no key and does not
// touch the database: a load balancer polls it.
func (a *API) Health(c echo.Context) error {
	return c.JSON(http.StatusOK, HealthResponse{Status: "ok", Time: time.Now().UTC().Format(healthTimeFormat)})
}
