package gateway

import (
	"slices"
	"strings"
)

// The OpenAI Responses dialect, POST /gateway/v1/responses, read into the
// neutral model. This gateway keeps no state, so it serves the stateless
// use: every call sends its whole input.
//
//	instructions, system and        the system prompt, in order
//	developer messages
//	user content parts              input_text → text, input_image →
//	                                image (a data URL or an https URL),
//	                                input_file → document (a PDF's
//	                                file_data)
//	assistant messages              text (output_text, refusal parts)
//	function_call items             tool_use blocks of the assistant turn
//	                                before them
//	function_call_output items      tool_result blocks of one user turn
//	reasoning items                 dropped (no reasoning is taken back)
//	tools, tool_choice,             Tools, ToolChoice, as Chat Completions'
//	parallel_tool_calls             (a tool's fields flat, not in "function")
//	text.format, text.verbosity     Format, Verbosity
//	reasoning.effort                Reasoning (budgetOf)

// responsesUnrelayed are Responses fields this gateway refuses by name
// unless they ask for nothing (noOpValue: top_logprobs 0, service_tier
// "auto" or "default").
var responsesUnrelayed = refusal{[]string{"top_logprobs", "service_tier", "max_tool_calls", "prompt_cache_options"},
	"this gateway does not relay it"}

// responsesStateful are the fields that name what OpenAI stores.
var responsesStateful = []string{"previous_response_id", "conversation", "background", "prompt"}

// ResponsesEcho is what a Responses answer repeats of its request beyond
// the neutral fields: instructions (null when not given) and metadata.
type ResponsesEcho struct {
	Instructions *string
	Metadata     map[string]string
}

// ParseResponsesRequest validates a Responses API request:
//
//	{"model","input": "…" or items, "instructions","max_output_tokens",
//	 "temperature","top_p","tools","tool_choice","parallel_tool_calls",
//	 "text":{"format","verbosity"},"reasoning":{"effort","summary"},
//	 "stream","user","safety_identifier","metadata","prompt_cache_key",
//	 "store","include","truncation":"disabled"}
//
// What names stored state (previous_response_id, conversation, stored
// prompts, background responses, item references) is refused by name:
// nothing is stored here. store is accepted either way (the answer says
// false); reasoning.summary is accepted and dropped.
func ParseResponsesRequest(body []byte, d Defaults) (*Request, error) {
	return parsed(parseResponses(body, d))
}

func parseResponses(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, responsesUnrelayed, append([]string{"model", "input", "instructions", "max_output_tokens",
		"temperature", "top_p", "tools", "tool_choice", "parallel_tool_calls", "text", "reasoning", "stream", "stream_options",
		"user", "safety_identifier", "metadata", "prompt_cache_key", "prompt_cache_retention", "store", "include", "truncation"},
		responsesStateful...)...)
	if err != nil {
		return nil, err
	}
	for _, name := range responsesStateful {
		if _, ok := top.get(name); ok {
			return nil, invalid("%q is not supported: this gateway stores no responses, conversations or prompts: send the whole input (and instructions) with every call", name)
		}
	}
	req := &Request{MaxTokens: d.MaxTokens, Echo: &ResponsesEcho{}}
	if req.Model, err = parseModelField(top, d.Model); err != nil {
		return nil, err
	}
	if req.System, req.Messages, err = parseResponsesInput(top, req.Echo); err != nil {
		return nil, err
	}
	if raw, ok := top.get("max_output_tokens"); ok {
		if req.MaxTokens, err = parseMaxTokens("max_output_tokens", raw, d.MaxTokensCap); err != nil {
			return nil, err
		}
	}
	if req.Temperature, err = parseRange(top, "temperature", 2); err != nil {
		return nil, err
	}
	if req.TopP, err = parseUnit(top, "top_p"); err != nil {
		return nil, err
	}
	if err := parseBool(top, "stream", &req.Stream); err != nil {
		return nil, err
	}
	if err := parseResponsesOptions(top, req); err != nil {
		return nil, err
	}
	if req.Tools, err = parseResponsesTools(top); err != nil {
		return nil, err
	}
	if req.ToolChoice, err = parseResponsesToolChoice(top, req.Tools); err != nil {
		return nil, err
	}
	if err := parseParallel(top, req); err != nil {
		return nil, err
	}
	if err := parseResponsesText(top, req); err != nil {
		return nil, err
	}
	if r, ok, err := parseChild(top, "reasoning", "effort", "summary", "generate_summary"); err != nil {
		return nil, err
	} else if raw, given := r.get("effort"); ok && given {
		if req.Reasoning, err = parseEffort(raw, "reasoning.effort", "max_output_tokens", req.MaxTokens); err != nil {
			return nil, err
		}
	}
	return req, checkStyle(req, d)
}

