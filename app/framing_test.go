package app_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"parapet/app/apptest"
)

// A request with both Content-Length and Transfer-Encoding is refused
// with 400 and its connection closed, before any handler runs: a leak
// report naming a real key in such a request does not revoke it. Alone
// on a connection, or after a good request on the same one (which is
// answered), and whatever the fields' case; a body that holds the same
// text is no head.
func TestAmbiguousFramingIsRefused(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "smuggle@example.com")
	report := `{"keys":["` + s.Key + `"]}`
	chunked := strconv.FormatInt(int64(len(report)), 16) + "\r\n" + report + "\r\n0\r\n\r\n"
	smuggled := "POST /keys/v1/leaked HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
		"content-length: " + strconv.Itoa(len(chunked)) + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
	decoy := "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
	good := "GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(decoy)) + "\r\n\r\n" + decoy
	for _, tc := range []struct {
		name   string
		stream string
		want   []int // the statuses answered, in order, before the connection closes
	}{
		{"alone", smuggled, []int{400}},
		{"after a good request", good + smuggled, []int{200, 400}},
		{"good requests only", good + good, []int{200, 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.DialTimeout("tcp", env.Server.Listener.Addr().String(), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.WriteString(conn, tc.stream); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(conn)
			for i, want := range tc.want {
				res, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Fatalf("response %d: %v", i+1, err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				if res.StatusCode != want {
					t.Errorf("response %d: %d, want %d", i+1, res.StatusCode, want)
				}
			}
			if tc.want[len(tc.want)-1] == 400 {
				if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
					t.Errorf("after the 400 the connection is open (read: %v), want it closed", err)
				}
			}
		})
	}
	c := env.Client()
	if res := c.Get("/v1/products", "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
		t.Errorf("the key named in the refused requests: %d, want 200 (no handler ran)", res.StatusCode)
	}
	if strings.Contains(env.Logs.String(), "/keys/v1/leaked") {
		t.Error("a refused request reached the application's log")
	}
}

// A client that writes its whole body before reading (Python's urllib
// does) gets an early refusal's answer, not a connection reset: a wrong
// key on an 11 MiB body is answered 401 once the body is drained, within
// the same bounds as a 413. The gateway checks the key before the body's
// size too: a caller without a valid key has nothing of its body read.
func TestEarlyRefusalIsAnsweredAfterTheBody(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	for path, want := range map[string]int{"/scan/v1/scan": 401, "/logs/v1/analyze": 401, "/logs/v1/compare": 401, "/gateway/v1/chat": 401, "/gateway/v1/messages": 401} {
		res, err := rawPost(t, env, path, "application/json", "ppk_wrong", 11<<20, false)
		if err != nil {
			t.Fatalf("%s: the client saw %v, want to read a %d", path, err, want)
		}
		if res.StatusCode != want {
			t.Errorf("%s: status %d, want %d", path, res.StatusCode, want)
		}
	}
}
