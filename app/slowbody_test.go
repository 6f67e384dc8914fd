package app_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"parapet/app"
	"parapet/app/apptest"
)

// A body that stops arriving is cut off by the server's ReadTimeout. The
// client (if it still listens) is told so with 408, in its area's way: the
// spec's JSON error on the APIs, a page on the browser routes. It was a 400
// (the read error, as a malformed body) or a 403 (the CSRF check finding no
// token in a form it could not read).
func TestBodyThatNeverFinishesIs408(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "slow@example.com")
	// The server's own settings, with a short read timeout so the test
	// need not wait a minute.
	srv := httptest.NewUnstartedServer(env.App.Handler())
	srv.Config = app.NewServer(env.App.Handler())
	srv.Config.ReadTimeout = 700 * time.Millisecond
	srv.Start()
	defer srv.Close()

	c := env.Client()
	c.SignIn("slow@example.com", apptest.TestPassword)
	var cookies []string
	for _, ck := range c.Cookies() {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	cookie := strings.Join(cookies, "; ")
	csrf := c.CSRF("/console/keys")

	cases := []struct {
		name, method, path, ctype string
		headers                   []string
		json                      bool
		chunked                   bool
	}{
		{"public API", "POST", "/v1/products", "application/json", []string{"Authorization: Bearer " + s.Key}, true, false},
		{"log analyzer API", "POST", "/logs/v1/analyze", "text/plain", []string{"Authorization: Bearer " + s.Key}, true, false},
		{"scanner API", "POST", "/scan/v1/scan", "application/json", []string{"Authorization: Bearer " + s.Key}, true, false},
		{"scanner API, chunked", "POST", "/scan/v1/scan", "application/json", []string{"Authorization: Bearer " + s.Key}, true, true},
		{"gateway", "POST", "/gateway/v1/chat", "application/json", []string{"Authorization: Bearer " + s.Key}, true, false},
		{"leak reports", "POST", "/keys/v1/leaked", "application/json", nil, true, false},
		{"sign-in form", "POST", "/console/signin", "application/x-www-form-urlencoded", nil, false, false},
		{"console form", "POST", "/console/keys", "application/x-www-form-urlencoded", []string{"Cookie: " + cookie}, false, false},
		{"console form, token in header", "POST", "/console/keys", "application/x-www-form-urlencoded",
			[]string{"Cookie: " + cookie, "X-CSRF-Token: " + csrf, "HX-Request: true"}, false, false},
		{"log analyzer page", "POST", "/logs/app", "application/x-www-form-urlencoded", []string{"Cookie: " + cookie}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			length, half := "Content-Length: 1000", strings.Repeat("a", 500)
			if tc.chunked {
				length, half = "Transfer-Encoding: chunked", "1f4\r\n"+half+"\r\n"
			}
			req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\n%s\r\n",
				tc.method, tc.path, srv.Listener.Addr(), tc.ctype, length)
			for _, h := range tc.headers {
				req += h + "\r\n"
			}
			// Half the body, then nothing.
			req += "\r\n" + half
			if _, err := io.WriteString(conn, req); err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusRequestTimeout {
				t.Fatalf("status %d, want 408: %s", res.StatusCode, body)
			}
			if !res.Close {
				t.Errorf("no Connection: close (the rest of the body may still come)")
			}
			if tc.json {
				var e struct {
					Error struct{ Code, Message, RequestID string }
				}
				if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != "request_timeout" || e.Error.Message == "" {
					t.Fatalf("body %s, want the spec's error with code request_timeout", body)
				}
				return
			}
			if !strings.Contains(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), "did not arrive in time") {
				t.Fatalf("want a page saying the request did not arrive in time; got %s: %s", res.Header.Get("Content-Type"), body)
			}
		})
	}
}

// The tools' pages and the playground's chat turn a visitor away before
// reading the body: a visitor's 40 MiB compare form is not parsed to find
// its CSRF token first (the answer comes while the body is still on its
// way), nor a visitor's chat read and checked as JSON (a body the check
// refuses is a 401 all the same).
func TestVisitorsAreRefusedBeforeTheBodyIsRead(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	tok := c.CSRF("/console/signin") // a visitor's token is a valid token
	var cookies []string
	for _, ck := range c.Cookies() {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	for _, tc := range []struct {
		path, ctype string
		length      int
		status      int
	}{
		{"/logs/app/compare", "application/x-www-form-urlencoded", 40 << 20, 303},
		{"/logs/app", "application/x-www-form-urlencoded", 20 << 20, 303},
		{"/scan/app", "application/x-www-form-urlencoded", 10 << 20, 303},
	} {
		conn, err := net.Dial("tcp", env.Server.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCookie: %s\r\nX-CSRF-Token: %s\r\n\r\n_csrf=%s&log=",
			tc.path, env.Server.Listener.Addr(), tc.ctype, tc.length, strings.Join(cookies, "; "), tok, tok)
		// The first MiB, then nothing: the server reads no more than the
		// 256 KiB net/http discards after a handler that did not read
		// the body.
		if _, err := io.WriteString(conn, req+strings.Repeat("a", 1<<20)); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("POST %s as a visitor, the body still coming: no answer (%v): the body was being read", tc.path, err)
			conn.Close()
			continue
		}
		res.Body.Close()
		conn.Close()
		if res.StatusCode != tc.status {
			t.Errorf("POST %s as a visitor: %d, want %d", tc.path, res.StatusCode, tc.status)
		}
	}
	res := c.PostJSON("/gateway/app/chat", `{"messages":[],"messages":[]}`, "X-CSRF-Token", tok)
	if res.StatusCode != 401 {
		t.Errorf("a visitor's chat with a repeated key: %d, want 401 before the body is read\n%s", res.StatusCode, res.Body)
	}
}
