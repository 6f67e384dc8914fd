package web

import (
	"errors"
	"net/http"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/models"
	"parapet/views/paths"
)

// countPasskeyAttempt counts a passkey sign-in on the sign-in throttle by
// client address, as a password attempt is (there is no account to count
// on before the passkey names it): the never-forgiven checks, then the
// address's failures, forgiven on success.
func (p *Pages) countPasskeyAttempt(c echo.Context) ([]string, error) {
	ctx := c.Request().Context()
	if err := p.countPasskeyCheck(c); err != nil {
		return nil, err
	}
	key := "signin:address:" + httpx.ClientNetwork(c)
	r, err := p.Throttle.Hit(ctx, key, SignInLimit, SignInWindow)
	if err != nil {
		return nil, err
	}
	if !r.Allowed {
		return nil, apierr.RateLimited(tooMany(c, r.RetryAfter, "Too many failed sign-in attempts."), 0)
	}
	return []string{key}, nil
}

// countPasskeyCheck counts a step of a passkey sign-in against the client
// network's never-forgiven checks: a begin stores a ceremony, so begins
// are bounded too, not only answers.
func (p *Pages) countPasskeyCheck(c echo.Context) error {
	r, err := p.Throttle.Hit(c.Request().Context(), "signin:checks:"+httpx.ClientNetwork(c), ChecksPerAddress, SignInWindow)
	if err != nil {
		return err
	}
	if !r.Allowed {
		return apierr.RateLimited(tooMany(c, r.RetryAfter, "Too many sign-in attempts from your network."), 0)
	}
	return nil
}

// BeginPasskeySignIn starts a sign-in without a password: the options for
// navigator.credentials.get, with no allowed credentials, so the browser
// offers the passkeys it holds for this site (discoverable credentials).
func (p *Pages) BeginPasskeySignIn(c echo.Context) error {
	if err := p.countPasskeyCheck(c); err != nil {
		return passkeyError(c, err)
	}
	rp, err := p.relyingParty(c.Request())
	if err != nil {
		return passkeyError(c, err)
	}
	assertion, sd, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return err
	}
	if err := p.saveCeremony(c, ceremonySignIn, nil, ceremonyState{Session: *sd}); err != nil {
		return err
	}
	return passkeyJSON(c, assertion)
}

// FinishPasskeySignIn checks the passkey's answer and signs in as a
// password and second factor together would: the passkey is something
// held and, verified by the authenticator, something known or are.
func (p *Pages) FinishPasskeySignIn(c echo.Context) error {
	counted, err := p.countPasskeyAttempt(c)
	if err != nil {
		return passkeyError(c, err)
	}
	st, err := p.takeCeremony(c, ceremonySignIn, nil)
	if err != nil {
		return passkeyError(c, err)
	}
	user, pk, err := p.checkAssertion(c, st, nil)
	if err != nil {
		return passkeyError(c, err)
	}
	p.forgive(c, counted)
	return p.passkeySignedIn(c, user, pk, localPath(c.QueryParam("next")))
}

// BeginPasskeySecondStep starts the second factor after a password with a
// passkey of the account the password named.
func (p *Pages) BeginPasskeySecondStep(c echo.Context) error {
	pending, ok := p.pendingOf(c)
	if !ok {
		return passkeyError(c, errCeremonyGone)
	}
	if err := p.countPasskeyCheck(c); err != nil {
		return passkeyError(c, err)
	}
	user, err := models.UserByID(c.Request().Context(), p.DB.DB, pending.UserID)
	if err != nil {
		return err
	}
	pu, _, err := p.loadPasskeyUser(c.Request().Context(), user)
	if err != nil {
		return err
	}
	if len(pu.creds) == 0 {
		return passkeyError(c, apierr.New(http.StatusConflict, "no_passkeys", "this account has no passkey: enter a code instead"))
	}
	rp, err := p.relyingParty(c.Request())
	if err != nil {
		return passkeyError(c, err)
	}
	assertion, sd, err := rp.BeginLogin(pu, webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return err
	}
	if err := p.saveCeremony(c, ceremonySecondStep, &user.ID, ceremonyState{Session: *sd}); err != nil {
		return err
	}
	return passkeyJSON(c, assertion)
}

