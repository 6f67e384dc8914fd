package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/cli"
	"parapet/models"
)

// parapetCLI runs the parapet command on the test application's database.
func parapetCLI(t *testing.T, env *apptest.Env, args ...string) string {
	t.Helper()
	var out, errOut strings.Builder
	vars := map[string]string{"DATABASE_URL": env.Config.DatabaseURL, "SESSION_SECRET": "cli-secret-cli-secret-cli-secret-0123456789"}
	if code := cli.Run(args, strings.NewReader(""), &out, &errOut, func(k string) string { return vars[k] }); code != 0 {
		t.Fatalf("parapet %v: exit %d: %s", args, code, errOut.String())
	}
	return out.String()
}

// invite makes an invitation through the console and returns its link.
func invite(t *testing.T, c *apptest.Client, email, role string) string {
	t.Helper()
	res := c.Submit("/console/invitations", "/console/invitations", url.Values{"email": {email}, "role": {role}})
	if res.StatusCode != 201 {
		t.Fatalf("invite %s: %d\n%s", email, res.StatusCode, res.Body)
	}
	link, _ := res.Doc(t).Find("[data-testid=invite-link-value]").Attr("value")
	if !strings.Contains(link, "/invite/") {
		t.Fatalf("no link shown: %q", link)
	}
	return link
}

// listsMember reports whether `member list` printed a line with the email
// and the role.
func listsMember(out, email, role string) bool {
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == email && f[1] == role {
			return true
		}
	}
	return false
}

func pathOf(t *testing.T, link string) string {
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

func TestInvitationsInTheConsole(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner := tm.clients["owner"]
		link := invite(t, owner, "New@Example.com", "viewer")
		if !strings.HasPrefix(link, env.Server.URL+"/invite/"+tm.org.ID+"/") {
			t.Errorf("link %q", link)
		}
		// Mailed through the mailer (the log, without SMTP_URL).
		if logs := env.Logs.String(); !strings.Contains(logs, "to=new@example.com") || !strings.Contains(logs, "invited to Acme") {
			t.Error("the invitation was not mailed")
		}
		// A viewer and a member cannot invite; an admin cannot invite an owner.
		for _, role := range []string{"viewer", "member"} {
			res := tm.clients[role].Submit("/console/invitations", "/console/invitations", url.Values{"email": {"x@example.com"}, "role": {"member"}})
			if res.StatusCode != 403 || !strings.Contains(formError(t, res), "cannot invite") {
				t.Errorf("a %s inviting: %d %q", role, res.StatusCode, formError(t, res))
			}
		}
		if res := tm.clients["admin"].Submit("/console/invitations", "/console/invitations", url.Values{"email": {"x@example.com"}, "role": {"owner"}}); res.StatusCode != 403 {
			t.Errorf("an admin inviting an owner: %d", res.StatusCode)
		}
		path := pathOf(t, link)

		// A visitor is sent to sign up and comes back to the invitation.
		guest := env.Client()
		page := guest.Get(path)
		signup, _ := page.Doc(t).Find("[data-testid=invite-signup]").Attr("href")
		if page.StatusCode != 200 || signup != "/console/signup?next="+url.QueryEscape(path) {
			t.Fatalf("the visitor's page: %d, sign-up link %q", page.StatusCode, signup)
		}
		res := guest.Submit(signup, "/console/signup", url.Values{"email": {"new@example.com"}, "password": {apptest.TestPassword}, "next": {path}})
		if res.StatusCode != 303 || res.Header.Get("Location") != path {
			t.Fatalf("sign-up came back to %q (%d)", res.Header.Get("Location"), res.StatusCode)
		}
		// The invitation leans on the address: an account that has not
		// proven it cannot accept, and can once it has.
		if res := guest.Submit(path, path, nil); res.StatusCode != 403 || res.Doc(t).Find("[data-testid=invite-unverified]").Length() != 1 {
			t.Errorf("an unverified account accepting: %d, want 403 asking to confirm the address", res.StatusCode)
		}
		guest.VerifyEmail("new@example.com")
		doc := guest.Get(path).Doc(t)
		if doc.Find("[data-testid=invite-org]").Text() != "Acme" || doc.Find("[data-testid=invite-role]").Text() != "viewer" {
			t.Errorf("the invitation page does not show the organization and role")
		}
		if res := guest.Submit(path, path, nil); res.StatusCode != 303 {
			t.Fatalf("accept: %d %s", res.StatusCode, res.Body)
		}
		if got := parapetCLI(t, env, "member", "list", "--org", "acme"); !listsMember(got, "new@example.com", "viewer") {
			t.Errorf("member list after accepting:\n%s", got)
		}
		// Accepting twice is a clear page, as is a revoked, an expired, a
		// foreign and a made-up link: never a 500.
		if res := guest.Get(path); res.StatusCode != 410 || res.Doc(t).Find("[data-testid=invite-accepted]").Length() != 1 {
			t.Errorf("the used link: %d", res.StatusCode)
		}
		other := env.Client()
		other.SignUp("other@example.com")
		other.CreateOrg("Other")
		var otherOrg models.Organization
		env.DB.Where("slug = ?", "other").Take(&otherOrg)
		token := path[strings.LastIndex(path, "/")+1:]
		revokedPath := pathOf(t, invite(t, owner, "late@example.com", "member"))
		var inv models.Invitation
		env.DB.Where("email = ?", "late@example.com").Take(&inv)
		if res := owner.Submit("/console/invitations", "/console/invitations/"+inv.ID+"/revoke", nil); res.StatusCode != 303 {
			t.Errorf("revoke: %d", res.StatusCode)
		}
		expiredPath := pathOf(t, invite(t, owner, "slow@example.com", "member"))
		env.DB.Model(&models.Invitation{}).Where("email = ?", "slow@example.com").Update("expires_at", time.Now().UTC().Add(-time.Hour))
		mismatchPath := pathOf(t, invite(t, owner, "someone.else@example.com", "member"))
		for p, want := range map[string]struct {
			status int
			state  string
		}{
			revokedPath:                            {410, "revoked"},
			expiredPath:                            {410, "expired"},
			"/invite/" + otherOrg.ID + "/" + token: {404, "invalid"},
			"/invite/" + tm.org.ID + "/nope":       {404, "invalid"},
			mismatchPath:                           {403, "mismatch"},
		} {
			for _, method := range []string{"GET", "POST"} {
				var res *apptest.Response
				if method == "GET" {
					res = other.Get(p)
				} else {
					res = other.Submit("/console", p, nil)
				}
				if res.StatusCode != want.status || res.Doc(t).Find("[data-testid=invite-"+want.state+"]").Length() != 1 {
					t.Errorf("%s %s: %d, want %d %s", method, p, res.StatusCode, want.status, want.state)
				}
			}
		}
		// The list shows each invitation's state.
		var states []string
		owner.Get("/console/invitations").Doc(t).Find("[data-testid=invitation-state]").Each(func(_ int, s *goquery.Selection) { states = append(states, s.Text()) })
		if strings.Join(states, " ") != "pending expired revoked accepted" {
			t.Errorf("states %v", states)
		}
		var joins []models.AuditEvent
		env.DB.Where("action = ?", models.ActionMemberJoin).Find(&joins)
		if len(joins) != 1 {
			t.Errorf("%d member.join events", len(joins))
		}
	})
}

