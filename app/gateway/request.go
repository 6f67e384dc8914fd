package gateway

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBodyBytes is the largest request body the endpoints accept, unless it
// carries images or documents: then MaxMediaBodyBytes (Anthropic's own
// request limit), on the Messages, count_tokens and Chat Completions
// endpoints. The handler enforces both (413): the larger before parsing,
// the smaller before parsing too when the body cannot hold any
// (MayHoldMedia), else after, when it turns out to carry none (HasMedia).
const (
	MaxBodyBytes      = 1 << 20
	MaxMediaBodyBytes = 32 << 20
)

// MayHoldMedia reports whether a request body may carry an image or a
// document: whether it names one as any dialect does ("image",
// "image_url", "input_image", "document", "file", "input_file"), or may
// name one escaped (\u0069mage). A large body that cannot is refused
// without being parsed: parsing 32 MiB takes about a second of a core.
func MayHoldMedia(body []byte) bool {
	for _, s := range []string{"image", "document", "file", `\u`} {
		if bytes.Contains(body, []byte(s)) {
			return true
		}
	}
	return false
}

// HasMedia reports whether the request carries an image or a document.
func (r *Request) HasMedia() bool {
	return sizeOf(r).media > 0
}

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
	// only (nil: none); so is Verbosity, a hint ("" for none).
	Seed      *int64
	Verbosity string
	// FrequencyPenalty and PresencePenalty are Chat Completions' (-2 to
	// 2; nil for 0), for an openai-style upstream: a messages-style one
	// has none (refused when it is the only provider, dropped on a routed
	// target of that style).
	FrequencyPenalty, PresencePenalty *float64
	// IncludeUsage asks a Chat Completions stream for a last chunk with
	// the usage (stream_options.include_usage).
	IncludeUsage bool
	// AnthropicBeta is the client's anthropic-beta header, forwarded to a
	// Messages-style upstream.
	AnthropicBeta []string

	// SystemBlocks is the system prompt as the Messages dialect's text
	// blocks, kept so that their cache_control reaches a messages-style
	// provider (nil when the system prompt was a string; System holds
	// their text either way).
	SystemBlocks []ContentBlock
	Tools        []Tool
	ToolChoice   *ToolChoice     // nil: the provider's default (auto when there are tools)
	Reasoning    *Reasoning      // nil: no thinking asked for
	OutputEffort string          // Anthropic's output_config.effort, "" for the model's default
	Format       *ResponseFormat // nil: text

	// Echo is what a Responses API answer repeats of its request that the
	// fields above do not keep (nil for the other dialects).
	Echo *ResponsesEcho
}

// ChatMessage is one turn of the conversation. Content is its text (text
// blocks joined with a blank line); Blocks, when the turn was sent as
// content blocks (or holds tool calls, tool results, images, documents or
// thinking), the whole turn in the neutral model. It marshals to the
// Messages API's turn: content a string, or the blocks.
type ChatMessage struct {
	Role    string // "user" or "assistant"
	Content string
	Blocks  []ContentBlock
}

func (m ChatMessage) MarshalJSON() ([]byte, error) {
	return appendTurn(make([]byte, 0, 64+len(m.Content)), &m)
}

