package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropicVersion is the Messages API version the adapter speaks.
const anthropicVersion = "2023-06-01"

// messagesAdapter speaks the Anthropic Messages API: POST {URL}/v1/messages.
// Answers are already in our shape, so it checks them and passes them on.
type messagesAdapter struct {
	http httpUpstream
}

func newMessagesAdapter(client *http.Client, cfg Config) *messagesAdapter {
	return &messagesAdapter{http: httpUpstream{client: client, base: cfg.URL, key: cfg.Key,
		auth: func(h http.Header) {
			h.Set("x-api-key", cfg.Key)
			h.Set("anthropic-version", anthropicVersion)
		}}}
}

type messagesRequest struct {
	Model         string            `json:"model"`
	MaxTokens     int               `json:"max_tokens"`
	System        string            `json:"system,omitempty"`
	Messages      []messagesMessage `json:"messages"`
	Temperature   *float64          `json:"temperature,omitempty"`
	TopP          *float64          `json:"top_p,omitempty"`
	TopK          *int              `json:"top_k,omitempty"`
	StopSequences []string          `json:"stop_sequences,omitempty"`
	Stream        bool              `json:"stream,omitempty"`
	Metadata      *messagesMetadata `json:"metadata,omitempty"`
}

type messagesMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type messagesMetadata struct {
	UserID string `json:"user_id"`
}

func (a *messagesAdapter) body(req *Request, stream bool) messagesRequest {
	b := messagesRequest{Model: req.Model, MaxTokens: req.MaxTokens, System: req.System,
		Temperature: req.Temperature, TopP: req.TopP, TopK: req.TopK,
		StopSequences: req.StopSequences, Stream: stream}
	for _, m := range req.Messages {
		b.Messages = append(b.Messages, messagesMessage(m))
	}
	if req.Metadata.UserID != "" {
		b.Metadata = &messagesMetadata{UserID: req.Metadata.UserID}
	}
	return b
}

func (a *messagesAdapter) Complete(ctx context.Context, req *Request) (*Message, error) {
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, false), false)
	if err != nil {
		return nil, err
	}
	var msg Message
	if err := readJSON(resp, &msg); err != nil {
		return nil, err
	}
	if msg.Type != "message" {
		return nil, errInvalidResponse(fmt.Errorf("answer of type %q", msg.Type))
	}
	for _, b := range msg.Content {
		if b.Type != "text" {
			return nil, errUnsupportedBlock(b.Type)
		}
	}
	return &msg, nil
}

func (a *messagesAdapter) Stream(ctx context.Context, req *Request, emit func(Event) error) error {
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, true), true)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	for {
		sev, err := readEvent(r)
		if err != nil {
			return err
		}
		var ev Event
		if err := json.Unmarshal(sev.data, &ev); err != nil {
			return errInvalidResponse(fmt.Errorf("event %q: %w", sev.name, err))
		}
		switch ev.Type {
		case EventError:
			var body ErrorBody
			if ev.Error != nil {
				body = *ev.Error
			}
			return streamedUpstreamError(body.Type, body.Message, a.http.key)
		case EventContentBlockStart:
			if ev.Block == nil || ev.Block.Type != "text" {
				var typ string
				if ev.Block != nil {
					typ = ev.Block.Type
				}
				return errUnsupportedBlock(typ)
			}
		case EventContentBlockDelta:
			if ev.deltaType != "text_delta" {
				continue // e.g. citations_delta: nothing a text-only client can show
			}
		case EventMessageStart, EventContentBlockStop, EventMessageDelta, EventMessageStop, EventPing:
		default:
			continue // new event types: the API's versioning policy says to ignore them
		}
		if err := emit(ev); err != nil {
			return err
		}
		if ev.Type == EventMessageStop {
			return nil
		}
	}
}

// errUnsupportedBlock refuses an answer this text-only gateway cannot relay
// faithfully. Requests cannot ask for tools or thinking, so it signals an
// upstream doing something unexpected.
func errUnsupportedBlock(typ string) *Error {
	return upstreamError(fmt.Sprintf("upstream answered with a %q content block; this gateway relays text only", typ), nil)
}