// An invitation holds while its sender may still give its role: an admin
// removed or made a member since cannot have let anyone in through it (the
// link then says it was revoked, and the list too). An admin cannot revoke
// an invitation to a role it could not give (owner).
func TestInvitationsFollowTheirSender(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	tm := newTeam(t, env)
	owner, admin := tm.clients["owner"], tm.clients["admin"]
	removed := pathOf(t, invite(t, admin, "alt@example.com", "admin"))
	demoted := pathOf(t, invite(t, admin, "alt2@example.com", "member"))
	if res := owner.Submit("/console/members", "/console/members/"+tm.ids["admin"]+"/role", url.Values{"role": {"member"}}); res.StatusCode != 303 {
		t.Fatalf("demote the admin: %d", res.StatusCode)
	}
	alt2 := env.Client()
	alt2.SignUp("alt2@example.com")
	alt2.VerifyEmail("alt2@example.com")
	if res := alt2.Submit(demoted, demoted, nil); res.StatusCode != 410 || res.Doc(t).Find("[data-testid=invite-revoked]").Length() != 1 {
		t.Errorf("accepting a demoted admin's invitation: %d", res.StatusCode)
	}
	if res := owner.Submit("/console/members", "/console/members/"+tm.ids["admin"]+"/remove", nil); res.StatusCode != 303 {
		t.Fatalf("remove the (former) admin: %d", res.StatusCode)
	}
	alt := env.Client()
	alt.SignUp("alt@example.com")
	alt.VerifyEmail("alt@example.com")
	if res := alt.Submit(removed, removed, nil); res.StatusCode != 410 || res.Doc(t).Find("[data-testid=invite-revoked]").Length() != 1 {
		t.Errorf("accepting a removed admin's invitation: %d", res.StatusCode)
	}
	if got := parapetCLI(t, env, "member", "list", "--org", "acme"); strings.Contains(got, "alt") {
		t.Errorf("a removed admin's invitation let someone in:\n%s", got)
	}

	// An owner's invitation to the owner role: not the admin's to revoke.
	invite(t, owner, "boss@example.com", "owner")
	var inv models.Invitation
	env.DB.Where("email = ?", "boss@example.com").Take(&inv)
	other := tm.clients["member"] // promote another admin to try
	if res := owner.Submit("/console/members", "/console/members/"+tm.ids["member"]+"/role", url.Values{"role": {"admin"}}); res.StatusCode != 303 {
		t.Fatalf("promote: %d", res.StatusCode)
	}
	if res := other.Submit("/console/invitations", "/console/invitations/"+inv.ID+"/revoke", nil); res.StatusCode != 403 {
		t.Errorf("an admin revoking an invitation to owner: %d", res.StatusCode)
	}
	env.DB.Where("id = ?", inv.ID).Take(&inv)
	if inv.RevokedAt != nil {
		t.Error("the owner invitation was revoked by an admin")
	}
}

// An invitation link's token admits whoever holds it: the request log
// names the organization of the link, never its token, on opening and on
// accepting.
func TestInvitationTokenStaysOutOfTheRequestLog(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	tm := newTeam(t, env)
	path := pathOf(t, invite(t, tm.clients["owner"], "guest@example.com", "member"))
	token := path[strings.LastIndex(path, "/")+1:]
	guest := env.Client()
	guest.SignUp("guest@example.com")
	guest.VerifyEmail("guest@example.com")
	if res := guest.Submit(path, path, nil); res.StatusCode != 303 {
		t.Fatalf("accept: %d", res.StatusCode)
	}
	var lines int
	for _, line := range strings.Split(env.Logs.String(), "\n") {
		if !strings.Contains(line, "msg=request") || !strings.Contains(line, "/invite/") {
			continue
		}
		lines++
		if strings.Contains(line, token) || !strings.Contains(line, "path=/invite/"+tm.org.ID+"/:token") {
			t.Errorf("request log line: %s", line)
		}
	}
	if lines != 2 {
		t.Errorf("%d request lines for the link, want 2 (open, accept)", lines)
	}
}
