// Package api holds the JSON endpoints: the public API under /v1, the
// tools' APIs and the gateway. Errors are returned as *apierr.Error and
// written by the central error handler.
package api

// API serves the JSON routes.
type API struct{}

// New makes the JSON handlers.
func New() *API { return &API{} }
