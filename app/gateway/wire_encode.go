package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"parapet/app/jsonstr"
)

// What the gateway writes on every call (the upstream's request body, a
// turn, an answer and its blocks) is appended by hand, byte for byte what
// encoding/json writes for the same values (wire_encode_test.go compares
// them): encoding/json reflects over each struct, and reads every block's
// own MarshalJSON output again to check and compact it, which was a
// tenth of the gateway's own time on a short call.

// appendString appends s as encoding/json writes a string.
func appendString(b []byte, s string) []byte { return jsonstr.Append(b, s, jsonstr.EncodingJSON) }

// appendRaw appends a JSON value kept as sent (a tool's input or schema, a
// cache_control) as encoding/json writes a json.RawMessage: checked,
// compacted, and with <, >, & and U+2028/U+2029 escaped.
func appendRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	at := len(b)
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return nil, err
	}
	b = buf.Bytes()
	if bytes.ContainsAny(b[at:], "<>&\u2028\u2029") {
		var esc bytes.Buffer
		json.HTMLEscape(&esc, b[at:])
		b = append(b[:at], esc.Bytes()...)
	}
	return b, nil
}

// appendArray appends items as a JSON array ([] for none), each by add.
func appendArray[T any](b []byte, items []T, add func([]byte, *T) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = add(b, &items[i]); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendBlocks appends blocks as a JSON array ([] for none).
func appendBlocks(b []byte, blocks []ContentBlock) ([]byte, error) {
	return appendArray(b, blocks, appendBlock)
}

// appendQuoted appends *s as a JSON string (appendArray's element form).
func appendQuoted(b []byte, s *string) ([]byte, error) { return appendString(b, *s), nil }

// appendBlock appends a block in Anthropic's wire form of its type, its
// fields in one order whatever the type: a text block always has its text
// (even ""), a tool_use block its input ({} when none), a thinking block
// its thinking (and its signature once known: a streamed block starts
// without it, which a signature_delta brings).
func appendBlock(b []byte, c *ContentBlock) ([]byte, error) {
	var err error
	b = appendString(append(b, `{"type":`...), c.Type)
	switch c.Type {
	case BlockText:
		b = appendString(append(b, `,"text":`...), c.Text)
	case BlockToolUse:
		b = appendOmitEmpty(b, `,"id":`, c.ID)
		b = appendOmitEmpty(b, `,"name":`, c.Name)
		input := c.Input
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		if b, err = appendRaw(append(b, `,"input":`...), input); err != nil {
			return nil, err
		}
	case BlockToolResult:
		b = appendOmitEmpty(b, `,"tool_use_id":`, c.ToolUseID)
		switch {
		case c.contentString:
			// "" as sent is omitted, which means the same.
			if len(c.Content) > 0 {
				b = appendString(append(b, `,"content":`...), toolResultText(*c))
			}
		case c.Content != nil:
			if b, err = appendBlocks(append(b, `,"content":`...), c.Content); err != nil {
				return nil, err
			}
		}
		if c.IsError != nil {
			b = strconv.AppendBool(append(b, `,"is_error":`...), *c.IsError)
		}
	case BlockImage, BlockDocument:
		if s := c.Source; s != nil {
			b = appendString(append(b, `,"source":{"type":`...), s.Type)
			b = appendOmitEmpty(b, `,"media_type":`, s.MediaType)
			b = appendOmitEmpty(b, `,"data":`, s.Data)
			b = append(appendOmitEmpty(b, `,"url":`, s.URL), '}')
		}
		b = appendOmitEmpty(b, `,"title":`, c.Title)
		b = appendOmitEmpty(b, `,"context":`, c.Context)
		if len(c.Citations) > 0 {
			if b, err = appendRaw(append(b, `,"citations":`...), c.Citations); err != nil {
				return nil, err
			}
		}
	case BlockThinking:
		b = appendString(append(b, `,"thinking":`...), c.Thinking)
		b = appendOmitEmpty(b, `,"signature":`, c.Signature)
	case BlockRedactedThinking:
		b = appendOmitEmpty(b, `,"data":`, c.Data)
	default:
		return nil, fmt.Errorf("unknown content block type %q", c.Type)
	}
	if len(c.CacheControl) > 0 {
		if b, err = appendRaw(append(b, `,"cache_control":`...), c.CacheControl); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendOmitEmpty appends a string member unless the string is empty
// (encoding/json's omitempty); member is `,"name":`.
func appendOmitEmpty(b []byte, member, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, member...), s)
}

// appendUsage appends usage in the Messages API's shape: input and output
// always, the cache buckets when not zero.
func appendUsage(b []byte, u Usage) []byte {
	b = strconv.AppendInt(append(b, `{"input_tokens":`...), int64(u.InputTokens), 10)
	b = strconv.AppendInt(append(b, `,"output_tokens":`...), int64(u.OutputTokens), 10)
	if u.CacheCreationInputTokens != 0 {
		b = strconv.AppendInt(append(b, `,"cache_creation_input_tokens":`...), int64(u.CacheCreationInputTokens), 10)
	}
	if u.CacheReadInputTokens != 0 {
		b = strconv.AppendInt(append(b, `,"cache_read_input_tokens":`...), int64(u.CacheReadInputTokens), 10)
	}
	return append(b, '}')
}

// appendTurn appends a turn of the conversation: content a string, or the
// blocks the turn was sent as.
func appendTurn(b []byte, m *ChatMessage) ([]byte, error) {
	b = appendString(append(b, `{"role":`...), m.Role)
	b = append(b, `,"content":`...)
	if m.Blocks == nil {
		return append(appendString(b, m.Content), '}'), nil
	}
	b, err := appendBlocks(b, m.Blocks)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendTool appends a tool definition as the Messages API takes it.
func appendTool(b []byte, t *Tool) ([]byte, error) {
	var err error
	b = appendString(append(b, `{"name":`...), t.Name)
	b = appendOmitEmpty(b, `,"description":`, t.Description)
	if b, err = appendRaw(append(b, `,"input_schema":`...), t.InputSchema); err != nil {
		return nil, err
	}
	if t.Strict != nil {
		b = strconv.AppendBool(append(b, `,"strict":`...), *t.Strict)
	}
	if len(t.CacheControl) > 0 {
		if b, err = appendRaw(append(b, `,"cache_control":`...), t.CacheControl); err != nil {
			return nil, err
		}
	}
	if t.EagerInputStreaming != nil {
		b = strconv.AppendBool(append(b, `,"eager_input_streaming":`...), *t.EagerInputStreaming)
	}
	return append(b, '}'), nil
}

// appendNumber appends a sampling parameter as encoding/json writes a
// float64 (rare enough to leave to it).
func appendNumber(b []byte, member string, f *float64) ([]byte, error) {
	if f == nil {
		return b, nil
	}
	n, err := json.Marshal(*f)
	if err != nil {
		return nil, err
	}
	return append(append(b, member...), n...), nil
}
