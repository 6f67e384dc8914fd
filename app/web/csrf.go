package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/app/scan"
	"parapet/app/session"
	"parapet/models"
)

// csrfCookie carries the random seed of a visitor who is not signed in, so
// the sign-in and sign-up forms are protected too (login CSRF). Over HTTPS
// it has the __Host- prefix, like the session cookie.
const csrfCookie = "parapet_csrf"

func (p *Pages) csrfCookieName(r *http.Request) string {
	return session.HostCookie(csrfCookie, p.IsHTTPS(r))
}

// csrfToken is an HMAC, under SESSION_SECRET, of the signed-in session (or
// of the visitor's seed cookie): a page from our site can show it, another
// site cannot compute it, and it changes when the session does.
func (p *Pages) csrfToken(c echo.Context, cur *Current) string {
	var seed string
	if cur.User != nil {
		seed = "session:" + session.TokenHash(cur.Session.ID)
	} else {
		ck, err := c.Cookie(p.csrfCookieName(c.Request()))
		if err == nil && len(ck.Value) == 32 {
			seed = "visitor:" + ck.Value
		} else {
			v := models.RandomBase62(32)
			c.SetCookie(&http.Cookie{Name: p.csrfCookieName(c.Request()), Value: v, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: p.IsHTTPS(c.Request())})
			// A first POST without the cookie cannot match any token.
			seed = "visitor:" + v
		}
	}
	mac := hmac.New(sha256.New, p.Secret)
	mac.Write([]byte("csrf|" + seed))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// CSRF refuses a state-changing browser request, with 403 and before any
// handler runs, when it comes from another site: its Origin is not ours,
// or the browser says Sec-Fetch-Site: cross-site, whatever token it
// carries; or when it lacks this session's token, in the X-CSRF-Token
// header (htmx) or the _csrf field of the form body. Never from the query
// string, which ends up in logs, history and Referer headers. It also
// refuses form text with NUL bytes or invalid UTF-8 (400). The body is
// already held to its route's limit (httpx.LimitBody).
func (p *Pages) CSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if !p.sameOrigin(c) {
			return echo.NewHTTPError(http.StatusForbidden,
				"This request came from another site, so it was refused. Use the form on this site.")
		}
		want := CurrentOf(c).CSRF
		got := r.Header.Get("X-CSRF-Token")
		if limit := httpx.Oversized(c); limit > 0 {
			// A tool's form over its bound was drained unread: with the
			// token in the header the page explains the limit itself.
			if got == "" {
				return formTooLarge(limit)
			}
		} else if err := parseForm(r); err != nil {
			return err
		}
		if got == "" {
			got = r.PostForm.Get("_csrf")
		}
		if want == "" || !hmac.Equal([]byte(got), []byte(want)) {
			return echo.NewHTTPError(http.StatusForbidden,
				"This form has expired or did not come from this site. Reload the page and try again.")
		}
		if err := httpx.CheckFormText(r); err != nil {
			return err
		}
		return next(c)
	}
}

// CrossSite refuses, with 403, a state-changing request from another site
// (CSRF's origin check) without reading its body. The tools' pages mount
// it before the sign-in check, the tool budget and the analysis pool, and
// CSRF (which parses the form) only after them: their forms may be
// 40 MiB, and a visitor or a refused run must not cost a parse.
func (p *Pages) CrossSite(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if !p.sameOrigin(c) {
			return echo.NewHTTPError(http.StatusForbidden,
				"This request came from another site, so it was refused. Use the form on this site.")
		}
		return next(c)
	}
}

// maxFormMemory is how much of a multipart form is held in memory; the
// body limit of the route is lower for every form we take.
const maxFormMemory = 64 << 20

// parseForm reads a urlencoded or multipart body into r.PostForm (the
// query is never read into it). A body over the route's limit is a 413.
func parseForm(r *http.Request) error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	var err error
	if mt == echo.MIMEMultipartForm {
		err = r.ParseMultipartForm(maxFormMemory)
	} else {
		err = r.ParseForm()
	}
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &mb):
		return formTooLarge(mb.Limit)
	case err != nil && !errors.Is(err, http.ErrNotMultipart) && !errors.Is(err, http.ErrMissingBoundary):
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read: "+err.Error())
	}
	if r.PostForm == nil {
		r.PostForm = url.Values{}
	}
	return nil
}

// formTooLarge says that a form is over its bound (rounded down to whole
// MiB or KiB, as documented) and what the tools take.
func formTooLarge(limit int64) error {
	shown := limit >> 10 << 10
	if limit >= 1<<20 {
		shown = limit >> 20 << 20
	}
	return apierr.PayloadTooLarge(fmt.Sprintf("The form is over %s, more than this page takes: "+
		"the log analyzer reads up to %s of log and the scanner up to %s of resources. Send a smaller file or an excerpt.",
		httpx.FormatBytes(shown), httpx.FormatBytes(logs.MaxInputBytes), httpx.FormatBytes(scan.MaxInputBytes)))
}

// sameOrigin tells whether a browser request comes from our own pages.
// Our origin is PUBLIC_URL when set, else the request's own scheme and
// host. A request without Origin and Sec-Fetch-Site (not a browser, or a
// very old one) is left to the token.
func (p *Pages) sameOrigin(c echo.Context) bool {
	r := c.Request()
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	return origin == p.ourOrigin(r)
}

func (p *Pages) ourOrigin(r *http.Request) string {
	if p.PublicURL != "" {
		return p.PublicURL // an origin: see the PUBLIC_URL setting
	}
	scheme := "http"
	if p.IsHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
