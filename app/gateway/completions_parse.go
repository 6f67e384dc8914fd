package gateway

import (
	"encoding/json"
	"strings"
)

// The Chat Completions dialect's turns and agent fields, read into the
// neutral model (the Messages API's blocks):
//
//	system, developer messages   the system prompt, in order
//	user content parts           text, image_url → image (a data URL's
//	                             base64, or an https URL), file → document
//	                             (a PDF's file_data)
//	assistant tool_calls         tool_use blocks (arguments: a JSON object)
//	role "tool" messages         tool_result blocks of one user turn
//	tools, tool_choice,          Tools, ToolChoice (parallel_tool_calls
//	parallel_tool_calls          false: DisableParallel)
//	response_format              Format
//	reasoning_effort             Reasoning (budgetOf)

// parseOpenAIMessages splits the messages into the system prompt and the
// conversation.
func parseOpenAIMessages(top object) (string, []ChatMessage, *Error) {
	items, err := messageItems(top)
	if err != nil {
		return "", nil, err
	}
	var system []string
	var msgs []ChatMessage
	var c blockCounter
	for i, item := range items {
		path := index("messages", i)
		m, ok := decodeObject(item, path)
		if !ok {
			return "", nil, invalid("%s must be an object", path)
		}
		role, _ := asString(m.fields["role"])
		switch role {
		case "system", "developer":
			if err := m.only("role", "content", "name"); err != nil {
				return "", nil, err
			}
			blocks, err := parseParts(m, "system", &c)
			if err != nil {
				return "", nil, err
			}
			system = append(system, TextOf(blocks))
		case "user":
			if err := m.only("role", "content", "name"); err != nil {
				return "", nil, err
			}
			blocks, err := parseParts(m, "user", &c)
			if err != nil {
				return "", nil, err
			}
			msgs = appendUserTurn(msgs, blocks, false)
		case "assistant":
			turn, err := parseAssistantTurn(m)
			if err != nil {
				return "", nil, err
			}
			msgs = append(msgs, turn)
		case "tool":
			block, err := parseToolTurn(m)
			if err != nil {
				return "", nil, err
			}
			msgs = appendUserTurn(msgs, []ContentBlock{block}, true)
		case "function":
			return "", nil, invalid("%s \"function\" is not supported: it is deprecated; use tools and role \"tool\"", m.name("role"))
		default:
			return "", nil, invalid("%s must be %s", m.name("role"), oneOf([]string{"system", "developer", "user", "assistant", "tool"}))
		}
	}
	if len(msgs) == 0 {
		return "", nil, invalid("messages must hold at least one user or assistant message")
	}
	joinedTexts(msgs)
	if err := checkToolPairs(msgs, "messages: the tool call", "tool message", "tool_call_id"); err != nil {
		return "", nil, err
	}
	return strings.Join(system, "\n\n"), msgs, nil
}

// appendUserTurn adds a user turn's blocks. Tool results join the user
// turn before them when it holds tool results only, and a user message
// joins the tool results before it: Anthropic wants every result of an
// assistant turn's calls in the one next turn, results first.
//
// A joined turn's Content is left for joinedTexts, once every turn is
// read: recomputed at each join, it made a body of many tool results
// quadratic (32,000 of them kept a core busy for seconds).
func appendUserTurn(msgs []ChatMessage, blocks []ContentBlock, toolResult bool) []ChatMessage {
	if n := len(msgs); n > 0 && msgs[n-1].Role == "user" && endsInToolResult(msgs[n-1].Blocks) {
		last := &msgs[n-1]
		last.Blocks = append(last.Blocks, blocks...)
		return msgs
	}
	turn := ChatMessage{Role: "user", Content: TextOf(blocks), Blocks: blocks}
	if !toolResult && len(blocks) == 1 && blocks[0].Type == BlockText {
		turn.Blocks = nil // a plain string turn, as sent
	}
	return append(msgs, turn)
}

// endsInToolResult tells whether a user turn holds tool results only:
// the OpenAI dialects' user messages carry no tool result, and nothing
// joins a turn after a user message, so the turn's last block tells (in
// constant time, for the turn that every result of a long run joins).
func endsInToolResult(blocks []ContentBlock) bool {
	return len(blocks) > 0 && blocks[len(blocks)-1].Type == BlockToolResult
}