// FinishPasskeySecondStep checks the passkey of the account whose password
// was given and signs in; it counts on the same throttle as a code.
func (p *Pages) FinishPasskeySecondStep(c echo.Context) error {
	pending, ok := p.pendingOf(c)
	if !ok {
		return passkeyError(c, errCeremonyGone)
	}
	user, err := models.UserByID(c.Request().Context(), p.DB.DB, pending.UserID)
	if err != nil {
		return err
	}
	counted, msg, err := p.countAttempt(c, user.Email, "sign-in attempts")
	if err != nil {
		return err
	}
	if msg != "" {
		return passkeyError(c, apierr.RateLimited(msg, 0))
	}
	st, err := p.takeCeremony(c, ceremonySecondStep, &user.ID)
	if err != nil {
		return passkeyError(c, err)
	}
	user, pk, err := p.checkAssertion(c, st, user)
	if err != nil {
		return passkeyError(c, err)
	}
	p.forgive(c, counted)
	p.clearSecondStep(c)
	return p.passkeySignedIn(c, user, pk, pending.Next)
}

// checkAssertion verifies a passkey's answer against the ceremony: of the
// account given, or (discoverable sign-in) of the account the passkey
// names, and records the use. A credential of another account, or
// unknown, or a counter that went back, is refused.
func (p *Pages) checkAssertion(c echo.Context, st *ceremonyState, user *models.User) (*models.User, *models.Passkey, error) {
	ctx := c.Request().Context()
	parsed, err := protocol.ParseCredentialRequestResponseBody(c.Request().Body)
	if err != nil {
		return nil, nil, p.refused(c, "signin", err)
	}
	rp, err := p.relyingParty(c.Request())
	if err != nil {
		return nil, nil, err
	}
	var cred *webauthn.Credential
	if user != nil {
		pu, _, err := p.loadPasskeyUser(ctx, user)
		if err != nil {
			return nil, nil, err
		}
		cred, err = rp.ValidateLogin(pu, st.Session, parsed)
		if err != nil {
			return nil, nil, p.refused(c, "signin", err)
		}
	} else {
		var found *models.User
		handler := func(rawID, userHandle []byte) (webauthn.User, error) {
			pk, err := models.PasskeyByCredentialID(ctx, p.DB.DB, b64.EncodeToString(rawID))
			if err != nil {
				return nil, err
			}
			if pk.UserID != string(userHandle) {
				return nil, models.ErrNotFound
			}
			if found, err = models.UserByID(ctx, p.DB.DB, pk.UserID); err != nil {
				return nil, err
			}
			pu, _, err := p.loadPasskeyUser(ctx, found)
			return pu, err
		}
		if _, cred, err = rp.ValidatePasskeyLogin(handler, st.Session, parsed); err != nil {
			if models.IsUnavailable(err) {
				return nil, nil, err
			}
			return nil, nil, p.refused(c, "signin", err)
		}
		user = found
	}
	pk, err := models.PasskeyByCredentialID(ctx, p.DB.DB, b64.EncodeToString(cred.ID))
	if err != nil || pk.UserID != user.ID {
		return nil, nil, orRefused(err)
	}
	ok, err := models.UsePasskey(ctx, p.DB.DB, pk.ID, cred.Authenticator.SignCount)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, p.refused(c, "signin", errors.New("the signature counter did not move forward: a cloned authenticator or a replay"))
	}
	return user, pk, nil
}

func orRefused(err error) error {
	if err == nil || errors.Is(err, models.ErrNotFound) {
		return errPasskeyRefused
	}
	return err
}

// passkeySignedIn starts the session as a password sign-in does: a new
// session, the device cookie, the audit event; the script goes on to next.
func (p *Pages) passkeySignedIn(c echo.Context, user *models.User, pk *models.Passkey, next string) error {
	if err := p.startSession(c, user, ""); err != nil {
		return err
	}
	p.issueDevice(c, user.Email)
	how := "passkey " + pk.Name
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionSignInSuccess, Target: user.Email, Detail: &how})
	return passkeyJSON(c, map[string]string{"redirect": orDefault(next, paths.Console)})
}
