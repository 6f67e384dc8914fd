package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/models"
)

// Limits of the leak report endpoint, POST /keys/v1/leaked.
const (
	// MaxLeakedKeys is how many keys one report may carry.
	MaxLeakedKeys = 100
	// MaxLeakReportBytes bounds the body: 100 keys of 40 characters and
	// their JSON punctuation fit many times over.
	MaxLeakReportBytes = 16 << 10
	// LeakReportsPerMinute is the per-address rate limit (Guard counts it
	// as the "keys" surface).
	LeakReportsPerMinute = 10
)

// SurfaceKeys is the budget of the leak report endpoint, per address.
const SurfaceKeys Surface = "keys"

// leakReport is the body of POST /keys/v1/leaked.
type leakReport struct {
	Keys []string `json:"keys"`
}

// ReportLeakedKeys takes keys someone found published (a secret scanner,
// like GitHub's partner program, or a person) and revokes those that are
// real and still active, at once. The answer is the same whatever the keys
// are (real, revoked, unknown, with or without a valid checksum): it only
// says how many keys were received, so the endpoint cannot be used to
// test whether a key works.
func (a *API) ReportLeakedKeys(c echo.Context) error {
	if err := httpx.RequireJSON(c); err != nil {
		return err
	}
	req, err := decodeBody[leakReport](httpx.ReadBody(c, MaxLeakReportBytes))
	if err != nil {
		return err
	}
	switch {
	case req.Keys == nil:
		return apierr.InvalidRequest(`the body must be {"keys": ["ppk_…", …]}`)
	case len(req.Keys) > MaxLeakedKeys:
		return apierr.InvalidRequest("a report may carry at most %d keys; it has %d: send them in several reports", MaxLeakedKeys, len(req.Keys))
	}
	var hashes []string
	for _, k := range req.Keys {
		if keys.WellFormed(k) { // others cannot be keys: no database work for them
			hashes = append(hashes, keys.Hash(k))
		}
	}
	// The revocation must not be cut short by a client that leaves.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 10*time.Second)
	defer cancel()
	revoked, err := models.RevokeLeakedKeys(ctx, a.DB.DB, hashes)
	if err != nil {
		return apierr.Unavailable(err)
	}
	for _, k := range revoked {
		a.Keys.Forget(k.ID)
		detail := "reported as leaked through POST /keys/v1/leaked and revoked at once"
		e := &models.AuditEvent{OrgID: &k.OrgID, Action: models.ActionKeyLeaked, Target: k.Name + " (" + k.Hint + ")",
			IP: c.RealIP(), RequestID: httpx.RequestID(c), Detail: &detail}
		if err := models.RecordAudit(ctx, a.DB.DB, e); err != nil {
			return apierr.Unavailable(err)
		}
	}
	return c.JSON(http.StatusAccepted, map[string]int{"received": len(req.Keys)})
}
