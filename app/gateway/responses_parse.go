package gateway

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
	return parseFunctionChoice(top, tools, `{"type":"function","name"}`, func(o object) (string, *Error) {
		if err := o.only("type", "name"); err != nil {
			return "", err
		}
		return parseToolName(o.fields["name"], o.name("name"))
	})
}

// parseResponsesText reads text: format ({"type":"text"}, "json_object"
// or {"type":"json_schema","name","schema","description","strict"}) and
// verbosity.
func parseResponsesText(top object, req *Request) *Error {
	t, ok, err := parseChild(top, "text", "format", "verbosity")
	if err != nil || !ok {
		return err
	}
	if req.Verbosity, err = parseVerbosity(t, "text.verbosity"); err != nil {
		return err
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
