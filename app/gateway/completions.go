package gateway

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The OpenAI Chat Completions dialect: POST /gateway/v1/chat/completions
// as the official openai SDKs send it, answered as that API does. The
// request becomes the core's Request; the answer, a Message or its event
// stream, is translated back.

// openAIRefused are Chat Completions fields this gateway refuses with a
// clearer message than "unknown field": the deprecated functions, and
// what neither provider style can honour for every caller.
var openAIRefused = refusal{[]string{"functions", "function_call",
	"logprobs", "top_logprobs", "audio", "modalities", "prediction", "web_search_options",
	"moderation", "service_tier", "prompt_cache_options"}, "this gateway does not relay it"}

// ParseCompletionsRequest validates a Chat Completions request:
//
//	{"model","messages":[{"role":"system"|"developer"|"user"|"assistant",
//	  "content":"…" or [{"type":"text","text":"…"}]}], "max_tokens" or
//	 "max_completion_tokens", "temperature", "top_p", "stop", "stream",
//	 "stream_options":{"include_usage"}, "user", "n":1}
//
// Options the upstream has no counterpart for are accepted at the value
// that changes nothing, as clients that send every option with its
// default do: "logit_bias":{}, "store":false (see noOps), and those of
// noOpValue ("logprobs":false, "response_format":{"type":"text"}, …);
// any other value is refused by name. frequency_penalty and
// presence_penalty go to an openai-style upstream (see Request). Hints
// that change no answer are accepted and dropped: metadata (kept by
// OpenAI only for stored completions, and store is false),
// prompt_cache_key and prompt_cache_retention. seed and verbosity are
// passed to an openai-style upstream (OpenAI itself only tries to honour
// a seed); safety_identifier, OpenAI's successor of user, is the end
// user's id.
//
// System (and developer) messages become the system prompt, in order.
// model is optional (the configured default); max_tokens defaults too.
func ParseCompletionsRequest(body []byte, d Defaults) (*Request, error) {
	return parsed(parseCompletions(body, d))
}

func parseCompletions(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, openAIRefused, "model", "messages", "max_tokens", "max_completion_tokens",
		"tools", "tool_choice", "parallel_tool_calls", "response_format", "reasoning_effort",
		"temperature", "top_p", "stop", "stream", "stream_options", "user", "n",
		"frequency_penalty", "presence_penalty", "logit_bias", "store",
		"seed", "verbosity", "metadata", "safety_identifier", "prompt_cache_key", "prompt_cache_retention")
	if err != nil {
		return nil, err
	}
	if err := noOps(top); err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: d.MaxTokens}
	if req.FrequencyPenalty, err = parsePenalty(top, "frequency_penalty"); err != nil {
		return nil, err
	}
	if req.PresencePenalty, err = parsePenalty(top, "presence_penalty"); err != nil {
		return nil, err
	}
	if req.Verbosity, err = parseVerbosity(top, "verbosity"); err != nil {
		return nil, err
	}
	if req.Model, err = parseModelField(top, d.Model); err != nil {
		return nil, err
	}
	if req.System, req.Messages, err = parseOpenAIMessages(top); err != nil {
		return nil, err
	}
	for _, name := range []string{"max_tokens", "max_completion_tokens"} {
		if raw, ok := top.get(name); ok {
			if req.MaxTokens, err = parseMaxTokens(name, raw, d.MaxTokensCap); err != nil {
				return nil, err
			}
		}
	}
	// OpenAI's range; a messages-style provider takes 0 to 1 (checkStyle,
	// and messagesAdapter.body for a routed call).
	if req.Temperature, err = parseRange(top, "temperature", 2); err != nil {
		return nil, err
	}
	if req.TopP, err = parseUnit(top, "top_p"); err != nil {
		return nil, err
	}
	if raw, ok := top.get("n"); ok {
		if n, ok := asInt(raw); !ok || n != 1 {
			return nil, invalid("n must be 1: this gateway returns one choice")
		}
	}
	if raw, ok := top.get("stop"); ok {
		if s, ok := asString(raw); ok {
			raw = []any{s}
		}
		if req.StopSequences, err = parseStops("stop", raw); err != nil {
			return nil, err
		}
	}
	if err := parseBool(top, "stream", &req.Stream); err != nil {
		return nil, err
	}
	if so, ok, err := parseChild(top, "stream_options", "include_usage", "include_obfuscation"); err != nil {
		return nil, err
	} else if ok {
		if err := parseBool(so, "include_usage", &req.IncludeUsage); err != nil {
			return nil, err
		}
		// Obfuscation pads chunks against length side channels; the
		// gateway's chunks have none, which no client depends on.
		var obfuscation bool
		if err := parseBool(so, "include_obfuscation", &obfuscation); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"user", "safety_identifier"} { // the latter wins
		if raw, ok := top.get(name); ok {
			if req.Metadata.UserID, err = parseUserID(name, raw); err != nil {
				return nil, err
			}
		}
	}
	if raw, ok := top.get("seed"); ok {
		n, ok := raw.(json.Number)
		seed, err := strconv.ParseInt(string(n), 10, 64)
		if !ok || err != nil {
			return nil, invalid("seed must be an integer")
		}
		req.Seed = &seed
	}
	if err := parseHints(top); err != nil {
		return nil, err
	}
	if err := parseOpenAIAgentFields(top, req); err != nil {
		return nil, err
	}
	return req, checkStyle(req, d)
}

