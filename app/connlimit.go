package app

import (
	"net"
	"strconv"
	"sync"
	"time"

	"parapet/app/httpx"
)

// MaxConnsPerClient bounds the connections one client (an IPv4 address or
// an IPv6 /64, httpx.Network) holds open at once. Each open connection may
// hold a request's parsed headers, about 250 KiB at worst (NewServer), for
// up to a minute (a slow body): without a bound one client with a few
// thousand connections had the server hold gigabytes. 128 is far above
// what a browser opens (6 per host) and leaves room for an office behind
// one NAT address; one client holds at most about 32 MiB.
const MaxConnsPerClient = 128

// refusedConn is what a connection over the bound is told before it is
// closed: a complete HTTP answer, so a client sees why.
var refusedConn = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Retry-After: 5\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(refusedBody)) + "\r\n\r\n" + refusedBody)

const refusedBody = "Too many connections from your address at once: retry later.\n"

// limitConnsPerClient wraps ln so that a client's connection beyond max
// is answered 503 and closed at once. Behind a trusted proxy every
// connection comes from the proxy, which bounds its clients itself, so
// the caller leaves the listener as it is there.
func limitConnsPerClient(ln net.Listener, max int) net.Listener {
	return &connLimiter{Listener: ln, max: max, open: map[string]int{}}
}

type connLimiter struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientOf(c)
		l.mu.Lock()
		ok := l.open[client] < l.max
		if ok {
			l.open[client]++
		}
		l.mu.Unlock()
		if ok {
			return &countedConn{Conn: c, release: func() { l.release(client) }}, nil
		}
		go refuse(c) // never block Accept on a client that does not read
	}
}

func (l *connLimiter) release(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[client]--; l.open[client] <= 0 {
		delete(l.open, client)
	}
}

func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(refusedConn)
	_ = c.Close()
}

func clientOf(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return httpx.Network(host)
}

// countedConn gives its client's slot back when it closes, once.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite passes the half-close on: Go's server half-closes a
// connection it refuses and waits before closing it, so that the client
// reads the answer rather than a reset (closeWrite).
func (c *countedConn) CloseWrite() error { return closeWrite(c.Conn) }

// closeWrite half-closes c when it can (a TCP connection).
func closeWrite(c net.Conn) error {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
