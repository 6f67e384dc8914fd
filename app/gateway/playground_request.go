package gateway

// ParsePlaygroundRequest validates a body of the playground's POST
// /gateway/app/chat: /chat's fields and defaults (model and max_tokens may
// be left out), with two of the Messages dialect's, so that the page can
// attach an image to a turn and show the model's thinking: each turn's
// content is a string or Messages content blocks (images counted against
// MaxImages), and thinking is accepted. Every problem is an *Error naming
// the field, as for the other dialects.
func ParsePlaygroundRequest(body []byte, d Defaults) (*Request, error) {
	return parsed(parsePlayground(body, d))
}

func parsePlayground(body []byte, d Defaults) (*Request, *Error) {
	top, err := decodeTop(body, messagesRefused, "messages", "model", "max_tokens", "system", "temperature", "stop_sequences", "stream", "metadata", "thinking")
	if err != nil {
		return nil, err
	}
	req := &Request{MaxTokens: d.MaxTokens}
	var c blockCounter
	if req.Messages, err = parseTurns(top, &c); err != nil {
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
	if req.Reasoning, err = parseThinking(top, req.MaxTokens); err != nil {
		return nil, err
	}
	if err := parseOptions(top, req); err != nil {
		return nil, err
	}
	return req, checkStyle(req, d)
}
