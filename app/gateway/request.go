package gateway

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxBodyBytes is the largest request body the endpoints accept. The handler
// enforces it (413) before parsing; the parsers trust it has.
const MaxBodyBytes = 1 << 20

// Limits on request fields beyond those the configuration sets.
const (
	// MaxStopSequences is OpenAI's limit, so that a request valid here is
	// valid whatever the upstream's style.
	MaxStopSequences = 4
	maxModelLen      = 256
	maxUserIDLen     = 256
)

// Request is a validated chat request, the same for both endpoints and every
// upstream style.
type Request struct {
	Model         string
	MaxTokens     int
	System        string // "" for none
	Messages      []ChatMessage
	Temperature   *float64 // nil: the upstream's default
	TopP          *float64 // Messages endpoint only
	TopK          *int     // Messages endpoint only; OpenAI style has no equivalent and drops it
	StopSequences []string
	Stream        bool
	Metadata      Metadata
	// IncludeUsage asks a Chat Completions stream for a last chunk with
	// the usage (stream_options.include_usage).
	IncludeUsage bool
	// AnthropicBeta is the client's anthropic-beta header, forwarded to a
	// Messages-style upstream.
	AnthropicBeta []string
}

// ChatMessage is one turn of the conversation. Content is text: the Messages
// endpoint's text blocks are joined with a blank line.
type ChatMessage struct {
	Role    string // "user" or "assistant"
	Content string
}

// Metadata is what a client may attach for the upstream's abuse monitoring.
type Metadata struct {
	UserID string // "" for none
}

// Defaults are the configuration's values for what a request may omit, and
// its bound on max_tokens.
type Defaults struct {
	Model        string
	MaxTokens    int
	MaxTokensCap int
}

// ParseChatRequest validates a body of our own POST /gateway/v1/chat:
//
//	{"messages":[{"role":"user","content":"…"}], "model", "max_tokens",
//	 "system", "temperature", "stop_sequences", "stream",
//	 "metadata":{"user_id"}}
//
// Only messages is required; model and max_tokens default from d. Every
// problem is an *Error with status 400 and code invalid_request whose message
// names the field.
func ParseChatRequest(body []byte, d Defaults) (*Request, error) {
	req, err := parseChat(body, d)
	if err != nil {
		return nil, err
	}
	return req, nil
}

// ParseMessagesRequest validates a body of POST /gateway/v1/messages, an
// Anthropic Messages API request as the official SDKs send it. As in that
// API, model and max_tokens are required, content and system may be a string
// or an array of content blocks, and top_p and top_k are accepted. This beta
// accepts text blocks only: images, documents, tools and thinking are refused
// with a message saying so (cache_control on a text block is accepted and
// ignored).
func ParseMessagesRequest(body []byte, d Defaults) (*Request, error) {
	req, err := parseMessages(body, d)
	if err != nil {
		return nil, err
	}
	return req, nil
}

// unsupported are Messages API fields this text-only beta refuses with a
// clearer message than "unknown field".
var unsupported = []string{"tools", "tool_choice", "thinking", "mcp_servers", "container", "service_tier"}

func parseChat(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	if err := top.only("messages", "model", "max_tokens", "system", "temperature", "stop_sequences", "stream", "metadata"); err != nil {
		return nil, err
	}
	req := &Request{Model: d.Model, MaxTokens: d.MaxTokens}
	if req.Messages, err = parseMessageList(top, false); err != nil {
		return nil, err
	}
	if raw, ok := top.get("model"); ok {
		if req.Model, err = parseModel(raw); err != nil {
			return nil, err
		}
	} else if req.Model == "" {
		return nil, invalid("model is required")
	}
	if raw, ok := top.get("max_tokens"); ok {
		if req.MaxTokens, err = parseMaxTokens(raw, d.MaxTokensCap); err != nil {
			return nil, err
		}
	}
	if raw, ok := top.get("system"); ok {
		s, ok := asString(raw)
		if !ok {
			return nil, invalid("system must be a string")
		}
		req.System = s
	}
	if err := parseOptions(top, req); err != nil {
		return nil, err
	}
	return req, nil
}

