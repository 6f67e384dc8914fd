package apptest

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"parapet/app/auth"
	"parapet/app/keys"
	"parapet/models"
)

// TestPassword is the password test users sign up with.
const TestPassword = "correct horse battery"

// CSRF fetches a page and returns the CSRF token its forms carry.
func (c *Client) CSRF(path string) string {
	c.t.Helper()
	res := c.Get(path)
	tok, ok := res.Doc(c.t).Find(`input[name=_csrf]`).First().Attr("value")
	if !ok || tok == "" {
		c.t.Fatalf("no CSRF token on %s (status %d)", path, res.StatusCode)
	}
	return tok
}

// Submit posts a form the way a browser would, with the page's CSRF token.
func (c *Client) Submit(page, action string, values url.Values) *Response {
	c.t.Helper()
	if values == nil {
		values = url.Values{}
	}
	values.Set("_csrf", c.CSRF(page))
	return c.PostForm(action, values)
}

// SignUp creates an account through the sign-up form and stays signed in.
func (c *Client) SignUp(email string) {
	c.t.Helper()
	res := c.Submit("/console/signup", "/console/signup", url.Values{"email": {email}, "password": {TestPassword}})
	if res.StatusCode != 303 {
		c.t.Fatalf("sign up %s: status %d\n%s", email, res.StatusCode, res.Body)
	}
}

// SignIn signs in through the form.
func (c *Client) SignIn(email, password string) *Response {
	c.t.Helper()
	return c.Submit("/console/signin", "/console/signin", url.Values{"email": {email}, "password": {password}})
}

// CreateOrg creates an organization through the console; it becomes the
// current one.
func (c *Client) CreateOrg(name string) {
	c.t.Helper()
	res := c.Submit("/console/orgs", "/console/orgs", url.Values{"name": {name}})
	if res.StatusCode != 303 {
		c.t.Fatalf("create org %s: status %d\n%s", name, res.StatusCode, res.Body)
	}
}

// CreateKey creates a key in the current organization through the console
// with every scope and returns its text and id, read from the page that
// shows it once.
func (c *Client) CreateKey(name string) (key, id string) {
	c.t.Helper()
	res := c.Submit("/console/keys", "/console/keys", url.Values{"name": {name}, "scopes": keys.Scopes})
	if res.StatusCode != 201 {
		c.t.Fatalf("create key %s: status %d\n%s", name, res.StatusCode, res.Body)
	}
	doc := res.Doc(c.t)
	key, _ = doc.Find(`[data-testid=new-key-value]`).Attr("value")
	id, _ = doc.Find(`[data-testid=key-row]`).First().Attr("data-key-id") // newest first
	if key == "" || id == "" {
		c.t.Fatalf("the new key is not on the page:\n%s", res.Body)
	}
	return key, id
}

// Seeded is an organization with a member and a key, made directly in the
// database for tests of the APIs.
type Seeded struct {
	UserID, Email string
	OrgID         string
	Key, KeyID    string
}

// Seed creates a user, an organization they own and an active key.
func (e *Env) Seed(t testing.TB, email string) Seeded {
	t.Helper()
	ctx := context.Background()
	hash, _ := auth.HashPassword(TestPassword)
	u, err := models.CreateUser(ctx, e.DB.DB, email, hash)
	if err != nil {
		t.Fatal(err)
	}
	org, err := models.CreateOrg(ctx, e.DB.DB, email+" org", u.ID, e.Config.Gateway.MonthlyTokens)
	if err != nil {
		t.Fatal(err)
	}
	key, id := e.SeedKey(t, org.ID, "seed")
	return Seeded{UserID: u.ID, Email: u.Email, OrgID: org.ID, Key: key, KeyID: id}
}

// SeedKey adds an active key to an organization.
func (e *Env) SeedKey(t testing.TB, orgID, name string) (key, id string) {
	t.Helper()
	text, hash, hint := keys.Generate()
	k := &models.APIKey{ID: models.NewID("key"), OrgID: orgID, Name: name + "-" + models.RandomBase62(4), Hint: hint, Hash: hash, CreatedAt: models.Now()}
	if err := models.CreateAPIKey(context.Background(), e.DB.DB, k); err != nil {
		t.Fatal(err)
	}
	return text, k.ID
}

// ReportLeak reports keys as published through the public leak report
// endpoint, as anyone may.
func (c *Client) ReportLeak(ks ...string) *Response {
	b, _ := json.Marshal(map[string][]string{"keys": ks})
	return c.PostJSON("/keys/v1/leaked", string(b))
}

var verifyLink = regexp.MustCompile(`/verify/[0-9A-Za-z]{32}`)

// VerifyEmail confirms the address of the client's account with the last
// verification link the development mailer logged for it, as its owner
// would from the mail.
func (c *Client) VerifyEmail(email string) {
	c.t.Helper()
	link := ""
	for _, line := range strings.Split(c.env.Logs.String(), "\n") {
		if strings.Contains(line, "Confirm your email address") && strings.Contains(line, email) {
			if l := verifyLink.FindString(line); l != "" {
				link = l
			}
		}
	}
	if link == "" {
		c.t.Fatalf("no verification link was mailed to %s", email)
	}
	if res := c.Submit(link, link, nil); res.StatusCode != 200 {
		c.t.Fatalf("verify %s: status %d", email, res.StatusCode)
	}
}
