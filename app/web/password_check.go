package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/auth"
	"parapet/app/httpx"
)

// The strength meter's verdict comes from the server's own rules (length,
// the common-password list, the email's name), so it never calls "Fair" a
// password the form then refuses. Checking here costs the browser no
// download (the list is 240 KB) and the page loads nothing more; the
// meter asks only on the pages with a new password, once typing pauses.
const (
	PasswordChecksPerNetwork = 600 // checks per client network per PasswordCheckWindow
	PasswordCheckWindow      = 15 * time.Minute
)

// passwordVerdict is the answer of CheckPassword.
type passwordVerdict struct {
	OK bool `json:"ok"`
	// Problem names the rule broken: "length", "common" or "email".
	Problem string `json:"problem,omitempty"`
	Message string `json:"message,omitempty"`
}

// CheckPassword says whether a new password passes the rules the sign-up,
// password and reset forms apply, for the email given (the account's own
// when signed in). Throttled per client network; nothing is stored or
// logged.
func (p *Pages) CheckPassword(c echo.Context) error {
	r, err := p.Throttle.Hit(c.Request().Context(), "pwcheck:network:"+httpx.ClientNetwork(c), PasswordChecksPerNetwork, PasswordCheckWindow)
	if err != nil {
		return err
	}
	if !r.Allowed {
		return c.JSON(http.StatusTooManyRequests, passwordVerdict{Message: tooMany(c, r.RetryAfter, "Too many password checks.")})
	}
	email := c.FormValue("email")
	if u := CurrentOf(c).User; u != nil {
		email = u.Email
	}
	err = auth.CheckNewPassword(c.FormValue("password"), email)
	if err == nil {
		return c.JSON(http.StatusOK, passwordVerdict{OK: true})
	}
	v := passwordVerdict{Problem: "length", Message: upperFirst(err.Error()) + "."}
	switch {
	case errors.Is(err, auth.ErrCommonPassword):
		v.Problem = "common"
	case errors.Is(err, auth.ErrPasswordHasEmail):
		v.Problem = "email"
	}
	return c.JSON(http.StatusOK, v)
}
