package httpx

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
)

// A refused body is drained, up to MaxDrainBytes and for at most
// drainTimeout, before the 413 is written: a client that sends its whole
// body before reading (most do) then reads the answer instead of a
// connection reset. Past the bound the connection is closed.
const (
	MaxDrainBytes = 32 << 20
	drainTimeout  = 10 * time.Second
)

// LimitBody holds the request body to limit bytes before any middleware
// or handler parses it: a declared Content-Length over the limit is
// refused at once with 413, a body that turns out longer when read fails
// the read, and the handler's 413 goes out after the rest is drained. A
// compressed body (any Content-Encoding but identity) is refused with 415:
// read as it is, a gzipped log would be analysed as binary noise, and
// inflating it would make the limit meaningless.
func LimitBody(limit int64) echo.MiddlewareFunc { return limitBody(limit, false) }

// LimitBodyExplained is LimitBody for routes whose handler explains an
// oversized body in its own words (the tools name their input limits):
// a declared Content-Length over the limit is drained, and the handler
// runs with an empty body and the declared length, which it checks.
// Oversized reports such a request to the middlewares in between.
func LimitBodyExplained(limit int64) echo.MiddlewareFunc { return limitBody(limit, true) }

const oversizedKey = "httpx.oversized"

// Oversized returns the limit a drained, oversized body was over (0 when
// the body is within its limit).
func Oversized(c echo.Context) int64 {
	n, _ := c.Get(oversizedKey).(int64)
	return n
}

func limitBody(limit int64, explained bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Body == nil || r.Body == http.NoBody {
				return next(c)
			}
			if enc := r.Header.Get(echo.HeaderContentEncoding); enc != "" && !strings.EqualFold(enc, "identity") {
				return apierr.UnsupportedMediaType("Content-Encoding " + strconv.Quote(enc) + " is not supported: send the body uncompressed")
			}
			raw := &timedBody{ReadCloser: r.Body}
			body := io.ReadCloser(raw)
			if r.ContentLength > limit {
				drain(c, body)
				if explained {
					c.Set(oversizedKey, limit)
					r.Body = http.NoBody
					return next(c)
				}
				return tooLarge(limit)
			}
			r.Body = http.MaxBytesReader(c.Response(), body, limit)
			err := next(c)
			if raw.timedOut.Load() {
				// Whatever the reader made of it (a malformed body, a form
				// without its CSRF token), the body never came: 408, and
				// the connection is done.
				c.Response().Header().Set(echo.HeaderConnection, "close")
				if !c.Response().Committed {
					return apierr.RequestTimeout()
				}
				return err
			}
			if err != nil && isTooLarge(err) {
				drain(c, body)
			}
			return err
		}
	}
}

// timedBody notes a read of the body that failed on the server's read
// deadline (http.Server.ReadTimeout): the client stopped sending before
// the body's end.
type timedBody struct {
	io.ReadCloser
	timedOut atomic.Bool
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		var ne net.Error
		if errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			b.timedOut.Store(true)
		}
	}
	return n, err
}

// drain reads what is left of body, bounded in bytes and time. A client
// that waits for 100 Continue has sent nothing: it is told to stop instead.
func drain(c echo.Context, body io.ReadCloser) {
	if c.Request().Header.Get("Expect") == "100-continue" {
		c.Response().Header().Set(echo.HeaderConnection, "close")
		return
	}
	rc := http.NewResponseController(c.Response())
	_ = rc.SetReadDeadline(time.Now().Add(drainTimeout))
	n, err := io.CopyN(io.Discard, body, MaxDrainBytes)
	_ = rc.SetReadDeadline(time.Time{})
	if n == MaxDrainBytes || err != nil && err != io.EOF {
		c.Response().Header().Set(echo.HeaderConnection, "close")
	}
}

// DrainUnread reads what a handler left of the request's body (Go's
// body, as the server read it before any middleware wrapped it), within
// the same bounds as before a 413: a request refused before its body was
// read (a wrong key on an 11 MiB upload is a 401) is then answered to a
// client that sends its whole body before reading, instead of reset.
// A body that was read costs one read that returns EOF. A client waiting
// for 100 Continue has sent nothing: Go closes its connection itself.
func DrainUnread(c echo.Context, body io.ReadCloser) {
	r := c.Request()
	if body == nil || body == http.NoBody || r.Header.Get("Expect") != "" ||
		c.Response().Header().Get(echo.HeaderConnection) == "close" { // timed out, or already drained to the bound
		return
	}
	if r.ContentLength > MaxDrainBytes {
		c.Response().Header().Set(echo.HeaderConnection, "close")
		return
	}
	drain(c, body)
}

// tooLarge is the 413 of a body over limit, naming the limit.
func tooLarge(limit int64) *apierr.Error {
	return apierr.PayloadTooLarge(fmt.Sprintf("the request body is larger than the limit of %s", FormatBytes(limit)))
}

func isTooLarge(err error) bool {
	var ae *apierr.Error
	var he *echo.HTTPError
	var mb *http.MaxBytesError
	return errors.As(err, &mb) ||
		errors.As(err, &ae) && ae.Status == http.StatusRequestEntityTooLarge ||
		errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge
}
