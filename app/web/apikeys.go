package web

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/keys"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// leakBannerDays is how long owners see the banner of a leak report.
const leakBannerDays = 14

// KeysPage lists the current organization's keys.
func (p *Pages) KeysPage(c echo.Context) error {
	return p.renderKeys(c, http.StatusOK, views.KeysData{})
}

// renderKeys answers with the whole page, or only the panel for htmx.
func (p *Pages) renderKeys(c echo.Context, status int, d views.KeysData) error {
	cur := CurrentOf(c)
	d.Now = models.Now()
	if cur.Org != nil {
		ctx := c.Request().Context()
		var err error
		if d.Keys, err = models.APIKeysOfOrg(ctx, p.DB.DB, cur.Org.ID); err != nil {
			return err
		}
		d.CanCreate = models.Can(cur.Org.Role, models.PermCreateKeys)
		d.CanManageAny = models.Can(cur.Org.Role, models.PermManageAnyKey)
		d.UserID = cur.User.ID
	}
	if httpx.IsHTMX(c) { // the panel: no banner
		return renderPage(c, status, "API keys", "console", views.KeysPanel, d)
	}
	d.Leaked = leakedFor(c, d.Keys)
	return renderPage(c, status, "API keys", "console", views.Keys, d)
}

// leakedFor is what the leak banner shows the current member, of the
// organization's keys: to those who may handle leaks, the keys a leak
// report revoked in the last leakBannerDays days that nobody marked as
// handled, the latest report first.
func leakedFor(c echo.Context, keys []models.APIKeyRow) []models.APIKey {
	cur := CurrentOf(c)
	if cur.Org == nil || !models.Can(cur.Org.Role, models.PermHandleLeaks) {
		return nil
	}
	since := models.Now().Add(-leakBannerDays * 24 * time.Hour)
	var leaked []models.APIKey
	for _, k := range keys {
		if k.LeakedAt != nil && k.LeakedAt.After(since) && k.LeakSeenAt == nil {
			leaked = append(leaked, k.APIKey)
		}
	}
	slices.SortStableFunc(leaked, func(x, y models.APIKey) int { return y.LeakedAt.Compare(*x.LeakedAt) })
	return leaked
}

// MarkLeaksSeen takes the banner's keys off it for every owner of the
// current organization: one of them has dealt with the leak. Only owners
// see the banner, and only they may. The keys are those the banner showed
// (a leak reported since stays on it), and each is recorded in the audit
// log; back is the page to return to.
func (p *Pages) MarkLeaksSeen(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil || !models.Can(cur.Org.Role, models.PermHandleLeaks) {
		return echo.NewHTTPError(http.StatusForbidden, "Only the organization's owners can mark a leak as handled.")
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	marked, err := models.MarkLeaksSeen(c.Request().Context(), p.DB.DB, cur.Org.ID, form["key"])
	if err != nil {
		return err
	}
	for _, k := range marked {
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyLeakSeen, Target: k.AuditTarget()})
	}
	if form.Get("back") == paths.Keys {
		return c.Redirect(http.StatusSeeOther, paths.Keys)
	}
	return c.Redirect(http.StatusSeeOther, paths.Console)
}

// keyForbidden is the answer to a member whose role does not allow a key
// action: the panel again, with the reason, and 403.
func (p *Pages) keyForbidden(c echo.Context, msg string) error {
	return p.renderKeys(c, http.StatusForbidden, views.KeysData{Error: msg})
}

