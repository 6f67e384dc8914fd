package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/app/scan"
	"parapet/app/session"
	"parapet/models"
)

// csrfCookie carries the random seed of a visitor who is not signed in, so
// the sign-in and sign-up forms are protected too (login CSRF).
const csrfCookie = "parapet_csrf"

// csrfToken is an HMAC, under SESSION_SECRET, of the signed-in session (or
// of the visitor's seed cookie): a page from our site can show it, another
// site cannot compute it, and it changes when the session does.
func (p *Pages) csrfToken(c echo.Context, cur *Current) string {
	var seed string
	if cur.User != nil {
		seed = "session:" + session.TokenHash(cur.Session.ID)
	} else {
		ck, err := c.Cookie(csrfCookie)
		if err == nil && len(ck.Value) == 32 {
			seed = "visitor:" + ck.Value
		} else {
			v := models.RandomBase62(32)
			c.SetCookie(&http.Cookie{Name: csrfCookie, Value: v, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: p.IsHTTPS(c.Request())})
			// A first POST without the cookie cannot match any token.
			seed = "visitor:" + v
		}
	}
	mac := hmac.New(sha256.New, p.Secret)
	mac.Write([]byte("csrf|" + seed))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// maxFormBytes bounds a browser form body read for its token: the largest
// form a page takes (the log analyzer's).
const maxFormBytes = max(maxLogsFormBytes, maxScanFormBytes)

// CSRF refuses a state-changing browser request that does not carry this
// session's token, in the X-CSRF-Token header (htmx) or the _csrf form
// field, with 403 and before any handler runs.
func (p *Pages) CSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		want := CurrentOf(c).CSRF
		got := r.Header.Get("X-CSRF-Token")
		if got == "" {
			if r.ContentLength > maxFormBytes {
				// The token is in a body too large to read: say what is
				// wrong rather than call the form forged.
				return apierr.PayloadTooLarge(fmt.Sprintf("The form is over %s, more than any form here takes: "+
					"the log analyzer reads up to %s of log and the scanner up to %s of resources. Send a smaller file or an excerpt.",
					httpx.FormatBytes(maxFormBytes>>20<<20), httpx.FormatBytes(logs.MaxInputBytes), httpx.FormatBytes(scan.MaxInputBytes)))
			}
			r.Body = http.MaxBytesReader(c.Response(), r.Body, maxFormBytes)
			got = c.FormValue("_csrf")
		}
		if want == "" || !hmac.Equal([]byte(got), []byte(want)) {
			return echo.NewHTTPError(http.StatusForbidden,
				"This form has expired or did not come from this site. Reload the page and try again.")
		}
		return next(c)
	}
}
