package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
)

// The account page lists each signed-in browser with its browser name,
// address and last use; ending one signs that browser out, and "every
// other session" leaves only this one.
func TestAccountSessions(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		env.Seed(t, "multi@example.com")
		firefox, chrome, curl := env.Client(), env.Client(), env.Client()
		for _, b := range []struct {
			c  *apptest.Client
			ua string
		}{
			{firefox, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"},
			{chrome, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36"},
			{curl, "curl/8.5.0"},
		} {
			tok := b.c.CSRF("/console/signin")
			res := b.c.Do(http.MethodPost, "/console/signin", "_csrf="+tok+"&email=multi%40example.com&password="+strings.ReplaceAll(apptest.TestPassword, " ", "+"),
				"Content-Type", "application/x-www-form-urlencoded", "User-Agent", b.ua)
			if res.StatusCode != 303 {
				t.Fatalf("sign in as %s: %d", b.ua, res.StatusCode)
			}
		}
		doc := firefox.Get("/console/account").Doc(t)
		rows := doc.Find("[data-testid=session-row]")
		if rows.Length() != 3 {
			t.Fatalf("%d sessions listed, want 3", rows.Length())
		}
		text := rows.Text()
		for _, want := range []string{"Firefox on Linux", "Chrome on macOS", "curl", "127.0.0.1", time.Now().UTC().Format("2006-01-02")} {
			if !strings.Contains(text, want) {
				t.Errorf("session list lacks %q:\n%s", want, text)
			}
		}
		if cur := doc.Find("[data-testid=session-current]").Closest("tr").Text(); !strings.Contains(cur, "Firefox") {
			t.Errorf("the current session is marked on %q, want the Firefox one", cur)
		}

		// End chrome's session from firefox.
		var chromeEnd string
		rows.Each(func(_ int, r *goquery.Selection) {
			if strings.Contains(r.Text(), "Chrome on macOS") {
				chromeEnd, _ = r.Find("form").Attr("action")
			}
		})
		if res := firefox.Submit("/console/account", chromeEnd, nil); res.StatusCode != 303 {
			t.Fatalf("end a session: %d", res.StatusCode)
		}
		if res := chrome.Get("/console"); res.StatusCode != 303 {
			t.Errorf("the ended session still works: %d", res.StatusCode)
		}
		if res := curl.Get("/console"); res.StatusCode != 200 {
			t.Errorf("another session ended too: %d", res.StatusCode)
		}
		// End every other session.
		if res := firefox.Submit("/console/account", "/console/account/sessions/end-others", nil); res.StatusCode != 303 {
			t.Fatalf("end others: %d", res.StatusCode)
		}
		if res := curl.Get("/console"); res.StatusCode != 303 {
			t.Errorf("end others left a session: %d", res.StatusCode)
		}
		res := firefox.Get("/console/account")
		if res.StatusCode != 200 || res.Doc(t).Find("[data-testid=session-row]").Length() != 1 {
			t.Errorf("after ending the others: %d, %d sessions listed", res.StatusCode, res.Doc(t).Find("[data-testid=session-row]").Length())
		}
		// Another account cannot end this session by its handle.
		env.Seed(t, "intruder@example.com")
		intruder := env.Client()
		intruder.SignIn("intruder@example.com", apptest.TestPassword)
		handle, _ := res.Doc(t).Find("[data-testid=session-row] form").Attr("action")
		if r := intruder.Submit("/console/account", handle, nil); r.StatusCode != 404 {
			t.Errorf("another account ending this session: %d, want 404", r.StatusCode)
		}
		if r := firefox.Get("/console"); r.StatusCode != 200 {
			t.Errorf("the session was ended by another account: %d", r.StatusCode)
		}
	})
}

// Over HTTPS (here through a trusted proxy) the session cookie is named
// __Host-parapet_session and is Secure, HttpOnly, SameSite=Lax, Path=/,
// with no Domain and a lifetime of at most 12 hours.
func TestSessionCookieOverHTTPS(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("TRUST_PROXY", "true"))
	env.Seed(t, "secure@example.com")
	c := env.Client()
	page := c.Get("/console/signin", "X-Forwarded-Proto", "https")
	tok, _ := page.Doc(t).Find("input[name=_csrf]").Attr("value")
	var csrf string
	for _, ck := range page.Cookies() {
		if ck.Name == "__Host-parapet_csrf" || ck.Name == "parapet_csrf" {
			csrf = ck.Name + "=" + ck.Value
		}
	}
	res := c.Do(http.MethodPost, "/console/signin", "_csrf="+tok+"&email=secure%40example.com&password="+strings.ReplaceAll(apptest.TestPassword, " ", "+"),
		"Content-Type", "application/x-www-form-urlencoded", "X-Forwarded-Proto", "https", "Cookie", csrf)
	if res.StatusCode != 303 {
		t.Fatalf("sign in over https: %d %s", res.StatusCode, res.Body)
	}
	var found bool
	for _, line := range res.Header.Values("Set-Cookie") {
		if !strings.HasPrefix(line, "__Host-parapet_session=") {
			continue
		}
		found = true
		for _, want := range []string{"Path=/", "HttpOnly", "Secure", "SameSite=Lax", "Max-Age=43200"} {
			if !strings.Contains(line, want) {
				t.Errorf("session cookie %q lacks %s", line, want)
			}
		}
		if strings.Contains(strings.ToLower(line), "domain=") {
			t.Errorf("session cookie %q has a Domain", line)
		}
	}
	if !found {
		t.Errorf("no __Host-parapet_session cookie over https: %v", res.Header.Values("Set-Cookie"))
	}
}