func parseMessages(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	for _, k := range unsupported {
		if _, ok := top.fields[k]; ok {
			return nil, invalid("%q is not supported: this gateway accepts text-only requests", k)
		}
	}
	if err := top.only("messages", "model", "max_tokens", "system", "temperature", "top_p", "top_k", "stop_sequences", "stream", "metadata"); err != nil {
		return nil, err
	}
	req := &Request{}
	if req.Messages, err = parseMessageList(top, true); err != nil {
		return nil, err
	}
	raw, ok := top.get("model")
	if !ok {
		return nil, invalid("model is required")
	}
	if req.Model, err = parseModel(raw); err != nil {
		return nil, err
	}
	if raw, ok = top.get("max_tokens"); !ok {
		return nil, invalid("max_tokens is required")
	}
	if req.MaxTokens, err = parseMaxTokens(raw, d.MaxTokensCap); err != nil {
		return nil, err
	}
	if raw, ok := top.get("system"); ok {
		if req.System, err = parseSystem(raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := top.get("top_p"); ok {
		f, ok := asNumber(raw)
		if !ok || f < 0 || f > 1 {
			return nil, invalid("top_p must be a number between 0 and 1")
		}
		req.TopP = &f
	}
	if raw, ok := top.get("top_k"); ok {
		n, ok := asInt(raw)
		if !ok || n < 0 {
			return nil, invalid("top_k must be a non-negative integer")
		}
		req.TopK = &n
	}
	if err := parseOptions(top, req); err != nil {
		return nil, err
	}
	return req, nil
}

func decodeBody(body []byte) (object, *Error) {
	if !json.Valid(body) {
		return object{}, invalid("request body is not valid JSON")
	}
	top, ok := decodeObject(body, "")
	if !ok {
		return object{}, invalid("request body must be a JSON object")
	}
	return top, nil
}

// parseMessageList reads the required messages array. blocks allows the
// Messages API's array-of-content-blocks form.
func parseMessageList(top object, blocks bool) ([]ChatMessage, *Error) {
	raw, ok := top.get("messages")
	if !ok {
		return nil, invalid("messages is required")
	}
	items, ok := asArray(raw)
	if !ok {
		return nil, invalid("messages must be an array")
	}
	if len(items) == 0 {
		return nil, invalid("messages must not be empty")
	}
	msgs := make([]ChatMessage, len(items))
	for i, item := range items {
		path := index("messages", i)
		m, ok := decodeObject(item, path)
		if !ok {
			return nil, invalid("%s must be an object", path)
		}
		if err := m.only("role", "content"); err != nil {
			return nil, err
		}
		role, _ := asString(m.fields["role"])
		if role != "user" && role != "assistant" {
			return nil, invalid("%s must be \"user\" or \"assistant\"", m.name("role"))
		}
		content, present := m.get("content")
		if !present {
			return nil, invalid("%s is required", m.name("content"))
		}
		text, err := parseContent(content, m.name("content"), blocks)
		if err != nil {
			return nil, err
		}
		msgs[i] = ChatMessage{Role: role, Content: text}
	}
	return msgs, nil
}

// parseContent reads a message's content: a non-blank string or, when blocks
// is set (Messages endpoint), a non-empty array of text blocks.
func parseContent(raw json.RawMessage, path string, blocks bool) (string, *Error) {
	if s, ok := asString(raw); ok && strings.TrimSpace(s) != "" {
		return s, nil
	}
	if !blocks {
		return "", invalid("%s must be a non-empty string", path)
	}
	items, ok := asArray(raw)
	if !ok || len(items) == 0 {
		return "", invalid("%s must be a non-empty string or a non-empty array of content blocks", path)
	}
	return parseTextBlocks(items, path)
}

// parseSystem reads the Messages endpoint's system prompt: a string or an
// array of text blocks, where empty means none (as the real API accepts).
func parseSystem(raw json.RawMessage) (string, *Error) {
	if s, ok := asString(raw); ok {
		return s, nil
	}
	items, ok := asArray(raw)
	if !ok {
		return "", invalid("system must be a string or an array of text blocks")
	}
	return parseTextBlocks(items, "system")
}

// parseTextBlocks reads content blocks, refusing any that is not text, and
// joins their texts with a blank line: the core carries text, and the
// upstream styles agree on what that means.
func parseTextBlocks(items []json.RawMessage, path string) (string, *Error) {
	texts := make([]string, len(items))
	for i, item := range items {
		bpath := index(path, i)
		b, ok := decodeObject(item, bpath)
		if !ok {
			return "", invalid("%s must be an object", bpath)
		}
		typ, _ := asString(b.fields["type"])
		if typ == "" {
			return "", invalid("%s is required", b.name("type"))
		}
		if typ != "text" {
			return "", invalid("%s %q is not supported: this gateway accepts text blocks only", b.name("type"), typ)
		}
		if err := b.only("type", "text", "cache_control"); err != nil {
			return "", err
		}
		text, ok := asString(b.fields["text"])
		if !ok || strings.TrimSpace(text) == "" {
			return "", invalid("%s must be a non-empty string", b.name("text"))
		}
		texts[i] = text
	}
	return strings.Join(texts, "\n\n"), nil
}

func parseModel(raw json.RawMessage) (string, *Error) {
	s, ok := asString(raw)
	if !ok || s == "" || utf8.RuneCountInString(s) > maxModelLen || strings.TrimSpace(s) != s {
		return "", invalid("model must be a non-empty string of at most %d characters without surrounding spaces", maxModelLen)
	}
	if hasControl(s) {
		return "", invalid("model must not contain control characters")
	}
	return s, nil
}

// hasControl reports a control character (NUL, escape, DEL, …): such a
// value is refused in fields that are recorded (model, user ids), before
// the upstream is called, so none reaches a log or the audit table.
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// parseUserID reads an end-user identifier (metadata.user_id, user).
func parseUserID(name string, raw json.RawMessage) (string, *Error) {
	s, ok := asString(raw)
	if !ok || utf8.RuneCountInString(s) > maxUserIDLen {
		return "", invalid("%s must be a string of at most %d characters", name, maxUserIDLen)
	}
	if hasControl(s) {
		return "", invalid("%s must not contain control characters", name)
	}
	return s, nil
}

func parseTemperature(top object, req *Request) *Error {
	if raw, ok := top.get("temperature"); ok {
		f, ok := asNumber(raw)
		if !ok || f < 0 || f > 1 {
			return invalid("temperature must be a number between 0 and 1")
		}
		req.Temperature = &f
	}
	return nil
}

// parseStops reads an array of stop sequences.
func parseStops(name string, raw json.RawMessage) ([]string, *Error) {
	items, ok := asArray(raw)
	if !ok {
		return nil, invalid("%s must be an array of strings", name)
	}
	if len(items) > MaxStopSequences {
		return nil, invalid("%s must have at most %d entries", name, MaxStopSequences)
	}
	var stops []string
	for i, item := range items {
		s, ok := asString(item)
		if !ok || s == "" {
			return nil, invalid("%s must be a non-empty string", index(name, i))
		}
		stops = append(stops, s)
	}
	return stops, nil
}

func parseMaxTokens(raw json.RawMessage, maxTokensCap int) (int, *Error) {
	n, ok := asInt(raw)
	if !ok || n < 1 || n > maxTokensCap {
		return 0, invalid("max_tokens must be an integer between 1 and %d", maxTokensCap)
	}
	return n, nil
}

// parseOptions reads the fields both endpoints share beyond the prompt.
func parseOptions(top object, req *Request) *Error {
	if err := parseTemperature(top, req); err != nil {
		return err
	}
	if raw, ok := top.get("stop_sequences"); ok {
		var err *Error
		if req.StopSequences, err = parseStops("stop_sequences", raw); err != nil {
			return err
		}
	}
	if raw, ok := top.get("stream"); ok {
		b, ok := asBool(raw)
		if !ok {
			return invalid("stream must be a boolean")
		}
		req.Stream = b
	}
	if raw, ok := top.get("metadata"); ok {
		md, ok := decodeObject(raw, "metadata")
		if !ok {
			return invalid("metadata must be an object")
		}
		if err := md.only("user_id"); err != nil {
			return err
		}
		if raw, ok := md.get("user_id"); ok {
			var err *Error
			if req.Metadata.UserID, err = parseUserID("metadata.user_id", raw); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseCountTokensRequest validates a body of POST
// /gateway/v1/messages/count_tokens: a Messages request without
// max_tokens (model, messages, system).
func ParseCountTokensRequest(body []byte, d Defaults) (*Request, error) {
	top, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	if err := top.only("messages", "model", "system"); err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: 1}
	if req.Messages, err = parseMessageList(top, true); err != nil {
		return nil, err
	}
	raw, ok := top.get("model")
	if !ok {
		return nil, invalid("model is required")
	}
	if req.Model, err = parseModel(raw); err != nil {
		return nil, err
	}
	if raw, ok := top.get("system"); ok {
		if req.System, err = parseSystem(raw); err != nil {
			return nil, err
		}
	}
	return req, nil
}