// CreateKey makes a key in the current organization and shows it, once.
func (p *Pages) CreateKey(c echo.Context) error {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return echo.NewHTTPError(http.StatusForbidden, "Choose or create an organization before creating keys.")
	}
	if !models.Can(cur.Org.Role, models.PermCreateKeys) {
		return p.keyForbidden(c, "Your role ("+cur.Org.Role+") cannot create keys: ask an owner or an admin.")
	}
	form, _ := c.FormParams()
	d := views.KeysData{Name: strings.TrimSpace(c.FormValue("name")), Scopes: form["scopes"],
		Expires: c.FormValue("expires"), ExpiresOn: c.FormValue("expires_on")}
	invalid := func(msg string) error {
		d.Error = msg
		return p.renderKeys(c, http.StatusUnprocessableEntity, d)
	}
	if msg := models.KeyNameProblem(d.Name); msg != "" {
		return invalid(upperFirst(msg) + ".")
	}
	scopes, err := keys.ParseScopes(d.Scopes)
	if err != nil {
		return invalid(upperFirst(err.Error()) + ".")
	}
	choice := expiryChoice(c)
	if choice == "date" {
		return invalid("Choose the date the key expires on.")
	}
	expires, err := keys.ParseExpiry(choice, models.Now())
	if err != nil {
		return invalid(upperFirst(err.Error()) + ".")
	}
	if msg, err := p.countKeyCreation(c, cur.Org.ID); err != nil || msg != "" {
		return orRender(err, func() error { d.Error = msg; return p.renderKeys(c, http.StatusTooManyRequests, d) })
	}
	text, hash, hint := keys.Generate()
	k := &models.APIKey{ID: models.NewID("key"), OrgID: cur.Org.ID, Name: d.Name, Hint: hint, Hash: hash,
		CreatedBy: &cur.User.ID, CreatedAt: models.Now(), Scopes: scopes, ExpiresAt: expires}
	err = models.CreateAPIKey(c.Request().Context(), p.DB.DB, k)
	if errors.Is(err, models.ErrKeyNameTaken) {
		return invalid("An active key named “" + d.Name + "” already exists. Choose another name.")
	}
	if errors.Is(err, models.ErrTooManyKeys) {
		d.Error = upperFirst(err.Error()) + "."
		return p.renderKeys(c, http.StatusConflict, d)
	}
	if errors.Is(err, models.ErrMakerCannot) {
		return p.keyForbidden(c, upperFirst(err.Error())+": ask an owner or an admin.")
	}
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyCreate,
		Target: k.AuditTarget(), Detail: keyDetail(k)})
	return p.renderKeys(c, http.StatusCreated, views.KeysData{NewKey: &views.NewKey{ID: k.ID, Name: k.Name, Key: text, Hint: hint}})
}

// keyDetail records a key's scopes and expiry in its audit event.
func keyDetail(k *models.APIKey) *string {
	s := "scopes: " + k.Scopes + "; expires: never"
	if k.ExpiresAt != nil {
		s = "scopes: " + k.Scopes + "; expires: " + k.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return &s
}

// managedKey loads a key of the current organization that the member may
// revoke or roll (any key for owners and admins, their own for members),
// and returns it with the member.
// A key of another organization is "not found", whatever id the form names.
// When the role does not allow it, the 403 panel is already written and
// the response is committed: callers return at once.
func (p *Pages) managedKey(c echo.Context) (*Current, *models.APIKey, error) {
	cur := CurrentOf(c)
	if cur.Org == nil {
		return nil, nil, echo.NewHTTPError(http.StatusNotFound, "no such key")
	}
	k, err := models.APIKeyOfOrg(c.Request().Context(), p.DB.DB, cur.Org.ID, c.Param("id"))
	if errors.Is(err, models.ErrNotFound) {
		return nil, nil, echo.NewHTTPError(http.StatusNotFound, "no such key")
	}
	if err != nil {
		return nil, nil, err
	}
	own := k.CreatedBy != nil && *k.CreatedBy == cur.User.ID
	if !models.Can(cur.Org.Role, models.PermManageAnyKey) && !(own && models.Can(cur.Org.Role, models.PermCreateKeys)) {
		return nil, nil, p.keyForbidden(c, "Your role ("+cur.Org.Role+") cannot revoke or roll this key: ask an owner or an admin.")
	}
	return cur, k, nil
}

// RevokeKey revokes a key of the current organization.
func (p *Pages) RevokeKey(c echo.Context) error {
	cur, k, err := p.managedKey(c)
	if err != nil || c.Response().Committed {
		return err
	}
	revoked, err := models.RevokeAPIKey(c.Request().Context(), p.DB.DB, cur.Org.ID, k.ID, &cur.User.ID)
	if err != nil {
		return err
	}
	p.Keys.Forget(k.ID)
	if revoked {
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyRevoke, Target: k.AuditTarget()})
	}
	if httpx.IsHTMX(c) {
		return p.renderKeys(c, http.StatusOK, views.KeysData{})
	}
	return c.Redirect(http.StatusSeeOther, paths.Keys)
}
