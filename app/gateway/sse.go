package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// sseWriteTimeout bounds one event's write to the client: a client that stops
// reading must not hold the stream (and its upstream connection) forever.
const sseWriteTimeout = 30 * time.Second

// SSEWriter writes streaming events to a client in the wire format Anthropic
// uses, "event: NAME\ndata: JSON\n\n", and flushes after every event so each
// reaches the client as soon as the upstream produced it.
//
// The response headers (200, text/event-stream) go out with the first event,
// so a handler can still answer with an ordinary JSON error when the call
// fails before anything was streamed: see Started.
type SSEWriter struct {
	// OnStart, when set, is called with the response headers just before
	// they are sent (e.g. to add timings known only then).
	OnStart func(http.Header)

	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
}

// NewSSEWriter wraps the handler's ResponseWriter. Headers the handler set
// before the first event (rate limits, request id) are sent with it.
func NewSSEWriter(w http.ResponseWriter) *SSEWriter {
	return &SSEWriter{w: w, rc: http.NewResponseController(w)}
}

// Started reports whether the headers were sent; after that, errors can only
// be reported in the stream, as an error event.
func (s *SSEWriter) Started() bool { return s.started }

// Start sends the headers and flushes them. Send calls it for the first
// event; a handler calls it itself only to commit to a stream early.
func (s *SSEWriter) Start() error {
	if s.started {
		return nil
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // tells nginx-style proxies not to buffer
	h.Del("Content-Length")
	if s.OnStart != nil {
		s.OnStart(h)
	}
	s.w.WriteHeader(http.StatusOK)
	return s.flush()
}

// Send writes one event and flushes it. Its signature fits Proxy.Stream's
// emit parameter.
func (s *SSEWriter) Send(ev Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	return s.Write(ev.Type, data)
}

// SendError ends a started stream with an error event in Anthropic's
// shape, our code and the request id beside its type and message.
func (s *SSEWriter) SendError(e *Error, requestID string) error {
	return s.Write(EventError, e.AnthropicJSON(requestID))
}

// Write sends one event with the given name ("" for none: a bare data
// line, as OpenAI streams) and data, and flushes it.
func (s *SSEWriter) Write(name string, data []byte) error {
	if err := s.Start(); err != nil {
		return err
	}
	// A per-event deadline replaces the server's whole-response WriteTimeout,
	// which would cut every long stream; it is cleared again after the write
	// so it cannot outlive the stream on a kept-alive connection.
	s.setWriteDeadline(time.Now().Add(sseWriteTimeout))
	defer s.setWriteDeadline(time.Time{})
	buf := make([]byte, 0, len(name)+len(data)+16)
	if name != "" {
		buf = append(append(append(buf, "event: "...), name...), '\n')
	}
	buf = append(append(append(buf, "data: "...), data...), "\n\n"...)
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	return s.flush()
}

func (s *SSEWriter) flush() error {
	if err := s.rc.Flush(); err != nil {
		return fmt.Errorf("streaming needs a flushable ResponseWriter: %w", err)
	}
	return nil
}

func (s *SSEWriter) setWriteDeadline(t time.Time) {
	// Not every ResponseWriter supports deadlines (httptest.ResponseRecorder
	// does not); streaming works without them.
	_ = s.rc.SetWriteDeadline(t)
}

// Limits on what an upstream may send in one event.
const maxSSEEventBytes = 4 << 20

// sseEvent is one server-sent event read from an upstream.
type sseEvent struct {
	name string // the "event:" field; "" when absent (OpenAI style)
	data []byte // the "data:" lines joined with "\n"
}

// sseReader parses the text/event-stream format (WHATWG HTML, "server-sent
// events") as the upstreams send it.
type sseReader struct {
	r *bufio.Reader
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 32<<10)}
}

var errSSETooLarge = errors.New("server-sent event too large")

// next returns the next event. It returns io.EOF when the stream ends; an
// event whose last line was cut off by the end of the stream is dropped.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var hasData bool
	for {
		line, err := s.readLine()
		if err == io.EOF && hasData {
			return ev, nil // complete lines, but no closing blank line
		}
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if hasData {
				return ev, nil
			}
			ev = sseEvent{} // an event without data is not dispatched
			continue
		}
		if line[0] == ':' {
			continue // comment, used as keep-alive
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.name = string(value)
		case "data":
			if hasData {
				ev.data = append(ev.data, '\n')
			}
			if len(ev.data)+len(value) > maxSSEEventBytes {
				return sseEvent{}, errSSETooLarge
			}
			ev.data = append(ev.data, value...)
			hasData = true
		}
	}
}

// readLine returns one line without its terminator. A final line without a
// newline is incomplete (the stream was cut) and reported as io.EOF.
func (s *sseReader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxSSEEventBytes {
			return nil, errSSETooLarge
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}
