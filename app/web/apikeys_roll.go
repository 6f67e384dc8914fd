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
	// The replacement expires when the old key would have: rolling must
	// not make a 7-day key live for ever. A new expiry may be chosen
	// instead, within the same limits as at creation.
	expires := old.ExpiresAt
	if choice := expiryChoice(c); choice != "" {
		if expires, err = keys.ParseExpiry(choice, now); err != nil {
			return p.renderKeys(c, http.StatusUnprocessableEntity, views.KeysData{Error: upperFirst(err.Error()) + "."})
		}
	}
	text, hash, hint := keys.Generate()
	next := &models.APIKey{ID: models.NewID("key"), Hint: hint, Hash: hash, CreatedBy: &cur.User.ID, CreatedAt: now, ExpiresAt: expires}
	if _, err := models.RollAPIKey(c.Request().Context(), p.DB.DB, cur.Org.ID, old.ID, next, now.Add(grace)); err != nil {
		if errors.Is(err, models.ErrNotFound) {
			return p.renderKeys(c, http.StatusConflict, views.KeysData{Error: "That key was already rolled, revoked or expired."})
		}
		if errors.Is(err, models.ErrMakerCannot) {
			return p.keyForbidden(c, upperFirst(err.Error())+": ask an owner or an admin.")
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

// expiryChoice is the expiry a key form asks for: "date" takes the date
// field; "" when the form names none.
func expiryChoice(c echo.Context) string {
	if choice := c.FormValue("expires"); choice != "date" {
		return choice
	}
	if on := c.FormValue("expires_on"); on != "" {
		return on
	}
	return "date"
}
