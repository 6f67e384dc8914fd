package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
)

// anthropicVersion is the Messages API version the adapter speaks.
const anthropicVersion = "2023-06-01"

// messagesAdapter speaks the Anthropic Messages API: POST {URL}/v1/messages.
// Answers are already in our shape, so it checks them and passes them on.
type messagesAdapter struct {
	http httpUpstream
}

func newMessagesAdapter(transport *http.Transport, cfg Config, sc *scrubber) *messagesAdapter {
	return &messagesAdapter{http: httpUpstream{transport: transport, base: cfg.URL, scrub: sc,
		auth: http.Header{"X-Api-Key": {cfg.Key}, "Anthropic-Version": {anthropicVersion}}}}
}

type messagesRequest struct {
	Model         string            `json:"model"`
	MaxTokens     int               `json:"max_tokens"`
	System        any               `json:"system,omitempty"` // a string, or the caller's text blocks
	Messages      []ChatMessage     `json:"messages"`
	Tools         []Tool            `json:"tools,omitempty"`
	ToolChoice    *messagesChoice   `json:"tool_choice,omitempty"`
	Thinking      *messagesThinking `json:"thinking,omitempty"`
	OutputConfig  *messagesOutput   `json:"output_config,omitempty"`
	Temperature   *float64          `json:"temperature,omitempty"`
	TopP          *float64          `json:"top_p,omitempty"`
	TopK          *int              `json:"top_k,omitempty"`
	StopSequences []string          `json:"stop_sequences,omitempty"`
	Stream        bool              `json:"stream,omitempty"`
	Metadata      *messagesMetadata `json:"metadata,omitempty"`
}

// appendJSON appends the request as encoding/json writes it (see
// wire_encode.go): every call sends one.
func (r messagesRequest) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = appendString(append(b, `{"model":`...), r.Model)
	b = strconv.AppendInt(append(b, `,"max_tokens":`...), int64(r.MaxTokens), 10)
	switch s := r.System.(type) {
	case nil:
	case string:
		b = appendString(append(b, `,"system":`...), s)
	case []ContentBlock:
		if b, err = appendBlocks(append(b, `,"system":`...), s); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("system prompt of type %T", s)
	}
	b = append(b, `,"messages":`...)
	if r.Messages == nil {
		b = append(b, "null"...)
	} else if b, err = appendArray(b, r.Messages, appendTurn); err != nil {
		return nil, err
	}
	if len(r.Tools) > 0 {
		if b, err = appendArray(append(b, `,"tools":`...), r.Tools, appendTool); err != nil {
			return nil, err
		}
	}
	if c := r.ToolChoice; c != nil {
		b = appendString(append(b, `,"tool_choice":{"type":`...), c.Type)
		b = appendOmitEmpty(b, `,"name":`, c.Name)
		if c.DisableParallelToolUse {
			b = append(b, `,"disable_parallel_tool_use":true`...)
		}
		b = append(b, '}')
	}
	if t := r.Thinking; t != nil {
		b = appendString(append(b, `,"thinking":{"type":`...), t.Type)
		if t.BudgetTokens != 0 {
			b = strconv.AppendInt(append(b, `,"budget_tokens":`...), int64(t.BudgetTokens), 10)
		}
		b = append(appendOmitEmpty(b, `,"display":`, t.Display), '}')
	}
	if o := r.OutputConfig; o != nil {
		b = append(b, `,"output_config":{`...)
		if o.Effort != "" {
			b = appendString(append(b, `"effort":`...), o.Effort)
		}
		if o.Format != nil {
			if o.Effort != "" {
				b = append(b, ',')
			}
			if b, err = appendRaw(append(b, `"format":`...), o.Format); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if b, err = appendNumber(b, `,"temperature":`, r.Temperature); err != nil {
		return nil, err
	}
	if b, err = appendNumber(b, `,"top_p":`, r.TopP); err != nil {
		return nil, err
	}
	if r.TopK != nil {
		b = strconv.AppendInt(append(b, `,"top_k":`...), int64(*r.TopK), 10)
	}
	if len(r.StopSequences) > 0 {
		if b, err = appendArray(append(b, `,"stop_sequences":`...), r.StopSequences, appendQuoted); err != nil {
			return nil, err
		}
	}
	if r.Stream {
		b = append(b, `,"stream":true`...)
	}
	if m := r.Metadata; m != nil {
		b = append(appendString(append(b, `,"metadata":{"user_id":`...), m.UserID), '}')
	}
	return append(b, '}'), nil
}

type messagesMetadata struct {
	UserID string `json:"user_id"`
}

type messagesChoice struct {
	Type                   string `json:"type"`
	Name                   string `json:"name,omitempty"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use,omitempty"`
}

type messagesThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"` // 0 when adaptive
	Display      string `json:"display,omitempty"`
}

