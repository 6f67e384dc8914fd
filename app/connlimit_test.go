package app

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A client holding its connections' worth (slow senders that have not
// finished a request) gets a 503 with Retry-After on the next one, before
// any of it is read; once it closes one, it is served again.
func TestConnectionsPerClientAreBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	go func() { _ = srv.Serve(limitConnsPerClient(ln, 3)) }()
	t.Cleanup(func() { _ = srv.Close() })

	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	status := func(c net.Conn) (*http.Response, error) {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			return nil, err
		}
		return http.ReadResponse(bufio.NewReader(c), nil)
	}
	held := []net.Conn{dial(), dial(), dial()}
	for _, c := range held {
		_, _ = c.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nslow")) // and no more
	}
	res, err := status(dial())
	if err != nil {
		t.Fatalf("the fourth connection: %v", err)
	}
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Errorf("the fourth connection: %d, Retry-After %q; want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if b := new(strings.Builder); res.Body != nil {
		_, _ = bufio.NewReader(res.Body).WriteTo(b)
		if !strings.Contains(b.String(), "Too many connections") {
			t.Errorf("the refusal says %q", b.String())
		}
	}
	_ = held[0].Close()
	// The server notices the close when its read of that connection ends.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if res, err := status(dial()); err == nil && res.StatusCode == http.StatusNoContent {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no connection served within 5 s of one closing")
		}
	}
}
