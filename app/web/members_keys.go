package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
)

// askAboutKeys answers a removal or a lowered role (role "") that was not
// confirmed yet, when the member made keys that still work, with the
// list of those keys to choose which to keep: the privileges a key
// carries end with its maker's role unless someone decides otherwise. It
// reports whether it answered.
func (p *Pages) askAboutKeys(c echo.Context, target *models.MemberRow, role string) (bool, error) {
	if c.FormValue("confirm") != "" {
		return false, nil
	}
	cur := CurrentOf(c)
	ks, err := models.ActiveKeysMadeBy(p.DB.DB.WithContext(c.Request().Context()), cur.Org.ID, target.UserID)
	if err != nil || len(ks) == 0 {
		return false, err
	}
	d := views.MemberKeysData{UserID: target.UserID, Email: target.Email, Role: role, Keys: ks}
	return true, renderPage(c, http.StatusOK, "Keys made by "+target.Email, "console", views.MemberKeys, d)
}

// keptKeys is the keys the confirmation form chose to keep.
func keptKeys(c echo.Context) []string {
	form, _ := c.FormParams()
	return form["keep"]
}

// recordEndedKeys audits what became of a member's keys, one event per
// key (revoked, or kept by the actor's choice), and forgets the revoked
// ones at once on this instance. who says whose keys and why.
func (p *Pages) recordEndedKeys(c echo.Context, ended *models.EndedKeys, who string) {
	cur := CurrentOf(c)
	for _, k := range ended.Revoked {
		p.Keys.Forget(k.ID)
		detail := "made by " + who
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyRevoke,
			Target: k.AuditTarget(), Detail: &detail})
	}
	for _, k := range ended.Kept {
		detail := "made by " + who + "; kept"
		_ = p.audit(c, &models.AuditEvent{OrgID: &cur.Org.ID, ActorUserID: &cur.User.ID, Action: models.ActionKeyKeep,
			Target: k.AuditTarget(), Detail: &detail})
	}
}
