package gateway

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Limits on what an agent's request carries besides its turns, the same
// on every endpoint and for either provider style.
const (
	// MaxTools is OpenAI's limit on tools per request; Claude Code sends
	// about 20 of its own and more with MCP servers.
	MaxTools = 128
	// MaxSchemaBytes bounds one tool's input schema (or a response_format
	// schema) as JSON.
	MaxSchemaBytes = 64 << 10
	// MaxToolDescription bounds a tool's description (Claude Code's
	// longest are about 10 KB).
	MaxToolDescription = 32 << 10
)

// Tool is a client tool the model may call: a name, a description and a
// JSON Schema of its input.
type Tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	Strict       *bool           `json:"strict,omitempty"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
	// EagerInputStreaming is Anthropic's fine-grained tool streaming (the
	// input streamed without buffering), which the AI SDK asks for on
	// every streamed tool: a messages-style provider's; OpenAI streams a
	// call's arguments as they come anyway.
	EagerInputStreaming *bool `json:"eager_input_streaming,omitempty"`
}

// ToolChoice says whether and which tool the model must call: Type is
// "auto", "any" (some tool), "tool" (Name) or "none".
type ToolChoice struct {
	Type string
	Name string
	// DisableParallel asks for at most one tool call (Anthropic's
	// disable_parallel_tool_use, OpenAI's parallel_tool_calls false).
	DisableParallel bool
}

// Reasoning asks the model to think before it answers. Both forms are
// filled whatever the dialect, so each adapter takes its own: BudgetTokens
// (Anthropic's thinking.budget_tokens) and Effort (OpenAI's
// reasoning_effort), mapped by effortOf and budgetOf. Adaptive is
// Anthropic's "type":"adaptive" (the model decides how much to think; the
// only kind newer Claude models take), with neither: its effort is the
// request's OutputEffort (see openAIEffort). BetweenTools is
// "type":"between_tools", the lowest setting of the models on which
// thinking cannot be disabled (Claude Sonnet 5.5): no thinking up front,
// short notes between tool calls; an openai-style provider is asked for no
// reasoning effort. Display is thinking.display, passed on to a
// messages-style provider.
type Reasoning struct {
	BudgetTokens int
	Effort       string
	Adaptive     bool
	BetweenTools bool
	Display      string
}

// ResponseFormat asks for the answer as JSON: Type "json_object" (any
// object) or "json_schema" (Schema, under Name).
type ResponseFormat struct {
	Type        string
	Name        string
	Description string
	Schema      json.RawMessage
	Strict      *bool
	// OutputConfig: asked in the Messages API's own words
	// (output_config.format), which a messages-style provider takes as
	// they are, beside tools and thinking; response_format is asked of it
	// with a forced tool, which every Claude model supports, but of the
	// newest models (nativeFormat).
	OutputConfig bool
}

// schema is the format's JSON Schema: any object for json_object, which
// has none.
func (f *ResponseFormat) schema() json.RawMessage {
	if f.Schema == nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return f.Schema
}

// The reasoning mapping, both ways: an effort asks for its budget, and a
// budget reads as the effort whose range holds it (below 4,096 low,
// below 16,384 medium, else high). Anthropic's smallest budget is 1,024.
var effortBudgets = map[string]int{"minimal": 1024, "low": 2048, "medium": 8192, "high": 24576, "xhigh": 32768, "max": 65536}

const minThinkingBudget = 1024

func effortOf(budget int) string {
	switch {
	case budget < 4096:
		return "low"
	case budget < 16384:
		return "medium"
	}
	return "high"
}

// budgetOf is an effort's budget, kept below maxTokens as Anthropic
// requires (max_tokens counts the thinking); ok is false when maxTokens
// leaves no room for the smallest budget.
func budgetOf(effort string, maxTokens int) (int, bool) {
	b := min(effortBudgets[effort], maxTokens-1)
	return b, b >= minThinkingBudget
}

var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// parseToolName checks a tool's name as both providers require it.
func parseToolName(raw any, path string) (string, *Error) {
	s, ok := asString(raw)
	if !ok || !toolNamePattern.MatchString(s) {
		return "", invalid("%s must be 1 to 64 letters, digits, underscores or hyphens", path)
	}
	return s, nil
}

// parseSchema reads a JSON Schema object, at most MaxSchemaBytes, as
// decodeJSON kept it (schemaFields): compacted, its members in order.
func parseSchema(raw any, path string) (json.RawMessage, *Error) {
	sent, ok := raw.(json.RawMessage)
	if !ok {
		return nil, invalid("%s must be a JSON Schema object", path)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, sent); err != nil {
		return nil, invalid("%s must be a JSON Schema object", path)
	}
	b := buf.Bytes()
	if len(b) > MaxSchemaBytes {
		return nil, invalid("%s must be at most %d bytes of JSON", path, MaxSchemaBytes)
	}
	return b, nil
}

// parseCacheControl reads a cache breakpoint as Anthropic takes it:
// {"type":"ephemeral"} with an optional ttl ("5m" or "1h").
func parseCacheControl(o object) (json.RawMessage, *Error) {
	raw, ok := o.get("cache_control")
	if !ok {
		return nil, nil
	}
	cc, ok := decodeObject(raw, o.name("cache_control"))
	if !ok || cc.fields["type"] != "ephemeral" {
		return nil, invalid(`%s must be {"type":"ephemeral"}`, o.name("cache_control"))
	}
	if err := cc.only("type", "ttl"); err != nil {
		return nil, err
	}
	if ttl, ok := cc.get("ttl"); ok && ttl != "5m" && ttl != "1h" {
		return nil, invalid(`%s must be "5m" or "1h"`, cc.name("ttl"))
	}
	b, _ := json.Marshal(raw)
	return b, nil
}

// parseMessagesTools reads Anthropic's tools: client tools (name,
// description, input_schema, optionally type "custom", strict,
// cache_control and eager_input_streaming). Server tools (web search, code execution, computer use
// and the like, whose type is versioned) are refused by name: this
// gateway relays what a provider of either style can run.
func parseMessagesTools(top object) ([]Tool, *Error) {
	return parseTools(top, func(o object) (Tool, *Error) {
		if typ, ok := o.get("type"); ok && typ != "custom" {
			s, _ := asString(typ)
			return Tool{}, invalid("%s %q is not supported: this gateway relays client tools only (server tools such as web search are not)", o.name("type"), s)
		}
		if err := o.only("type", "name", "description", "input_schema", "cache_control", "strict", "eager_input_streaming"); err != nil {
			return Tool{}, err
		}
		t, err := parseToolFields(o, "input_schema")
		if err != nil {
			return Tool{}, err
		}
		if t.CacheControl, err = parseCacheControl(o); err != nil {
			return Tool{}, err
		}
		if raw, ok := o.get("eager_input_streaming"); ok && raw != nil {
			b, ok := asBool(raw)
			if !ok {
				return Tool{}, invalid("%s must be a boolean", o.name("eager_input_streaming"))
			}
			t.EagerInputStreaming = &b
		}
		return t, nil
	})
}

// parseTools reads "tools": an array of at most MaxTools objects, each read
// by item in its dialect's shape, with names that differ.
func parseTools(top object, item func(object) (Tool, *Error)) ([]Tool, *Error) {
	raw, ok := top.get("tools")
	if !ok {
		return nil, nil
	}
	items, ok := asArray(raw)
	if !ok {
		return nil, invalid("tools must be an array")
	}
	if len(items) > MaxTools {
		return nil, invalid("tools must have at most %d entries", MaxTools)
	}
	tools := make([]Tool, len(items))
	for i, raw := range items {
		path := index("tools", i)
		o, ok := decodeObject(raw, path)
		if !ok {
			return nil, invalid("%s must be an object", path)
		}
		var err *Error
		if tools[i], err = item(o); err != nil {
			return nil, err
		}
	}
	return tools, uniqueToolNames(tools)
}

// parseToolFields reads a tool's name, description, schema (under
// schemaField) and strict from o.
func parseToolFields(o object, schemaField string) (Tool, *Error) {
	var t Tool
	var err *Error
	if t.Name, err = parseToolName(o.fields["name"], o.name("name")); err != nil {
		return t, err
	}
	if raw, ok := o.get("description"); ok {
		s, ok := asString(raw)
		if !ok || len(s) > MaxToolDescription {
			return t, invalid("%s must be a string of at most %d bytes", o.name("description"), MaxToolDescription)
		}
		t.Description = s
	}
	raw, ok := o.get(schemaField)
	if !ok {
		if schemaField == "input_schema" {
			return t, invalid("%s is required", o.name(schemaField))
		}
		raw = json.RawMessage(`{"type":"object","properties":{}}`) // OpenAI's default: no parameters
	}
	if t.InputSchema, err = parseSchema(raw, o.name(schemaField)); err != nil {
		return t, err
	}
	if raw, ok := o.get("strict"); ok {
		b, ok := asBool(raw)
		if !ok {
			return t, invalid("%s must be a boolean", o.name("strict"))
		}
		t.Strict = &b
	}
	return t, nil
}

func uniqueToolNames(tools []Tool) *Error {
	seen := map[string]bool{}
	for i, t := range tools {
		if seen[t.Name] {
			return invalid("%s %q is the name of another tool", index("tools", i)+".name", t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

// parseMessagesToolChoice reads Anthropic's tool_choice: {"type":"auto"|
// "any"|"none"} or {"type":"tool","name"}, with
// disable_parallel_tool_use.
func parseMessagesToolChoice(top object, tools []Tool) (*ToolChoice, *Error) {
	o, ok, err := parseChild(top, "tool_choice", "type", "name", "disable_parallel_tool_use")
	if err != nil || !ok {
		return nil, err
	}
	tc := &ToolChoice{}
	tc.Type, _ = asString(o.fields["type"])
	switch tc.Type {
	case "auto", "any", "none":
	case "tool":
		if tc.Name, err = parseToolName(o.fields["name"], o.name("name")); err != nil {
			return nil, err
		}
	default:
		return nil, invalid(`tool_choice.type must be "auto", "any", "tool" or "none"`)
	}
	if err := parseBool(o, "disable_parallel_tool_use", &tc.DisableParallel); err != nil {
		return nil, err
	}
	return tc, checkToolChoice(tc, tools, "tool_choice")
}

// checkToolChoice refuses a choice that names a tool the request lacks,
// or asks for a tool when there are none.
func checkToolChoice(tc *ToolChoice, tools []Tool, path string) *Error {
	if tc == nil || tc.Type == "none" || tc.Type == "auto" {
		return nil
	}
	if len(tools) == 0 {
		return invalid("%s asks for a tool call but tools is empty", path)
	}
	if tc.Type == "tool" {
		for _, t := range tools {
			if t.Name == tc.Name {
				return nil
			}
		}
		return invalid("%s names %q, which is not in tools", path, tc.Name)
	}
	return nil
}

// parseThinking reads Anthropic's thinking: {"type":"enabled",
// "budget_tokens"} (at least 1,024 and below max_tokens, as Anthropic
// requires; when the cap lowered max_tokens, the budget is lowered below
// it), {"type":"adaptive"}, or {"type":"disabled"}, which asks for
// nothing; each with an optional "display" ("summarized", "omitted").
func parseThinking(top object, maxTokens int) (*Reasoning, *Error) {
	o, ok, err := parseChild(top, "thinking", "type", "budget_tokens", "display")
	if err != nil || !ok {
		return nil, err
	}
	display, err := parseKeyword(o, "display")
	if err != nil {
		return nil, err
	}
	_, budget := o.get("budget_tokens")
	switch typ := o.fields["type"]; typ {
	case "disabled", "adaptive", "between_tools":
		if budget {
			return nil, invalid(`thinking.budget_tokens is for "type":"enabled" only`)
		}
		if typ == "disabled" {
			return nil, nil
		}
		return &Reasoning{Adaptive: typ == "adaptive", BetweenTools: typ == "between_tools", Display: display}, nil
	case "enabled":
	default:
		return nil, invalid(`thinking.type must be "enabled", "adaptive", "between_tools" or "disabled"`)
	}
	n, ok := asInt(o.fields["budget_tokens"])
	if !ok || n < minThinkingBudget {
		return nil, invalid("thinking.budget_tokens must be an integer of at least %d", minThinkingBudget)
	}
	n = min(n, maxTokens-1)
	if n < minThinkingBudget {
		return nil, invalid("thinking.budget_tokens must be below max_tokens, which must be above %d", minThinkingBudget)
	}
	return &Reasoning{BudgetTokens: n, Effort: effortOf(n), Display: display}, nil
}

// keywordPattern is an option's value the gateway passes on without
// knowing its every value (thinking.display, output_config.effort): a
// lowercase word, so nothing else can ride along.
var keywordPattern = regexp.MustCompile(`^[a-z][a-z_]{0,31}$`)

// parseKeyword reads an optional keyword field of o ("" when absent).
func parseKeyword(o object, name string) (string, *Error) {
	raw, ok := o.get(name)
	if !ok {
		return "", nil
	}
	s, ok := asString(raw)
	if !ok || !keywordPattern.MatchString(s) {
		return "", invalid("%s must be a lowercase word", o.name(name))
	}
	return s, nil
}

// parseOutputConfig reads Anthropic's output_config: its effort (how much
// the model spends on thinking, text and tool calls: "low", "medium",
// "high", "max", …), passed on to a messages-style provider and, for an
// openai-style one, the adaptive thinking's reasoning_effort; and its
// format, structured output (see parseOutputFormat).
func parseOutputConfig(top object, req *Request) *Error {
	beta, err := parseOutputFormat(top, "output_format")
	if err != nil {
		return err
	}
	req.Format = beta
	o, ok, err := parseChild(top, "output_config", "effort", "format")
	if err != nil || !ok {
		return err
	}
	if req.OutputEffort, err = parseKeyword(o, "effort"); err != nil {
		return err
	}
	f, err := parseOutputFormat(o, "format")
	switch {
	case err != nil:
		return err
	case f != nil && beta != nil:
		return invalid("output_format and output_config.format ask for the same structured output: send one (output_config.format)")
	case f != nil:
		req.Format = f
	}
	return nil
}

// parseOutputFormat reads the Messages API's structured output,
// {"type":"json_schema","schema":{…}}: output_config.format, or the
// top-level output_format its beta named it. It is a ResponseFormat that
// a messages-style provider takes as it is (OutputConfig).
func parseOutputFormat(o object, name string) (*ResponseFormat, *Error) {
	f, ok, err := parseChild(o, name, "type", "schema")
	if err != nil || !ok {
		return nil, err
	}
	if f.fields["type"] != "json_schema" {
		return nil, invalid(`%s must be "json_schema"`, f.name("type"))
	}
	raw, ok := f.get("schema")
	if !ok {
		return nil, invalid("%s is required", f.name("schema"))
	}
	schema, err := parseSchema(raw, f.name("schema"))
	if err != nil {
		return nil, err
	}
	return &ResponseFormat{Type: "json_schema", Schema: schema, OutputConfig: true}, nil
}

// openAIEffort is the reasoning_effort of an Anthropic effort: the two
// APIs share the names ("low" … "high", and "xhigh" and "max" on their
// newest models); "" (the model's default) for another.
func openAIEffort(effort string) string {
	if _, known := effortBudgets[effort]; known {
		return effort
	}
	return ""
}

// toolResultText is a tool result's text content, for a provider whose
// tool turns carry text only.
func toolResultText(b ContentBlock) string {
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n\n")
}
