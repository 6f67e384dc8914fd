package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
	"parapet/app/session"
	"parapet/models"
)

// Sign-in throttle (ASVS 2.2.1, OWASP "device cookies"): every attempt is
// counted before the password is checked, in one atomic step, so parallel
// attempts cannot slip past. An attempt from a browser that carries a
// valid device cookie for the account counts on that device only; any
// other attempt counts on the account and on the client address, and is
// refused when either is over. So strangers' failures exhaust the
// account's allowance for strangers, while the owner's browser keeps its
// own. A correct password gives its attempt back.
const (
	SignInLimit  = 10
	SignInWindow = 15 * time.Minute
	// Every password or code checked counts against the client address
	// too, correct ones included and whatever device cookie it sends:
	// forgiven, an account's own correct password could be checked
	// without end, each check a hash that holds a slot of the bounded
	// pool, and each sign-in a new session.
	ChecksPerAddress = 120 // checks per client address per SignInWindow
	SignUpLimit      = 20  // sign-ups per client address per SignUpWindow
	SignUpWindow     = time.Hour
	// Each new organization is granted the gateway's free monthly
	// quota, so organizations are counted per account: unbounded, one
	// account made 40 in a second and held 40 quotas.
	OrgCreateLimit  = 5 // organizations an account creates per OrgCreateWindow
	OrgCreateWindow = 30 * 24 * time.Hour
	// Each invitation mails the invited address with the organization's
	// name in it: a bound per organization keeps the console from being
	// a mail cannon.
	InviteLimit  = 50 // invitations an organization sends per InviteWindow
	InviteWindow = 24 * time.Hour
	// Keys are created and revoked at will within models.MaxActiveKeys:
	// a script doing so in a loop grew the keys page and the audit log
	// without end.
	KeyCreateLimit  = 200 // keys an organization makes (created or rolled) per KeyCreateWindow
	KeyCreateWindow = 24 * time.Hour
	deviceMaxAge    = 365 * 24 * time.Hour
	deviceCookieN   = "parapet_device"
)

// attemptKeys are the throttle keys an attempt on email counts against.
func (p *Pages) attemptKeys(c echo.Context, email string) []string {
	if dev := p.deviceID(c, email); dev != "" {
		return []string{"signin:device:" + dev}
	}
	return []string{"signin:account:" + email, "signin:address:" + httpx.ClientNetwork(c)}
}

// countAttempt counts one password attempt on email, first against the
// client's checks (never forgiven), then against the keys it returns (to
// forgive on success). When the attempt is refused it returns the message
// that says so, with Retry-After set.
func (p *Pages) countAttempt(c echo.Context, email, what string) (keys []string, refused string, err error) {
	r, err := p.Throttle.Hit(c.Request().Context(), "signin:checks:"+httpx.ClientNetwork(c), ChecksPerAddress, SignInWindow)
	if err != nil {
		return nil, "", err
	}
	if !r.Allowed {
		return nil, tooMany(c, r.RetryAfter, "Too many "+what+" from your network."), nil
	}
	keys = p.attemptKeys(c, email)
	var retry time.Duration
	for _, k := range keys {
		r, err := p.Throttle.Hit(c.Request().Context(), k, SignInLimit, SignInWindow)
		if err != nil {
			return nil, "", err
		}
		if !r.Allowed {
			retry = max(retry, r.RetryAfter)
		}
	}
	if retry == 0 {
		return keys, "", nil
	}
	return keys, tooMany(c, retry, "Too many failed "+what+"."), nil
}

// forgive gives back the attempts of a correct password.
func (p *Pages) forgive(c echo.Context, keys []string) {
	for _, k := range keys {
		if err := p.Throttle.Forgive(c.Request().Context(), k); err != nil {
			p.Log.Warn("throttle forgive", "error", err)
		}
	}
}

// countSignUp counts a sign-up from the client's address (with TRUST_PROXY,
// the forwarded one) and returns the refusal message when over the limit.
func (p *Pages) countSignUp(c echo.Context) (string, error) {
	r, err := p.Throttle.Hit(c.Request().Context(), "signup:address:"+httpx.ClientNetwork(c), SignUpLimit, SignUpWindow)
	if err != nil || r.Allowed {
		return "", err
	}
	return tooMany(c, r.RetryAfter, "Too many accounts were created from your network."), nil
}

