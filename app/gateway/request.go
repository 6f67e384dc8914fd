package gateway

import (
	"slices"
	"strconv"
	"strings"
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
	TopK          *int     // Messages endpoint only, and only for a Messages-style upstream
	StopSequences []string
	Stream        bool
	Metadata      Metadata
	// Seed is Chat Completions' seed, passed to an openai-style upstream
	// only (nil: none).
	Seed *int64
	// IncludeUsage asks a Chat Completions stream for a last chunk with
	// the usage (stream_options.include_usage).
	IncludeUsage bool
	// AnthropicBeta is the client's anthropic-beta header, forwarded to a
	// Messages-style upstream.
	AnthropicBeta []string
}

// ChatMessage is one turn of the conversation. Content is text: the Messages
// endpoint's text blocks are joined with a blank line. Both upstream styles
// take it as it is, so it carries their JSON names.
type ChatMessage struct {
	Role    string `json:"role"` // "user" or "assistant"
	Content string `json:"content"`
}

// callerTexts are the texts the caller wrote, in the body or in a
// header, that an upstream may quote back (see scrubber.sparing).
func (r *Request) callerTexts() []string {
	texts := append([]string{r.Model, r.System, r.Metadata.UserID}, r.StopSequences...)
	texts = append(texts, r.AnthropicBeta...) // Anthropic's 400 quotes unknown betas
	for _, m := range r.Messages {
		texts = append(texts, m.Content)
	}
	return texts
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
	// NoTopK: the upstream (OpenAI style) has no top_k, so a request that
	// names one is refused rather than sampled otherwise than it asked.
	NoTopK bool
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
func ParseChatRequest(body []byte, d Defaults) (*Request, error) { return parsed(parseChat(body, d)) }

// ParseMessagesRequest validates a body of POST /gateway/v1/messages, an
// Anthropic Messages API request as the official SDKs send it. As in that
// API, model and max_tokens are required, content and system may be a string
// or an array of content blocks, and top_p and top_k are accepted. This beta
// accepts text blocks only: images, documents, tools and thinking are refused
// with a message saying so (cache_control on a text block is accepted and
// ignored).
func ParseMessagesRequest(body []byte, d Defaults) (*Request, error) {
	return parsed(parseMessages(body, d))
}

// parsed hands a parser's answer out as an error interface that is nil
// when the *Error is (a nil *Error in an error is not a nil error).
func parsed(req *Request, err *Error) (*Request, error) {
	if err != nil {
		return nil, err
	}
	return req, nil
}

// unsupported are Messages API fields this text-only beta refuses with a
// clearer message than "unknown field", on our /chat and count_tokens too,
// so tools are refused by name the same on every endpoint (unless they
// hold the value that asks for nothing: see noOpValue).
var unsupported = []string{"tools", "tool_choice", "thinking", "mcp_servers", "container", "service_tier",
	"output_config", "speed", "inference_geo", "diagnostics"}

// noOpValue says, of a field this beta refuses, which values ask for
// nothing it lacks: those are accepted (and the field dropped), as clients
// that send every option with its default send them. thinking
// {"type":"disabled"}, tool_choice "none" or {"type":"none"} (there are no
// tools), parallel_tool_calls (likewise), logprobs false, top_logprobs 0,
// response_format {"type":"text"}, modalities ["text"], service_tier
// "auto" (or OpenAI's "default", or Anthropic's "standard_only": no
// priority capacity), speed "standard", reasoning_effort "none".
var noOpValue = map[string]func(any) bool{
	"thinking":            typeOnly("disabled"),
	"tool_choice":         func(v any) bool { return v == "none" || typeOnly("none")(v) },
	"parallel_tool_calls": func(v any) bool { _, ok := asBool(v); return ok },
	"logprobs":            func(v any) bool { return v == false },
	"top_logprobs":        func(v any) bool { n, ok := asInt(v); return ok && n == 0 },
	"response_format":     typeOnly("text"),
	"modalities": func(v any) bool {
		items, ok := asArray(v)
		return ok && len(items) == 1 && items[0] == "text"
	},
	"service_tier":     func(v any) bool { return v == "auto" || v == "default" || v == "standard_only" },
	"speed":            func(v any) bool { return v == "standard" },
	"reasoning_effort": func(v any) bool { return v == "none" },
}

// typeOnly matches the object {"type": typ}.
func typeOnly(typ string) func(any) bool {
	return func(v any) bool {
		o, ok := decodeObject(v, "")
		return ok && len(o.fields) == 1 && o.fields["type"] == typ
	}
}

func parseChat(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, unsupported, "messages", "model", "max_tokens", "system", "temperature", "stop_sequences", "stream", "metadata")
	if err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: d.MaxTokens}
	if req.Messages, err = parseMessageList(top, false, chatRoles, "role", "content"); err != nil {
		return nil, err
	}
	if req.Model, err = parseModelField(top, d.Model); err != nil {
		return nil, err
	}
	if raw, ok := top.get("max_tokens"); ok {
		if req.MaxTokens, err = parseMaxTokens("max_tokens", raw, d.MaxTokensCap); err != nil {
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
	top, err := decodeTop(body, unsupported, "messages", "model", "max_tokens", "system", "temperature", "top_p", "top_k", "stop_sequences", "stream", "metadata",
		"cache_control")
	if err != nil {
		return nil, err
	}
	req := &Request{}
	if req.Messages, err = parseMessageList(top, true, chatRoles, "role", "content"); err != nil {
		return nil, err
	}
	if req.Model, err = parseModelField(top, ""); err != nil {
		return nil, err
	}
	raw, ok := top.get("max_tokens")
	if !ok {
		return nil, invalid("max_tokens is required")
	}
	if req.MaxTokens, err = parseMaxTokens("max_tokens", raw, d.MaxTokensCap); err != nil {
		return nil, err
	}
	if raw, ok := top.get("system"); ok {
		if req.System, err = parseSystem(raw); err != nil {
			return nil, err
		}
	}
	if req.TopP, err = parseUnit(top, "top_p"); err != nil {
		return nil, err
	}
	if raw, ok := top.get("top_k"); ok {
		if d.NoTopK {
			return nil, invalid("top_k is not supported: this gateway's upstream has no top-k sampling (use top_p or temperature)")
		}
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

// decodeTop reads the body's top-level object, refusing the fields of
// refused with a message that says this beta does not support them, and
// any field not in known as unknown. A refused field that is null is
// absent, as any null field is (object.get): clients that serialise unset
// options as null send "tools": null.
func decodeTop(body []byte, refused []string, known ...string) (object, *Error) {
	v, ok := decodeJSON(body)
	if !ok {
		return object{}, invalid("request body is not valid JSON")
	}
	top, ok := decodeObject(v, "")
	if !ok {
		return object{}, invalid("request body must be a JSON object")
	}
	for _, k := range refused {
		if v, ok := top.get(k); ok && !(noOpValue[k] != nil && noOpValue[k](v)) {
			return object{}, invalid("%q is not supported: this gateway accepts text-only requests", k)
		}
	}
	return top, top.only(append(known, refused...)...)
}

// chatRoles are the roles of our endpoint's and the Messages API's turns.
var chatRoles = []string{"user", "assistant"}

// parseMessageList reads the required messages array: each message has
// one of roles and only the given fields. blocks allows the
// array-of-content-blocks form.
func parseMessageList(top object, blocks bool, roles []string, fields ...string) ([]ChatMessage, *Error) {
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
		role, _ := asString(m.fields["role"])
		if role == "tool" || role == "function" {
			return nil, invalid("%s %q is not supported: this gateway accepts text-only requests (no tools)", m.name("role"), role)
		}
		for _, k := range []string{"tool_calls", "function_call", "tool_call_id"} {
			if _, ok := m.get(k); ok {
				return nil, invalid("%s is not supported: this gateway accepts text-only requests (no tools)", m.name(k))
			}
		}
		if err := m.only(fields...); err != nil {
			return nil, err
		}
		if !slices.Contains(roles, role) {
			return nil, invalid("%s must be %s", m.name("role"), oneOf(roles))
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

// oneOf lists choices as a message says them: "a", "b" or "c".
func oneOf(choices []string) string {
	quoted := make([]string, len(choices))
	for i, c := range choices {
		quoted[i] = strconv.Quote(c)
	}
	last := len(quoted) - 1
	if last == 0 {
		return quoted[0]
	}
	return strings.Join(quoted[:last], ", ") + " or " + quoted[last]
}

// parseContent reads a message's content: a non-blank string or, when blocks
// is set (Messages endpoint), a non-empty array of text blocks.
func parseContent(raw any, path string, blocks bool) (string, *Error) {
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
func parseSystem(raw any) (string, *Error) {
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
func parseTextBlocks(items []any, path string) (string, *Error) {
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
		if err := b.only("type", "text", "cache_control", "citations"); err != nil {
			return "", err
		}
		if c, ok := b.get("citations"); ok {
			// A turn replayed from an answer: this gateway's answers have none.
			if items, ok := asArray(c); !ok || len(items) > 0 {
				return "", invalid("%s is not supported: this gateway accepts text blocks only", b.name("citations"))
			}
		}
		text, ok := asString(b.fields["text"])
		if !ok || strings.TrimSpace(text) == "" {
			return "", invalid("%s must be a non-empty string", b.name("text"))
		}
		texts[i] = text
	}
	return strings.Join(texts, "\n\n"), nil
}

// parseModelField reads model, which def stands for when absent (required
// when def is "").
func parseModelField(top object, def string) (string, *Error) {
	raw, ok := top.get("model")
	switch {
	case ok:
		return parseModel(raw)
	case def == "":
		return "", invalid("model is required")
	}
	return def, nil
}

func parseModel(raw any) (string, *Error) {
	s, ok := asString(raw)
	if !ok || s == "" || utf8.RuneCountInString(s) > maxModelLen || strings.TrimSpace(s) != s {
		return "", invalid("model must be a non-empty string of at most %d characters without surrounding spaces", maxModelLen)
	}
	if hasUnsafe(s) {
		return "", invalid("model %s", noControl)
	}
	return s, nil
}

// noControl ends the message that refuses a recorded field (model, user
// ids) holding an unsafe character (see unsafeRune): it is refused before
// the upstream is called, so none reaches a log or the audit table.
const noControl = "must not contain control characters (nor format characters or line separators such as U+200B, U+202E, U+2028)"

// parseUserID reads an end-user identifier (metadata.user_id, user).
func parseUserID(name string, raw any) (string, *Error) {
	s, ok := asString(raw)
	if !ok || utf8.RuneCountInString(s) > maxUserIDLen {
		return "", invalid("%s must be a string of at most %d characters", name, maxUserIDLen)
	}
	if hasUnsafe(s) {
		return "", invalid("%s %s", name, noControl)
	}
	return s, nil
}

// parseUnit reads an optional number between 0 and 1 (temperature, top_p).
func parseUnit(top object, name string) (*float64, *Error) {
	raw, ok := top.get(name)
	if !ok {
		return nil, nil
	}
	f, ok := asNumber(raw)
	if !ok || f < 0 || f > 1 {
		return nil, invalid("%s must be a number between 0 and 1", name)
	}
	return &f, nil
}

// parseBool reads an optional boolean field of o into dst.
func parseBool(o object, name string, dst *bool) *Error {
	raw, ok := o.get(name)
	if !ok {
		return nil
	}
	b, ok := asBool(raw)
	if !ok {
		return invalid("%s must be a boolean", o.name(name))
	}
	*dst = b
	return nil
}

// parseChild reads an optional object field of o that may hold only the
// given fields; present is false when it is absent.
func parseChild(o object, name string, fields ...string) (child object, present bool, err *Error) {
	raw, ok := o.get(name)
	if !ok {
		return object{}, false, nil
	}
	child, ok = decodeObject(raw, o.name(name))
	if !ok {
		return object{}, false, invalid("%s must be an object", o.name(name))
	}
	return child, true, child.only(fields...)
}

// parseStops reads an array of stop sequences.
func parseStops(name string, raw any) ([]string, *Error) {
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

// parseMaxTokens reads max_tokens (or OpenAI's max_completion_tokens). More
// than the cap is lowered to it, not refused: the Vercel AI SDK and
// LangChain send a model's own output limit by default (64,000 for a Claude
// Sonnet), and a stop_reason max_tokens (finish_reason length) tells the
// client where the answer was cut.
func parseMaxTokens(name string, raw any, maxTokensCap int) (int, *Error) {
	n, ok := asInt(raw)
	if !ok || n < 1 {
		return 0, invalid("%s must be a positive integer", name)
	}
	return min(n, maxTokensCap), nil
}

// parseOptions reads the fields both endpoints share beyond the prompt.
func parseOptions(top object, req *Request) *Error {
	var err *Error
	if req.Temperature, err = parseUnit(top, "temperature"); err != nil {
		return err
	}
	if raw, ok := top.get("stop_sequences"); ok {
		if req.StopSequences, err = parseStops("stop_sequences", raw); err != nil {
			return err
		}
	}
	if err := parseBool(top, "stream", &req.Stream); err != nil {
		return err
	}
	md, ok, err := parseChild(top, "metadata", "user_id")
	if err != nil || !ok {
		return err
	}
	if raw, ok := md.get("user_id"); ok {
		if req.Metadata.UserID, err = parseUserID("metadata.user_id", raw); err != nil {
			return err
		}
	}
	return nil
}

// ParseCountTokensRequest validates a body of POST
// /gateway/v1/messages/count_tokens: a Messages request without
// max_tokens (model, messages, system).
func ParseCountTokensRequest(body []byte, d Defaults) (*Request, error) {
	return parsed(parseCountTokens(body))
}

func parseCountTokens(body []byte) (*Request, *Error) {
	top, err := decodeTop(body, unsupported, "messages", "model", "system", "cache_control")
	if err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: 1}
	if req.Messages, err = parseMessageList(top, true, chatRoles, "role", "content"); err != nil {
		return nil, err
	}
	if req.Model, err = parseModelField(top, ""); err != nil {
		return nil, err
	}
	if raw, ok := top.get("system"); ok {
		if req.System, err = parseSystem(raw); err != nil {
			return nil, err
		}
	}
	return req, nil
}