// joinedTexts sets the Content of the turns that blocks joined
// (appendUserTurn, appendAssistant): their texts, as a turn's own.
func joinedTexts(msgs []ChatMessage) {
	for i := range msgs {
		if msgs[i].Blocks != nil {
			msgs[i].Content = TextOf(msgs[i].Blocks)
		}
	}
}

// parseParts reads a message's content: a non-blank string, or parts
// (text; for a user, image_url and file too).
func parseParts(m object, role string, c *blockCounter) ([]ContentBlock, *Error) {
	raw, _ := m.get("content")
	path := m.name("content")
	if s, ok := asString(raw); ok && strings.TrimSpace(s) != "" {
		return []ContentBlock{{Type: BlockText, Text: s}}, nil
	}
	items, ok := asArray(raw)
	if !ok || len(items) == 0 {
		return nil, invalid("%s must be a non-empty string or a non-empty array of content parts", path)
	}
	blocks := make([]ContentBlock, 0, len(items))
	for i, item := range items {
		ppath := index(path, i)
		p, ok := decodeObject(item, ppath)
		if !ok {
			return nil, invalid("%s must be an object", ppath)
		}
		typ, _ := asString(p.fields["type"])
		if typ != "text" && role != "user" {
			return nil, invalid("%s %q is not supported in a %s message: text only", p.name("type"), typ, role)
		}
		var b ContentBlock
		var err *Error
		switch typ {
		case "text":
			b, err = parseTextPart(p)
		case "image_url":
			b, err = parseImagePart(p, c)
		case "file":
			b, err = parseFilePart(p, c)
		case "":
			return nil, invalid("%s is required", p.name("type"))
		default:
			return nil, invalid("%s %q is not supported: this gateway relays text, image_url and file (PDF) parts", p.name("type"), typ)
		}
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func parseTextPart(p object) (ContentBlock, *Error) {
	if err := p.only("type", "text"); err != nil {
		return ContentBlock{}, err
	}
	text, ok := asString(p.fields["text"])
	if !ok || strings.TrimSpace(text) == "" {
		return ContentBlock{}, invalid("%s must be a non-empty string", p.name("text"))
	}
	return ContentBlock{Type: BlockText, Text: text}, nil
}

// parseImagePart reads {"type":"image_url","image_url":{"url","detail"}}:
// a data URL of a PNG, JPEG, GIF or WebP, or an https URL (passed on,
// never fetched). detail is accepted and dropped (the bound assumes the
// most detailed reading).
func parseImagePart(p object, c *blockCounter) (ContentBlock, *Error) {
	if err := p.only("type", "image_url"); err != nil {
		return ContentBlock{}, err
	}
	if err := c.addMedia(p.path); err != nil {
		return ContentBlock{}, err
	}
	iu, ok, err := parseChild(p, "image_url", "url", "detail")
	if err != nil {
		return ContentBlock{}, err
	}
	if !ok {
		return ContentBlock{}, invalid("%s is required", p.name("image_url"))
	}
	if d, ok := iu.get("detail"); ok && d != "auto" && d != "low" && d != "high" {
		return ContentBlock{}, invalid(`%s must be "auto", "low" or "high"`, iu.name("detail"))
	}
	u, _ := asString(iu.fields["url"])
	return imageURL(u, iu.name("url"))
}

// imageURL reads an image given as a URL at path: a data URL of a PNG,
// JPEG, GIF or WebP, or an https URL (passed on, never fetched).
func imageURL(u, path string) (ContentBlock, *Error) {
	if mediaType, data, ok := dataURL(u); ok {
		src, bound, err := imageData(mediaType, data, path)
		return ContentBlock{Type: BlockImage, Source: src, bound: bound}, err
	}
	if !httpsURL(u) {
		return ContentBlock{}, invalid("%s must be a data URL (data:image/png;base64,…) or an https URL", path)
	}
	return ContentBlock{Type: BlockImage, Source: &Source{Type: "url", URL: u}, bound: MaxImageTokens}, nil
}

// dataURL splits "data:MEDIA;base64,DATA".
func dataURL(u string) (mediaType, data string, ok bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", false
	}
	head, data, ok := strings.Cut(rest, ",")
	mediaType, ok2 := strings.CutSuffix(head, ";base64")
	return mediaType, data, ok && ok2
}

// parseFilePart reads {"type":"file","file":{"file_data","filename"}}: a
// PDF as a data URL. file_id (OpenAI's stored files) is refused: it means
// nothing to another provider.
func parseFilePart(p object, c *blockCounter) (ContentBlock, *Error) {
	if err := p.only("type", "file"); err != nil {
		return ContentBlock{}, err
	}
	if err := c.addMedia(p.path); err != nil {
		return ContentBlock{}, err
	}
	f, ok, err := parseChild(p, "file", "file_data", "filename", "file_id")
	if err != nil {
		return ContentBlock{}, err
	}
	if !ok {
		return ContentBlock{}, invalid("%s is required", p.name("file"))
	}
	if _, ok := f.get("file_id"); ok {
		return ContentBlock{}, invalid("%s is not supported: send the PDF as file_data", f.name("file_id"))
	}
	return pdfFile(f)
}

// pdfFile reads a file's file_data, a PDF's data URL, and its filename
// (the document's title).
func pdfFile(f object) (ContentBlock, *Error) {
	fd, _ := asString(f.fields["file_data"])
	mediaType, data, ok := dataURL(fd)
	if !ok {
		return ContentBlock{}, invalid("%s must be a data URL (data:application/pdf;base64,…)", f.name("file_data"))
	}
	src, bound, err := pdfData(mediaType, data, f.name("file_data"))
	b := ContentBlock{Type: BlockDocument, Source: src, bound: bound}
	if name, ok := asString(f.fields["filename"]); ok {
		b.Title = name
	}
	return b, err
}

// parseAssistantTurn reads an assistant message: content (string, text
// parts, or null with tool_calls), refusal (kept as text) and tool_calls.
func parseAssistantTurn(m object) (ChatMessage, *Error) {
	if err := m.only("role", "content", "name", "tool_calls", "refusal"); err != nil {
		return ChatMessage{}, err
	}
	var blocks []ContentBlock
	if _, ok := m.get("content"); ok {
		if s, isString := asString(m.fields["content"]); !isString || s != "" {
			texts, err := parseParts(m, "assistant", nil)
			if err != nil {
				return ChatMessage{}, err
			}
			blocks = texts
		}
	}
	if raw, ok := m.get("refusal"); ok {
		if s, ok := asString(raw); ok && s != "" {
			blocks = append(blocks, ContentBlock{Type: BlockText, Text: s})
		}
	}
	calls, err := parseToolCalls(m)
	if err != nil {
		return ChatMessage{}, err
	}
	if len(blocks) == 0 && len(calls) == 0 {
		return ChatMessage{}, invalid("%s must be a non-empty string or array of content parts, or tool_calls given", m.name("content"))
	}
	turn := ChatMessage{Role: "assistant", Content: TextOf(blocks)}
	if len(calls) > 0 || len(blocks) > 1 {
		turn.Blocks = append(blocks, calls...)
	}
	return turn, nil
}

// parseToolCalls reads an assistant's tool_calls as tool_use blocks.
func parseToolCalls(m object) ([]ContentBlock, *Error) {
	raw, ok := m.get("tool_calls")
	if !ok {
		return nil, nil
	}
	items, ok := asArray(raw)
	if !ok {
		return nil, invalid("%s must be an array", m.name("tool_calls"))
	}
	blocks := make([]ContentBlock, len(items))
	for i, item := range items {
		path := index(m.name("tool_calls"), i)
		tc, ok := decodeObject(item, path)
		if !ok {
			return nil, invalid("%s must be an object", path)
		}
		if err := tc.only("id", "type", "function"); err != nil {
			return nil, err
		}
		if t, ok := tc.get("type"); ok && t != "function" {
			return nil, invalid(`%s must be "function"`, tc.name("type"))
		}
		id, err := parseToolID(tc.fields["id"], tc.name("id"))
		if err != nil {
			return nil, err
		}
		fn, ok, err := parseChild(tc, "function", "name", "arguments")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, invalid("%s is required", tc.name("function"))
		}
		name, err := parseToolName(fn.fields["name"], fn.name("name"))
		if err != nil {
			return nil, err
		}
		args, _ := asString(fn.fields["arguments"])
		input, ok := argumentsObject(args)
		if !ok {
			return nil, invalid("%s must be a string holding a JSON object", fn.name("arguments"))
		}
		blocks[i] = ContentBlock{Type: BlockToolUse, ID: id, Name: name, Input: input}
	}
	return blocks, nil
}

