package web_test

import (
	"net/url"
	"testing"

	"parapet/app/apptest"
)

// An address or an organization's name with an invisible character (a bidi
// override, a zero-width space) would pass for another one in the members
// list, the audit log and mail: "al\u200bice@example.com" shows as
// alice@example.com. Each form refuses them with 422 and stores nothing.
func TestInvisibleCharactersAreRefused(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		spoofs := []string{"al\u200bice@example.com", "ad\u202emin@example.com", "alice@exa\u2060mple.com", "bob\u00a0@example.com"}
		for _, email := range spoofs {
			c := env.Client()
			res := c.Submit("/console/signup", "/console/signup", url.Values{"email": {email}, "password": {apptest.TestPassword}})
			if res.StatusCode != 422 {
				t.Errorf("sign-up as %q: status %d, want 422", email, res.StatusCode)
			}
		}
		var users int64
		env.DB.Table("users").Count(&users)
		if users != 0 {
			t.Errorf("%d accounts made with invisible characters", users)
		}

		c := env.Client()
		c.SignUp("owner@example.com")
		for _, name := range []string{"Acme\u202e gnp.exe", "Ac\u200bme", "Acme\u2066"} {
			res := c.Submit("/console/orgs", "/console/orgs", url.Values{"name": {name}})
			if res.StatusCode != 422 {
				t.Errorf("organization %q: status %d, want 422", name, res.StatusCode)
			}
		}
		var orgs int64
		env.DB.Table("organizations").Count(&orgs)
		if orgs != 0 {
			t.Errorf("%d organizations made with invisible characters", orgs)
		}
		c.CreateOrg("Acme Café 株式会社") // visible non-ASCII is fine
		for _, email := range spoofs {
			res := c.Submit("/console/invitations", "/console/invitations", url.Values{"email": {email}, "role": {"member"}})
			if res.StatusCode != 422 {
				t.Errorf("invitation to %q: status %d, want 422", email, res.StatusCode)
			}
		}
		var invs int64
		env.DB.Table("invitations").Count(&invs)
		if invs != 0 {
			t.Errorf("%d invitations to addresses with invisible characters", invs)
		}
	})
}
