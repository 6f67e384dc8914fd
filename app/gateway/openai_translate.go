package gateway

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
)

// The neutral model translated to Chat Completions (an openai-style
// provider) and its answer back:
//
//	system / SystemBlocks    a system message (cache_control dropped:
//	                         OpenAI caches prompts by itself)
//	text, image, document    user content parts: text, image_url (base64 as
//	                         a data URL, a URL as it is), file (a PDF as a
//	                         data URL; a text document as a text part)
//	tool_result blocks       role "tool" messages, before the turn's other
//	                         parts ("Error: " before the text of is_error)
//	tool_use blocks          the assistant's tool_calls (input as arguments)
//	thinking blocks          dropped: Chat Completions takes no reasoning
//	                         back (it keeps none of its own between turns)
//	tools, tool_choice       function tools; auto, none, any → "required",
//	                         tool → a named function; DisableParallel →
//	                         parallel_tool_calls false
//	Reasoning                reasoning_effort, with max_completion_tokens
//	Format                   response_format
//
// The answer: content → a text block, refusal → a text block and
// stop_reason "refusal", tool_calls → tool_use blocks; usage's
// prompt_tokens_details.cached_tokens are taken out of prompt_tokens into
// the cache-read bucket, completion_tokens_details.reasoning_tokens kept
// apart within the output.

type openAIRequest struct {
	Model    string          `json:"model"`
	Messages []openAIMessage `json:"messages"`
	// max_tokens rather than OpenAI's newer max_completion_tokens: every
	// compatible server understands it; reasoning models need the newer.
	MaxTokens           int                  `json:"max_tokens,omitempty"`
	MaxCompletionTokens int                  `json:"max_completion_tokens,omitempty"`
	Temperature         *float64             `json:"temperature,omitempty"`
	TopP                *float64             `json:"top_p,omitempty"`
	Stop                []string             `json:"stop,omitempty"`
	Stream              bool                 `json:"stream,omitempty"`
	StreamOptions       *openAIStreamOptions `json:"stream_options,omitempty"`
	User                string               `json:"user,omitempty"`
	Seed                *int64               `json:"seed,omitempty"`
	FrequencyPenalty    *float64             `json:"frequency_penalty,omitempty"`
	PresencePenalty     *float64             `json:"presence_penalty,omitempty"`
	Verbosity           string               `json:"verbosity,omitempty"`
	Tools               []openAITool         `json:"tools,omitempty"`
	ToolChoice          any                  `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool                `json:"parallel_tool_calls,omitempty"`
	ReasoningEffort     string               `json:"reasoning_effort,omitempty"`
	ResponseFormat      any                  `json:"response_format,omitempty"`
}

type openAIStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type openAIMessage struct {
	Role       string           `json:"role"`
	Content    any              `json:"content"` // a string, parts, or null beside tool_calls
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

type openAIPart struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	ImageURL *openAIImageURL `json:"image_url,omitempty"`
	File     *openAIFile     `json:"file,omitempty"`
}

type openAIImageURL struct {
	URL string `json:"url"`
}

type openAIFile struct {
	Filename string `json:"filename"`
	FileData string `json:"file_data"`
}

type openAIToolCall struct {
	Index    *int               `json:"index,omitempty"` // streamed deltas only
	ID       string             `json:"id,omitempty"`
	Type     string             `json:"type,omitempty"`
	Function openAIFunctionCall `json:"function"`
}

type openAIFunctionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type openAITool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict,omitempty"`
}