// countOrgCreation counts an organization the user creates and returns
// the refusal message when over the limit.
func (p *Pages) countOrgCreation(c echo.Context, userID string) (string, error) {
	return p.countWork(c, "orgcreate:user:"+userID, OrgCreateLimit, OrgCreateWindow,
		fmt.Sprintf("You have created %d organizations in the last 30 days, the most an account may.", OrgCreateLimit))
}

// countInvitation counts an invitation the organization sends and returns
// the refusal message when over the limit.
func (p *Pages) countInvitation(c echo.Context, orgID string) (string, error) {
	return p.countWork(c, "invite:org:"+orgID, InviteLimit, InviteWindow,
		fmt.Sprintf("This organization has sent %d invitations in the last day, the most it may.", InviteLimit))
}

// countKeyCreation counts a key the organization makes (created or
// rolled) and returns the refusal message when over the limit.
func (p *Pages) countKeyCreation(c echo.Context, orgID string) (string, error) {
	return p.countWork(c, "keycreate:org:"+orgID, KeyCreateLimit, KeyCreateWindow,
		fmt.Sprintf("This organization has made %d keys in the last day, the most it may.", KeyCreateLimit))
}

// countWork counts one piece of bounded work under key and returns
// refusal, with Retry-After set, when it is over limit per window.
func (p *Pages) countWork(c echo.Context, key string, limit int, window time.Duration, refusal string) (string, error) {
	r, err := p.Throttle.Hit(c.Request().Context(), key, limit, window)
	if err != nil || r.Allowed {
		return "", err
	}
	return tooManyFor(c, r.RetryAfter, refusal), nil
}

// tooManyFor is tooMany for windows of hours or days: it says when to come
// back in hours.
func tooManyFor(c echo.Context, retry time.Duration, what string) string {
	secs := int(retry.Round(time.Second) / time.Second)
	c.Response().Header().Set("Retry-After", fmt.Sprint(max(secs, 1)))
	if secs < 3600 {
		return tooMany(c, retry, what)
	}
	return fmt.Sprintf("%s Try again in %d hours.", what, (secs+3599)/3600)
}

func tooMany(c echo.Context, retry time.Duration, what string) string {
	secs := int(retry.Round(time.Second) / time.Second)
	c.Response().Header().Set("Retry-After", fmt.Sprint(max(secs, 1)))
	return fmt.Sprintf("%s Wait %d minutes and try again.", what, max((secs+59)/60, 1))
}

// device is what a device cookie holds: the account it signed in to and
// the device's own id (its throttle key).
type device struct {
	Email string
	ID    string
}

// codec signs and times a cookie's value with the app's secret: the
// cookie's name is in the MAC, so none of our cookies passes for another,
// and a value older than maxAge is refused.
func (p *Pages) codec(maxAge time.Duration) securecookie.Codec {
	codec := securecookie.New(p.Secret, nil)
	codec.MaxAge(int(maxAge / time.Second))
	return codec
}

// deviceCookieName follows the session cookie: __Host- over HTTPS.
func (p *Pages) deviceCookieName(r *http.Request) string {
	return session.HostCookie(deviceCookieN, p.IsHTTPS(r))
}

// deviceID returns the id of the request's device cookie when it is valid
// and names email, else "".
func (p *Pages) deviceID(c echo.Context, email string) string {
	ck, err := c.Request().Cookie(p.deviceCookieName(c.Request()))
	if err != nil {
		return ""
	}
	var d device
	if err := p.codec(deviceMaxAge).Decode(deviceCookieN, ck.Value, &d); err != nil || d.Email != email || d.ID == "" {
		return ""
	}
	return d.ID
}

// issueDevice gives the browser a device cookie for email after a
// successful sign-in, keeping the device's id when it already had one.
func (p *Pages) issueDevice(c echo.Context, email string) {
	d := device{Email: email, ID: p.deviceID(c, email)}
	if d.ID == "" {
		d.ID = models.RandomBase62(22)
	}
	v, err := p.codec(deviceMaxAge).Encode(deviceCookieN, d)
	if err != nil {
		p.Log.Warn("device cookie", "error", err)
		return
	}
	c.SetCookie(&http.Cookie{Name: p.deviceCookieName(c.Request()), Value: v, Path: "/", MaxAge: int(deviceMaxAge / time.Second),
		HttpOnly: true, Secure: p.IsHTTPS(c.Request()), SameSite: http.SameSiteLaxMode})
}
