package web

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/httpx"
	"parapet/app/session"
	"parapet/models"
)

// Passkeys (WebAuthn). The relying party is our origin: PUBLIC_URL when
// set, else the request's own scheme and host (development and tests, on
// localhost), as for the CSRF origin check. A ceremony's state (the
// challenge) stays on the server, in webauthn_ceremonies, found by the
// hash of a random token in a short-lived cookie; each is used once and
// lives ceremonyTTL.
const (
	ceremonyTTL    = 5 * time.Minute
	ceremonyCookie = "parapet_webauthn"
)

// What a ceremony is for.
const (
	ceremonyRegister   = "register"    // a new passkey on the signed-in account
	ceremonySignIn     = "signin"      // sign-in without a password
	ceremonySecondStep = "second-step" // the second factor after a password
)

// relyingParty is the WebAuthn configuration for this request's origin.
func (p *Pages) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := p.ourOrigin(r)
	u, err := url.Parse(origin)
	if err != nil {
		return nil, err
	}
	if net.ParseIP(u.Hostname()) != nil {
		// WebAuthn scopes passkeys to a domain: browsers refuse an address.
		return nil, apierr.New(http.StatusBadRequest, "passkeys_unavailable",
			"passkeys work only on a domain name: open this site as "+strings.Replace(origin, u.Hostname(), "localhost", 1)+" or set PUBLIC_URL")
	}
	timeout := webauthn.TimeoutConfig{Enforce: true, Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL}
	return webauthn.New(&webauthn.Config{
		RPID: u.Hostname(), RPDisplayName: "Parapet", RPOrigins: []string{origin},
		Timeouts: webauthn.TimeoutsConfig{Login: timeout, Registration: timeout},
	})
}

// passkeyUser is an account as the WebAuthn library sees it. The user
// handle is the account's id: random, and no personal data.
type passkeyUser struct {
	user  *models.User
	creds []webauthn.Credential
}

func (u *passkeyUser) WebAuthnID() []byte                         { return []byte(u.user.ID) }
func (u *passkeyUser) WebAuthnName() string                       { return u.user.Email }
func (u *passkeyUser) WebAuthnDisplayName() string                { return u.user.Email }
func (u *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

var b64 = base64.RawURLEncoding

// loadPasskeyUser gives the account with its passkeys.
func (p *Pages) loadPasskeyUser(ctx context.Context, user *models.User) (*passkeyUser, []models.Passkey, error) {
	rows, err := models.PasskeysOfUser(ctx, p.DB.DB, user.ID)
	if err != nil {
		return nil, nil, err
	}
	pu := &passkeyUser{user: user}
	for _, r := range rows {
		id, err1 := b64.DecodeString(r.CredentialID)
		key, err2 := b64.DecodeString(r.PublicKey)
		aaguid, err3 := b64.DecodeString(r.AAGUID)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, nil, err
		}
		var transports []protocol.AuthenticatorTransport
		for _, t := range strings.Split(r.Transports, ",") {
			if t != "" {
				transports = append(transports, protocol.AuthenticatorTransport(t))
			}
		}
		pu.creds = append(pu.creds, webauthn.Credential{
			ID: id, PublicKey: key, Transport: transports,
			Flags:         webauthn.CredentialFlags{UserPresent: true, UserVerified: r.UserVerified, BackupEligible: r.BackupEligible},
			Authenticator: webauthn.Authenticator{AAGUID: aaguid, SignCount: uint32(r.SignCount)},
		})
	}
	return pu, rows, nil
}

// ceremonyState is what a ceremony row holds.
type ceremonyState struct {
	Session webauthn.SessionData
	Name    string `json:",omitempty"` // the passkey's name, when registering
}

// saveCeremony stores the state of a ceremony begun and gives the browser
// its cookie.
func (p *Pages) saveCeremony(c echo.Context, purpose string, userID *string, st ceremonyState) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	token := models.RandomBase62(32)
	row := &models.Ceremony{ID: ceremonyHash(token), UserID: userID, Purpose: purpose, Data: string(data),
		ExpiresAt: models.Now().Add(ceremonyTTL)}
	if err := models.SaveCeremony(c.Request().Context(), p.DB.DB, row); err != nil {
		return err
	}
	https := p.IsHTTPS(c.Request())
	c.SetCookie(&http.Cookie{Name: session.HostCookie(ceremonyCookie, https), Value: token, Path: "/",
		MaxAge: int(ceremonyTTL / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: https})
	return nil
}

// takeCeremony returns the state of this browser's ceremony of purpose and
// spends it (a second try with the same challenge finds nothing); for a
// ceremony of a signed-in account, only that account's.
func (p *Pages) takeCeremony(c echo.Context, purpose string, userID *string) (*ceremonyState, error) {
	https := p.IsHTTPS(c.Request())
	name := session.HostCookie(ceremonyCookie, https)
	ck, err := c.Cookie(name)
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: https})
	if err != nil || ck.Value == "" || len(ck.Value) > 64 {
		return nil, errCeremonyGone
	}
	row, err := models.TakeCeremony(c.Request().Context(), p.DB.DB, ceremonyHash(ck.Value), purpose)
	if errors.Is(err, models.ErrNotFound) {
		return nil, errCeremonyGone
	}
	if err != nil {
		return nil, err
	}
	if (row.UserID == nil) != (userID == nil) || row.UserID != nil && *row.UserID != *userID {
		return nil, errCeremonyGone
	}
	var st ceremonyState
	if err := json.Unmarshal([]byte(row.Data), &st); err != nil {
		return nil, err
	}
	return &st, nil
}

var errCeremonyGone = apierr.New(http.StatusBadRequest, "ceremony_expired",
	"this passkey request has expired or was used already: start again")

func ceremonyHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// passkeyJSON answers a ceremony's step: its options, or the spec's error
// shape (the page's script shows the message).
func passkeyJSON(c echo.Context, v any) error { return c.JSON(http.StatusOK, v) }

func passkeyError(c echo.Context, err error) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	return c.JSON(ae.Status, ae.SpecBody(httpx.RequestID(c)))
}

// errPasskeyRefused is every failed check of a passkey's answer: wrong
// challenge or origin, unknown credential, bad signature. The library's
// reason is logged, not shown.
var errPasskeyRefused = apierr.New(http.StatusUnauthorized, "passkey_refused",
	"this passkey was not accepted: use a passkey registered on your Parapet account")