// parseHints checks the shape of the hints that are accepted and dropped:
// metadata (at most 16 string values, as OpenAI allows), prompt_cache_key
// and prompt_cache_retention (strings).
func parseHints(top object) *Error {
	if raw, ok := top.get("metadata"); ok {
		md, ok := decodeObject(raw, "metadata")
		if !ok {
			return invalid("metadata must be an object")
		}
		if len(md.fields) > 16 {
			return invalid("metadata must have at most 16 keys")
		}
		for k, v := range md.fields {
			if s, ok := asString(v); !ok || utf8.RuneCountInString(k) > 64 || utf8.RuneCountInString(s) > 512 {
				return invalid("metadata must map keys of at most 64 characters to strings of at most 512")
			}
		}
	}
	for _, name := range []string{"prompt_cache_key", "prompt_cache_retention"} {
		if raw, ok := top.get(name); ok {
			if s, ok := asString(raw); !ok || utf8.RuneCountInString(s) > 1024 {
				return invalid("%s must be a string", name)
			}
		}
	}
	return nil
}

// parsePenalty reads a penalty, -2 to 2 as OpenAI takes it; 0 (the
// default most clients send) is none.
func parsePenalty(top object, name string) (*float64, *Error) {
	raw, ok := top.get(name)
	if !ok || raw == nil {
		return nil, nil
	}
	f, ok := asNumber(raw)
	if !ok || f < -2 || f > 2 {
		return nil, invalid("%s must be a number from -2 to 2", name)
	}
	if f == 0 {
		return nil, nil
	}
	return &f, nil
}

// noOps refuses the options this gateway cannot honour, unless they have
// the value that asks for nothing.
func noOps(top object) *Error {
	if raw, ok := top.get("logit_bias"); ok {
		if o, ok := decodeObject(raw, "logit_bias"); !ok || len(o.fields) > 0 {
			return invalid("logit_bias must be empty: this gateway's upstream takes no token biases")
		}
	}
	if raw, ok := top.get("store"); ok {
		if b, ok := asBool(raw); !ok || b {
			return invalid("store must be false: this gateway stores no completions")
		}
	}
	return nil
}

// Completion is a Message in the Chat Completions shape.
type Completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *CompletionUsage   `json:"usage"`
}

type completionChoice struct {
	Index        int                `json:"index"`
	Message      *answerMessage     `json:"message,omitempty"`
	Delta        *completionMessage `json:"delta,omitempty"`
	FinishReason *string            `json:"finish_reason"`
	Logprobs     *struct{}          `json:"logprobs"`
}

type completionMessage struct {
	Role      string           `json:"role,omitempty"`
	Content   *string          `json:"content,omitempty"`
	Refusal   *string          `json:"refusal,omitempty"`
	ToolCalls []openAIToolCall `json:"tool_calls,omitempty"`
}

// answerMessage is a non-streamed answer's message: content is null
// when the answer is tool calls only, as OpenAI sends it.
type answerMessage struct {
	Role      string           `json:"role"`
	Content   *string          `json:"content"`
	Refusal   *string          `json:"refusal"`
	ToolCalls []openAIToolCall `json:"tool_calls,omitempty"`
}

// CompletionUsage is usage in Chat Completions' names: prompt_tokens
// holds every input bucket, and its details the cache reads among them
// (OpenAI's own way of counting); completion_tokens holds the reasoning,
// which its details name.
type CompletionUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

func completionUsage(u Usage) *CompletionUsage {
	c := &CompletionUsage{PromptTokens: u.AllInput(), CompletionTokens: u.OutputTokens, TotalTokens: u.Total()}
	c.PromptTokensDetails.CachedTokens = u.CacheReadInputTokens
	c.CompletionTokensDetails.ReasoningTokens = u.ReasoningTokens
	return c
}

// finishReason maps a Messages stop_reason to Chat Completions'.
func finishReason(stop string) string {
	switch stop {
	case StopMaxTokens:
		return "length"
	case StopRefusal:
		return "content_filter"
	case StopToolUse:
		return "tool_calls"
	default:
		return "stop"
	}
}

// completionID turns a message id into a chat completion id.
func completionID(msgID string) string {
	return "chatcmpl-" + strings.TrimPrefix(msgID, "msg_")
}

