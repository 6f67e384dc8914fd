package web

import (
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/totp"
	"parapet/models"
	"parapet/views"
	"parapet/views/paths"
)

// passkeyName checks a passkey's name: 1 to MaxPasskeyName characters of
// printable text.
func passkeyName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if name == "" {
		return "", apierr.InvalidRequest("give the passkey a name, such as the device it is on")
	}
	if utf8.RuneCountInString(name) > models.MaxPasskeyName {
		return "", apierr.InvalidRequest("a passkey's name is at most %d characters", models.MaxPasskeyName)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", apierr.InvalidRequest("a passkey's name is plain text, without control characters")
		}
	}
	return name, nil
}

// BeginPasskeyRegistration starts adding a passkey to the signed-in
// account: the options for navigator.credentials.create. The passkey is
// discoverable (it signs in without an email) and the account's passkeys
// are excluded, so one authenticator is not registered twice. It takes
// the password again, or a two-factor code (recheckProof): a passkey
// outlives a password change, so a session alone must not add one. The
// ceremony it begins is the session's, for this account only.
func (p *Pages) BeginPasskeyRegistration(c echo.Context) error {
	user := CurrentOf(c).User
	name, err := passkeyName(c.FormValue("name"))
	if err != nil {
		return passkeyError(c, err)
	}
	if user.PasskeyCount >= models.MaxPasskeysPerUser {
		return passkeyError(c, apierr.New(http.StatusConflict, "too_many_passkeys", models.ErrTooManyPasskeys.Error()))
	}
	if status, msg, err := p.recheckProof(c, c.FormValue("proof")); err != nil || msg != "" {
		if err != nil {
			return err
		}
		code := "wrong_password"
		if status == http.StatusTooManyRequests {
			code = "rate_limited"
		}
		return passkeyError(c, apierr.New(status, code, msg))
	}
	rp, err := p.relyingParty(c.Request())
	if err != nil {
		return passkeyError(c, err)
	}
	pu, _, err := p.loadPasskeyUser(c.Request().Context(), user)
	if err != nil {
		return err
	}
	exclude := make([]protocol.CredentialDescriptor, len(pu.creds))
	for i := range pu.creds {
		exclude[i] = pu.creds[i].Descriptor()
	}
	creation, sd, err := rp.BeginRegistration(pu,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(exclude))
	if err != nil {
		return err
	}
	if err := p.saveCeremony(c, ceremonyRegister, &user.ID, ceremonyState{Session: *sd, Name: name}); err != nil {
		return err
	}
	return passkeyJSON(c, creation)
}

// FinishPasskeyRegistration checks the authenticator's answer against the
// ceremony begun (challenge, origin, relying party) and stores the
// passkey. The account's address is told, as for two-factor changes.
func (p *Pages) FinishPasskeyRegistration(c echo.Context) error {
	ctx := c.Request().Context()
	cur := CurrentOf(c)
	user := cur.User
	st, err := p.takeCeremony(c, ceremonyRegister, &user.ID)
	if err != nil {
		return passkeyError(c, err)
	}
	parsed, err := protocol.ParseCredentialCreationResponseBody(c.Request().Body)
	if err != nil {
		return passkeyError(c, p.refused(c, "register", err))
	}
	rp, err := p.relyingParty(c.Request())
	if err != nil {
		return passkeyError(c, err)
	}
	pu, _, err := p.loadPasskeyUser(ctx, user)
	if err != nil {
		return err
	}
	cred, err := rp.CreateCredential(pu, st.Session, parsed)
	if err != nil {
		return passkeyError(c, p.refused(c, "register", err))
	}
	transports := make([]string, len(cred.Transport))
	for i, t := range cred.Transport {
		transports[i] = string(t)
	}
	pk := &models.Passkey{UserID: user.ID, CredentialID: b64.EncodeToString(cred.ID), PublicKey: b64.EncodeToString(cred.PublicKey),
		SignCount: int64(cred.Authenticator.SignCount), Transports: strings.Join(transports, ","), AAGUID: b64.EncodeToString(cred.Authenticator.AAGUID),
		BackupEligible: cred.Flags.BackupEligible, UserVerified: cred.Flags.UserVerified, Name: st.Name}
	switch err := models.AddPasskey(ctx, p.DB.DB, pk); {
	case errors.Is(err, models.ErrTooManyPasskeys):
		return passkeyError(c, apierr.New(http.StatusConflict, "too_many_passkeys", err.Error()))
	case errors.Is(err, models.ErrPasskeyTaken):
		return passkeyError(c, apierr.New(http.StatusConflict, "passkey_taken", err.Error()))
	case err != nil:
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionPasskeyAdd, Target: user.Email, Detail: &pk.Name, OrgID: orgIDOf(cur)})
	p.notify(c, user, "A passkey was added to your Parapet account",
		"A passkey named \""+pk.Name+"\" was added to your Parapet account "+user.Email+": it signs in without a password.\n\n"+
			"If this was not you, remove it on your account page, change your password at once and tell your organization's owner.")
	return passkeyJSON(c, map[string]string{"redirect": paths.Account + "?passkey=added"})
}

