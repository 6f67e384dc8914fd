package httpx_test

import (
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
)

func TestClientNetwork(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"203.0.113.7:4711", "203.0.113.7"},
		{"[::ffff:203.0.113.7]:4711", "203.0.113.7"}, // IPv4 on a dual-stack socket
		{"[2001:db8:1:2::7]:4711", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff:ffff:ffff:ffff]:4711", "2001:db8:1:2::/64"}, // same subscriber
		{"[2001:db8:1:3::7]:4711", "2001:db8:1:3::/64"},                  // the next one
		{"[fe80::1%eth0]:4711", "fe80::/64"},
		{"[::1]:4711", "::/64"},
	} {
		e := echo.New()
		e.IPExtractor = echo.ExtractIPDirect()
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if got := httpx.ClientNetwork(e.NewContext(r, httptest.NewRecorder())); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.remote, got, tc.want)
		}
	}
}