// callerTexts are the texts the caller wrote, in the body or in a
// header, that an upstream may quote back (see scrubber.sparing).
func (r *Request) callerTexts() []string {
	texts := append([]string{r.Model, r.System, r.Metadata.UserID}, r.StopSequences...)
	texts = append(texts, r.AnthropicBeta...) // Anthropic's 400 quotes unknown betas
	for _, m := range r.Messages {
		texts = append(texts, m.Content)
		texts = blockTexts(texts, m.Blocks)
	}
	for _, t := range r.Tools {
		texts = append(texts, t.Name, t.Description, string(t.InputSchema))
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
	// EmbeddingModel is the embeddings model when a request names none
	// ("": it must).
	EmbeddingModel string
	// Style is the provider's style (StyleMessages or StyleOpenAI; "" for
	// the demo, which takes everything): what it has no counterpart for
	// is refused by name before it is called (CheckStyle).
	Style string
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

// refusal is a list of fields an endpoint refuses by name, with why, so
// that they get a clearer message than "unknown field" (unless they hold
// the value that asks for nothing: see noOpValue).
type refusal struct {
	fields []string
	why    string
}

// messagesRefused are Messages API fields no provider style this gateway
// speaks can honour for every caller: Anthropic's server-side features
// and capacity options.
var messagesRefused = refusal{[]string{"mcp_servers", "container", "service_tier",
	"speed", "inference_geo", "diagnostics", "context_management"}, "this gateway relays the Messages API's client features only"}

// chatRefused: our /chat endpoint is plain chat; agents' features are
// served by the two providers' dialects, the same way, and refused here by
// name.
var chatRefused = refusal{append([]string{"tools", "tool_choice", "thinking", "output_config", "output_format"}, messagesRefused.fields...),
	"/gateway/v1/chat is plain chat: use /gateway/v1/messages or /gateway/v1/chat/completions for tools, images and thinking"}

// noOpValue says, of a field this beta refuses, which values ask for
// nothing it lacks: those are accepted (and the field dropped), as clients
// that send every option with its default send them. thinking
// {"type":"disabled"}, tool_choice "none" or {"type":"none"} (there are no
// tools), parallel_tool_calls (likewise), logprobs false, top_logprobs 0,
// response_format {"type":"text"}, modalities ["text"], service_tier
// "auto" (or OpenAI's "default", or Anthropic's "standard_only": no
// priority capacity), speed "standard", reasoning_effort "none".
var noOpValue = map[string]func(any) bool{
	"thinking":     typeOnly("disabled"),
	"tool_choice":  func(v any) bool { return v == "none" || typeOnly("none")(v) },
	"logprobs":     func(v any) bool { return v == false },
	"top_logprobs": func(v any) bool { n, ok := asInt(v); return ok && n == 0 },
	"modalities": func(v any) bool {
		items, ok := asArray(v)
		return ok && len(items) == 1 && items[0] == "text"
	},
	"service_tier": func(v any) bool { return v == "auto" || v == "default" || v == "standard_only" },
	"speed":        func(v any) bool { return v == "standard" },
}

// typeOnly matches the object {"type": typ}.
func typeOnly(typ string) func(any) bool {
	return func(v any) bool {
		o, ok := decodeObject(v, "")
		return ok && len(o.fields) == 1 && o.fields["type"] == typ
	}
}

func parseChat(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, chatRefused, "messages", "model", "max_tokens", "system", "temperature", "stop_sequences", "stream", "metadata")
	if err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: d.MaxTokens}
	if req.Messages, err = parseMessageList(top); err != nil {
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
	top, err := decodeTop(body, messagesRefused, "messages", "model", "max_tokens", "system", "temperature", "top_p", "top_k", "stop_sequences", "stream", "metadata",
		"cache_control", "tools", "tool_choice", "thinking", "output_config", "output_format")
	if err != nil {
		return nil, err
	}
	req := &Request{}
	if err := parseMessagesPrompt(top, req); err != nil {
		return nil, err
	}
	raw, ok := top.get("max_tokens")
	if !ok {
		return nil, invalid("max_tokens is required")
	}
	if req.MaxTokens, err = parseMaxTokens("max_tokens", raw, d.MaxTokensCap); err != nil {
		return nil, err
	}
	if req.Reasoning, err = parseThinking(top, req.MaxTokens); err != nil {
		return nil, err
	}
	if err := parseOutputConfig(top, req); err != nil {
		return nil, err
	}
	if req.TopP, err = parseUnit(top, "top_p"); err != nil {
		return nil, err
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
	return req, checkStyle(req, d)
}

// parseMessagesPrompt reads what the Messages endpoint and count_tokens
// share: model, messages, system, tools and tool_choice.
func parseMessagesPrompt(top object, req *Request) *Error {
	var err *Error
	var c blockCounter
	if req.Messages, err = parseTurns(top, &c); err != nil {
		return err
	}
	if req.Model, err = parseModelField(top, ""); err != nil {
		return err
	}
	if raw, ok := top.get("system"); ok {
		if req.System, req.SystemBlocks, err = parseSystem(raw); err != nil {
			return err
		}
	}
	if req.Tools, err = parseMessagesTools(top); err != nil {
		return err
	}
	req.ToolChoice, err = parseMessagesToolChoice(top, req.Tools)
	return err
}

// parseTurns reads the Messages dialect's turns: each a role (user or
// assistant) and content, a non-blank string or content blocks.
func parseTurns(top object, c *blockCounter) ([]ChatMessage, *Error) {
	items, err := messageItems(top)
	if err != nil {
		return nil, err
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
		if !slices.Contains(chatRoles, role) {
			return nil, invalid("%s must be %s", m.name("role"), oneOf(chatRoles))
		}
		raw, _ := m.get("content")
		if s, ok := asString(raw); ok && strings.TrimSpace(s) != "" {
			msgs[i] = ChatMessage{Role: role, Content: s}
			continue
		}
		blocks, ok := asArray(raw)
		if !ok || len(blocks) == 0 {
			return nil, invalid("%s must be a non-empty string or a non-empty array of content blocks", m.name("content"))
		}
		parsed, err := parseBlocks(blocks, m.name("content"), role, c)
		if err != nil {
			return nil, err
		}
		msgs[i] = ChatMessage{Role: role, Content: TextOf(parsed), Blocks: parsed}
	}
	return msgs, nil
}

// messageItems is the required, non-empty messages array.
func messageItems(top object) ([]any, *Error) {
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
	return items, nil
}

// decodeTop reads the body's top-level object, refusing the fields of
// refused with a message that says this beta does not support them, and
// any field not in known as unknown. A refused field that is null is
// absent, as any null field is (object.get): clients that serialise unset
// options as null send "tools": null.
func decodeTop(body []byte, refused refusal, known ...string) (object, *Error) {
	v, ok := decodeJSON(body)
	if !ok {
		return object{}, invalid("request body is not valid JSON")
	}
	top, ok := decodeObject(v, "")
	if !ok {
		return object{}, invalid("request body must be a JSON object")
	}
	for _, k := range refused.fields {
		if v, ok := top.get(k); ok && !(noOpValue[k] != nil && noOpValue[k](v)) {
			return object{}, invalid("%q is not supported: %s", k, refused.why)
		}
	}
	return top, top.only(append(known, refused.fields...)...)
}

// chatRoles are the roles of our endpoint's and the Messages API's turns.
var chatRoles = []string{"user", "assistant"}

// parseMessageList reads our /chat endpoint's messages: each a role
// (user or assistant) and non-blank string content. Tool turns are
// refused by name, as on every endpoint that cannot carry them.
func parseMessageList(top object) ([]ChatMessage, *Error) {
	items, err := messageItems(top)
	if err != nil {
		return nil, err
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
			return nil, invalid("%s %q is not supported: %s", m.name("role"), role, chatRefused.why)
		}
		if err := m.only("role", "content"); err != nil {
			return nil, err
		}
		if !slices.Contains(chatRoles, role) {
			return nil, invalid("%s must be %s", m.name("role"), oneOf(chatRoles))
		}
		if _, ok := m.get("content"); !ok {
			return nil, invalid("%s is required", m.name("content"))
		}
		s, ok := asString(m.fields["content"])
		if !ok || strings.TrimSpace(s) == "" {
			return nil, invalid("%s must be a non-empty string", m.name("content"))
		}
		msgs[i] = ChatMessage{Role: role, Content: s}
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

// parseSystem reads the Messages endpoint's system prompt: a string or an
// array of text blocks (kept, with their cache_control), where empty
// means none (as the real API accepts).
func parseSystem(raw any) (string, []ContentBlock, *Error) {
	if s, ok := asString(raw); ok {
		return s, nil, nil
	}
	items, ok := asArray(raw)
	if !ok {
		return "", nil, invalid("system must be a string or an array of text blocks")
	}
	for i, item := range items {
		if o, ok := decodeObject(item, ""); ok && o.fields["type"] != BlockText {
			s, _ := asString(o.fields["type"])
			return "", nil, invalid("%s %q is not supported: the system prompt is text blocks", index("system", i)+".type", s)
		}
	}
	blocks, err := parseBlocks(items, "system", "user", nil)
	if err != nil || len(blocks) == 0 {
		return "", nil, err
	}
	return TextOf(blocks), blocks, nil
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
func parseUnit(top object, name string) (*float64, *Error) { return parseRange(top, name, 1) }

// parseRange reads an optional number between 0 and most.
func parseRange(top object, name string, most float64) (*float64, *Error) {
	raw, ok := top.get(name)
	if !ok {
		return nil, nil
	}
	f, ok := asNumber(raw)
	if !ok || f < 0 || f > most {
		return nil, invalid("%s must be a number between 0 and %g", name, most)
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
	return parsed(parseCountTokens(body, d))
}

func parseCountTokens(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, messagesRefused, "messages", "model", "system", "cache_control", "tools", "tool_choice", "thinking", "output_config", "output_format")
	if err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: 1}
	if err := parseMessagesPrompt(top, req); err != nil {
		return nil, err
	}
	// thinking and output_config are counted as the call would send them:
	// a format's schema becomes input, and so may a thinking setting. No
	// max_tokens here, so a budget is bounded by the cap alone.
	if req.Reasoning, err = parseThinking(top, d.MaxTokensCap+1); err != nil {
		return nil, err
	}
	if err := parseOutputConfig(top, req); err != nil {
		return nil, err
	}
	return req, nil
}
