package gateway

import (
	"encoding/json"
	"strings"
	"time"
)

// ResponseStream writes a Messages event stream as the Responses API's
// events, each named by its type and numbered by sequence_number:
//
//	response.created, response.in_progress     the response, no output yet
//	per text block: response.output_item.added (a message),
//	  response.content_part.added, response.output_text.delta…,
//	  response.output_text.done, response.content_part.done,
//	  response.output_item.done
//	per tool_use block: response.output_item.added (a function_call),
//	  response.function_call_arguments.delta…, …arguments.done,
//	  response.output_item.done
//	response.completed (or response.incomplete at max_output_tokens)
//	                                           the whole response, usage
//
// Thinking blocks are left out. A refusal streams as the text it is (the
// stop reason comes after it).
type ResponseStream struct {
	sse  *SSEWriter
	req  *Request
	now  time.Time
	resp Response
	seq  int
	// The open block: its kind, its item's id and what it has sent.
	kind   string
	itemID string
	call   *ContentBlock
	text   strings.Builder
	stop   string
	usage  Usage
}

// NewResponseStream writes to sse the answer to req.
func NewResponseStream(sse *SSEWriter, req *Request, now time.Time) *ResponseStream {
	return &ResponseStream{sse: sse, req: req, now: now}
}

// responseEvent is one event's data; each type fills its own fields.
type responseEvent struct {
	Type           string      `json:"type"`
	SequenceNumber int         `json:"sequence_number"`
	Response       *Response   `json:"response,omitempty"`
	OutputIndex    *int        `json:"output_index,omitempty"`
	ItemID         string      `json:"item_id,omitempty"`
	ContentIndex   *int        `json:"content_index,omitempty"`
	Item           any         `json:"item,omitempty"`
	Part           any         `json:"part,omitempty"`
	Delta          *string     `json:"delta,omitempty"`
	Text           *string     `json:"text,omitempty"`
	Name           string      `json:"name,omitempty"`
	Arguments      *string     `json:"arguments,omitempty"`
	Logprobs       *[]struct{} `json:"logprobs,omitempty"`
}

// Send translates one event; its signature fits Proxy.Stream's emit.
func (s *ResponseStream) Send(ev Event) error {
	switch ev.Type {
	case EventMessageStart:
		s.resp = newResponse(s.req, ev.Message.ID, ev.Message.Model, s.now)
		if err := s.send(responseEvent{Type: "response.created", Response: &s.resp}); err != nil {
			return err
		}
		return s.send(responseEvent{Type: "response.in_progress", Response: &s.resp})
	case EventContentBlockStart:
		return s.start(ev.Block)
	case EventContentBlockDelta:
		return s.delta(ev)
	case EventContentBlockStop:
		return s.end()
	case EventMessageDelta:
		s.stop = ev.StopReason
		if ev.Usage != nil {
			s.usage = *ev.Usage
		}
	case EventMessageStop:
		s.resp.finish(s.stop, s.usage)
		typ := "response.completed"
		if s.resp.Status == "incomplete" {
			typ = "response.incomplete"
		}
		return s.send(responseEvent{Type: typ, Response: &s.resp})
	}
	return nil
}

// start opens a text block's message item and its output_text part, or a
// tool_use block's function_call item.
func (s *ResponseStream) start(b *ContentBlock) error {
	s.kind, s.call = "", nil
	s.text.Reset()
	if b == nil {
		return nil
	}
	s.kind = b.Type
	switch b.Type {
	case BlockText:
		s.itemID = newItemID("msg_")
		item := messageItem{Type: "message", ID: s.itemID, Status: "in_progress", Role: "assistant", Content: []any{}}
		if err := s.send(responseEvent{Type: "response.output_item.added", OutputIndex: s.index(), Item: item}); err != nil {
			return err
		}
		return s.send(responseEvent{Type: "response.content_part.added", ItemID: s.itemID, OutputIndex: s.index(),
			ContentIndex: new(int), Part: newOutputText("")})
	case BlockToolUse:
		s.itemID, s.call = newItemID("fc_"), b
		return s.send(responseEvent{Type: "response.output_item.added", OutputIndex: s.index(), Item: s.callItem("in_progress", "")})
	}
	return nil
}