// refused audits a passkey answer that failed its checks, logs the
// library's reason, and gives the one error every such failure shows.
func (p *Pages) refused(c echo.Context, step string, err error) error {
	var pe *protocol.Error
	reason := err.Error()
	if errors.As(err, &pe) {
		reason = pe.Details + ": " + pe.DevInfo
	}
	p.Log.Info("passkey refused", "step", step, "reason", reason)
	e := &models.AuditEvent{Action: models.ActionPasskeyFailure, Target: step}
	if u := CurrentOf(c).User; u != nil {
		e.ActorUserID, e.Target = &u.ID, u.Email
	}
	_ = p.audit(c, e)
	return errPasskeyRefused
}

// passkeyRows are the account's passkeys as the account page lists them.
func (p *Pages) passkeyRows(c echo.Context) ([]views.PasskeyRow, error) {
	rows, err := models.PasskeysOfUser(c.Request().Context(), p.DB.DB, CurrentOf(c).User.ID)
	if err != nil {
		return nil, err
	}
	out := make([]views.PasskeyRow, len(rows))
	for i, r := range rows {
		out[i] = views.PasskeyRow{ID: r.ID, Name: r.Name, Created: r.CreatedAt, LastUsed: r.LastUsedAt}
	}
	return out, nil
}

// RenamePasskey renames one of the account's passkeys.
func (p *Pages) RenamePasskey(c echo.Context) error {
	cur := CurrentOf(c)
	name, err := passkeyName(c.FormValue("name"))
	if err != nil {
		var ae *apierr.Error
		errors.As(err, &ae)
		return p.renderAccount(c, http.StatusUnprocessableEntity, views.AccountData{Email: cur.User.Email, PasskeyError: ae.Message})
	}
	if err := models.RenamePasskey(c.Request().Context(), p.DB.DB, cur.User.ID, c.Param("id"), name); err != nil {
		return err // another account's passkey is not found either
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &cur.User.ID, Action: models.ActionPasskeyRename, Target: cur.User.Email, Detail: &name, OrgID: orgIDOf(cur)})
	return c.Redirect(http.StatusSeeOther, paths.Account+"?passkey=renamed")
}

// recheckProof checks, before a change to how the account signs in
// (a passkey added or removed), the password again or, from an account
// with two-factor sign-in, a current code or an unused recovery code,
// under the sign-in throttle: a session left open, or stolen, is not
// enough. It answers as recheckPassword does.
func (p *Pages) recheckProof(c echo.Context, proof string) (status int, msg string, err error) {
	user := CurrentOf(c).User
	// A password is at least auth.MinPasswordLength (12) characters: six
	// digits or an 11-character recovery code are never one.
	if user.TOTPEnabledAt == nil || !totp.LooksLikeTOTP(proof) && len(strings.TrimSpace(proof)) != 11 {
		return p.recheckPassword(c, proof)
	}
	return p.recheckCode(c, proof, "two-factor codes", "That code is not right: enter your password, a current code or an unused recovery code.")
}

// RemovePasskey removes one of the account's passkeys. Like turning
// two-factor sign-in off it takes the password again (or a current TOTP
// or recovery code): recheckProof. Audited, and the account's address is
// told.
func (p *Pages) RemovePasskey(c echo.Context) error {
	ctx := c.Request().Context()
	cur := CurrentOf(c)
	user := cur.User
	if status, msg, err := p.recheckProof(c, c.FormValue("proof")); err != nil || msg != "" {
		return orRender(err, func() error {
			return p.renderAccount(c, status, views.AccountData{Email: user.Email, PasskeyError: msg})
		})
	}
	pk, err := models.DeletePasskey(ctx, p.DB.DB, user.ID, c.Param("id"))
	if err != nil {
		return err
	}
	_ = p.audit(c, &models.AuditEvent{ActorUserID: &user.ID, Action: models.ActionPasskeyRemove, Target: user.Email, Detail: &pk.Name, OrgID: orgIDOf(cur)})
	p.notify(c, user, "A passkey was removed from your Parapet account",
		"The passkey named \""+pk.Name+"\" was removed from your Parapet account "+user.Email+": it no longer signs in.\n\n"+
			"If this was not you, change your password at once and tell your organization's owner.")
	return c.Redirect(http.StatusSeeOther, paths.Account+"?passkey=removed")
}

// passkeyFlash is what the account page says after a passkey change.
var passkeyFlash = map[string]string{
	"added":   "The passkey is added: it signs you in without a password. A notice was sent to your email address.",
	"renamed": "The passkey is renamed.",
	"removed": "The passkey is removed. A notice was sent to your email address.",
}
