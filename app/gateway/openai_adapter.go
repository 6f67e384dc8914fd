package gateway

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
)

// openAIAdapter speaks OpenAI Chat Completions (POST {URL}/v1/chat/completions),
// which OpenAI and most self-hosted servers (vLLM, Ollama, LiteLLM…) offer,
// and translates both ways so clients only ever see the Messages shape.
type openAIAdapter struct {
	http httpUpstream
}

func newOpenAIAdapter(client *http.Client, cfg Config, sc *scrubber) *openAIAdapter {
	auth := http.Header{}
	if cfg.Key != "" { // local servers often need none
		auth.Set("Authorization", "Bearer "+cfg.Key)
	}
	return &openAIAdapter{http: httpUpstream{client: client, base: cfg.URL, scrub: sc, auth: auth}}
}

type openAIRequest struct {
	Model    string        `json:"model"`
	Messages []ChatMessage `json:"messages"`
	// max_tokens rather than OpenAI's newer max_completion_tokens: every
	// compatible server understands it.
	MaxTokens     int                  `json:"max_tokens"`
	Temperature   *float64             `json:"temperature,omitempty"`
	TopP          *float64             `json:"top_p,omitempty"`
	Stop          []string             `json:"stop,omitempty"`
	Stream        bool                 `json:"stream,omitempty"`
	StreamOptions *openAIStreamOptions `json:"stream_options,omitempty"`
	User          string               `json:"user,omitempty"`
	Seed          *int64               `json:"seed,omitempty"`
}

type openAIStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// body translates a request (one with top_k, which Chat Completions lacks,
// was refused: see Defaults.NoTopK); metadata.user_id becomes OpenAI's
// end-user identifier.
func (a *openAIAdapter) body(req *Request, stream bool) openAIRequest {
	b := openAIRequest{Model: req.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature,
		TopP: req.TopP, Stop: req.StopSequences, User: req.Metadata.UserID, Seed: req.Seed}
	if req.System != "" {
		b.Messages = append(b.Messages, ChatMessage{Role: "system", Content: req.System})
	}
	b.Messages = append(b.Messages, req.Messages...)
	if stream {
		// Without include_usage a stream reports no token counts, and quota
		// depends on them.
		b.Stream, b.StreamOptions = true, &openAIStreamOptions{IncludeUsage: true}
	}
	return b
}

// openAIUsage is read leniently, as Usage is: checkUsage flags and
// clamps what is impossible.
type openAIUsage struct {
	PromptTokens     *float64 `json:"prompt_tokens"`
	CompletionTokens *float64 `json:"completion_tokens"`
}

func (u *openAIUsage) usage() Usage {
	return lenientUsage(u.PromptTokens, u.CompletionTokens)
}

type openAIResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
		// StopReason is vLLM's extension naming the stop string that ended
		// the answer; OpenAI itself does not say which one did.
		StopReason any `json:"stop_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
}

func (a *openAIAdapter) Complete(ctx context.Context, req *Request) (*Message, error) {
	resp, err := a.http.post(ctx, "/v1/chat/completions", a.body(req, false), false, nil)
	if err != nil {
		return nil, err
	}
	var r openAIResponse
	if err := readJSON(resp, &r); err != nil {
		return nil, err
	}
	if len(r.Choices) == 0 {
		return nil, errInvalidResponse(errors.New("answer without choices"))
	}
	c := r.Choices[0]
	msg := &Message{ID: newMessageID(), Model: modelOr(r.Model, req.Model),
		Content: []ContentBlock{{Type: "text", Text: c.Message.Content}}}
	msg.StopReason, msg.StopSequence = openAIStop(c.FinishReason, c.StopReason, req)
	if r.Usage != nil {
		msg.Usage = r.Usage.usage()
	}
	return msg, nil
}

type openAIChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
		StopReason   any     `json:"stop_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
	Error *ErrorBody   `json:"error"`
}

// Stream translates chat.completion.chunk events into Messages events:
// message_start and content_block_start when the first chunk arrives, a
// text delta per content chunk, and content_block_stop, message_delta (with
// the usage of the final chunk) and message_stop at "data: [DONE]".
func (a *openAIAdapter) Stream(ctx context.Context, req *Request, emit func(Event) error) error {
	resp, err := a.http.post(ctx, "/v1/chat/completions", a.body(req, true), true, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	var (
		started bool
		finish  string
		matched any
		usage   Usage
	)
	for {
		sev, err := readEvent(r)
		if err != nil {
			return err
		}
		if string(bytes.TrimSpace(sev.data)) == "[DONE]" {
			if !started {
				return errInvalidResponse(errors.New("stream ended without any chunk"))
			}
			stop, seq := openAIStop(finish, matched, req)
			for _, ev := range []Event{
				{Type: EventContentBlockStop},
				{Type: EventMessageDelta, StopReason: stop, StopSequence: seq, Usage: &usage},
				{Type: EventMessageStop},
			} {
				if err := emit(ev); err != nil {
					return err
				}
			}
			return nil
		}
		var ch openAIChunk
		if err := decodeUpstream(sev.data, &ch); err != nil {
			return errInvalidResponse(err)
		}
		if ch.Error != nil || sev.name == "error" {
			var body ErrorBody
			if ch.Error != nil {
				body = *ch.Error
			}
			return streamedUpstreamError(body.Type, body.Message, scrubberFrom(ctx, a.http.scrub))
		}
		if !started {
			started = true
			start := &Message{ID: newMessageID(), Model: modelOr(ch.Model, req.Model)}
			for _, ev := range []Event{
				{Type: EventMessageStart, Message: start},
				{Type: EventContentBlockStart, Block: &ContentBlock{Type: "text"}},
			} {
				if err := emit(ev); err != nil {
					return err
				}
			}
		}
		if ch.Usage != nil {
			usage = ch.Usage.usage()
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue // n > 1 is never requested
			}
			if c.Delta.Content != "" {
				if err := emit(Event{Type: EventContentBlockDelta, Text: c.Delta.Content}); err != nil {
					return err
				}
			}
			if c.FinishReason != nil {
				finish, matched = *c.FinishReason, c.StopReason
			}
		}
	}
}

// openAIStop maps finish_reason to the Messages API's stop_reason. "stop"
// means a stop sequence only when the server says which one (vLLM does);
// OpenAI does not, and such an answer reads as end_turn.
func openAIStop(finish string, matched any, req *Request) (string, *string) {
	switch finish {
	case "length":
		return StopMaxTokens, nil
	case "content_filter":
		return StopRefusal, nil
	case "stop":
		if s, ok := asString(matched); ok && slices.Contains(req.StopSequences, s) {
			return StopStopSequence, &s
		}
	}
	return StopEndTurn, nil
}

func modelOr(reported, requested string) string {
	if reported != "" {
		return reported
	}
	return requested
}
