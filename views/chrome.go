// Package views holds the templ components: the layout, the console pages,
// the tool pages and their partials. Components know nothing of HTTP: the
// handlers pass in everything a page shows.
package views

import (
	"encoding/json"

	"github.com/a-h/templ"
)

// Chrome is what the layout shows around every page: who is signed in,
// which organization is current, and the CSRF token forms and htmx carry.
type Chrome struct {
	Title     string
	Nav       string // "home", "console", "logs", "scan", "gateway", "docs"
	UserEmail string
	IsStaff   bool
	OrgName   string
	OrgRole   string // the user's role in the current organization
	CSRF      string
	Flash     string
	Tools     []NavLink // the tools' links, from their registrations
}

// NavLink is one tool's link in the site's navigation; Key is the value of
// Chrome.Nav on its page.
type NavLink struct {
	Key, Label, Href string
}

// SignedIn reports whether a user is signed in.
func (c Chrome) SignedIn() bool { return c.UserEmail != "" }

// navAttrs marks the link of the current section (Pico styles any
// aria-current, so other links must not carry it at all).
func (c Chrome) navAttrs(nav string) templ.Attributes {
	if c.Nav == nav {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

// hxHeaders is the hx-headers value that makes every htmx request carry the
// CSRF token.
func (c Chrome) hxHeaders() string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": c.CSRF})
	return string(b)
}

// htmxConfig keeps htmx inside a strict CSP: no eval, no inline scripts
// from swapped content, no injected indicator <style> element. It also
// swaps 422 responses: that is how a form answers "here you are again,
// with what to fix", which htmx 2 would otherwise drop as an error.
const htmxConfig = `{"allowEval":false,"allowScriptTags":false,"includeIndicatorStyles":false,"selfRequestsOnly":true,"historyCacheSize":0,` +
	`"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"422","swap":true},{"code":"[45]..","swap":false,"error":true}]}`
