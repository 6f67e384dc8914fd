package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// gatewaySettings fills the usage page's settings: the budgets and model
// lists of the organization and its keys, the keys, the configured model
// names and whether the viewer may change them.
func (p *Pages) gatewaySettings(c echo.Context, d *views.UsageData) error {
	org := CurrentOf(c).Org
	ctx, db := c.Request().Context(), p.DB.DB
	var err error
	d.CanManage = models.Can(org.Role, models.PermGatewayLimits)
	d.ModelNames = p.modelNames()
	if d.Budgets, err = models.OrgBudgets(ctx, db, org.ID, models.Period(models.Now())); err != nil {
		return err
	}
	if d.Policies, err = models.OrgModelPolicies(ctx, db, org.ID); err != nil {
		return err
	}
	keys, err := models.APIKeysOfOrg(ctx, db, org.ID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.Active() {
			d.Keys = append(d.Keys, views.KeyOption{ID: k.ID, Name: k.Name})
		}
	}
	return nil
}

// modelNames are the model names the gateway is configured with, the
// choices of a model list.
func (p *Pages) modelNames() []string {
	if p.Gateway.Service == nil || p.Gateway.Service.Proxy == nil {
		return nil
	}
	return p.Gateway.Service.Proxy.ModelNames()
}

// settingsTarget checks that the current member may change the gateway's
// limits and resolves the form's key ("" for the organization's own), one
// of the organization's. It returns the scope's name for the audit log, or
// ok false once it has answered.
func (p *Pages) settingsTarget(c echo.Context) (cur *Current, keyID, scope string, ok bool, err error) {
	cur = CurrentOf(c)
	if cur.Org == nil {
		return nil, "", "", false, c.Redirect(http.StatusSeeOther, paths.Orgs)
	}
	if !models.Can(cur.Org.Role, models.PermGatewayLimits) {
		return nil, "", "", false, p.renderUsage(c, http.StatusForbidden, "", "Your role ("+cur.Org.Role+") cannot change the gateway’s budgets or models: ask an owner or an admin.")
	}
	scope = cur.Org.Name
	if keyID = c.FormValue("key"); keyID != "" {
		k, err := models.APIKeyByID(c.Request().Context(), p.DB.DB, keyID)
		if errors.Is(err, models.ErrNotFound) || err == nil && k.OrgID != cur.Org.ID {
			return nil, "", "", false, p.renderUsage(c, http.StatusBadRequest, "", "This organization has no such key.")
		}
		if err != nil {
			return nil, "", "", false, err
		}
		scope += " key " + k.Name + " (" + k.ID + ")"
	}
	return cur, keyID, scope, true, nil
}

// SetGatewayBudget sets or clears (the clear button) the monthly budget in
// USD of the organization or one of its keys.
func (p *Pages) SetGatewayBudget(c echo.Context) error {
	cur, keyID, scope, ok, err := p.settingsTarget(c)
	if !ok {
		return err
	}
	var micros int64
	target := "gateway budget of " + scope + ": cleared"
	if c.FormValue("clear") == "" {
		usd, perr := strconv.ParseFloat(strings.TrimSpace(c.FormValue("usd")), 64)
		if perr != nil || math.IsNaN(usd) || usd <= 0 || usd > models.MaxBudgetUSD {
			return p.renderUsage(c, http.StatusBadRequest, "", fmt.Sprintf("A monthly budget is an amount in USD, more than 0 and at most %d.", models.MaxBudgetUSD))
		}
		if micros = int64(math.Round(usd * 1e6)); micros == 0 {
			micros = 1
		}
		target = fmt.Sprintf("gateway budget of %s: $%.2f/month", scope, float64(micros)/1e6)
	}
	err = p.DB.DB.WithContext(c.Request().Context()).Transaction(func(tx *gorm.DB) error {
		if err := models.SetBudget(tx, cur.Org.ID, keyID, micros); err != nil {
			return err
		}
		return models.RecordAudit(c.Request().Context(), tx, ofRequest(c, &models.AuditEvent{OrgID: &cur.Org.ID,
			ActorUserID: &cur.User.ID, Action: models.ActionBudgetSet, Target: target}))
	})
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Usage+"?saved=budget#gateway-settings")
}

// SetGatewayModels sets the models the organization, or one of its keys,
// may call: the checked ones of the configured names; none is every model.
func (p *Pages) SetGatewayModels(c echo.Context) error {
	cur, keyID, scope, ok, err := p.settingsTarget(c)
	if !ok {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	names := form["models"]
	known := p.modelNames()
	for _, n := range names {
		if !slices.Contains(known, n) {
			return p.renderUsage(c, http.StatusBadRequest, "", "The gateway has no model named "+strconv.Quote(n)+".")
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	target := "gateway models of " + scope + ": " + strings.Join(names, ",")
	if len(names) == 0 {
		target = "gateway models of " + scope + ": every model"
	}
	err = p.DB.DB.WithContext(c.Request().Context()).Transaction(func(tx *gorm.DB) error {
		if err := models.SetModelPolicy(tx, cur.Org.ID, keyID, names); err != nil {
			return err
		}
		return models.RecordAudit(c.Request().Context(), tx, ofRequest(c, &models.AuditEvent{OrgID: &cur.Org.ID,
			ActorUserID: &cur.User.ID, Action: models.ActionModelPolicySet, Target: target}))
	})
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, paths.Usage+"?saved=models#gateway-settings")
}
