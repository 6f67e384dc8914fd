package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Bounds on what an upstream may make us read.
const (
	maxResponseBytes = 16 << 20 // a non-streamed answer
	maxErrorBytes    = 64 << 10 // an error body; only its message is used
)

// newTransport is the one pooled transport all calls to the upstream share.
// Calls go to it directly, not through an http.Client: an API answers, it
// does not redirect, and following a redirect would resend the key
// (x-api-key is not stripped across hosts), so a client's redirect and
// header-copying work was all cost. There is no overall timeout either: the
// Proxy bounds each call through its context (total for non-streamed calls,
// idle for streams).
func newTransport(connectTimeout time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   connectTimeout,
		MaxIdleConns:          128,
		MaxIdleConnsPerHost:   64, // every call goes to one host: keep a gateway's worth warm
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// httpUpstream is what both HTTP adapters share: where to send, with which
// credentials, and how to turn a failed answer into an *Error.
type httpUpstream struct {
	transport *http.Transport
	base      string
	scrub     *scrubber
	auth      http.Header // the style's credential headers, made once
}

// The headers every call sends, made once: a request shares their value
// slices (nothing appends to a request's header values).
var (
	jsonContent  = []string{"application/json"}
	acceptJSON   = []string{"application/json"}
	acceptEvents = []string{"text/event-stream"}
)

// post sends body as JSON to path and returns the response of a 2xx answer,
// its body wrapped to report activity to the stream idle watchdog. Any other
// answer is read, closed and mapped to an *Error.
// extra headers (may be nil) are sent besides the credentials.
func (u *httpUpstream) post(ctx context.Context, path string, body any, stream bool, extra http.Header) (*http.Response, error) {
	b, err := encodeBody(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header["Content-Type"] = jsonContent
	if stream {
		req.Header["Accept"] = acceptEvents
	} else {
		req.Header["Accept"] = acceptJSON
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	maps.Copy(req.Header, u.auth)
	resp, err := u.transport.RoundTrip(req)
	if err != nil {
		// No answer at all: refused, reset, DNS, TLS or connect timeout. (A
		// cancelled or timed-out context is reclassified by the Proxy.)
		return nil, errUnavailable(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		errBody, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
		return nil, upstreamStatusError(resp.StatusCode, resp.Header, errBody, scrubberFrom(ctx, u.scrub))
	}
	if stream {
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
			resp.Body.Close()
			return nil, errInvalidResponse(fmt.Errorf("stream answered with content type %q", resp.Header.Get("Content-Type")))
		}
	}
	resp.Body = &activityReader{ReadCloser: resp.Body, touch: activityFrom(ctx)}
	return resp, nil
}

// encodeBody is a request body's JSON: appended by the body itself when it
// can (the Messages request every call of that style sends), else
// encoding/json's.
func encodeBody(body any) ([]byte, error) {
	if a, ok := body.(interface{ appendJSON([]byte) ([]byte, error) }); ok {
		return a.appendJSON(make([]byte, 0, 512))
	}
	return json.Marshal(body)
}

// decodeUpstream reads one JSON document from the upstream (an answer, a
// stream's event, an error) into v, the one way all of them are read:
// with encoding/json's v2 (a third of v1's time and a fifth of its
// allocations on a short answer, which every call pays). A document that
// names a member twice is invalid, as v1 would silently take the last; a
// string with invalid UTF-8 is kept, the bad bytes replaced, rather than
// failing a call the upstream has already billed.
func decodeUpstream(b []byte, v any) error {
	return jsonv2.Unmarshal(b, v, jsontext.AllowInvalidUTF8(true))
}

// readJSON reads a non-streamed answer into v.
func readJSON(resp *http.Response, v any) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return errInterrupted(err)
	}
	if len(b) > maxResponseBytes {
		return errInvalidResponse(fmt.Errorf("answer larger than %d bytes", maxResponseBytes))
	}
	if err := decodeUpstream(b, v); err != nil {
		return errInvalidResponse(err)
	}
	return nil
}

// errInterrupted is a connection that failed after the upstream had started
// answering.
func errInterrupted(cause error) *Error {
	return upstreamError("the connection to the upstream was interrupted", fmt.Errorf("%w: %w", errConnectionCut, cause))
}

// readEvent reads the next server-sent event of a stream that must still
// send its terminal event, so the end of the body is a truncation.
func readEvent(r *sseReader) (sseEvent, error) {
	ev, err := r.next()
	switch {
	case err == io.EOF:
		return ev, upstreamError("the upstream stream ended before it was complete", io.ErrUnexpectedEOF)
	case err == errSSETooLarge:
		return ev, errInvalidResponse(err)
	case err != nil:
		return ev, errInterrupted(err)
	}
	return ev, nil
}

// activityKey carries the stream idle watchdog's reset function.
type activityKey struct{}

func withActivity(ctx context.Context, touch func()) context.Context {
	return context.WithValue(ctx, activityKey{}, touch)
}

func activityFrom(ctx context.Context) func() {
	if touch, ok := ctx.Value(activityKey{}).(func()); ok {
		return touch
	}
	return func() {}
}

// activityReader tells the watchdog about every byte that arrives, so a
// stream is idle only when the upstream sends nothing at all (not even a
// keep-alive comment or an event the adapter does not forward).
type activityReader struct {
	io.ReadCloser
	touch func()
}

func (r *activityReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if n > 0 {
		r.touch()
	}
	return n, err
}
