package gateway

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A tool loop as the openai SDK sends it back (the answer's output items
// pushed onto input, then the function's output) reads into the neutral
// turns: instructions and system messages the system prompt, the
// assistant's message and its function call one turn, the output a
// tool_result under the call's id; images, PDFs, tools, tool_choice,
// text.format and reasoning.effort read as Chat Completions' do.
func TestParseResponsesRequest(t *testing.T) {
	req, err := ParseResponsesRequest([]byte(`{"model":"gpt-x","instructions":"Be brief.","max_output_tokens":3000,"temperature":1.5,"top_p":0.9,
		"user":"u-1","stream":true,"store":true,"metadata":{"k":"v"},"prompt_cache_key":"c","include":["reasoning.encrypted_content"],"truncation":"disabled",
		"reasoning":{"effort":"low","summary":"auto"},"text":{"verbosity":"low"},"parallel_tool_calls":false,
		"tools":[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":true}],
		"tool_choice":{"type":"function","name":"get_weather"},
		"input":[{"role":"developer","content":"Use tools."},
		 {"role":"user","content":[{"type":"input_text","text":"Weather here?"},{"type":"input_image","image_url":"https://example.com/a.png","detail":"low"},
		   {"type":"input_file","filename":"a.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjQK"}]},
		 {"type":"reasoning","id":"rs_1","summary":[]},
		 {"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Checking.","annotations":[],"logprobs":[]},{"type":"output_text","text":" "}]},
		 {"role":"assistant","content":""},
		 {"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"},
		 {"type":"function_call_output","call_id":"call_1","output":"sunny"},
		 {"role":"user","content":"Thanks"}]}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "gpt-x" || req.MaxTokens != 3000 || *req.Temperature != 1.5 || *req.TopP != 0.9 || req.System != "Be brief.\n\nUse tools." ||
		req.Metadata.UserID != "u-1" || !req.Stream || req.Verbosity != "low" || *req.Echo.Instructions != "Be brief." || req.Echo.Metadata["k"] != "v" {
		t.Errorf("parsed %+v", req)
	}
	if req.Reasoning == nil || req.Reasoning.Effort != "low" || req.Reasoning.BudgetTokens != 2048 {
		t.Errorf("reasoning %+v", req.Reasoning)
	}
	if len(req.Tools) != 1 || req.Tools[0].Name != "get_weather" || !*req.Tools[0].Strict ||
		*req.ToolChoice != (ToolChoice{Type: "tool", Name: "get_weather", DisableParallel: true}) {
		t.Errorf("tools %+v, tool_choice %+v", req.Tools, req.ToolChoice)
	}
	turns, _ := json.Marshal(req.Messages)
	want := `[{"role":"user","content":[{"type":"text","text":"Weather here?"},{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}},` +
		`{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjQK"},"title":"a.pdf"}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":[{"type":"text","text":"sunny"}]},{"type":"text","text":"Thanks"}]}]`
	if string(turns) != want {
		t.Errorf("turns\n%s\nwant\n%s", turns, want)
	}

	req, err = ParseResponsesRequest([]byte(`{"input":"Hi","text":{"format":{"type":"json_schema","name":"person","strict":true,"schema":{"type":"object","properties":{"b":{},"a":{}}}}}}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "default-model" || req.MaxTokens != 1024 || req.Messages[0].Content != "Hi" || req.Format.Type != "json_schema" ||
		req.Format.Name != "person" || string(req.Format.Schema) != `{"type":"object","properties":{"b":{},"a":{}}}` || req.Echo.Instructions != nil {
		t.Errorf("parsed %+v, format %+v", req, req.Format)
	}
}

// What this gateway cannot honour is refused by name, stored state above
// all: each call must send its whole input.
func TestParseResponsesRefusals(t *testing.T) {
	for body, want := range map[string]string{
		`{"input":"x","previous_response_id":"resp_1"}`:                                                           `"previous_response_id" is not supported: this gateway stores no responses`,
		`{"input":"x","conversation":"conv_1"}`:                                                                   `"conversation" is not supported`,
		`{"input":"x","background":true}`:                                                                         `"background" is not supported`,
		`{"input":"x","prompt":{"id":"pmpt_1"}}`:                                                                  `"prompt" is not supported`,
		`{"input":[{"type":"item_reference","id":"msg_1"}]}`:                                                      `input[0].type "item_reference" is not supported: this gateway stores no items`,
		`{"input":"x","tools":[{"type":"web_search"}]}`:                                                           `tools[0].type "web_search" is not supported: this gateway relays function tools only`,
		`{"input":"x","tools":[{"type":"mcp","server_label":"x"}]}`:                                               `tools[0].type "mcp" is not supported`,
		`{"input":"x","tools":[{"type":"function","function":{"name":"f"}}]}`:                                     `unknown field "tools[0].function"`,
		`{"input":"x","tool_choice":{"type":"web_search_preview"}}`:                                               `tool_choice must be "auto", "none", "required" or {"type":"function","name"}`,
		`{"input":"x","top_logprobs":5}`:                                                                          `"top_logprobs" is not supported`,
		`{"input":"x","service_tier":"priority"}`:                                                                 `"service_tier" is not supported`,
		`{"input":"x","include":["message.output_text.logprobs"]}`:                                                `include[0] "message.output_text.logprobs" is not supported`,
		`{"input":"x","truncation":"auto"}`:                                                                       `truncation must be "disabled"`,
		`{"input":"x","temperature":2.5}`:                                                                         "temperature must be a number between 0 and 2",
		`{"input":"x","max_output_tokens":0}`:                                                                     "max_output_tokens must be a positive integer",
		`{"input":"x","reasoning":{"effort":"low"},"max_output_tokens":1000}`:                                     "reasoning.effort needs max_output_tokens above 1024",
		`{"input":"x","text":{"format":{"type":"json_schema","name":"p"}}}`:                                       "text.format.schema is required",
		`{"input":"x","text":{"format":{"type":"grammar"}}}`:                                                      `text.format.type must be "text", "json_object" or "json_schema"`,
		`{"input":"x","text":{"verbosity":"loud"}}`:                                                               `text.verbosity must be "low", "medium" or "high"`,
		`{"input":"x","frequency_penalty":1}`:                                                                     `unknown field "frequency_penalty"`,
		`{"input":""}`:                                                                                            "input must be a non-empty string or a non-empty array of items",
		`{"model":"m"}`:                                                                                           "input is required",
		`{"input":[{"role":"system","content":"only a system prompt"}]}`:                                          "input must hold at least one user or assistant message",
		`{"input":[{"type":"web_search_call","id":"ws_1"}]}`:                                                      `input[0].type "web_search_call" is not supported`,
		`{"input":[{"role":"user","content":[{"type":"input_image","file_id":"file_1"}]}]}`:                       `input[0].content[0].file_id is not supported`,
		`{"input":[{"role":"user","content":[{"type":"input_image","image_url":"http://x/a.png"}]}]}`:             `input[0].content[0].image_url must be a data URL`,
		`{"input":[{"role":"user","content":[{"type":"input_file","file_url":"https://x/a.pdf"}]}]}`:              `input[0].content[0].file_url is not supported`,
		`{"input":[{"role":"user","content":[{"type":"output_text","text":"x"}]}]}`:                               `input[0].content[0].type "output_text" is not supported in a user message`,
		`{"input":[{"type":"function_call","call_id":"c 1","name":"f","arguments":"{}"}]}`:                        "input[0].call_id must be 1 to 256",
		`{"input":[{"type":"function_call","call_id":"c1","name":"f","arguments":"[1]"}]}`:                        "input[0].arguments must be a string holding a JSON object",
		`{"input":[{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image"}]}]}`:            "input[0].output[0] must be an input_text part",
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call_output","call_id":"c1","output":"ok"}]}`: "the function_call_output with call_id \"c1\" comes before any call it could answer",
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c2","output":"ok"}]}`:                                                                     "the function_call_output with call_id \"c2\" answers no call",
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]}`:                                                                                                                                  "input: the function_call call_id \"c1\" has no function_call_output after it",
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"ok"}]}`: "input: the function_call call_id \"c1\" is given twice",
		`{"input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"ok"},{"type":"function_call_output","call_id":"c1","output":"ok"}]}`:        "answers no call of the assistant turn just before it (or one answered already)",
		`{"input":"x","user":"a\u0000b"}`: "user must not contain control characters",
	} {
		_, err := ParseResponsesRequest([]byte(body), testDefaults)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	// The limits every dialect has: tools, images and documents, max tokens.
	tools := strings.Repeat(`{"type":"function","name":"f"},`, MaxTools+1)
	if _, err := ParseResponsesRequest([]byte(`{"input":"x","tools":[`+strings.TrimSuffix(tools, ",")+`]}`), testDefaults); err == nil ||
		!strings.Contains(err.Error(), "tools must have at most 128 entries") {
		t.Errorf("%d tools: %v", MaxTools+1, err)
	}
	images := strings.Repeat(`{"type":"input_image","image_url":"https://example.com/a.png"},`, MaxImages+1)
	if _, err := ParseResponsesRequest([]byte(`{"input":[{"role":"user","content":[`+strings.TrimSuffix(images, ",")+`]}]}`), testDefaults); err == nil ||
		!strings.Contains(err.Error(), "at most") {
		t.Errorf("%d images: %v", MaxImages+1, err)
	}
	if req, err := ParseResponsesRequest([]byte(`{"input":"x","max_output_tokens":64000}`), testDefaults); err != nil || req.MaxTokens != testDefaults.MaxTokensCap {
		t.Errorf("max_output_tokens above the cap: %v", err)
	}
	// A messages-style provider's refusals name the Responses fields.
	messages := testDefaults
	messages.Style = StyleMessages
	for body, want := range map[string]string{
		`{"model":"claude-sonnet-4-5","input":"x","text":{"format":{"type":"json_object"}},"tools":[{"type":"function","name":"f"}]}`:              "text.format with tools is not supported",
		`{"model":"claude-sonnet-4-5","input":"x","text":{"format":{"type":"json_object"}},"reasoning":{"effort":"low"},"max_output_tokens":4000}`: "text.format with reasoning.effort is not supported",
	} {
		if _, err := ParseResponsesRequest([]byte(body), messages); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	// Options sent at the value that asks for nothing are accepted.
	if _, err := ParseResponsesRequest([]byte(`{"input":"x","top_logprobs":0,"service_tier":"auto","tool_choice":"none","text":{"format":{"type":"text"}},"reasoning":{"effort":"none"},"stream_options":{"include_obfuscation":false}}`), testDefaults); err != nil {
		t.Errorf("no-op options: %v", err)
	}
}

// The answer: a message item per text block, a function_call item per
// tool call (its call_id the provider's id), usage in the Responses
// names, and the request's settings repeated.
func TestNewResponse(t *testing.T) {
	req, err := ParseResponsesRequest([]byte(`{"model":"m","instructions":"Be brief.","max_output_tokens":500,"temperature":0.5,"metadata":{"k":"v"},
		"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}],"tool_choice":"required","parallel_tool_calls":false,"input":"Hi"}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	msg := &Message{ID: "msg_01A", Model: "claude-x", StopReason: StopToolUse, Content: []ContentBlock{
		{Type: BlockThinking, Thinking: "hmm", Signature: "sig"},
		{Type: BlockText, Text: "Checking."},
		{Type: BlockToolUse, ID: "toolu_1", Name: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
	}, Usage: Usage{InputTokens: 10, CacheReadInputTokens: 30, CacheCreationInputTokens: 5, OutputTokens: 20, ReasoningTokens: 4}}
	b, _ := json.Marshal(NewResponse(req, msg, time.Unix(1700000000, 0)))
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	out := got["output"].([]any)
	m, fc := out[0].(map[string]any), out[1].(map[string]any)
	if len(out) != 2 || !strings.HasPrefix(m["id"].(string), "msg_") || !strings.HasPrefix(fc["id"].(string), "fc_") {
		t.Fatalf("output %v", out)
	}
	m["id"], fc["id"] = "msg_X", "fc_X"
	want := `{"id":"resp_01A","object":"response","created_at":1700000000,"status":"completed","error":null,"incomplete_details":null,` +
		`"instructions":"Be brief.","max_output_tokens":500,"model":"claude-x","output":[` +
		`{"type":"message","id":"msg_X","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Checking.","annotations":[],"logprobs":[]}]},` +
		`{"type":"function_call","id":"fc_X","call_id":"toolu_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}],` +
		`"parallel_tool_calls":false,"store":false,"temperature":0.5,"text":{"format":{"type":"text"}},"tool_choice":"required",` +
		`"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"},"strict":null}],"top_p":null,"truncation":"disabled",` +
		`"usage":{"input_tokens":45,"input_tokens_details":{"cached_tokens":30},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":4},"total_tokens":65},` +
		`"metadata":{"k":"v"}}`
	var wantV map[string]any
	_ = json.Unmarshal([]byte(want), &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("response\n%s\nwant\n%s", b, want)
	}

	cut := NewResponse(req, &Message{ID: "msg_2", StopReason: StopMaxTokens, Content: []ContentBlock{{Type: BlockText, Text: "Once upon"}}}, time.Now())
	if cut.Status != "incomplete" || cut.IncompleteDetails.Reason != "max_output_tokens" {
		t.Errorf("cut at max tokens: %s %+v", cut.Status, cut.IncompleteDetails)
	}
	refused := NewResponse(req, &Message{ID: "msg_3", StopReason: StopRefusal, Content: []ContentBlock{{Type: BlockText, Text: "I can't help with that."}}}, time.Now())
	if p := refused.Output[0].(messageItem).Content[0]; refused.Status != "completed" || p != (refusalPart{Type: "refusal", Refusal: "I can't help with that."}) {
		t.Errorf("refusal: %s %+v", refused.Status, p)
	}
}

// A stream with thinking, text and a tool call: the thinking is left
// out, the text is a message item, the call a function_call item whose
// arguments come in fragments; every event is named by its type and
// numbered in order; the last is response.completed with the whole
// response, its items the ones streamed.
func TestResponseStream(t *testing.T) {
	req, err := ParseResponsesRequest([]byte(`{"input":"Hi","stream":true}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s := NewResponseStream(NewSSEWriter(rec), req, time.Unix(1700000000, 0))
	u := Usage{InputTokens: 12, OutputTokens: 30}
	for _, ev := range []Event{
		{Type: EventMessageStart, Message: &Message{ID: "msg_s1", Model: "m"}},
		{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockThinking}},
		{Type: EventContentBlockDelta, DeltaType: DeltaThinking, Text: "hmm"},
		{Type: EventContentBlockStop},
		{Type: EventContentBlockStart, Index: 1, Block: &ContentBlock{Type: BlockText}},
		{Type: EventContentBlockDelta, Index: 1, Text: "Let me "},
		{Type: EventContentBlockDelta, Index: 1, Text: "check."},
		{Type: EventContentBlockStop, Index: 1},
		{Type: EventPing},
		{Type: EventContentBlockStart, Index: 2, Block: &ContentBlock{Type: BlockToolUse, ID: "call_9", Name: "get_weather"}},
		{Type: EventContentBlockDelta, Index: 2, DeltaType: DeltaInputJSON, Text: `{"city":`},
		{Type: EventContentBlockDelta, Index: 2, DeltaType: DeltaInputJSON, Text: `"Paris"}`},
		{Type: EventContentBlockStop, Index: 2},
		{Type: EventMessageDelta, StopReason: StopToolUse, Usage: &u},
		{Type: EventMessageStop},
	} {
		if err := s.Send(ev); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	var events []map[string]any
	for i, chunk := range strings.Split(strings.TrimSpace(rec.Body.String()), "\n\n") {
		name, data, _ := strings.Cut(strings.TrimPrefix(chunk, "event: "), "\ndata: ")
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev["type"] != name || ev["sequence_number"] != float64(i) {
			t.Fatalf("event %d: %q", i, chunk)
		}
		names, events = append(names, name), append(events, ev)
	}
	want := []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
		"response.function_call_arguments.done", "response.output_item.done", "response.completed"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events %v\nwant %v", names, want)
	}
	created := events[0]["response"].(map[string]any)
	if created["id"] != "resp_s1" || created["status"] != "in_progress" || len(created["output"].([]any)) != 0 || created["usage"] != nil {
		t.Errorf("response.created %v", created)
	}
	msgID := events[2]["item"].(map[string]any)["id"]
	if d := events[4]; d["item_id"] != msgID || d["output_index"] != 0.0 || d["content_index"] != 0.0 || d["delta"] != "Let me " {
		t.Errorf("text delta %v", d)
	}
	if d := events[6]; d["text"] != "Let me check." {
		t.Errorf("output_text.done %v", d)
	}
	added := events[9]["item"].(map[string]any)
	if events[9]["output_index"] != 1.0 || added["call_id"] != "call_9" || added["name"] != "get_weather" || added["arguments"] != "" || added["status"] != "in_progress" {
		t.Errorf("function_call added %v", events[9])
	}
	if d := events[12]; d["item_id"] != added["id"] || d["arguments"] != `{"city":"Paris"}` || d["output_index"] != 1.0 {
		t.Errorf("arguments.done %v", d)
	}
	final := events[14]["response"].(map[string]any)
	out := final["output"].([]any)
	usage := final["usage"].(map[string]any)
	if final["status"] != "completed" || len(out) != 2 || out[0].(map[string]any)["id"] != msgID || out[1].(map[string]any)["id"] != added["id"] ||
		out[1].(map[string]any)["arguments"] != `{"city":"Paris"}` || usage["input_tokens"] != 12.0 || usage["total_tokens"] != 42.0 {
		t.Errorf("response.completed %v", final)
	}
	text := out[0].(map[string]any)["content"].([]any)[0].(map[string]any)
	if text["text"] != "Let me check." {
		t.Errorf("the final message %v", text)
	}
}

// A stream cut at max_output_tokens ends with response.incomplete; an
// error after the stream started ends it with an error event OpenAI's
// SDKs read: its code and message flat, and under error.
func TestResponseStreamIncompleteAndError(t *testing.T) {
	req, _ := ParseResponsesRequest([]byte(`{"input":"Hi","stream":true}`), testDefaults)
	rec := httptest.NewRecorder()
	s := NewResponseStream(NewSSEWriter(rec), req, time.Now())
	for _, ev := range []Event{{Type: EventMessageStart, Message: &Message{ID: "msg_1", Model: "m"}},
		{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockText}}, {Type: EventContentBlockDelta, Text: "Once"},
		{Type: EventContentBlockStop}, {Type: EventMessageDelta, StopReason: StopMaxTokens, Usage: &Usage{OutputTokens: 1}}, {Type: EventMessageStop}} {
		_ = s.Send(ev)
	}
	if !strings.Contains(rec.Body.String(), `event: response.incomplete`+"\n"+`data: {"type":"response.incomplete","sequence_number":8,"response":{`) ||
		!strings.Contains(rec.Body.String(), `"status":"incomplete","error":null,"incomplete_details":{"reason":"max_output_tokens"}`) {
		t.Errorf("cut stream:\n%s", rec.Body)
	}
	_ = s.SendError(&Error{Status: 502, Code: CodeUpstreamError, Message: "the upstream failed"}, "req-1")
	last := rec.Body.String()[strings.LastIndex(rec.Body.String(), "event: "):]
	want := "event: error\ndata: " + `{"type":"error","sequence_number":9,"code":"upstream_error","message":"the upstream failed","param":null,` +
		`"error":{"message":"the upstream failed","type":"server_error","param":null,"code":"upstream_error","request_id":"req-1"}}` + "\n\n"
	if last != want {
		t.Errorf("error event %q\nwant %q", last, want)
	}
}