// parseResponsesOptions reads the hints and switches that change no
// answer: user and safety_identifier (the end user's id), metadata,
// prompt_cache_key, prompt_cache_retention, store, stream_options,
// include and truncation.
func parseResponsesOptions(top object, req *Request) *Error {
	var err *Error
	for _, name := range []string{"user", "safety_identifier"} { // the latter wins
		if raw, ok := top.get(name); ok {
			if req.Metadata.UserID, err = parseUserID(name, raw); err != nil {
				return err
			}
		}
	}
	if err := parseHints(top); err != nil {
		return err
	}
	if raw, ok := top.get("metadata"); ok {
		md, _ := decodeObject(raw, "metadata")
		req.Echo.Metadata = map[string]string{}
		for k, v := range md.fields {
			req.Echo.Metadata[k], _ = asString(v)
		}
	}
	var store bool
	if err := parseBool(top, "store", &store); err != nil {
		return err
	}
	if so, ok, err := parseChild(top, "stream_options", "include_obfuscation"); err != nil {
		return err
	} else if ok {
		// Obfuscation pads events against length side channels; this
		// gateway's have none, which no client depends on.
		var obfuscation bool
		if err := parseBool(so, "include_obfuscation", &obfuscation); err != nil {
			return err
		}
	}
	if raw, ok := top.get("include"); ok {
		items, ok := asArray(raw)
		if !ok {
			return invalid("include must be an array of strings")
		}
		for i, item := range items {
			// Encrypted reasoning is asked by clients that store nothing;
			// none is returned (reasoning is left out of the answer).
			if item != "reasoning.encrypted_content" {
				s, _ := asString(item)
				return invalid(`%s %q is not supported: this gateway can include "reasoning.encrypted_content" only`, index("include", i), s)
			}
		}
	}
	if raw, ok := top.get("truncation"); ok && raw != "disabled" {
		return invalid(`truncation must be "disabled": this gateway sends the whole input, never a truncated one`)
	}
	return nil
}

// parseResponsesInput reads instructions and input into the system
// prompt and the conversation.
func parseResponsesInput(top object, echo *ResponsesEcho) (string, []ChatMessage, *Error) {
	var system []string
	if raw, ok := top.get("instructions"); ok {
		s, ok := asString(raw)
		if !ok {
			return "", nil, invalid("instructions must be a string")
		}
		echo.Instructions = &s
		if s != "" {
			system = append(system, s)
		}
	}
	raw, ok := top.get("input")
	if !ok {
		return "", nil, invalid("input is required")
	}
	if s, ok := asString(raw); ok {
		if strings.TrimSpace(s) == "" {
			return "", nil, invalid("input must be a non-empty string or a non-empty array of items")
		}
		return strings.Join(system, "\n\n"), []ChatMessage{{Role: "user", Content: s}}, nil
	}
	items, ok := asArray(raw)
	if !ok || len(items) == 0 {
		return "", nil, invalid("input must be a non-empty string or a non-empty array of items")
	}
	var msgs []ChatMessage
	var c blockCounter
	for i, item := range items {
		path := index("input", i)
		o, ok := decodeObject(item, path)
		if !ok {
			return "", nil, invalid("%s must be an object", path)
		}
		typ, _ := asString(o.fields["type"])
		var err *Error
		switch typ {
		case "message", "":
			var text string
			text, msgs, err = parseInputMessage(o, msgs, &c)
			if text != "" {
				system = append(system, text)
			}
		case "function_call":
			var call ContentBlock
			if call, err = parseFunctionCall(o); err == nil {
				msgs = appendAssistant(msgs, []ContentBlock{call})
			}
		case "function_call_output":
			var result ContentBlock
			if result, err = parseFunctionCallOutput(o); err == nil {
				msgs = appendUserTurn(msgs, []ContentBlock{result}, true)
			}
		case "reasoning":
			// A past turn's reasoning: no provider style takes it back
			// from this dialect (OpenAI's is encrypted for OpenAI).
			err = o.only("type", "id", "summary", "content", "encrypted_content", "status")
		case "item_reference":
			err = invalid(`%s "item_reference" is not supported: this gateway stores no items; send the item itself (with the AI SDK, set providerOptions.openai.store to false)`, o.name("type"))
		default:
			err = invalid("%s %q is not supported: this gateway relays messages, function calls and their outputs", o.name("type"), typ)
		}
		if err != nil {
			return "", nil, err
		}
	}
	if len(msgs) == 0 {
		return "", nil, invalid("input must hold at least one user or assistant message")
	}
	for i, m := range msgs {
		if m.Role == "assistant" && len(m.Blocks) == 1 && m.Blocks[0].Type == BlockText {
			msgs[i].Blocks = nil // a plain text turn
		}
	}
	return strings.Join(system, "\n\n"), msgs, nil
}