type messagesOutput struct {
	Effort string          `json:"effort,omitempty"`
	Format json.RawMessage `json:"format,omitempty"` // {"type":"json_schema","schema":…}
}

// formatToolName is the forced tool that asks a messages-style provider
// for a response_format: its input is the answer (see formatTool).
const formatToolName = "json_answer"

func (a *messagesAdapter) body(req *Request, stream bool) messagesRequest {
	b := messagesRequest{Model: req.Model, MaxTokens: req.MaxTokens, Tools: req.Tools,
		Temperature: req.Temperature, TopP: req.TopP, TopK: req.TopK,
		StopSequences: req.StopSequences, Stream: stream, Messages: req.Messages}
	b.System = systemOf(req)
	newest := adaptiveOnly(req.Model)
	switch t := req.Temperature; {
	case newest:
		// The newest models sample as they do and refuse any setting
		// with a 400: dropped, so that clients that send one (most
		// frameworks do) and a route's fallback to them still work.
		b.Temperature, b.TopP, b.TopK = nil, nil, nil
	case t != nil && *t > 1:
		// A routed Chat Completions call (up to 2) on a messages-style
		// target: the nearest it takes. One provider refused it (checkStyle).
		b.Temperature = new(1.0)
	}
	if req.Metadata.UserID != "" {
		b.Metadata = &messagesMetadata{UserID: req.Metadata.UserID}
	}
	if tc := req.ToolChoice; tc != nil {
		b.ToolChoice = &messagesChoice{Type: tc.Type, Name: tc.Name, DisableParallelToolUse: tc.DisableParallel}
	}
	effort := req.OutputEffort
	if r := req.Reasoning; r != nil {
		b.Thinking = &messagesThinking{Type: "enabled", BudgetTokens: r.BudgetTokens, Display: r.Display}
		switch {
		case r.Adaptive:
			b.Thinking.Type = "adaptive"
		case r.BetweenTools:
			b.Thinking.Type = "between_tools"
		case newest:
			// A budget (Chat Completions' reasoning_effort, or a routed
			// call's "enabled") for a model that refuses one: its effort.
			b.Thinking.Type, b.Thinking.BudgetTokens = "adaptive", 0
			effort = cmp.Or(effort, messagesEffort(r.Effort))
		}
	}
	if effort != "" {
		b.OutputConfig = &messagesOutput{Effort: effort}
	}
	switch f := req.Format; {
	case f == nil:
	case nativeFormat(req):
		if b.OutputConfig == nil {
			b.OutputConfig = &messagesOutput{}
		}
		b.OutputConfig.Format = outputFormat(f.schema())
	default:
		// checkMessagesStyle refused tools and thinking beside a format.
		b.Tools = []Tool{formatTool(f)}
		b.ToolChoice = &messagesChoice{Type: "tool", Name: formatToolName}
	}
	return b
}

// systemOf is the system prompt as the Messages API takes it: the
// caller's blocks (with their cache_control) when it sent blocks.
func systemOf(req *Request) any {
	if req.SystemBlocks != nil {
		return req.SystemBlocks
	}
	if req.System == "" {
		return nil
	}
	return req.System
}

// messagesEffort is a reasoning effort as the Messages API names it,
// which has no "minimal".
func messagesEffort(effort string) string {
	if effort == "minimal" {
		return "low"
	}
	return effort
}

// isFormatCall: b is the forced tool call that answers a response_format
// (see formatTool), whose input is the answer's text.
func isFormatCall(req *Request, b ContentBlock) bool {
	return req.Format != nil && !nativeFormat(req) && b.Type == BlockToolUse && b.Name == formatToolName
}

// nativeFormat: the request's structured output goes to a messages-style
// provider as output_config.format, not as a forced tool. So it goes when
// it was asked that way, and to the models that take thinking adaptive
// only (adaptiveOnly): their thinking is on by default, which a forced
// tool excludes, and the newest refuse a forced tool outright.
func nativeFormat(req *Request) bool {
	return req.Format != nil && (req.Format.OutputConfig || adaptiveOnly(req.Model))
}

// outputFormat is output_config.format with schema.
func outputFormat(schema json.RawMessage) json.RawMessage {
	return slices.Concat([]byte(`{"type":"json_schema","schema":`), schema, []byte("}"))
}

// formatTool is the tool a messages-style provider is made to call for a
// response_format: json_schema's schema, or any object for json_object.
// Its input is the JSON answer, which the adapter returns as text.
func formatTool(f *ResponseFormat) Tool {
	desc := "Answer with this tool's input: it is the answer, as JSON."
	if f.Description != "" {
		desc += " " + f.Description
	}
	return Tool{Name: formatToolName, Description: desc, InputSchema: f.schema()}
}

