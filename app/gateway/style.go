package gateway

// checkStyle refuses, by name and before the provider is called, what the
// configured provider's style has no counterpart for: the same check on
// every endpoint, whatever the caller's dialect (see
// views/docs/gateway.md, "Translation").
func checkStyle(req *Request, d Defaults) *Error {
	return CheckStyle(req, d.Style)
}

// CheckStyle is checkStyle for one provider style (the routing layer asks
// it of each target). The demo ("") takes everything.
func CheckStyle(req *Request, style string) *Error {
	switch style {
	case StyleOpenAI:
		return checkOpenAIStyle(req)
	case StyleMessages:
		return checkMessagesStyle(req)
	}
	return nil
}

// checkOpenAIStyle: Chat Completions has no top-k sampling, no images in
// tool results, no document URLs and no citations.
func checkOpenAIStyle(req *Request) *Error {
	if req.TopK != nil {
		return invalid("top_k is not supported: this gateway's upstream has no top-k sampling (use top_p or temperature)")
	}
	for i, m := range req.Messages {
		for j, b := range m.Blocks {
			path := index(index("messages", i)+".content", j)
			switch {
			case b.Type == BlockToolResult:
				for k, c := range b.Content {
					if c.Type != BlockText {
						return invalid("%s.type %q is not supported: this gateway's upstream (openai style) takes text only in tool results", index(path+".content", k), c.Type)
					}
				}
			case b.Type == BlockDocument && b.Source.Type == "url":
				return invalid("%s.source.type \"url\" is not supported: this gateway's upstream (openai style) takes documents as base64 PDF or text", path)
			case b.Type == BlockDocument && b.Citations != nil:
				return invalid("%s.citations is not supported: this gateway's upstream (openai style) has no citations", path)
			}
		}
	}
	return nil
}

// checkMessagesStyle: the Messages API's temperature ends at 1 (Chat
// Completions' at 2); a response_format goes to a messages-style provider
// as a forced tool, which cannot be combined with the caller's own tools
// or with thinking (Anthropic refuses a forced tool call with thinking
// on). output_config.format, and any format for the newest models, goes
// as it is (nativeFormat).
func checkMessagesStyle(req *Request) *Error {
	if t := req.Temperature; t != nil && *t > 1 {
		return invalid("temperature %g is not supported: this gateway's upstream (messages style) takes 0 to 1", *t)
	}
	if req.FrequencyPenalty != nil || req.PresencePenalty != nil {
		return invalid("frequency_penalty and presence_penalty must be 0: this gateway's upstream (messages style) has no penalties")
	}
	if req.Format == nil || nativeFormat(req) {
		return nil // the provider's own structured output, beside anything
	}
	format, effort := "response_format", "reasoning_effort"
	if req.Echo != nil { // the Responses dialect's names
		format, effort = "text.format", "reasoning.effort"
	}
	if len(req.Tools) > 0 {
		return invalid("%s with tools is not supported: this gateway's upstream (messages style) answers in a format by a forced tool call", format)
	}
	if req.Reasoning != nil {
		return invalid("%s with %s is not supported: this gateway's upstream (messages style) answers in a format by a forced tool call, which thinking excludes", format, effort)
	}
	return nil
}

// blockTexts appends the caller's texts in blocks (see callerTexts):
// text, tool calls' inputs and results, thinking. Images and documents
// are data, not text an upstream quotes back.
func blockTexts(texts []string, blocks []ContentBlock) []string {
	for _, b := range blocks {
		switch b.Type {
		case BlockText:
			texts = append(texts, b.Text)
		case BlockToolUse:
			texts = append(texts, b.Name, string(b.Input))
		case BlockToolResult:
			texts = blockTexts(texts, b.Content)
		case BlockThinking:
			texts = append(texts, b.Thinking)
		}
	}
	return texts
}