// openAIBody translates a request (CheckStyle refused what it could not
// carry); metadata.user_id becomes OpenAI's end-user identifier.
func openAIBody(req *Request, stream bool) openAIRequest {
	b := openAIRequest{Model: req.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature,
		TopP: req.TopP, Stop: req.StopSequences, User: req.Metadata.UserID, Seed: req.Seed,
		FrequencyPenalty: req.FrequencyPenalty, PresencePenalty: req.PresencePenalty, Verbosity: req.Verbosity}
	if req.System != "" {
		b.Messages = append(b.Messages, openAIMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		b.Messages = append(b.Messages, openAIMessages(m)...)
	}
	for _, t := range req.Tools {
		b.Tools = append(b.Tools, openAITool{Type: "function", Function: openAIFunction{Name: t.Name,
			Description: t.Description, Parameters: t.InputSchema, Strict: t.Strict}})
	}
	if tc := req.ToolChoice; tc != nil {
		switch tc.Type {
		case "any":
			b.ToolChoice = "required"
		case "tool":
			b.ToolChoice = map[string]any{"type": "function", "function": map[string]string{"name": tc.Name}}
		default:
			b.ToolChoice = tc.Type
		}
		if tc.DisableParallel && len(req.Tools) > 0 {
			b.ParallelToolCalls = new(bool)
		}
	}
	if r := req.Reasoning; r != nil {
		b.ReasoningEffort = r.Effort
		if r.Adaptive {
			b.ReasoningEffort = openAIEffort(req.OutputEffort)
		}
		b.MaxTokens, b.MaxCompletionTokens = 0, req.MaxTokens
	}
	if openAIReasoning(req.Model) {
		// Sampling settings are dropped, as for the newest Claude models:
		// clients send them by default, and the model refuses them.
		b.MaxTokens, b.MaxCompletionTokens = 0, req.MaxTokens
		b.Temperature, b.TopP, b.FrequencyPenalty, b.PresencePenalty = nil, nil, nil, nil
	}
	if f := req.Format; f != nil {
		if f.Type == "json_object" {
			b.ResponseFormat = map[string]string{"type": "json_object"}
		} else {
			// output_config.format has no name, which OpenAI requires.
			js := map[string]any{"name": cmp.Or(f.Name, formatToolName), "schema": f.Schema}
			if f.Description != "" {
				js["description"] = f.Description
			}
			if f.Strict != nil {
				js["strict"] = *f.Strict
			}
			b.ResponseFormat = map[string]any{"type": "json_schema", "json_schema": js}
		}
	}
	if stream {
		// Without include_usage a stream reports no token counts, and quota
		// depends on them.
		b.Stream, b.StreamOptions = true, &openAIStreamOptions{IncludeUsage: true}
	}
	return b
}

// openAIMessages is one turn as Chat Completions messages: a user turn's
// tool results become tool messages first, then its other parts one user
// message; an assistant turn one message with its tool calls.
func openAIMessages(m ChatMessage) []openAIMessage {
	if m.Blocks == nil {
		return []openAIMessage{{Role: m.Role, Content: m.Content}}
	}
	if m.Role == "assistant" {
		msg := openAIMessage{Role: "assistant"}
		if text := TextOf(m.Blocks); text != "" {
			msg.Content = text
		}
		for _, b := range m.Blocks {
			if b.Type == BlockToolUse {
				msg.ToolCalls = append(msg.ToolCalls, openAIToolCall{ID: b.ID, Type: "function",
					Function: openAIFunctionCall{Name: b.Name, Arguments: string(b.Input)}})
			}
		}
		if msg.Content == nil && msg.ToolCalls == nil {
			msg.Content = "" // a turn of thinking only
		}
		return []openAIMessage{msg}
	}
	var out []openAIMessage
	var parts []openAIPart
	for _, b := range m.Blocks {
		switch b.Type {
		case BlockToolResult:
			text := toolResultText(b)
			if b.IsError != nil && *b.IsError {
				text = "Error: " + text
			}
			out = append(out, openAIMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
		case BlockText:
			parts = append(parts, openAIPart{Type: "text", Text: b.Text})
		case BlockImage:
			u := b.Source.URL
			if b.Source.Type == "base64" {
				u = "data:" + b.Source.MediaType + ";base64," + b.Source.Data
			}
			parts = append(parts, openAIPart{Type: "image_url", ImageURL: &openAIImageURL{URL: u}})
		case BlockDocument:
			if b.Source.Type == "text" {
				parts = append(parts, openAIPart{Type: "text", Text: b.Source.Data})
				continue
			}
			name := b.Title
			if name == "" {
				name = "document.pdf"
			}
			parts = append(parts, openAIPart{Type: "file", File: &openAIFile{Filename: name,
				FileData: "data:application/pdf;base64," + b.Source.Data}})
		}
	}
	if len(parts) > 0 {
		out = append(out, openAIMessage{Role: "user", Content: parts})
	}
	return out
}

// openAIUsage is read leniently, as Usage is: checkUsage flags and
// clamps what is impossible.
type openAIUsage struct {
	PromptTokens        *float64 `json:"prompt_tokens"`
	CompletionTokens    *float64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens *float64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens *float64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// usage puts OpenAI's counts in the buckets: its cached tokens are part
// of prompt_tokens, so they are taken out of the input (never counted
// twice).
func (u *openAIUsage) usage() Usage {
	out := lenientUsage(u.PromptTokens, u.CompletionTokens)
	if d := u.PromptTokensDetails; d != nil {
		cached := min(out.read(d.CachedTokens), out.InputTokens)
		out.InputTokens, out.CacheReadInputTokens = out.InputTokens-cached, cached
	}
	if d := u.CompletionTokensDetails; d != nil {
		out.ReasoningTokens = min(out.read(d.ReasoningTokens), out.OutputTokens)
	}
	return out
}

type openAIResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content   *string          `json:"content"`
			Refusal   *string          `json:"refusal"`
			ToolCalls []openAIToolCall `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
		// StopReason is vLLM's extension naming the stop string that ended
		// the answer; OpenAI itself does not say which one did.
		StopReason any `json:"stop_reason"`
	} `json:"choices"`
	Usage *openAIUsage `json:"usage"`
}

// message translates a non-streamed answer.
func (r *openAIResponse) message(req *Request) (*Message, error) {
	if len(r.Choices) == 0 {
		return nil, errInvalidResponse(errors.New("answer without choices"))
	}
	c := r.Choices[0]
	msg := &Message{ID: newMessageID(), Model: modelOr(r.Model, req.Model)}
	msg.StopReason, msg.StopSequence = openAIStop(c.FinishReason, c.StopReason, req)
	if c.Message.Content != nil && (*c.Message.Content != "" || len(c.Message.ToolCalls) == 0) {
		msg.Content = append(msg.Content, ContentBlock{Type: BlockText, Text: *c.Message.Content})
	}
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		msg.Content = append(msg.Content, ContentBlock{Type: BlockText, Text: *c.Message.Refusal})
		msg.StopReason = StopRefusal
	}
	for _, tc := range c.Message.ToolCalls {
		input, ok := argumentsObject(tc.Function.Arguments)
		if !ok && msg.StopReason == StopMaxTokens && !json.Valid([]byte(tc.Function.Arguments)) {
			continue // cut short by max_tokens, which the stop reason says: no call to make
		}
		if !ok {
			return nil, errInvalidResponse(fmt.Errorf("tool call %q with arguments that are not a JSON object", tc.Function.Name))
		}
		msg.Content = append(msg.Content, ContentBlock{Type: BlockToolUse, ID: tc.ID, Name: tc.Function.Name, Input: input})
	}
	if len(msg.Content) == 0 {
		msg.Content = []ContentBlock{{Type: BlockText}}
	}
	if r.Usage != nil {
		msg.Usage = r.Usage.usage()
	}
	return msg, nil
}