func (a *messagesAdapter) Complete(ctx context.Context, req *Request) (*Message, error) {
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, false), false, betaHeader(req))
	if err != nil {
		return nil, err
	}
	var msg Message
	if err := readJSON(resp, &msg); err != nil {
		return nil, err
	}
	if msg.Type != "message" {
		return nil, errInvalidResponse(fmt.Errorf("answer of type %q", msg.Type))
	}
	for i, b := range msg.Content {
		if !answerBlock(b.Type) {
			return nil, errUnsupportedBlock(b.Type)
		}
		if isFormatCall(req, b) {
			msg.Content[i] = ContentBlock{Type: BlockText, Text: string(b.Input)}
			msg.StopReason = StopEndTurn
		}
	}
	return &msg, nil
}

func (a *messagesAdapter) Stream(ctx context.Context, req *Request, emit func(Event) error) error {
	resp, err := a.http.post(ctx, "/v1/messages", a.body(req, true), true, betaHeader(req))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	formatBlock := -1 // the forced format tool's block, streamed as text
	for {
		sev, err := readEvent(r)
		if err != nil {
			return err
		}
		var ev Event
		if err := decodeUpstream(sev.data, &ev); err != nil {
			return errInvalidResponse(fmt.Errorf("event %q: %w", sev.name, err))
		}
		switch ev.Type {
		case EventError:
			var body ErrorBody
			if ev.Error != nil {
				body = *ev.Error
			}
			return streamedUpstreamError(body.Type, body.Message, scrubberFrom(ctx, a.http.scrub))
		case EventContentBlockStart:
			if ev.Block == nil || !answerBlock(ev.Block.Type) {
				var typ string
				if ev.Block != nil {
					typ = ev.Block.Type
				}
				return errUnsupportedBlock(typ)
			}
			if isFormatCall(req, *ev.Block) {
				formatBlock, ev.Block = ev.Index, &ContentBlock{Type: BlockText}
			}
		case EventContentBlockDelta:
			if _, known := deltaField[ev.DeltaType]; !known {
				continue // e.g. citations_delta: no citations were asked for
			}
			if ev.Index == formatBlock {
				ev.DeltaType = DeltaText
			}
		case EventMessageDelta:
			if formatBlock >= 0 && ev.StopReason == StopToolUse {
				ev.StopReason = StopEndTurn
			}
		case EventMessageStart, EventContentBlockStop, EventMessageStop, EventPing:
		default:
			continue // new event types: the API's versioning policy says to ignore them
		}
		if err := emit(ev); err != nil {
			return err
		}
		if ev.Type == EventMessageStop {
			return nil
		}
	}
}

// betaHeader forwards the client's anthropic-beta header: the Messages
// upstream decides what the betas it names mean. (An OpenAI-style upstream
// has no such thing and is sent none.)
func betaHeader(req *Request) http.Header {
	if len(req.AnthropicBeta) == 0 {
		return nil
	}
	return http.Header{"Anthropic-Beta": req.AnthropicBeta}
}

// CountTokens asks the Messages API's count_tokens endpoint how many input
// tokens req has; it is free there and never billed here.
func (a *messagesAdapter) CountTokens(ctx context.Context, req *Request) (int, error) {
	body := a.body(req, false)
	resp, err := a.http.post(ctx, "/v1/messages/count_tokens", countTokensRequest{Model: body.Model, System: body.System,
		Messages: body.Messages, Tools: body.Tools, ToolChoice: body.ToolChoice, Thinking: body.Thinking, OutputConfig: body.OutputConfig}, false, betaHeader(req))
	if err != nil {
		return 0, err
	}
	var r struct {
		InputTokens *int `json:"input_tokens"`
	}
	if err := readJSON(resp, &r); err != nil {
		return 0, err
	}
	if r.InputTokens == nil || *r.InputTokens < 0 || *r.InputTokens > MaxInputTokens {
		return 0, errInvalidResponse(fmt.Errorf("count_tokens answered %v", r.InputTokens))
	}
	return *r.InputTokens, nil
}

type countTokensRequest struct {
	Model        string            `json:"model"`
	System       any               `json:"system,omitempty"`
	Messages     []ChatMessage     `json:"messages"`
	Tools        []Tool            `json:"tools,omitempty"`
	ToolChoice   *messagesChoice   `json:"tool_choice,omitempty"`
	Thinking     *messagesThinking `json:"thinking,omitempty"`
	OutputConfig *messagesOutput   `json:"output_config,omitempty"`
}

// errUnsupportedBlock refuses an answer this gateway cannot relay
// faithfully (a server tool's block, which requests cannot ask for):
// it signals an upstream doing something unexpected.
func errUnsupportedBlock(typ string) *Error {
	return upstreamError(fmt.Sprintf("upstream answered with a %q content block; this gateway relays text, tool_use and thinking blocks", typ), nil)
}
