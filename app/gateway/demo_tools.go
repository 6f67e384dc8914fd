package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The demo upstream plays an agent's model deterministically, so that
// `go run .` shows tools and structured output: offered tools (and not
// told "none"), it calls the chosen one (or the first) with an input made
// from its schema; given the results, it answers describing them; asked
// for a response_format, it answers with JSON made from the schema.

// demoToolCall is the demo's tool call for req, or nil when it should
// answer in text: no tools, tool_choice none, or the last turn holds the
// tools' results.
func demoToolCall(req *Request) *ContentBlock {
	if len(req.Tools) == 0 || req.ToolChoice != nil && req.ToolChoice.Type == "none" {
		return nil
	}
	if n := len(req.Messages); n > 0 && hasToolResult(req.Messages[n-1].Blocks) {
		return nil
	}
	tool := req.Tools[0]
	if tc := req.ToolChoice; tc != nil && tc.Type == "tool" {
		for _, t := range req.Tools {
			if t.Name == tc.Name {
				tool = t
			}
		}
	}
	input, _ := json.Marshal(sampleOf(tool.InputSchema))
	return &ContentBlock{Type: BlockToolUse, ID: fmt.Sprintf("toolu_demo%02d", len(req.Messages)), Name: tool.Name, Input: input}
}

func hasToolResult(blocks []ContentBlock) bool {
	for _, b := range blocks {
		if b.Type == BlockToolResult {
			return true
		}
	}
	return false
}

// sampleOf makes a value a JSON Schema accepts in the simple cases: an
// object with its required properties, "demo" for a string (or its first
// enum value), 0, false, [].
func sampleOf(schema json.RawMessage) any {
	var s struct {
		Type       any                        `json:"type"`
		Enum       []any                      `json:"enum"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "string":
		return "demo"
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	}
	obj := map[string]any{}
	for _, name := range s.Required {
		obj[name] = sampleOf(s.Properties[name])
	}
	return obj
}

// demoToolUsage is the usage of a tool call's answer: a token per 4
// bytes of its input, at least one.
func demoToolUsage(req *Request, call *ContentBlock) Usage {
	return Usage{InputTokens: answerDemo(req).inputTokens, OutputTokens: max(1, len(call.Input)/4)}
}

func (d *Demo) completeTool(ctx context.Context, req *Request, call *ContentBlock) (*Message, error) {
	if err := sleep(ctx, d.WordDelay); err != nil {
		return nil, err
	}
	return &Message{ID: newMessageID(), Model: req.Model, Content: []ContentBlock{*call},
		StopReason: StopToolUse, Usage: demoToolUsage(req, call)}, nil
}

// streamTool streams the call as a messages-style provider does: its
// input in two input_json_delta fragments.
func (d *Demo) streamTool(ctx context.Context, req *Request, call *ContentBlock, emit func(Event) error) error {
	u := demoToolUsage(req, call)
	start := *call
	start.Input = json.RawMessage(`{}`)
	half := len(call.Input) / 2
	for _, ev := range []Event{
		{Type: EventMessageStart, Message: &Message{ID: newMessageID(), Model: req.Model, Usage: Usage{InputTokens: u.InputTokens}}},
		{Type: EventContentBlockStart, Block: &start},
		{Type: EventContentBlockDelta, DeltaType: DeltaInputJSON, Text: string(call.Input[:half])},
		{Type: EventContentBlockDelta, DeltaType: DeltaInputJSON, Text: string(call.Input[half:])},
		{Type: EventContentBlockStop},
		{Type: EventMessageDelta, StopReason: StopToolUse, Usage: &Usage{OutputTokens: u.OutputTokens}},
		{Type: EventMessageStop},
	} {
		if err := sleep(ctx, d.WordDelay/time.Duration(2)); err != nil {
			return err
		}
		if err := emit(ev); err != nil {
			return err
		}
	}
	return nil
}
