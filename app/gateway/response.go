package gateway

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Stop reasons, as the Messages API names them. Both endpoints report these,
// whatever the upstream's style.
const (
	StopEndTurn      = "end_turn"
	StopMaxTokens    = "max_tokens"
	StopStopSequence = "stop_sequence"
	StopRefusal      = "refusal"
	StopToolUse      = "tool_use"
	StopPauseTurn    = "pause_turn"
)

// Message is a model's answer in the Messages API shape. Both public
// endpoints return it, so clients need one parser:
//
//	{"id":"msg_…","type":"message","role":"assistant","model":"…",
//	 "content":[{"type":"text","text":"…"}],"stop_reason":"end_turn",
//	 "stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2}}
type Message struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []ContentBlock `json:"content"`
	StopReason   string         `json:"stop_reason"` // "" while streaming: marshals as null
	StopSequence *string        `json:"stop_sequence"`
	Usage        Usage          `json:"usage"`
}

// Text is the concatenated text of all blocks.
func (m *Message) Text() string {
	var b strings.Builder
	for _, block := range m.Content {
		b.WriteString(block.Text)
	}
	return b.String()
}

// UnmarshalJSONFrom reads an upstream's answer (or a stream's
// message_start) token by token, as v2 reads the struct by reflection (a
// test compares them; reflection was most of an answer's decoding): names
// matched exactly, each once, null a field's zero value, a value of
// another type an error, unknown names skipped.
func (m *Message) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var msg Message
	err := readObject(dec, "a message", func(name []byte) error {
		switch string(name) {
		case "id":
			return readString(dec, &msg.ID)
		case "type":
			return readString(dec, &msg.Type)
		case "role":
			return readString(dec, &msg.Role)
		case "model":
			return readString(dec, &msg.Model)
		case "content":
			return readBlocks(dec, &msg.Content)
		case "stop_reason":
			return readString(dec, &msg.StopReason)
		case "stop_sequence":
			return readStringPtr(dec, &msg.StopSequence)
		case "usage":
			return msg.Usage.UnmarshalJSONFrom(dec)
		}
		return dec.SkipValue()
	})
	if err != nil {
		return err
	}
	*m = msg
	return nil
}

// readBlocks reads an array of content blocks into a new *blocks (null as
// nil, [] as empty).
func readBlocks(dec *jsontext.Decoder, blocks *[]ContentBlock) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		*blocks = nil
		return nil
	case '[':
	default:
		return fmt.Errorf("content must be an array, not %v", tok.Kind())
	}
	list := []ContentBlock{}
	for dec.PeekKind() != ']' {
		var b ContentBlock
		if err := b.UnmarshalJSONFrom(dec); err != nil {
			return err
		}
		list = append(list, b)
	}
	*blocks = list
	_, err = dec.ReadToken()
	return err
}

// MarshalJSON writes the exact wire shape (see JSON).
func (m Message) MarshalJSON() ([]byte, error) { return m.JSON() }

// JSON is the message in the exact wire shape, fields in Anthropic's order:
// type and role are fixed, an empty content is [] (never null) and an
// unset stop_reason is null, as in a streamed message_start. A handler
// writes these bytes as they are (appended as wire_encode.go says why).
func (m Message) JSON() ([]byte, error) {
	b := make([]byte, 0, 256)
	b = appendString(append(b, `{"id":`...), m.ID)
	b = appendString(append(b, `,"type":"message","role":"assistant","model":`...), m.Model)
	b, err := appendBlocks(append(b, `,"content":`...), m.Content)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"stop_reason":`...)
	if m.StopReason == "" {
		b = append(b, "null"...)
	} else {
		b = appendString(b, m.StopReason)
	}
	b = append(b, `,"stop_sequence":`...)
	if m.StopSequence == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *m.StopSequence)
	}
	return append(appendUsage(append(b, `,"usage":`...), m.Usage), '}'), nil
}

// newMessageID makes an id in the Messages API's format for answers whose
// upstream has no such id (OpenAI style, demo).
func newMessageID() string {
	return "msg_" + rand.Text()
}
