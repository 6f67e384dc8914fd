package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/models"
	"parapet/views"
)

// KeysPage lists the current organization's keys.
func (p *Pages) KeysPage(c echo.Context) error {
	return p.renderKeys(c, http.StatusOK, views.KeysData{})
}

// renderKeys answers with the whole page, or only the panel for htmx.
func (p *Pages) renderKeys(c echo.Context, status int, d views.KeysData) error {
	cur := CurrentOf(c)
	if cur.Org != nil {
		var err error
		if d.Keys, err = models.APIKeysOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID); err != nil {
			return err
		}
	}
	ch := httpx.Chrome(c, "API keys")
	ch.Nav = "console"
	if httpx.IsHTMX(c) {
		return httpx.Render(c, status, views.KeysPanel(ch, d))
	}
	return httpx.Render(c, status, views.Keys(ch, d))
}

// CreateKey makes a key in the current organization and shows it, once.
func (p *Pages) CreateKey(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return echo.NewHTTPError(http.StatusForbidden, "Choose or create an organization before creating keys.")
	}
	name := strings.TrimSpace(c.FormValue("name"))
	if msg := models.KeyNameProblem(name); msg != "" {
		return p.renderKeys(c, http.StatusUnprocessableEntity, views.KeysData{Name: name, Error: upperFirst(msg) + "."})
	}
	text, hash, hint := keys.Generate()
	k := &models.APIKey{ID: models.NewID("key"), OrgID: cur.Org.ID, Name: name, Hint: hint, Hash: hash,
		CreatedBy: &cur.User.ID, CreatedAt: models.Now()}
	err := models.CreateAPIKey(c.Request().Context(), p.DB.DB, k)
	if errors.Is(err, models.ErrKeyNameTaken) {
		return p.renderKeys(c, http.StatusUnprocessableEntity, views.KeysData{Name: name,
			Error: "An active key named “" + name + "” already exists. Choose another name."})
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyCreate, Target: k.Name + " (" + k.Hint + ")"})
	// The key's text must never be cached anywhere on the way back.
	c.Response().Header().Set("Cache-Control", "no-store")
	return p.renderKeys(c, http.StatusCreated, views.KeysData{NewKey: &views.NewKey{ID: k.ID, Name: k.Name, Key: text, Hint: hint}})
}

// RevokeKey revokes a key of the current organization. A key of another
// organization is "not found", whatever id the form names.
func (p *Pages) RevokeKey(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return echo.NewHTTPError(http.StatusNotFound, "no such key")
	}
	keyID := c.Param("id")
	revoked, err := models.RevokeAPIKey(c.Request().Context(), p.DB.DB, cur.Org.ID, keyID, &cur.User.ID)
	if errors.Is(err, models.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, "no such key")
	}
	if err != nil {
		return err
	}
	p.Keys.Forget(keyID)
	if revoked {
		k, _ := models.APIKeyOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, keyID)
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyRevoke, Target: k.Name + " (" + k.Hint + ")"})
	}
	if httpx.IsHTMX(c) {
		return p.renderKeys(c, http.StatusOK, views.KeysData{})
	}
	return c.Redirect(http.StatusSeeOther, "/console/keys")
}
