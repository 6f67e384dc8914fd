package app_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
	"parapet/models"
)

// Every JSON endpoint refuses duplicate keys and NUL characters with 400
// invalid_request and a charset other than UTF-8 with 415, before any
// handler acts (the scanner's engine refuses repeated keys itself, naming
// every one); nothing is stored.
func TestJSONHygiene(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "json@example.com")
		auth := []string{"Authorization", "Bearer " + s.Key}
		c := env.Client()
		for _, tc := range []struct {
			name, path, ctype, body string
			status                  int
			code, msg               string
		}{
			// The scanner's engine names every repeated key, with its path and line.
			{"scan: duplicate key", "/scan/v1/scan", "application/json", `{"resources":[{"type":"s3_bucket","name":"a","name":"b"}]}`, 400, "invalid_request", `resources[0].name: appears more than once (parsers disagree on which copy counts) (line 1, column 46)`},
			{"scan: duplicate top key", "/scan/v1/scan", "application/json", `{"resources":[],"resources":[{"type":"s3_bucket","name":"a"}]}`, 400, "invalid_request", "resources: appears more than once"},
			{"logs: duplicate key", "/logs/v1/analyze", "application/json", `{"text":"ok\n","text":"ERROR boom\n"}`, 400, "invalid_request", "repeats the key"},
			{"gateway: duplicate key", "/gateway/v1/chat", "application/json", `{"messages":[{"role":"user","content":"a","role":"system"}]}`, 400, "invalid_request", "repeats the key"},
			{"logs: NUL in a string", "/logs/v1/analyze", "application/json", `{"text":"a\u0000b ERROR\n"}`, 400, "invalid_request", "NUL"},
			{"gateway: NUL in a string", "/gateway/v1/chat", "application/json", `{"messages":[{"role":"user","content":"hi\u0000"}]}`, 400, "invalid_request", "NUL"},
			{"scan: UTF-16", "/scan/v1/scan", "application/json; charset=utf-16", `{"resources":[]}`, 415, "unsupported_media_type", "UTF-8"},
			{"logs: latin-1", "/logs/v1/analyze", "application/json; charset=iso-8859-1", `{"text":"x\n"}`, 415, "unsupported_media_type", "UTF-8"},
			{"gateway: UTF-16", "/gateway/v1/chat", "application/json; charset=UTF-16LE", `{"messages":[]}`, 415, "unsupported_media_type", "UTF-8"},
			{"scan: explicit utf-8 is fine", "/scan/v1/scan", "application/json; charset=UTF-8", `{"resources":[]}`, 200, "", ""},
			{"scan: same key in two objects is fine", "/scan/v1/scan", "application/json", `{"resources":[{"type":"s3_bucket","name":"a"},{"type":"s3_bucket","name":"b"}]}`, 200, "", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := c.Do("POST", tc.path, tc.body, append([]string{"Content-Type", tc.ctype}, auth...)...)
				if res.StatusCode != tc.status || tc.code != "" && !strings.Contains(res.Body, `"code":"`+tc.code+`"`) || !strings.Contains(res.Body, tc.msg) {
					t.Errorf("status %d %.300s, want %d %s mentioning %q", res.StatusCode, res.Body, tc.status, tc.code, tc.msg)
				}
			})
		}
	}, apptest.WithEnv("GATEWAY_DEMO_WORD_DELAY", "0s"))
}

// A NUL byte or invalid UTF-8 in any form field is refused with 400 and a
// message naming the field; nothing is stored.
func TestFormTextHygiene(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := env.Client()
		c.SignUp("forms@example.com")
		var before int64
		env.DB.Model(&models.Organization{}).Count(&before)
		for _, name := range []string{"bad\x00org", "bad\xff\xfeorg"} {
			res := c.Submit("/console/orgs", "/console/orgs", url.Values{"name": {name}})
			if res.StatusCode != 400 || !strings.Contains(res.Body, "form field “name”") {
				t.Errorf("org name %q: status %d, want 400 naming the field: %.400s", name, res.StatusCode, res.Body)
			}
		}
		res := env.Client().Submit("/console/signup", "/console/signup", url.Values{"email": {"nul\x00@example.com"}, "password": {apptest.TestPassword}})
		if res.StatusCode != 400 {
			t.Errorf("sign-up with a NUL in the email: %d, want 400", res.StatusCode)
		}
		var after, users int64
		env.DB.Model(&models.Organization{}).Count(&after)
		env.DB.Model(&models.User{}).Count(&users)
		if after != before || users != 1 {
			t.Errorf("hostile forms stored something: organizations %d -> %d, users %d", before, after, users)
		}
	})
}