// argumentsObject reads a tool call's arguments, a JSON object in a
// string ("" for none, as some servers send for a tool without
// parameters).
func argumentsObject(args string) (json.RawMessage, bool) {
	if strings.TrimSpace(args) == "" {
		return json.RawMessage(`{}`), true
	}
	v, ok := decodeJSON([]byte(args))
	if _, isObject := v.(map[string]any); !ok || !isObject {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// parseToolTurn reads a role "tool" message as a tool_result block.
func parseToolTurn(m object) (ContentBlock, *Error) {
	if err := m.only("role", "content", "tool_call_id", "name"); err != nil {
		return ContentBlock{}, err
	}
	id, err := parseToolID(m.fields["tool_call_id"], m.name("tool_call_id"))
	if err != nil {
		return ContentBlock{}, err
	}
	b := ContentBlock{Type: BlockToolResult, ToolUseID: id}
	if s, ok := asString(m.fields["content"]); ok && s == "" {
		return b, nil // an empty result is a result
	}
	texts, err := parseParts(m, "tool", nil)
	if err != nil {
		return ContentBlock{}, err
	}
	b.Content = texts
	return b, nil
}

// parseOpenAIAgentFields reads tools, tool_choice, parallel_tool_calls,
// response_format and reasoning_effort (after max_tokens, which bounds
// the thinking budget).
func parseOpenAIAgentFields(top object, req *Request) *Error {
	var err *Error
	if req.Tools, err = parseOpenAITools(top); err != nil {
		return err
	}
	if req.ToolChoice, err = parseOpenAIToolChoice(top, req.Tools); err != nil {
		return err
	}
	if err := parseParallel(top, req); err != nil {
		return err
	}
	if req.Format, err = parseResponseFormat(top); err != nil {
		return err
	}
	if raw, ok := top.get("reasoning_effort"); ok {
		req.Reasoning, err = parseEffort(raw, "reasoning_effort", "max_completion_tokens", req.MaxTokens)
	}
	return err
}

// parseParallel reads parallel_tool_calls (after the tools and
// tool_choice): false asks for at most one call.
func parseParallel(top object, req *Request) *Error {
	raw, ok := top.get("parallel_tool_calls")
	if !ok {
		return nil
	}
	b, ok := asBool(raw)
	if !ok {
		return invalid("parallel_tool_calls must be a boolean")
	}
	if !b && len(req.Tools) > 0 {
		if req.ToolChoice == nil {
			req.ToolChoice = &ToolChoice{Type: "auto"}
		}
		req.ToolChoice.DisableParallel = true
	}
	return nil
}

// parseEffort reads OpenAI's reasoning effort at path ("none": no
// thinking); its budget must fit below maxTokens, named maxName.
func parseEffort(raw any, path, maxName string, maxTokens int) (*Reasoning, *Error) {
	effort, _ := asString(raw)
	if effort == "none" {
		return nil, nil
	}
	if _, known := effortBudgets[effort]; !known {
		return nil, invalid(`%s must be "none", "minimal", "low", "medium", "high", "xhigh" or "max"`, path)
	}
	budget, ok := budgetOf(effort, maxTokens)
	if !ok {
		return nil, invalid("%s needs %s above %d: the thinking budget is part of it", path, maxName, minThinkingBudget)
	}
	return &Reasoning{Effort: effort, BudgetTokens: budget}, nil
}

// parseOpenAITools reads [{"type":"function","function":{"name",
// "description","parameters","strict"}}]; custom tools (free-form input)
// are refused by name: a messages-style provider has none.
func parseOpenAITools(top object) ([]Tool, *Error) {
	return parseTools(top, func(o object) (Tool, *Error) {
		if t, _ := asString(o.fields["type"]); t != "function" {
			return Tool{}, invalid("%s %q is not supported: this gateway relays function tools", o.name("type"), t)
		}
		fn, ok, err := parseChild(o, "function", "name", "description", "parameters", "strict")
		if err != nil {
			return Tool{}, err
		}
		if !ok {
			return Tool{}, invalid("%s is required", o.name("function"))
		}
		if err := o.only("type", "function"); err != nil {
			return Tool{}, err
		}
		return parseToolFields(fn, "parameters")
	})
}

// parseOpenAIToolChoice reads "auto", "none", "required" or
// {"type":"function","function":{"name"}}.
func parseOpenAIToolChoice(top object, tools []Tool) (*ToolChoice, *Error) {
	return parseFunctionChoice(top, tools, `{"type":"function","function":{"name"}}`, func(o object) (string, *Error) {
		if err := o.only("type", "function"); err != nil {
			return "", err
		}
		fn, ok, err := parseChild(o, "function", "name")
		if err != nil {
			return "", err
		}
		if !ok {
			return "", invalid("tool_choice.function is required")
		}
		return parseToolName(fn.fields["name"], fn.name("name"))
	})
}

// parseFunctionChoice reads OpenAI's tool_choice: "auto", "none",
// "required" (any tool) or an object of type "function" written as shape,
// whose function's name named reads.
func parseFunctionChoice(top object, tools []Tool, shape string, named func(object) (string, *Error)) (*ToolChoice, *Error) {
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
			return nil, invalid(`tool_choice must be "auto", "none", "required" or %s`, shape)
		}
		name, err := named(o)
		if err != nil {
			return nil, err
		}
		tc = &ToolChoice{Type: "tool", Name: name}
	}
	return tc, checkToolChoice(tc, tools, "tool_choice")
}

