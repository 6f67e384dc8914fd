package apptest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// Client is a cookie-keeping HTTP client for one test user.
type Client struct {
	env *Env
	t   testing.TB
	*http.Client
}

// Client returns a new client with an empty cookie jar that does not
// follow redirects (tests look at them).
func (e *Env) Client() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{env: e, t: e.T, Client: &http.Client{
		Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// Cookies are the cookies the client holds for the test server.
func (c *Client) Cookies() []*http.Cookie {
	u, _ := url.Parse(c.env.Server.URL)
	return c.Jar.Cookies(u)
}

// Response is a finished response with its body read.
type Response struct {
	*http.Response
	Body string
}

// Doc parses the body as HTML.
func (r *Response) Doc(t testing.TB) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(r.Body))
	if err != nil {
		t.Fatalf("parse html: %v", err)
	}
	return d
}

// JSON decodes the body into v.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("decode json (status %d): %v\nbody: %s", r.StatusCode, err, r.Body)
	}
}

// Do sends a request built from method, path, body and header pairs
// ("Name", "value", ...).
func (c *Client) Do(method, path, body string, headers ...string) *Response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.env.URL(path), rd)
	if err != nil {
		c.t.Fatalf("new request: %v", err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Host") {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	return c.send(req)
}

func (c *Client) send(req *http.Request) *Response {
	c.t.Helper()
	res, err := c.Client.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("read body: %v", err)
	}
	return &Response{Response: res, Body: string(b)}
}

// Get fetches a path.
func (c *Client) Get(path string, headers ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodGet, path, "", headers...)
}

// PostForm posts form values as a browser form would.
func (c *Client) PostForm(path string, values url.Values, headers ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodPost, path, values.Encode(), append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
}

// PostJSON posts a JSON body.
func (c *Client) PostJSON(path, body string, headers ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodPost, path, body, append([]string{"Content-Type", "application/json"}, headers...)...)
}
