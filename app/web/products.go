package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// RequireStaff lets only staff users through (after RequireUser); others
// get 404 so the page's existence is not advertised.
func RequireStaff(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := CurrentOf(c).User
		if u == nil || !u.IsStaff {
			return echo.NewHTTPError(http.StatusNotFound)
		}
		if !u.HasSecondFactor() {
			// Staff pages change what the public API shows: they take a
			// second factor (ASVS 4.3.1), as an organization may require.
			return sendToEnrol(c, "staff")
		}
		return next(c)
	}
}

// ProductsPage is the staff page of the product registry.
func (p *Pages) ProductsPage(c echo.Context) error {
	return p.renderProducts(c, http.StatusOK, views.ProductsData{Notice: c.QueryParam("saved")})
}

func (p *Pages) renderProducts(c echo.Context, status int, d views.ProductsData) error {
	var err error
	if d.Products, err = models.AllProducts(c.Request().Context(), p.DB.DB); err != nil {
		return err
	}
	if d.Draft.Lifecycle == "" {
		d.Draft = models.Product{Lifecycle: "concept", Category: "security", PlatformPillar: "security"}
	}
	if d.Notice != "" {
		d.Notice = "Saved " + d.Notice + "."
	}
	return renderPage(c, status, "Products", "console", views.Products, d)
}

func productForm(c echo.Context) models.ProductChange {
	field := func(name string) *string {
		v := strings.TrimSpace(c.FormValue(name))
		return &v
	}
	return models.ProductChange{Name: field("name"), Tagline: field("tagline"), Description: field("description"),
		Category: field("category"), PlatformPillar: field("platform_pillar"), Lifecycle: field("lifecycle"), URL: field("url")}
}

// checkProductURL says what is wrong with a product's address, or "": it
// must be an absolute http(s) URL with a host, or a path on this site. A
// product's URL becomes a link on our pages and in the API, so
// javascript:, data:, protocol-relative (//host) and anything with spaces
// or control characters are refused.
func checkProductURL(raw string) string {
	const msg = "The URL must be an http:// or https:// address, such as https://example.com/tool, or a path on this site starting with /."
	if raw == "" || strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' }) {
		return msg
	}
	if strings.HasPrefix(raw, "/") {
		if strings.HasPrefix(raw, "//") {
			return msg
		}
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return msg
	}
	return ""
}

// CreateProduct adds a product to the registry.
func (p *Pages) CreateProduct(c echo.Context) error {
	ch := productForm(c)
	pr := &models.Product{Slug: strings.TrimSpace(c.FormValue("slug")), Name: *ch.Name, Tagline: *ch.Tagline, Description: *ch.Description,
		Category: *ch.Category, PlatformPillar: *ch.PlatformPillar, Lifecycle: *ch.Lifecycle, URL: *ch.URL}
	if msg := checkProductURL(pr.URL); msg != "" {
		return p.renderProducts(c, http.StatusUnprocessableEntity, views.ProductsData{Error: msg, Draft: *pr})
	}
	if err := models.CreateProduct(c.Request().Context(), p.DB.DB, pr); err != nil {
		if models.IsProductError(err) {
			return p.renderProducts(c, http.StatusUnprocessableEntity, views.ProductsData{Error: upperFirst(err.Error()) + ".", Draft: *pr})
		}
		return err
	}
	p.productChanged(c, models.ActionProductCreate, pr.Slug+" ("+pr.Lifecycle+")")
	return c.Redirect(http.StatusSeeOther, paths.ProductSaved(pr.Slug))
}

// UpdateProduct edits a product; its lifecycle only moves forward.
func (p *Pages) UpdateProduct(c echo.Context) error {
	slug := c.Param("slug")
	before, err := models.ProductBySlug(c.Request().Context(), p.DB.DB, slug)
	if err != nil {
		return err
	}
	ch := productForm(c)
	if msg := checkProductURL(*ch.URL); msg != "" {
		return p.renderProducts(c, http.StatusUnprocessableEntity, views.ProductsData{Error: msg})
	}
	after, err := models.UpdateProduct(c.Request().Context(), p.DB.DB, slug, ch)
	if err != nil {
		if models.IsProductError(err) {
			return p.renderProducts(c, http.StatusUnprocessableEntity, views.ProductsData{Error: upperFirst(err.Error()) + "."})
		}
		return err
	}
	target := slug
	if before.Lifecycle != after.Lifecycle {
		target += ": lifecycle " + before.Lifecycle + " → " + after.Lifecycle
	}
	p.productChanged(c, models.ActionProductUpdate, target)
	return c.Redirect(http.StatusSeeOther, paths.ProductSaved(slug))
}

// productChanged audits the change and makes the API show it at once.
func (p *Pages) productChanged(c echo.Context, action, target string) {
	u := CurrentOf(c).User
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &u.ID, Action: action, Target: target})
	if p.OnProductChange != nil {
		p.OnProductChange()
	}
}