// parseResponseFormat reads {"type":"text"} (nothing asked),
// {"type":"json_object"} or {"type":"json_schema","json_schema":{"name",
// "description","schema","strict"}}.
func parseResponseFormat(top object) (*ResponseFormat, *Error) {
	o, ok, err := parseChild(top, "response_format", "type", "json_schema")
	if err != nil || !ok {
		return nil, err
	}
	switch o.fields["type"] {
	case "text":
		return nil, nil
	case "json_object":
		return &ResponseFormat{Type: "json_object"}, nil
	case "json_schema":
	default:
		return nil, invalid(`response_format.type must be "text", "json_object" or "json_schema"`)
	}
	js, ok, err := parseChild(o, "json_schema", "name", "description", "schema", "strict")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, invalid("response_format.json_schema is required")
	}
	return parseJSONSchema(js)
}

// parseJSONSchema reads a json_schema format's name, description, schema
// and strict from js.
func parseJSONSchema(js object) (*ResponseFormat, *Error) {
	var err *Error
	f := &ResponseFormat{Type: "json_schema"}
	if f.Name, err = parseToolName(js.fields["name"], js.name("name")); err != nil {
		return nil, err
	}
	if d, ok := js.get("description"); ok {
		s, ok := asString(d)
		if !ok || len(s) > MaxToolDescription {
			return nil, invalid("%s must be a string of at most %d bytes", js.name("description"), MaxToolDescription)
		}
		f.Description = s
	}
	raw, ok := js.get("schema")
	if !ok {
		return nil, invalid("%s is required", js.name("schema"))
	}
	if f.Schema, err = parseSchema(raw, js.name("schema")); err != nil {
		return nil, err
	}
	if raw, ok := js.get("strict"); ok {
		b, ok := asBool(raw)
		if !ok {
			return nil, invalid("%s must be a boolean", js.name("strict"))
		}
		f.Strict = &b
	}
	return f, nil
}

