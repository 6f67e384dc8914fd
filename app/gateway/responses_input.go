package gateway

import (
	"slices"
	"strings"
)

// The Responses dialect's input: a string, or items (messages, function
// calls and their outputs, reasoning) that become the neutral turns. An
// answer's items may be sent back as they came, OpenAI's ids and
// statuses with them.

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
	joinedTexts(msgs)
	if err := checkToolPairs(msgs, "input: the function_call", "function_call_output", "call_id"); err != nil {
		return "", nil, err
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
		return TextOf(blocks), msgs, nil
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
		last.Blocks = append(last.Blocks, blocks...) // its Content: joinedTexts
		return msgs
	}
	return append(msgs, ChatMessage{Role: "assistant", Content: TextOf(blocks), Blocks: blocks})
}
