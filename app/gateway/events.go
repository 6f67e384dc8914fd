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
//	content_block_delta  Index, Text (a text_delta)
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

	// deltaType is the delta's type as read from an upstream; the messages
	// adapter drops the deltas that are not text_delta.
	deltaType string
}

// deltaUsage is message_delta's usage: output_tokens always, input_tokens
// when known (Anthropic has added it there; the SDKs read it when present).
type deltaUsage struct {
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens"`
}

type textDelta struct {
	Type string `json:"type"`
	Text string `json:"text"`
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
		return json.Marshal(struct {
			Type  string    `json:"type"`
			Index int       `json:"index"`
			Delta textDelta `json:"delta"`
		}{e.Type, e.Index, textDelta{"text_delta", e.Text}})
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
			u = deltaUsage{InputTokens: e.Usage.InputTokens, OutputTokens: e.Usage.OutputTokens}
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
		e.Text, e.deltaType = w.Delta.Text, w.Delta.Type
	case EventMessageDelta:
		e.StopReason, e.StopSequence = w.Delta.StopReason, w.Delta.StopSequence
	}
	return nil
}
