package gateway

import (
	"context"
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

func newMessagesAdapter(client *http.Client, cfg Config, sc *scrubber) *messagesAdapter {
	return &messagesAdapter{http: httpUpstream{client: client, base: cfg.URL, scrub: sc,
		auth: http.Header{"X-Api-Key": {cfg.Key}, "Anthropic-Version": {anthropicVersion}}}}
}

type messagesRequest struct {
	Model         string            `json:"model"`
	MaxTokens     int               `json:"max_tokens"`
	System        string            `json:"system,omitempty"`
	Messages      []ChatMessage     `json:"messages"`
	Temperature   *float64          `json:"temperature,omitempty"`
	TopP          *float64          `json:"top_p,omitempty"`
	TopK          *int              `json:"top_k,omitempty"`
	StopSequences []string          `json:"stop_sequences,omitempty"`
	Stream        bool              `json:"stream,omitempty"`
	Metadata      *messagesMetadata `json:"metadata,omitempty"`
}

type messagesMetadata struct {
	UserID string `json:"user_id"`
}

func (a *messagesAdapter) body(req *Request, stream bool) messagesRequest {
	b := messagesRequest{Model: req.Model, MaxTokens: req.MaxTokens, System: req.System,
		Temperature: req.Temperature, TopP: req.TopP, TopK: req.TopK,
		StopSequences: req.StopSequences, Stream: stream, Messages: req.Messages}
	if req.Metadata.UserID != "" {
		b.Metadata = &messagesMetadata{UserID: req.Metadata.UserID}
	}
	return b
}

func (a *messagesAdapter) Complete(ctx context.Context, req *Request) (*Message, error) {
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, false), false, betaHeader(req))
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
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, true), true, betaHeader(req))
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
		if err := decodeUpstream(sev.data, &ev); err != nil {
			return errInvalidResponse(fmt.Errorf("event %q: %w", sev.name, err))
		}
		switch ev.Type {
		case EventError:
			var body ErrorBody
			if ev.Error != nil {
				body = *ev.Error
			}
			return streamedUpstreamError(body.Type, body.Message, scrubberFrom(ctx, a.http.scrub))
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

// betaHeader forwards the client's anthropic-beta header: the Messages
// upstream decides what the betas it names mean. (An OpenAI-style upstream
// has no such thing and is sent none.)
func betaHeader(req *Request) http.Header {
	if len(req.AnthropicBeta) == 0 {
		return nil
	}
	return http.Header{"Anthropic-Beta": req.AnthropicBeta}
}

// CountTokens asks the Messages API's count_tokens endpoint how many input
// tokens req has; it is free there and never billed here.
func (a *messagesAdapter) CountTokens(ctx context.Context, req *Request) (int, error) {
	body := a.body(req, false)
	resp, err := a.http.post(ctx, "/v1/messages/count_tokens", countTokensRequest{Model: body.Model, System: body.System, Messages: body.Messages}, false, betaHeader(req))
	if err != nil {
		return 0, err
	}
	var r struct {
		InputTokens *int `json:"input_tokens"`
	}
	if err := readJSON(resp, &r); err != nil {
		return 0, err
	}
	if r.InputTokens == nil || *r.InputTokens < 0 || *r.InputTokens > MaxInputTokens {
		return 0, errInvalidResponse(fmt.Errorf("count_tokens answered %v", r.InputTokens))
	}
	return *r.InputTokens, nil
}

type countTokensRequest struct {
	Model    string        `json:"model"`
	System   string        `json:"system,omitempty"`
	Messages []ChatMessage `json:"messages"`
}

// errUnsupportedBlock refuses an answer this text-only gateway cannot relay
// faithfully. Requests cannot ask for tools or thinking, so it signals an
// upstream doing something unexpected.
func errUnsupportedBlock(typ string) *Error {
	return upstreamError(fmt.Sprintf("upstream answered with a %q content block; this gateway relays text only", typ), nil)
}