// checkToolPairs refuses, as both provider styles would, tool calls and
// results that do not pair up: every result answers a call of the
// assistant turn just before it, every call is answered there, once, and
// no call's id is given twice. Sent on, such a request cost a provider's
// round trip to come back as its 400 (our 502), in its words. Linear: a
// turn may hold thousands of calls.
func checkToolPairs(msgs []ChatMessage, call, result, id string) *Error {
	seen := map[string]bool{}
	for i, m := range msgs {
		if m.Role == "user" {
			if i > 0 && msgs[i-1].Role == "assistant" {
				continue // its results were paired with that turn's calls
			}
			for _, b := range m.Blocks {
				if b.Type == BlockToolResult {
					return invalid("the %s with %s %q comes before any call it could answer", result, id, b.ToolUseID)
				}
			}
			continue
		}
		open := map[string]bool{} // this turn's calls not yet answered
		for _, b := range m.Blocks {
			if b.Type != BlockToolUse {
				continue
			}
			if seen[b.ID] {
				return invalid("%s %s %q is given twice", call, id, b.ID)
			}
			seen[b.ID], open[b.ID] = true, true
		}
		if i+1 < len(msgs) && msgs[i+1].Role == "user" {
			for _, b := range msgs[i+1].Blocks {
				if b.Type != BlockToolResult {
					continue
				}
				if !open[b.ToolUseID] {
					return invalid("the %s with %s %q answers no call of the assistant turn just before it (or one answered already)", result, id, b.ToolUseID)
				}
				delete(open, b.ToolUseID)
			}
		}
		for _, b := range m.Blocks { // the first call left, in the turn's order
			if b.Type == BlockToolUse && open[b.ID] {
				return invalid("%s %s %q has no %s after it: every call of a turn is answered in the next", call, id, b.ID, result)
			}
		}
	}
	return nil
}