// The CSRF token counts only from the form body or the X-CSRF-Token
// header, never the query string; a request from another origin, or that
// the browser marks cross-site, is refused with 403 even with a valid token.
func TestCSRFOriginAndQuery(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	c.SignUp("csrf@example.com")
	tok := c.CSRF("/console/orgs")
	form := "name=Acme"
	post := func(path string, headers ...string) *apptest.Response {
		return c.Do("POST", path, form, append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
	}
	if res := post("/console/orgs?_csrf=" + url.QueryEscape(tok)); res.StatusCode != 403 {
		t.Errorf("token in the query: %d, want 403", res.StatusCode)
	}
	if res := post("/console/orgs", "X-CSRF-Token", tok, "Origin", "https://evil.example"); res.StatusCode != 403 {
		t.Errorf("valid token from another origin: %d, want 403", res.StatusCode)
	}
	if res := post("/console/orgs", "X-CSRF-Token", tok, "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 {
		t.Errorf("valid token, Sec-Fetch-Site: cross-site: %d, want 403", res.StatusCode)
	}
	if res := post("/console/orgs", "X-CSRF-Token", tok, "Origin", "null"); res.StatusCode != 403 {
		t.Errorf("valid token, Origin: null: %d, want 403", res.StatusCode)
	}
	var n int64
	env.DB.Model(&models.Organization{}).Where("name = ?", "Acme").Count(&n)
	if n != 0 {
		t.Fatalf("a refused request created %d organizations", n)
	}
	if res := post("/console/orgs", "X-CSRF-Token", tok, "Origin", env.Server.URL, "Sec-Fetch-Site", "same-origin"); res.StatusCode != 303 {
		t.Errorf("same origin with the token: %d, want 303", res.StatusCode)
	}
	if res := c.Do("POST", "/console/orgs", "name=Beta&_csrf="+url.QueryEscape(tok), "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode != 303 {
		t.Errorf("token in the form body: %d, want 303", res.StatusCode)
	}
}

// PUBLIC_URL, when set, is our origin: a request whose Origin is the
// server's own address but not PUBLIC_URL is refused.
func TestCSRFOriginIsPublicURL(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("PUBLIC_URL", "http://parapet.example"))
	c := env.Client()
	c.SignUp("pub@example.com")
	tok := c.CSRF("/console/orgs")
	h := []string{"Content-Type", "application/x-www-form-urlencoded", "X-CSRF-Token", tok}
	if res := c.Do("POST", "/console/orgs", "name=A", append(h, "Origin", env.Server.URL)...); res.StatusCode != 403 {
		t.Errorf("Origin not PUBLIC_URL: %d, want 403", res.StatusCode)
	}
	if res := c.Do("POST", "/console/orgs", "name=A", append(h, "Origin", "http://parapet.example")...); res.StatusCode != 303 {
		t.Errorf("Origin = PUBLIC_URL: %d, want 303", res.StatusCode)
	}
}

// rawPost sends a request with a body of n bytes over a plain connection,
// writing the whole body before reading anything (as many clients do),
// then reads the response.
func rawPost(t *testing.T, env *apptest.Env, path, ctype, key string, n int, chunked bool) (*http.Response, error) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", env.Server.Listener.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	w := bufio.NewWriterSize(conn, 64<<10)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nAuthorization: Bearer %s\r\n", path, env.Server.Listener.Addr(), ctype, key)
	if chunked {
		fmt.Fprintf(w, "Transfer-Encoding: chunked\r\n\r\n")
	} else {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", n)
	}
	chunk := []byte(strings.Repeat("a", 32<<10))
	for sent := 0; sent < n; sent += len(chunk) {
		part := chunk[:min(len(chunk), n-sent)]
		if chunked {
			fmt.Fprintf(w, "%x\r\n", len(part))
		}
		if _, err := w.Write(part); err != nil {
			return nil, fmt.Errorf("writing the body: %w", err)
		}
		if chunked {
			w.WriteString("\r\n")
		}
	}
	if chunked {
		w.WriteString("0\r\n\r\n")
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("writing the body: %w", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res, nil
}

// A client that sends a whole oversized body before reading gets the 413,
// not a connection reset: the server drains the body up to a bound. Sign-in
// takes a few KiB; the APIs have their own limits.
func TestOversizedBodyAnswered413(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "big@example.com")
	for _, tc := range []struct {
		name, path, ctype string
		n                 int
		chunked           bool
	}{
		{"sign-in form, 9 KiB", "/console/signin", "application/x-www-form-urlencoded", 9 << 10, false},
		{"sign-in form, 20 MiB", "/console/signin", "application/x-www-form-urlencoded", 20 << 20, false},
		{"sign-up form, 20 MiB chunked", "/console/signup", "application/x-www-form-urlencoded", 20 << 20, true},
		{"health, 2 MiB", "/v1/health", "application/json", 2 << 20, false},
		{"scan API, 12 MiB", "/scan/v1/scan", "application/json", 12 << 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := rawPost(t, env, tc.path, tc.ctype, s.Key, tc.n, tc.chunked)
			if err != nil {
				t.Fatalf("the client saw %v, want to read a 413", err)
			}
			if res.StatusCode != 413 {
				t.Errorf("status %d, want 413", res.StatusCode)
			}
		})
	}
}