// NewCompletion is msg as a chat.completion object: its text blocks the
// content (null when it has only tool calls), its tool_use blocks the
// tool_calls (input as arguments, the id unchanged). Thinking has no
// place in a chat.completion and is left out.
func NewCompletion(msg *Message, now time.Time) Completion {
	finish := finishReason(msg.StopReason)
	m := &answerMessage{Role: "assistant"}
	var text strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case BlockText:
			text.WriteString(b.Text)
		case BlockToolUse:
			m.ToolCalls = append(m.ToolCalls, openAIToolCall{ID: b.ID, Type: "function",
				Function: openAIFunctionCall{Name: b.Name, Arguments: string(b.Input)}})
		}
	}
	if s := text.String(); s != "" || m.ToolCalls == nil {
		m.Content = &s
	}
	return Completion{ID: completionID(msg.ID), Object: "chat.completion", Created: now.Unix(), Model: msg.Model,
		Choices: []completionChoice{{Message: m, FinishReason: &finish}},
		Usage:   completionUsage(msg.Usage)}
}

// CompletionStream writes a Messages event stream as chat.completion.chunk
// events ending in "data: [DONE]": the role first, a chunk per text delta,
// the finish_reason, and with include_usage a last chunk with empty
// choices and the usage.
type CompletionStream struct {
	sse     *SSEWriter
	req     *Request
	id      string
	model   string
	created int64
	// The open block's kind, and the tool calls begun so far: a tool_use
	// block is the tool call of the next index.
	kind      string
	tools     int
	arguments bool // the open tool call has sent arguments
}

// NewCompletionStream writes to sse the answer to req.
func NewCompletionStream(sse *SSEWriter, req *Request, now time.Time) *CompletionStream {
	return &CompletionStream{sse: sse, req: req, created: now.Unix()}
}

// Send translates one event; its signature fits Proxy.Stream's emit.
func (s *CompletionStream) Send(ev Event) error {
	switch ev.Type {
	case EventMessageStart:
		s.id, s.model = completionID(ev.Message.ID), ev.Message.Model
		empty := ""
		return s.chunk(&completionChoice{Delta: &completionMessage{Role: "assistant", Content: &empty}}, nil)
	case EventContentBlockStart:
		s.kind, s.arguments = ev.Block.Type, false
		if s.kind == BlockToolUse {
			s.tools++
			i := s.tools - 1
			return s.chunk(&completionChoice{Delta: &completionMessage{ToolCalls: []openAIToolCall{{Index: &i, ID: ev.Block.ID, Type: "function",
				Function: openAIFunctionCall{Name: ev.Block.Name}}}}}, nil)
		}
	case EventContentBlockDelta:
		switch {
		case s.kind == BlockText:
			text := ev.Text
			return s.chunk(&completionChoice{Delta: &completionMessage{Content: &text}}, nil)
		case s.kind == BlockToolUse && ev.Text != "":
			s.arguments = true
			return s.sendArguments(ev.Text)
		}
	case EventContentBlockStop:
		if s.kind == BlockToolUse && !s.arguments {
			return s.sendArguments("{}") // a call without parameters still has JSON arguments
		}
	case EventMessageDelta:
		finish := finishReason(ev.StopReason)
		if err := s.chunk(&completionChoice{Delta: &completionMessage{}, FinishReason: &finish}, nil); err != nil {
			return err
		}
		if s.req.IncludeUsage && ev.Usage != nil {
			return s.chunk(nil, completionUsage(*ev.Usage))
		}
	case EventMessageStop:
		return s.sse.Write("", []byte("[DONE]"))
	}
	return nil
}

// sendArguments sends a fragment of the open tool call's arguments.
func (s *CompletionStream) sendArguments(fragment string) error {
	i := s.tools - 1
	return s.chunk(&completionChoice{Delta: &completionMessage{ToolCalls: []openAIToolCall{{Index: &i,
		Function: openAIFunctionCall{Arguments: fragment}}}}}, nil)
}

func (s *CompletionStream) chunk(choice *completionChoice, usage *CompletionUsage) error {
	c := Completion{ID: s.id, Object: "chat.completion.chunk", Created: s.created, Model: s.model, Choices: []completionChoice{}, Usage: usage}
	if choice != nil {
		c.Choices = append(c.Choices, *choice)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return s.sse.Write("", data)
}

// SendError ends a started stream with an error chunk in OpenAI's shape.
func (s *CompletionStream) SendError(e *Error, requestID string) error {
	return s.sse.Write("", e.OpenAIJSON(requestID))
}

// parseVerbosity reads an OpenAI verbosity (Chat Completions' verbosity,
// the Responses API's text.verbosity) from o's last member in path: low,
// medium or high, "" when absent or null.
func parseVerbosity(o object, path string) (string, *Error) {
	raw, ok := o.get(path[strings.LastIndexByte(path, '.')+1:])
	if !ok || raw == nil {
		return "", nil
	}
	if v, ok := asString(raw); ok && slices.Contains([]string{"low", "medium", "high"}, v) {
		return v, nil
	}
	return "", invalid(`%s must be "low", "medium" or "high"`, path)
}
