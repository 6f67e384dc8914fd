package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/openapi"
)

// OpenAPI serves the OpenAPI document, without a key.
func (a *API) OpenAPI(c echo.Context) error {
	return c.JSONBlob(http.StatusOK, openapi.JSON())
}
