package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Block types of the neutral model: Anthropic's content block types, which
// are a superset of what Chat Completions carries (its text and image
// parts, tool_calls and role "tool" turns map onto them; see
// openai_translate.go).
const (
	BlockText             = "text"
	BlockImage            = "image"
	BlockDocument         = "document"
	BlockToolUse          = "tool_use"
	BlockToolResult       = "tool_result"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
)

// ContentBlock is one block of a turn or of an answer in the neutral
// model. Type selects which fields are meaningful:
//
//	text               Text
//	image, document    Source (documents also Title, Context, Citations)
//	tool_use           ID, Name, Input (a JSON object)
//	tool_result        ToolUseID, Content (text and image blocks), IsError
//	thinking           Thinking, Signature
//	redacted_thinking  Data
//
// CacheControl is the client's cache breakpoint, kept as sent. It
// marshals to exactly Anthropic's wire form of that block type.
type ContentBlock struct {
	Type string
	Text string

	ID    string
	Name  string
	Input json.RawMessage

	ToolUseID string
	Content   []ContentBlock
	IsError   *bool // as sent: absent, false or true
	// contentString: the tool result's content was sent as a string (its
	// one text block, or none), and is forwarded as one.
	contentString bool

	Source    *Source
	Title     string
	Context   string
	Citations json.RawMessage

	Thinking  string
	Signature string
	Data      string

	CacheControl json.RawMessage

	// bound is an image's or a document's input token bound, measured
	// when the request was parsed (see media.go).
	bound int
}

// Source is where an image or a document is: base64 data with its media
// type, a URL (passed to the provider as a URL, never fetched here), or,
// for a document, plain text (Data).
type Source struct {
	Type      string `json:"type"` // "base64", "url" or "text"
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// blockWire is every field any block type has, as Anthropic names them.
type blockWire struct {
	Type         string          `json:"type"`
	Text         *string         `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      any             `json:"content,omitempty"`
	IsError      *bool           `json:"is_error,omitempty"`
	Source       *Source         `json:"source,omitempty"`
	Title        string          `json:"title,omitempty"`
	Context      string          `json:"context,omitempty"`
	Citations    json.RawMessage `json:"citations,omitempty"`
	Thinking     *string         `json:"thinking,omitempty"`
	Signature    *string         `json:"signature,omitempty"`
	Data         string          `json:"data,omitempty"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

// MarshalJSON writes the block in Anthropic's wire form (appendBlock).
func (b ContentBlock) MarshalJSON() ([]byte, error) { return appendBlock(nil, &b) }

// UnmarshalJSON reads a block of an upstream's answer (or stream). Types
// this gateway does not relay are kept by type only: checkMessage and the
// accumulator refuse them.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var w blockWire
	if err := decodeUpstream(data, &w); err != nil {
		return err
	}
	b.fromWire(w)
	return nil
}

// UnmarshalJSONFrom is UnmarshalJSON for the v2 decoder that reads every
// upstream answer: the block is decoded where it stands, token by token,
// as v2 reads blockWire by reflection (a test compares them; reflection was
// most of an answer's decoding): names matched exactly, each once, null a
// field's zero value, a value of another type an error, unknown names
// skipped.
func (b *ContentBlock) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var w blockWire
	err := readObject(dec, "a content block", func(name []byte) error {
		switch string(name) {
		case "type":
			return readString(dec, &w.Type)
		case "text":
			return readStringPtr(dec, &w.Text)
		case "id":
			return readString(dec, &w.ID)
		case "name":
			return readString(dec, &w.Name)
		case "input":
			return readRaw(dec, &w.Input)
		case "tool_use_id":
			return readString(dec, &w.ToolUseID)
		case "title":
			return readString(dec, &w.Title)
		case "context":
			return readString(dec, &w.Context)
		case "citations":
			return readRaw(dec, &w.Citations)
		case "thinking":
			return readStringPtr(dec, &w.Thinking)
		case "signature":
			return readStringPtr(dec, &w.Signature)
		case "data":
			return readString(dec, &w.Data)
		case "cache_control":
			return readRaw(dec, &w.CacheControl)
		case "content":
			return jsonv2.UnmarshalDecode(dec, &w.Content)
		case "is_error":
			return jsonv2.UnmarshalDecode(dec, &w.IsError)
		case "source":
			return jsonv2.UnmarshalDecode(dec, &w.Source)
		}
		return dec.SkipValue()
	})
	if err != nil {
		return err
	}
	b.fromWire(w)
	return nil
}

// readObject reads a JSON object from dec, handing each name to field,
// which reads its value; null reads as an object without names, as v2
// reads null into a struct (its zero value). The name is only valid
// during the call: it is the decoder's own bytes when they need no
// unescaping (almost always), so a switch on it allocates nothing.
func readObject(dec *jsontext.Decoder, what string, field func(name []byte) error) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		return nil
	case '{':
	default:
		return fmt.Errorf("%s must be an object, not %v", what, tok.Kind())
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if bytes.IndexByte(name, '\\') < 0 {
			name = name[1 : len(name)-1]
		} else {
			// The decoder has checked the string: the only error left is
			// invalid UTF-8, replaced as the decoder's option allows.
			name, _ = jsontext.AppendUnquote(nil, name)
		}
		if err := field(name); err != nil {
			return err
		}
	}
	_, err = dec.ReadToken()
	return err
}

// readString reads a JSON string, or null as "", into s.
func readString(dec *jsontext.Decoder, s *string) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case '"':
		*s = tok.String()
	case 'n':
		*s = ""
	default:
		return fmt.Errorf("expected a string, not %v", tok.Kind())
	}
	return nil
}

// readStringPtr reads a JSON string into a new *s, or null as nil.
func readStringPtr(dec *jsontext.Decoder, s **string) error {
	var v string
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		*s = nil
		return err
	}
	if err := readString(dec, &v); err != nil {
		return err
	}
	*s = &v
	return nil
}

// readRaw copies the next JSON value, as it stands, into m (null as
// "null"), as json.RawMessage's own method does.
func readRaw(dec *jsontext.Decoder, m *json.RawMessage) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*m = append((*m)[:0], v...)
	return nil
}

func (b *ContentBlock) fromWire(w blockWire) {
	*b = ContentBlock{Type: w.Type, ID: w.ID, Name: w.Name, Input: w.Input, Source: w.Source,
		ToolUseID: w.ToolUseID, IsError: w.IsError, Data: w.Data}
	if w.Text != nil {
		b.Text = *w.Text
	}
	if w.Thinking != nil {
		b.Thinking = *w.Thinking
	}
	if w.Signature != nil {
		b.Signature = *w.Signature
	}
}

// answerBlock says whether an answer may carry a block of this type: text,
// tool calls and thinking (server tools, which requests cannot ask for,
// are not relayed).
func answerBlock(typ string) bool {
	switch typ {
	case BlockText, BlockToolUse, BlockThinking, BlockRedactedThinking:
		return true
	}
	return false
}

// payload is the block's own content as text: what the client is sent of
// it and what output estimates count (signatures and redacted data are
// opaque and the provider's, not text).
func (b *ContentBlock) payload() string {
	switch b.Type {
	case BlockToolUse:
		return b.Name + string(b.Input)
	case BlockThinking:
		return b.Thinking
	}
	return b.Text
}
