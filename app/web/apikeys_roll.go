package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/keys"
	"parapet/models"
	"parapet/views"
)

// RollKey replaces a key by a new one with the same name and scopes, shown
// once, and keeps the old key working for the chosen grace period.
func (p *Pages) RollKey(c echo.Context) error {
	cur, old, err := p.managedKey(c)
	if err != nil || c.Response().Committed {
		return err
	}
	grace, err := keys.ParseGrace(c.FormValue("grace"))
	if err != nil {
		return p.renderKeys(c, http.StatusUnprocessableEntity, views.KeysData{Error: upperFirst(err.Error()) + "."})
	}
	if msg, err := p.countKeyCreation(c, cur.Org.ID); err != nil || msg != "" {
		return orRender(err, func() error { return p.renderKeys(c, http.StatusTooManyRequests, views.KeysData{Error: msg}) })
	}
	now := models.Now()
	text, hash, hint := keys.Generate()
	next := &models.APIKey{ID: models.NewID("key"), Hint: hint, Hash: hash, CreatedBy: &cur.User.ID, CreatedAt: now}
	if old.ExpiresAt != nil {
		// The replacement lives as long as the old key was meant to.
		end := now.Add(old.ExpiresAt.Sub(old.CreatedAt))
		next.ExpiresAt = &end
	}
	if _, err := models.RollAPIKey(c.Request().Context(), p.DB.DB, cur.Org.ID, old.ID, next, now.Add(grace)); err != nil {
		if errors.Is(err, models.ErrNotFound) {
			return p.renderKeys(c, http.StatusConflict, views.KeysData{Error: "That key was already rolled, revoked or expired."})
		}
		if errors.Is(err, models.ErrTooManyKeys) {
			return p.renderKeys(c, http.StatusConflict, views.KeysData{Error: upperFirst(err.Error()) + "."})
		}
		return err
	}
	p.Keys.Forget(old.ID)
	detail := "replaced by " + next.Hint + "; the old key works until " + now.Add(grace).UTC().Format(time.RFC3339)
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyRoll,
		Target: old.AuditTarget(), Detail: &detail})
	return p.renderKeys(c, http.StatusCreated, views.KeysData{NewKey: &views.NewKey{ID: next.ID, Name: next.Name, Key: text, Hint: hint, Rolled: old.Hint}})
}