func (s *ResponseStream) delta(ev Event) error {
	switch {
	case s.kind == BlockText && ev.deltaKind() == DeltaText:
		s.text.WriteString(ev.Text)
		return s.send(responseEvent{Type: "response.output_text.delta", ItemID: s.itemID, OutputIndex: s.index(),
			ContentIndex: new(int), Delta: &ev.Text, Logprobs: &[]struct{}{}})
	case s.kind == BlockToolUse && ev.deltaKind() == DeltaInputJSON && ev.Text != "":
		s.text.WriteString(ev.Text)
		return s.send(responseEvent{Type: "response.function_call_arguments.delta", ItemID: s.itemID, OutputIndex: s.index(), Delta: &ev.Text})
	}
	return nil
}

// end closes the open item and adds it to the response's output.
func (s *ResponseStream) end() error {
	text := s.text.String()
	var item any
	switch s.kind {
	case BlockText:
		part := newOutputText(text)
		if err := s.send(responseEvent{Type: "response.output_text.done", ItemID: s.itemID, OutputIndex: s.index(),
			ContentIndex: new(int), Text: &text, Logprobs: &[]struct{}{}}); err != nil {
			return err
		}
		if err := s.send(responseEvent{Type: "response.content_part.done", ItemID: s.itemID, OutputIndex: s.index(),
			ContentIndex: new(int), Part: part}); err != nil {
			return err
		}
		item = messageItem{Type: "message", ID: s.itemID, Status: "completed", Role: "assistant", Content: []any{part}}
	case BlockToolUse:
		if text == "" {
			text = "{}" // a call without parameters still has JSON arguments
		}
		if err := s.send(responseEvent{Type: "response.function_call_arguments.done", ItemID: s.itemID, OutputIndex: s.index(),
			Name: s.call.Name, Arguments: &text}); err != nil {
			return err
		}
		item = s.callItem("completed", text)
	default:
		return nil
	}
	if err := s.send(responseEvent{Type: "response.output_item.done", OutputIndex: s.index(), Item: item}); err != nil {
		return err
	}
	s.resp.Output = append(s.resp.Output, item)
	s.kind = ""
	return nil
}

func (s *ResponseStream) callItem(status, args string) functionCallItem {
	return functionCallItem{Type: "function_call", ID: s.itemID, CallID: s.call.ID, Name: s.call.Name, Arguments: args, Status: status}
}

// index is the open item's output_index: the items before it are done.
func (s *ResponseStream) index() *int {
	i := len(s.resp.Output)
	return &i
}

func (s *ResponseStream) send(ev responseEvent) error {
	ev.SequenceNumber = s.seq
	s.seq++
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	return s.sse.Write(ev.Type, data)
}

// SendError ends a started stream with an error event: OpenAI's fields
// (code, message, param) and, under error, the error object of OpenAI's
// other answers, which the openai SDK raises as an APIError.
func (s *ResponseStream) SendError(e *Error, requestID string) error {
	var wrapped struct{ Error json.RawMessage }
	if err := json.Unmarshal(e.OpenAIJSON(requestID), &wrapped); err != nil {
		return err
	}
	data, err := json.Marshal(struct {
		Type           string          `json:"type"`
		SequenceNumber int             `json:"sequence_number"`
		Code           string          `json:"code"`
		Message        string          `json:"message"`
		Param          *string         `json:"param"`
		Error          json.RawMessage `json:"error"`
	}{"error", s.seq, e.Code, e.Message, nil, wrapped.Error})
	if err != nil {
		return err
	}
	s.seq++
	return s.sse.Write("error", data)
}
