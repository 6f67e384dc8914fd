package gateway

import (
	"encoding/json"
	"fmt"
)

// Streaming event types of the Messages API, in the order a stream sends
// them: message_start, then per content block content_block_start,
// content_block_delta…, content_block_stop, then message_delta and
// message_stop. ping may come at any time after message_start; error ends a
// stream that failed after it started.
const (
	EventMessageStart      = "message_start"
	EventContentBlockStart = "content_block_start"
	EventContentBlockDelta = "content_block_delta"
	EventContentBlockStop  = "content_block_stop"
	EventMessageDelta      = "message_delta"
	EventMessageStop       = "message_stop"
	EventPing              = "ping"
	EventError             = "error"
)

// Event is one streaming event. Type selects which fields are meaningful:
//
//	message_start        Message (skeleton: no content, usage.input_tokens)
//	content_block_start  Index, Block
//	content_block_delta  Index, DeltaType, Text (the delta's payload)
//	content_block_stop   Index
//	message_delta        StopReason, StopSequence, Usage (cumulative)
//	message_stop, ping   -
//	error                Error
//
// It marshals to exactly the data object Anthropic sends for that event.
type Event struct {
	Type         string
	Message      *Message
	Index        int
	Block        *ContentBlock
	Text         string
	StopReason   string
	StopSequence *string
	Usage        *Usage
	Error        *ErrorBody

	// DeltaType is a content_block_delta's type: DeltaText ("" reads as
	// it), DeltaInputJSON (Text is a fragment of a tool call's input),
	// DeltaThinking or DeltaSignature. Read from an upstream, it may be
	// another (citations_delta), which the messages adapter drops.
	DeltaType string
}

// Delta types of content_block_delta, and the field each carries its
// payload in.
const (
	DeltaText      = "text_delta"       // text
	DeltaInputJSON = "input_json_delta" // partial_json
	DeltaThinking  = "thinking_delta"   // thinking
	DeltaSignature = "signature_delta"  // signature
)

// deltaField is the JSON field of a delta type's payload.
var deltaField = map[string]string{DeltaText: "text", DeltaInputJSON: "partial_json", DeltaThinking: "thinking", DeltaSignature: "signature"}

// deltaKind is ev's delta type, "" read as text.
func (e Event) deltaKind() string {
	if e.DeltaType == "" {
		return DeltaText
	}
	return e.DeltaType
}

// deltaUsage is message_delta's usage: output_tokens always, input_tokens
// when known (Anthropic has added it there; the SDKs read it when present).
type deltaUsage struct {
	InputTokens              int `json:"input_tokens,omitempty"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens,omitempty"`
}

type messageDelta struct {
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Type {
	case EventMessageStart:
		if e.Message == nil {
			return nil, fmt.Errorf("message_start without message")
		}
		return json.Marshal(struct {
			Type    string   `json:"type"`
			Message *Message `json:"message"`
		}{e.Type, e.Message})
	case EventContentBlockStart:
		block := ContentBlock{Type: "text"}
		if e.Block != nil {
			block = *e.Block
		}
		return json.Marshal(struct {
			Type  string       `json:"type"`
			Index int          `json:"index"`
			Block ContentBlock `json:"content_block"`
		}{e.Type, e.Index, block})
	case EventContentBlockDelta:
		kind := e.deltaKind()
		field, ok := deltaField[kind]
		if !ok {
			return nil, fmt.Errorf("unknown delta type %q", kind)
		}
		payload, err := json.Marshal(e.Text)
		if err != nil {
			return nil, err
		}
		delta := append(append([]byte(`{"type":"`+kind+`","`+field+`":`), payload...), '}')
		return json.Marshal(struct {
			Type  string          `json:"type"`
			Index int             `json:"index"`
			Delta json.RawMessage `json:"delta"`
		}{e.Type, e.Index, delta})
	case EventContentBlockStop:
		return json.Marshal(struct {
			Type  string `json:"type"`
			Index int    `json:"index"`
		}{e.Type, e.Index})
	case EventMessageDelta:
		d := messageDelta{StopSequence: e.StopSequence}
		if e.StopReason != "" {
			d.StopReason = &e.StopReason
		}
		var u deltaUsage
		if e.Usage != nil {
			u = deltaUsage{InputTokens: e.Usage.InputTokens, OutputTokens: e.Usage.OutputTokens,
				CacheCreationInputTokens: e.Usage.CacheCreationInputTokens, CacheReadInputTokens: e.Usage.CacheReadInputTokens}
		}
		return json.Marshal(struct {
			Type  string       `json:"type"`
			Delta messageDelta `json:"delta"`
			Usage deltaUsage   `json:"usage"`
		}{e.Type, d, u})
	case EventMessageStop, EventPing:
		return json.Marshal(struct {
			Type string `json:"type"`
		}{e.Type})
	case EventError:
		if e.Error == nil {
			return nil, fmt.Errorf("error event without error")
		}
		return json.Marshal(struct {
			Type  string    `json:"type"`
			Error ErrorBody `json:"error"`
		}{e.Type, *e.Error})
	default:
		return nil, fmt.Errorf("unknown event type %q", e.Type)
	}
}

// UnmarshalJSON reads an event's data object as the Messages API sends it.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w struct {
		Type         string        `json:"type"`
		Message      *Message      `json:"message"`
		Index        int           `json:"index"`
		ContentBlock *ContentBlock `json:"content_block"`
		Delta        struct {
			Type         string  `json:"type"`
			Text         string  `json:"text"`
			PartialJSON  string  `json:"partial_json"`
			Thinking     string  `json:"thinking"`
			Signature    string  `json:"signature"`
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage *Usage     `json:"usage"`
		Error *ErrorBody `json:"error"`
	}
	if err := decodeUpstream(b, &w); err != nil {
		return err
	}
	*e = Event{Type: w.Type, Message: w.Message, Index: w.Index, Block: w.ContentBlock,
		Usage: w.Usage, Error: w.Error}
	switch w.Type {
	case EventContentBlockDelta:
		e.DeltaType = w.Delta.Type
		switch w.Delta.Type {
		case DeltaInputJSON:
			e.Text = w.Delta.PartialJSON
		case DeltaThinking:
			e.Text = w.Delta.Thinking
		case DeltaSignature:
			e.Text = w.Delta.Signature
		default:
			e.Text = w.Delta.Text
		}
	case EventMessageDelta:
		e.StopReason, e.StopSequence = w.Delta.StopReason, w.Delta.StopSequence
	}
	return nil
}
