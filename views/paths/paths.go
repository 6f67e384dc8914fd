// Package paths names the site's page URLs, so that templates and
// handlers link to a page by name rather than repeat its address.
// app/routes.go serves them; a test there checks each one is routed.
package paths

import "net/url"

// The pages and forms.
const (
	Home             = "/"
	Docs             = "/docs"
	OpenAPI          = "/openapi.json"
	APIReference     = "/docs/api-reference"
	ConsoleJoined    = "/console?joined=1" // after accepting an invitation
	Console          = "/console"
	SignUp           = "/console/signup"
	SignIn           = "/console/signin"
	SignOut          = "/console/signout"
	Orgs             = "/console/orgs"
	SwitchOrg        = "/console/orgs/switch"
	Keys             = "/console/keys"
	KeyLeaksSeen     = "/console/keys/leaks/seen"
	Members          = "/console/members"
	Invitations      = "/console/invitations"
	TwoFactor        = "/console/account/2fa"
	TwoFactorOff     = "/console/account/2fa/disable"
	LeaveOrg         = "/console/members/leave"
	Settings         = "/console/settings"
	RenameOrg        = "/console/settings/name"
	Require2FA       = "/console/settings/require-2fa"
	DeleteOrg        = "/console/settings/delete-org"
	SignInCode       = "/console/signin/2fa"
	Usage            = "/console/usage"
	UsageCSV         = Usage + "/calls.csv"
	UsageBudget      = Usage + "/budget"
	UsageModels      = Usage + "/models"
	Audit            = "/console/audit"
	Account          = "/console/account"
	ChangePassword   = "/console/account/password"
	EndOtherSessions = "/console/account/sessions/end-others"
	Products         = "/console/products"
	LogAnalyzer      = "/logs/app"
	LogCompare       = "/logs/app/compare"
	ConfigScanner    = "/scan/app"
	Playground       = "/gateway/app"
	PlaygroundChat   = "/gateway/app/chat"
	AccountChanged   = Account + "?changed=1"
	ForgotPassword   = "/console/password/forgot"
	SignInAfterReset = SignIn + "?reset=1"
	VerifyEmail      = "/console/account/verify"
	CheckPassword    = "/console/password/check"
	GatewayCallsLog  = Audit + "?action=gateway.call"
)

// RevokeKey is the form that revokes the API key id.
func RevokeKey(id string) string { return Keys + "/" + url.PathEscape(id) + "/revoke" }

// EndSession is the form that ends the session handle names.
func EndSession(handle string) string {
	return Account + "/sessions/" + url.PathEscape(handle) + "/end"
}

// RollKey is the form that rolls the API key id.
func RollKey(id string) string { return Keys + "/" + url.PathEscape(id) + "/roll" }

// MemberRole is the form that changes the role of the member userID.
func MemberRole(userID string) string { return Members + "/" + url.PathEscape(userID) + "/role" }

// RemoveMember is the form that removes the member userID.
func RemoveMember(userID string) string { return Members + "/" + url.PathEscape(userID) + "/remove" }

// RevokeInvitation is the form that revokes the invitation id.
func RevokeInvitation(id string) string { return Invitations + "/" + url.PathEscape(id) + "/revoke" }

// Product is the form that updates the product slug.
func Product(slug string) string { return Products + "/" + url.PathEscape(slug) }

// ProductSaved is the products page after slug was saved.
func ProductSaved(slug string) string { return Products + "?saved=" + url.QueryEscape(slug) }

// DocsOperation is the API reference at one operation (its OpenAPI
// operationId).
func DocsOperation(operationID string) string { return APIReference + "#" + operationID }

// DocsPage is the documentation page made from views/docs/slug.md.
func DocsPage(slug string) string { return Docs + "/" + url.PathEscape(slug) }

// SignInThen is the sign-in page that returns to next afterwards.
func SignInThen(next string) string { return SignIn + "?next=" + url.QueryEscape(next) }

// ResetPassword is a password reset link's page (the token is the link's
// secret).
func ResetPassword(token string) string { return "/console/password/reset/" + url.PathEscape(token) }

// ConfirmEmail is an email verification link's page.
func ConfirmEmail(token string) string { return "/verify/" + url.PathEscape(token) }

// Passkeys: the steps of WebAuthn ceremonies (static/js/passkeys.js posts
// to them) and the account page's forms.
const (
	PasskeyRegisterBegin  = "/console/account/passkeys/begin"
	PasskeyRegisterFinish = "/console/account/passkeys/finish"
	PasskeySignInBegin    = "/console/signin/passkey/begin"
	PasskeySignInFinish   = "/console/signin/passkey/finish"
	PasskeySecondBegin    = "/console/signin/2fa/passkey/begin"
	PasskeySecondFinish   = "/console/signin/2fa/passkey/finish"
)

// RenamePasskey is the form that renames the passkey id.
func RenamePasskey(id string) string { return Account + "/passkeys/" + url.PathEscape(id) + "/rename" }

// RemovePasskey is the form that removes the passkey id.
func RemovePasskey(id string) string { return Account + "/passkeys/" + url.PathEscape(id) + "/remove" }
