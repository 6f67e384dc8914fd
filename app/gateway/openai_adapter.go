package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
)

// openAIAdapter speaks OpenAI Chat Completions (POST {URL}/v1/chat/completions),
// which OpenAI and most self-hosted servers (vLLM, Ollama, LiteLLM…) offer,
// and translates both ways so clients only ever see the Messages shape.
type openAIAdapter struct {
	http httpUpstream
}

func newOpenAIAdapter(transport *http.Transport, cfg Config, sc *scrubber) *openAIAdapter {
	auth := http.Header{}
	if cfg.Key != "" { // local servers often need none
		auth.Set("Authorization", "Bearer "+cfg.Key)
	}
	return &openAIAdapter{http: httpUpstream{transport: transport, base: cfg.URL, scrub: sc, auth: auth}}
}

func (a *openAIAdapter) Complete(ctx context.Context, req *Request) (*Message, error) {
	resp, err := a.http.post(ctx, "/v1/chat/completions", openAIBody(req, false), false, nil)
	if err != nil {
		return nil, err
	}
	var r openAIResponse
	if err := readJSON(resp, &r); err != nil {
		return nil, err
	}
	return r.message(req)
}

type openAIChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   string           `json:"content"`
			Refusal   string           `json:"refusal"`
			ToolCalls []openAIToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
		StopReason   any     `json:"stop_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
	Error *ErrorBody   `json:"error"`
}

// Stream translates chat.completion.chunk events into Messages events:
// message_start at the first chunk; a text block for content (and
// refusal) deltas, a tool_use block per tool call index — started by its
// first delta, which brings the id and the function's name, its argument
// fragments as input_json_delta — each block stopped when another
// starts; and at "data: [DONE]" the last content_block_stop, message_delta
// (with the usage of the final chunk) and message_stop.
func (a *openAIAdapter) Stream(ctx context.Context, req *Request, emit func(Event) error) error {
	resp, err := a.http.post(ctx, "/v1/chat/completions", openAIBody(req, true), true, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	t := openAIStreamTranslator{emit: emit, block: -1, tool: -1}
	var (
		finish  string
		matched any
		usage   Usage
		refused bool
	)
	for {
		sev, err := readEvent(r)
		if err != nil {
			return err
		}
		if string(bytes.TrimSpace(sev.data)) == "[DONE]" {
			if t.block < 0 && t.started {
				if err := t.open(BlockText, ContentBlock{Type: BlockText}); err != nil {
					return err // an empty answer: one empty text block, as before
				}
			}
			if !t.started {
				return errInvalidResponse(errors.New("stream ended without any chunk"))
			}
			stop, seq := openAIStop(finish, matched, req)
			if refused {
				stop, seq = StopRefusal, nil
			}
			for _, ev := range []Event{
				{Type: EventContentBlockStop, Index: t.block},
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
		if !t.started {
			t.started = true
			start := &Message{ID: newMessageID(), Model: modelOr(ch.Model, req.Model)}
			if err := emit(Event{Type: EventMessageStart, Message: start}); err != nil {
				return err
			}
		}
		if ch.Usage != nil {
			usage = ch.Usage.usage()
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue // n > 1 is never requested
			}
			refused = refused || c.Delta.Refusal != ""
			if err := t.text(c.Delta.Content + c.Delta.Refusal); err != nil {
				return err
			}
			for _, tc := range c.Delta.ToolCalls {
				if err := t.toolCall(tc); err != nil {
					return err
				}
			}
			if c.FinishReason != nil {
				finish, matched = *c.FinishReason, c.StopReason
			}
		}
	}
}

// openAIStreamTranslator keeps which Messages block is open while chunks
// come in.
type openAIStreamTranslator struct {
	emit    func(Event) error
	started bool
	block   int    // the open block's index, -1 before the first
	kind    string // the open block's type
	tool    int    // the open tool_use block's tool call index
}

// open stops the open block and starts b.
func (t *openAIStreamTranslator) open(kind string, b ContentBlock) error {
	if t.block >= 0 {
		if err := t.emit(Event{Type: EventContentBlockStop, Index: t.block}); err != nil {
			return err
		}
	}
	t.block++
	t.kind = kind
	return t.emit(Event{Type: EventContentBlockStart, Index: t.block, Block: &b})
}

func (t *openAIStreamTranslator) text(s string) error {
	if s == "" {
		return nil
	}
	if t.block < 0 || t.kind != BlockText {
		if err := t.open(BlockText, ContentBlock{Type: BlockText}); err != nil {
			return err
		}
	}
	return t.emit(Event{Type: EventContentBlockDelta, Index: t.block, Text: s})
}

// toolCall handles one tool call delta: a new index (with its id and name)
// starts a tool_use block; arguments go on as input_json_delta.
func (t *openAIStreamTranslator) toolCall(tc openAIToolCall) error {
	i := 0
	if tc.Index != nil {
		i = *tc.Index
	}
	if t.kind != BlockToolUse || i != t.tool {
		if tc.ID == "" || tc.Function.Name == "" {
			return errInvalidResponse(fmt.Errorf("tool call %d streamed without its id and name first", i))
		}
		t.tool = i
		if err := t.open(BlockToolUse, ContentBlock{Type: BlockToolUse, ID: tc.ID, Name: tc.Function.Name, Input: json.RawMessage(`{}`)}); err != nil {
			return err
		}
	}
	if tc.Function.Arguments == "" {
		return nil
	}
	return t.emit(Event{Type: EventContentBlockDelta, Index: t.block, DeltaType: DeltaInputJSON, Text: tc.Function.Arguments})
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
	case "tool_calls", "function_call":
		return StopToolUse, nil
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