// parseInputMessage reads a message item: a system or developer one's
// text is returned (for the system prompt), a user or assistant one is
// added to msgs.
func parseInputMessage(o object, msgs []ChatMessage, c *blockCounter) (string, []ChatMessage, *Error) {
	if err := o.only("type", "role", "content", "id", "status"); err != nil {
		return "", nil, err
	}
	role, _ := asString(o.fields["role"])
	if !slices.Contains([]string{"user", "assistant", "system", "developer"}, role) {
		return "", nil, invalid("%s must be %s", o.name("role"), oneOf([]string{"user", "assistant", "system", "developer"}))
	}
	blocks, err := parseInputContent(o, role, c)
	if err != nil {
		return "", nil, err
	}
	switch role {
	case "system", "developer":
		return textOf(blocks), msgs, nil
	case "assistant":
		if len(blocks) == 0 {
			return "", msgs, nil // an empty answer: nothing to take back
		}
		return "", appendAssistant(msgs, blocks), nil
	}
	return "", appendUserTurn(msgs, blocks, false), nil
}

// parseInputContent reads a message's content: a non-blank string, or
// parts. A user's may be input_text, input_image and input_file; a
// system or developer message's input_text; an assistant's output_text
// and refusal (and input_text), where a blank text is skipped: a
// provider refuses a blank text block, and a past answer's empty text
// is no turn.
func parseInputContent(o object, role string, c *blockCounter) ([]ContentBlock, *Error) {
	raw, _ := o.get("content")
	path := o.name("content")
	if s, ok := asString(raw); ok && (strings.TrimSpace(s) != "" || role == "assistant") {
		if strings.TrimSpace(s) == "" {
			return nil, nil // providers refuse blank text blocks
		}
		return []ContentBlock{{Type: BlockText, Text: s}}, nil
	}
	items, ok := asArray(raw)
	if !ok || len(items) == 0 {
		return nil, invalid("%s must be a non-empty string or a non-empty array of content parts", path)
	}
	var blocks []ContentBlock
	for i, item := range items {
		p, ok := decodeObject(item, index(path, i))
		if !ok {
			return nil, invalid("%s must be an object", index(path, i))
		}
		typ, _ := asString(p.fields["type"])
		var b ContentBlock
		var err *Error
		switch {
		case role == "assistant" && (typ == "output_text" || typ == "input_text" || typ == "refusal"):
			text, err := assistantPart(p, typ)
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(text) == "" {
				continue
			}
			b = ContentBlock{Type: BlockText, Text: text}
		case typ == "input_text":
			b, err = parseTextPart(p)
		case typ == "input_image" && role == "user":
			b, err = parseInputImage(p, c)
		case typ == "input_file" && role == "user":
			b, err = parseInputFile(p, c)
		case typ == "":
			return nil, invalid("%s is required", p.name("type"))
		default:
			return nil, invalid("%s %q is not supported in a %s message", p.name("type"), typ, role)
		}
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// assistantPart reads the text of an assistant's output_text (its
// annotations and logprobs dropped) or refusal part.
func assistantPart(p object, typ string) (string, *Error) {
	field, err := "text", p.only("type", "text", "annotations", "logprobs")
	if typ == "refusal" {
		field, err = "refusal", p.only("type", "refusal")
	}
	if err != nil {
		return "", err
	}
	s, ok := asString(p.fields[field])
	if !ok {
		return "", invalid("%s must be a string", p.name(field))
	}
	return s, nil
}

// parseInputImage reads {"type":"input_image","image_url","detail"}: a
// data URL or an https URL; detail is accepted and dropped (the bound
// assumes the most detailed reading). file_id (OpenAI's stored files)
// means nothing to another provider.
func parseInputImage(p object, c *blockCounter) (ContentBlock, *Error) {
	if err := p.only("type", "image_url", "detail", "file_id"); err != nil {
		return ContentBlock{}, err
	}
	if err := c.addMedia(p.path); err != nil {
		return ContentBlock{}, err
	}
	if _, ok := p.get("file_id"); ok {
		return ContentBlock{}, invalid("%s is not supported: send the image as image_url (a data URL or an https URL)", p.name("file_id"))
	}
	if d, ok := p.get("detail"); ok && d != "auto" && d != "low" && d != "high" && d != "original" {
		return ContentBlock{}, invalid(`%s must be "auto", "low", "high" or "original"`, p.name("detail"))
	}
	u, _ := asString(p.fields["image_url"])
	return imageURL(u, p.name("image_url"))
}

// parseInputFile reads {"type":"input_file","file_data","filename"}: a
// PDF as a data URL. file_id and file_url are OpenAI's stored or fetched
// files.
func parseInputFile(p object, c *blockCounter) (ContentBlock, *Error) {
	if err := p.only("type", "file_data", "filename", "file_id", "file_url"); err != nil {
		return ContentBlock{}, err
	}
	if err := c.addMedia(p.path); err != nil {
		return ContentBlock{}, err
	}
	for _, name := range []string{"file_id", "file_url"} {
		if _, ok := p.get(name); ok {
			return ContentBlock{}, invalid("%s is not supported: send the PDF as file_data", p.name(name))
		}
	}
	return pdfFile(p)
}

// parseFunctionCall reads a past function_call item as a tool_use block
// under its call_id (the item's own id is OpenAI's, and dropped).
func parseFunctionCall(o object) (ContentBlock, *Error) {
	if err := o.only("type", "call_id", "name", "arguments", "id", "status"); err != nil {
		return ContentBlock{}, err
	}
	id, err := parseToolID(o.fields["call_id"], o.name("call_id"))
	if err != nil {
		return ContentBlock{}, err
	}
	name, err := parseToolName(o.fields["name"], o.name("name"))
	if err != nil {
		return ContentBlock{}, err
	}
	args, _ := asString(o.fields["arguments"])
	input, ok := argumentsObject(args)
	if !ok {
		return ContentBlock{}, invalid("%s must be a string holding a JSON object", o.name("arguments"))
	}
	return ContentBlock{Type: BlockToolUse, ID: id, Name: name, Input: input}, nil
}

// parseFunctionCallOutput reads a function_call_output item as a
// tool_result block: output a string, or input_text parts.
func parseFunctionCallOutput(o object) (ContentBlock, *Error) {
	if err := o.only("type", "call_id", "output", "id", "status"); err != nil {
		return ContentBlock{}, err
	}
	id, err := parseToolID(o.fields["call_id"], o.name("call_id"))
	if err != nil {
		return ContentBlock{}, err
	}
	b := ContentBlock{Type: BlockToolResult, ToolUseID: id}
	raw, _ := o.get("output")
	if s, ok := asString(raw); ok {
		if s != "" { // an empty result is a result
			b.Content = []ContentBlock{{Type: BlockText, Text: s}}
		}
		return b, nil
	}
	items, ok := asArray(raw)
	if !ok {
		return ContentBlock{}, invalid("%s must be a string or an array of input_text parts", o.name("output"))
	}
	for i, item := range items {
		p, ok := decodeObject(item, index(o.name("output"), i))
		if !ok || p.fields["type"] != "input_text" {
			return ContentBlock{}, invalid("%s must be an input_text part: this gateway relays text function outputs", index(o.name("output"), i))
		}
		t, err := parseTextPart(p)
		if err != nil {
			return ContentBlock{}, err
		}
		b.Content = append(b.Content, t)
	}
	return b, nil
}

// appendAssistant adds blocks to the assistant turn before them, if the
// last turn is one: an answer's message and function calls are separate
// items here, one turn in the neutral model.
func appendAssistant(msgs []ChatMessage, blocks []ContentBlock) []ChatMessage {
	if n := len(msgs); n > 0 && msgs[n-1].Role == "assistant" {
		last := &msgs[n-1]
		last.Blocks = append(last.Blocks, blocks...)
		last.Content = textOf(last.Blocks)
		return msgs
	}
	return append(msgs, ChatMessage{Role: "assistant", Content: textOf(blocks), Blocks: blocks})
}

// parseResponsesTools reads flat function tools: {"type":"function",
// "name","description","parameters","strict"}. OpenAI's built-in tools
// (web search, file search, computer use, code interpreter, MCP, …) run
// on OpenAI's side and are refused by name.
func parseResponsesTools(top object) ([]Tool, *Error) {
	return parseTools(top, func(o object) (Tool, *Error) {
		if t, _ := asString(o.fields["type"]); t != "function" {
			return Tool{}, invalid("%s %q is not supported: this gateway relays function tools only (OpenAI's built-in tools run on OpenAI's side)", o.name("type"), t)
		}
		if err := o.only("type", "name", "description", "parameters", "strict"); err != nil {
			return Tool{}, err
		}
		return parseToolFields(o, "parameters")
	})
}

// parseResponsesToolChoice reads "auto", "none", "required" or
// {"type":"function","name"}.
func parseResponsesToolChoice(top object, tools []Tool) (*ToolChoice, *Error) {
	raw, ok := top.get("tool_choice")
	if !ok {
		return nil, nil
	}
	var tc *ToolChoice
	switch raw {
	case "auto", "none":
		tc = &ToolChoice{Type: raw.(string)}
	case "required":
		tc = &ToolChoice{Type: "any"}
	default:
		o, ok := decodeObject(raw, "tool_choice")
		if !ok || o.fields["type"] != "function" {
			return nil, invalid(`tool_choice must be "auto", "none", "required" or {"type":"function","name"}`)
		}
		if err := o.only("type", "name"); err != nil {
			return nil, err
		}
		name, err := parseToolName(o.fields["name"], o.name("name"))
		if err != nil {
			return nil, err
		}
		tc = &ToolChoice{Type: "tool", Name: name}
	}
	return tc, checkToolChoice(tc, tools, "tool_choice")
}

// parseResponsesText reads text: format ({"type":"text"}, "json_object"
// or {"type":"json_schema","name","schema","description","strict"}) and
// verbosity.
func parseResponsesText(top object, req *Request) *Error {
	t, ok, err := parseChild(top, "text", "format", "verbosity")
	if err != nil || !ok {
		return err
	}
	if raw, ok := t.get("verbosity"); ok {
		if req.Verbosity, ok = asString(raw); !ok || !slices.Contains([]string{"low", "medium", "high"}, req.Verbosity) {
			return invalid(`text.verbosity must be "low", "medium" or "high"`)
		}
	}
	f, ok, err := parseChild(t, "format", "type", "name", "description", "schema", "strict")
	if err != nil || !ok {
		return err
	}
	switch f.fields["type"] {
	case "text":
		return f.only("type")
	case "json_object":
		req.Format = &ResponseFormat{Type: "json_object"}
		return f.only("type")
	case "json_schema":
		req.Format, err = parseJSONSchema(f)
		return err
	}
	return invalid(`text.format.type must be "text", "json_object" or "json_schema"`)
}
