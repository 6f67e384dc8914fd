package gateway

import (
	"crypto/rand"
	"encoding/json"
	"strings"
	"time"
)

// The Responses dialect's answer: a Message as a "response" object, whose
// output holds a message item per text block and a function_call item per
// tool_use block, in the answer's order. Thinking is left out, as in a
// chat.completion: the dialect's reasoning items carry OpenAI's own
// encrypted reasoning, which no other provider gives.

// Response is a Message in the Responses API's shape, with the settings
// of the request that asked for it.
type Response struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	CreatedAt         int64              `json:"created_at"`
	Status            string             `json:"status"`
	Error             *struct{}          `json:"error"` // a failed call is an error, never a response
	IncompleteDetails *incompleteDetails `json:"incomplete_details"`
	Instructions      *string            `json:"instructions"`
	MaxOutputTokens   int                `json:"max_output_tokens"`
	Model             string             `json:"model"`
	Output            []any              `json:"output"` // messageItem, functionCallItem
	ParallelToolCalls bool               `json:"parallel_tool_calls"`
	Store             bool               `json:"store"`
	Temperature       *float64           `json:"temperature"`
	Text              responseText       `json:"text"`
	ToolChoice        any                `json:"tool_choice"`
	Tools             []responseTool     `json:"tools"`
	TopP              *float64           `json:"top_p"`
	Truncation        string             `json:"truncation"`
	Usage             *ResponseUsage     `json:"usage"`
	Metadata          map[string]string  `json:"metadata"`
}

type incompleteDetails struct {
	Reason string `json:"reason"`
}

type responseText struct {
	Format    responseFormat `json:"format"`
	Verbosity string         `json:"verbosity,omitempty"`
}

type responseFormat struct {
	Type        string          `json:"type"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

type responseTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

type messageItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Status  string `json:"status"`
	Role    string `json:"role"`
	Content []any  `json:"content"` // outputText, refusalPart
}

type functionCallItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
}

type outputText struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
	Logprobs    []struct{} `json:"logprobs"`
}

type refusalPart struct {
	Type    string `json:"type"`
	Refusal string `json:"refusal"`
}

func newOutputText(text string) outputText {
	return outputText{Type: "output_text", Text: text, Annotations: []struct{}{}, Logprobs: []struct{}{}}
}

// ResponseUsage is usage in the Responses API's names: input_tokens holds
// every input bucket, cached_tokens the cache reads among them;
// output_tokens holds the reasoning, which its details name (as
// Chat Completions counts).
type ResponseUsage struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int `json:"total_tokens"`
}

func responseUsage(u Usage) *ResponseUsage {
	r := &ResponseUsage{InputTokens: u.AllInput(), OutputTokens: u.OutputTokens, TotalTokens: u.Total()}
	r.InputTokensDetails.CachedTokens = u.CacheReadInputTokens
	r.OutputTokensDetails.ReasoningTokens = u.ReasoningTokens
	return r
}

// newResponse is the response to req before its output: status
// in_progress, the request's settings repeated as OpenAI repeats them.
func newResponse(req *Request, msgID, model string, now time.Time) Response {
	r := Response{ID: "resp_" + strings.TrimPrefix(msgID, "msg_"), Object: "response", CreatedAt: now.Unix(), Status: "in_progress",
		MaxOutputTokens: req.MaxTokens, Model: model, Output: []any{}, ParallelToolCalls: true,
		Temperature: req.Temperature, TopP: req.TopP, Truncation: "disabled", Tools: []responseTool{}, ToolChoice: "auto",
		Text: responseText{Format: responseFormat{Type: "text"}, Verbosity: req.Verbosity}, Metadata: map[string]string{}}
	if req.Echo != nil {
		r.Instructions = req.Echo.Instructions
		if req.Echo.Metadata != nil {
			r.Metadata = req.Echo.Metadata
		}
	}
	for _, t := range req.Tools {
		r.Tools = append(r.Tools, responseTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.InputSchema, Strict: t.Strict})
	}
	if tc := req.ToolChoice; tc != nil {
		r.ParallelToolCalls = !tc.DisableParallel
		switch tc.Type {
		case "any":
			r.ToolChoice = "required"
		case "tool":
			r.ToolChoice = map[string]string{"type": "function", "name": tc.Name}
		default:
			r.ToolChoice = tc.Type
		}
	}
	if f := req.Format; f != nil {
		r.Text.Format = responseFormat{Type: f.Type, Name: f.Name, Description: f.Description, Schema: f.Schema, Strict: f.Strict}
	}
	return r
}

// finish sets the response's end: completed, or incomplete when the
// answer was cut at max_output_tokens; and its usage.
func (r *Response) finish(stop string, u Usage) {
	r.Status = "completed"
	if stop == StopMaxTokens {
		r.Status, r.IncompleteDetails = "incomplete", &incompleteDetails{Reason: "max_output_tokens"}
	}
	r.Usage = responseUsage(u)
}

// NewResponse is msg, the answer to req, as a response object. An answer
// the model refused (stop_reason refusal) is a refusal part.
func NewResponse(req *Request, msg *Message, now time.Time) Response {
	r := newResponse(req, msg.ID, msg.Model, now)
	refused := msg.StopReason == StopRefusal
	for _, b := range msg.Content {
		switch {
		case b.Type == BlockText && refused:
			r.Output = append(r.Output, newMessageItem("completed", refusalPart{Type: "refusal", Refusal: b.Text}))
		case b.Type == BlockText:
			r.Output = append(r.Output, newMessageItem("completed", newOutputText(b.Text)))
		case b.Type == BlockToolUse:
			r.Output = append(r.Output, functionCallItem{Type: "function_call", ID: newItemID("fc_"), CallID: b.ID,
				Name: b.Name, Arguments: string(b.Input), Status: "completed"})
		}
	}
	if refused && len(r.Output) == 0 {
		r.Output = append(r.Output, newMessageItem("completed", refusalPart{Type: "refusal", Refusal: ""}))
	}
	r.finish(msg.StopReason, msg.Usage)
	return r
}

func newMessageItem(status string, parts ...any) messageItem {
	return messageItem{Type: "message", ID: newItemID("msg_"), Status: status, Role: "assistant", Content: append([]any{}, parts...)}
}

// newItemID is an output item's id: the answer's items have none of
// their own (a tool call's id is the item's call_id).
func newItemID(prefix string) string {
	return prefix + rand.Text()
}
