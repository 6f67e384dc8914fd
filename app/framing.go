package app

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"parapet/app/httpx"
)

// A request with both Content-Length and Transfer-Encoding is framed two
// ways: a proxy in front that reads one and a server that reads the other
// disagree on where the next request starts (request smuggling, RFC 9112
// §6.1 and §11.2). Go's net/http reads such a request by its
// Transfer-Encoding and deletes the Content-Length before any handler
// could see it, so the check is made on the bytes, by the listener:
// framedConn follows each request head and its body as Go does and, at a
// head with both fields, stops the stream before the head's last byte.
// Go's server then fails to read the request and answers it as it does a
// malformed one, 400 Bad Request with Connection: close, and closes the
// connection. No handler runs.
var errAmbiguousFraming = errors.New("request with both Content-Length and Transfer-Encoding")

// maxTrackedHead bounds the head framedConn holds while reading it. Go
// refuses longer heads itself (NewServer's MaxHeaderBytes, plus its 4 KiB
// of slack); past the bound the connection is left to Go, which closes it.
const maxTrackedHead = 64 << 10

var newline, colon = []byte{'\n'}, []byte{':'}

// GuardFraming wraps ln so that every connection's requests are checked
// for ambiguous framing (Serve's listener, and the tests' behind
// httptest).
func GuardFraming(ln net.Listener) net.Listener { return framingListener{ln} }

type framingListener struct{ net.Listener }

func (l framingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &framedConn{Conn: c}, nil
}

// The states of framedConn's reading of the stream.
const (
	inHead      = iota // the request line and header fields
	inBody             // a body of known length: left bytes
	inChunkSize        // a chunk's size line
	inChunkData        // a chunk's data: left bytes
	inChunkCRLF        // the CRLF after a chunk's data: left bytes
	inTrailers         // trailer fields after the last chunk
	untracked          // framing Go itself refuses: Go closes the connection
)

type framedConn struct {
	net.Conn
	state int
	line  []byte // the head so far, or the current chunk-size or trailer line
	left  int64
	err   error // once set, every Read returns it
}

func (c *framedConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	if end := c.follow(p[:n]); end >= 0 {
		c.err = errAmbiguousFraming
		return end, nil // all but the head's last byte: Go waits for it, then reads the error
	}
	return n, err
}

// follow reads b as the next bytes of the stream. It returns the index of
// the byte that ends a head with ambiguous framing, or -1.
func (c *framedConn) follow(b []byte) int {
	for i := 0; i < len(b); {
		switch c.state {
		case untracked:
			return -1
		case inBody, inChunkData, inChunkCRLF:
			n := min(int64(len(b)-i), c.left)
			i += int(n)
			if c.left -= n; c.left > 0 {
				continue
			}
			switch c.state {
			case inBody:
				c.state = inHead
			case inChunkData:
				c.state, c.left = inChunkCRLF, 2
			default:
				c.state = inChunkSize
			}
		default: // a line at a time
			if c.state == inHead && len(c.line) == 0 {
				// The usual case, a whole head in one read: read in place.
				if end := headEnd(b[i:]); end >= 0 {
					if c.startBody(b[i : i+end+1]) {
						return i + end
					}
					i += end + 1
					continue
				}
			}
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				c.line = append(c.line, b[i:]...)
				if len(c.line) > maxTrackedHead {
					c.state = untracked
				}
				return -1
			}
			c.line = append(c.line, b[i:i+j+1]...)
			if c.endLine() {
				return i + j
			}
			i += j + 1
		}
	}
	return -1
}

// endLine takes the line just completed (in c.line, with its '\n') and
// moves on; it reports a head with ambiguous framing.
func (c *framedConn) endLine() bool {
	line := bytes.TrimRight(c.line, "\r\n")
	switch c.state {
	case inChunkSize:
		c.line = c.line[:0]
		if k := bytes.IndexByte(line, ';'); k >= 0 {
			line = line[:k]
		}
		size, err := strconv.ParseUint(string(bytes.TrimRight(line, " \t")), 16, 63)
		switch {
		case err != nil:
			c.state = untracked
		case size == 0:
			c.state = inTrailers
		default:
			c.state, c.left = inChunkData, int64(size)
		}
	case inTrailers:
		c.line = c.line[:0]
		if len(line) == 0 {
			c.state = inHead
		}
	case inHead: // c.line is the head so far: it ends at an empty line
		prev := bytes.LastIndexByte(c.line[:len(c.line)-1], '\n')
		if prev >= 0 && len(bytes.TrimRight(c.line[prev+1:], "\r\n")) == 0 {
			head := c.line
			c.line = c.line[:0]
			return c.startBody(head)
		}
	}
	return false
}

// headEnd is the index of the '\n' that ends the head at the start of b
// (its first empty line after the request line), or -1 when b holds no
// whole head; a line holding only '\r's is empty, as endLine reads it.
func headEnd(b []byte) int {
	for s, first := 0, true; ; first = false {
		j := bytes.IndexByte(b[s:], '\n')
		if j < 0 {
			return -1
		}
		if !first && len(bytes.TrimRight(b[s:s+j], "\r")) == 0 {
			return s + j
		}
		s += j + 1
	}
}

// startBody reads a whole head and sets the state for its body as Go
// reads it: chunked with Transfer-Encoding (ignored before HTTP/1.1),
// else Content-Length bytes, else none. It reports a head with both.
func (c *framedConn) startBody(head []byte) bool {
	first, rest, _ := bytes.Cut(head, newline)
	http10 := bytes.HasSuffix(bytes.TrimRight(first, "\r"), []byte("HTTP/1.0"))
	var length []byte
	var hasLength, chunked bool
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = bytes.Cut(rest, newline)
		name, value, ok := bytes.Cut(bytes.TrimRight(l, "\r"), colon)
		if !ok {
			continue
		}
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			hasLength, length = true, bytes.TrimSpace(value)
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = true
		}
	}
	switch {
	case hasLength && chunked:
		return true
	case chunked && !http10:
		c.state = inChunkSize
	case hasLength:
		n, err := strconv.ParseInt(string(length), 10, 64)
		if err != nil || n < 0 {
			c.state = untracked // Go refuses it and closes
		} else if c.left = n; n > 0 {
			c.state = inBody
		}
	}
	return false
}

// drainUnread drains, after the handler, what it left of the body
// (httpx.DrainUnread). The answer goes out first: a client that waits
// for it with its body half sent reads it at once, and one that sends
// its whole body before reading finds it there once done. It runs
// outside observe, which has written the answer (an error's too).
func drainUnread(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		body := &readTracker{ReadCloser: r.Body, left: r.ContentLength}
		r.Body = body
		err := next(c)
		if !body.done() {
			if c.Response().Committed {
				_ = http.NewResponseController(c.Response()).Flush()
			}
			httpx.DrainUnread(c, body.ReadCloser)
		}
		return err
	}
}

// readTracker notes whether a body was read to its end.
type readTracker struct {
	io.ReadCloser
	left int64 // bytes of a declared length not read yet (-1: unknown)
	eof  bool
}

func (t *readTracker) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if t.left > 0 {
		t.left -= int64(n)
	}
	t.eof = t.eof || err == io.EOF
	return n, err
}

func (t *readTracker) done() bool { return t.eof || t.left == 0 }

// CloseWrite passes the half-close on (countedConn.CloseWrite).
func (c *framedConn) CloseWrite() error { return closeWrite(c.Conn) }
