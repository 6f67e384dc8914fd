package gateway

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

var testDefaults = Defaults{Model: "default-model", MaxTokens: 1024, MaxTokensCap: 4096}

func TestParseChatRequestValid(t *testing.T) {
	temp := 0.5
	tests := []struct {
		name string
		body string
		want Request
	}{
		{"defaults applied",
			`{"messages":[{"role":"user","content":"Hi"}]}`,
			Request{Model: "default-model", MaxTokens: 1024, Messages: []ChatMessage{{Role: "user", Content: "Hi"}}}},
		{"every field",
			`{"model":"m","max_tokens":4096,"system":"Be brief.","temperature":0.5,"stop_sequences":["END","\n\n"],
			  "stream":true,"metadata":{"user_id":"u-1"},
			  "messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Again"}]}`,
			Request{Model: "m", MaxTokens: 4096, System: "Be brief.", Temperature: &temp,
				StopSequences: []string{"END", "\n\n"}, Stream: true, Metadata: Metadata{UserID: "u-1"},
				Messages: []ChatMessage{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hello"}, {Role: "user", Content: "Again"}}}},
		{"nulls count as absent",
			`{"messages":[{"role":"user","content":"Hi"}],"model":null,"max_tokens":null,"system":null,"temperature":null,"stop_sequences":null,"stream":null,"metadata":null}`,
			Request{Model: "default-model", MaxTokens: 1024, Messages: []ChatMessage{{Role: "user", Content: "Hi"}}}},
		{"boundaries",
			`{"messages":[{"role":"user","content":"Hi"}],"max_tokens":1,"temperature":0,"metadata":{}}`,
			Request{Model: "default-model", MaxTokens: 1, Temperature: new(0.0), Messages: []ChatMessage{{Role: "user", Content: "Hi"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseChatRequest([]byte(tt.body), testDefaults)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

// invalidCase is a body and the exact message it must be refused with.
type invalidCase struct{ body, message string }

var chatInvalid = []invalidCase{
	{``, `request body is not valid JSON`},
	{`{"messages":`, `request body is not valid JSON`},
	{`{"messages":[]} {}`, `request body is not valid JSON`},
	{`[]`, `request body must be a JSON object`},
	{`"hi"`, `request body must be a JSON object`},
	{`null`, `request body must be a JSON object`},
	{`{}`, `messages is required`},
	{`{"messages":null}`, `messages is required`},
	{`{"messages":"hi"}`, `messages must be an array`},
	{`{"messages":[]}`, `messages must not be empty`},
	{`{"messages":["hi"]}`, `messages[0] must be an object`},
	{`{"messages":[{"role":"user","content":"a"},{"role":"system","content":"b"}]}`, `messages[1].role must be "user" or "assistant"`},
	{`{"messages":[{"content":"a"}]}`, `messages[0].role must be "user" or "assistant"`},
	{`{"messages":[{"role":1,"content":"a"}]}`, `messages[0].role must be "user" or "assistant"`},
	{`{"messages":[{"role":"user"}]}`, `messages[0].content is required`},
	{`{"messages":[{"role":"user","content":""}]}`, `messages[0].content must be a non-empty string`},
	{`{"messages":[{"role":"user","content":"  \n"}]}`, `messages[0].content must be a non-empty string`},
	{`{"messages":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`, `messages[0].content must be a non-empty string`},
	{`{"messages":[{"role":"user","content":"a","name":"bob"}]}`, `unknown field "messages[0].name"`},
	{`{"messages":[{"role":"user","content":"a"}],"foo":1}`, `unknown field "foo"`},
	{`{"messages":[{"role":"user","content":"a"}],"zeta":1,"alpha":2}`, `unknown field "alpha"`},
	{`{"messages":[{"role":"user","content":"a"}],"top_p":0.5}`, `unknown field "top_p"`},
	{`{"messages":[{"role":"user","content":"a"}],"model":""}`, `model must be a non-empty string of at most 256 characters without surrounding spaces`},
	{`{"messages":[{"role":"user","content":"a"}],"model":7}`, `model must be a non-empty string of at most 256 characters without surrounding spaces`},
	{`{"messages":[{"role":"user","content":"a"}],"model":" m"}`, `model must be a non-empty string of at most 256 characters without surrounding spaces`},
	{`{"messages":[{"role":"user","content":"a"}],"model":"` + strings.Repeat("m", 257) + `"}`, `model must be a non-empty string of at most 256 characters without surrounding spaces`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":0}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":-1}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":10.5}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":1e3}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":"100"}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"max_tokens":99999999999999999999999}`, `max_tokens must be a positive integer`},
	{`{"messages":[{"role":"user","content":"a"}],"system":["a"]}`, `system must be a string`},
	{`{"messages":[{"role":"user","content":"a"}],"temperature":1.01}`, `temperature must be a number between 0 and 1`},
	{`{"messages":[{"role":"user","content":"a"}],"temperature":-0.1}`, `temperature must be a number between 0 and 1`},
	{`{"messages":[{"role":"user","content":"a"}],"temperature":"0.5"}`, `temperature must be a number between 0 and 1`},
	{`{"messages":[{"role":"user","content":"a"}],"stop_sequences":"END"}`, `stop_sequences must be an array of strings`},
	{`{"messages":[{"role":"user","content":"a"}],"stop_sequences":["a","b","c","d","e"]}`, `stop_sequences must have at most 4 entries`},
	{`{"messages":[{"role":"user","content":"a"}],"stop_sequences":["a",""]}`, `stop_sequences[1] must be a non-empty string`},
	{`{"messages":[{"role":"user","content":"a"}],"stop_sequences":[1]}`, `stop_sequences[0] must be a non-empty string`},
	{`{"messages":[{"role":"user","content":"a"}],"stream":"yes"}`, `stream must be a boolean`},
	{`{"messages":[{"role":"user","content":"a"}],"metadata":"u"}`, `metadata must be an object`},
	{`{"messages":[{"role":"user","content":"a"}],"metadata":{"user":"u"}}`, `unknown field "metadata.user"`},
	{`{"messages":[{"role":"user","content":"a"}],"metadata":{"user_id":5}}`, `metadata.user_id must be a string of at most 256 characters`},
}

func TestParseChatRequestInvalid(t *testing.T) {
	for _, tt := range chatInvalid {
		t.Run(tt.message, func(t *testing.T) {
			_, err := ParseChatRequest([]byte(tt.body), testDefaults)
			assertInvalid(t, err, tt.message)
		})
	}
}

func TestParseChatRequestWithoutDefaultModel(t *testing.T) {
	_, err := ParseChatRequest([]byte(`{"messages":[{"role":"user","content":"a"}]}`), Defaults{MaxTokens: 1, MaxTokensCap: 1})
	assertInvalid(t, err, "model is required")
}

func assertInvalid(t *testing.T, err error, message string) {
	t.Helper()
	e, ok := errors.AsType[*Error](err)
	if !ok {
		t.Fatalf("got %v (%T), want an *Error", err, err)
	}
	if e.Status != 400 || e.Code != "invalid_request" || e.Message != message {
		t.Errorf("got %d %s %q\nwant 400 invalid_request %q", e.Status, e.Code, e.Message, message)
	}
}

func TestParseMessagesRequestValid(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Request
	}{
		{"string content",
			`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Hello, Claude"}]}`,
			Request{Model: "claude-sonnet-4-5", MaxTokens: 1024, Messages: []ChatMessage{{Role: "user", Content: "Hello, Claude"}}}},
		{"text blocks, system blocks, sampling options",
			`{"model":"m","max_tokens":10,"stream":true,"temperature":1,"top_p":0.9,"top_k":40,
			  "stop_sequences":["###"],"metadata":{"user_id":"13803d75"},
			  "system":[{"type":"text","text":"You are terse."},{"type":"text","text":"Answer in French.","cache_control":{"type":"ephemeral"}}],
			  "messages":[{"role":"user","content":[{"type":"text","text":"Part one."},{"type":"text","text":"Part two."}]},
			              {"role":"assistant","content":"Bonjour"}]}`,
			Request{Model: "m", MaxTokens: 10, Stream: true, Temperature: new(1.0), TopP: new(0.9), TopK: new(40),
				StopSequences: []string{"###"}, Metadata: Metadata{UserID: "13803d75"},
				System: "You are terse.\n\nAnswer in French.",
				SystemBlocks: []ContentBlock{{Type: BlockText, Text: "You are terse."},
					{Type: BlockText, Text: "Answer in French.", CacheControl: json.RawMessage(`{"type":"ephemeral"}`)}},
				Messages: []ChatMessage{{Role: "user", Content: "Part one.\n\nPart two.",
					Blocks: []ContentBlock{{Type: BlockText, Text: "Part one."}, {Type: BlockText, Text: "Part two."}}},
					{Role: "assistant", Content: "Bonjour"}}}},
		{"empty system means none",
			`{"model":"m","max_tokens":10,"system":"","messages":[{"role":"user","content":"a"}]}`,
			Request{Model: "m", MaxTokens: 10, Messages: []ChatMessage{{Role: "user", Content: "a"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMessagesRequest([]byte(tt.body), testDefaults)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

func TestParseMessagesRequestInvalid(t *testing.T) {
	const ok = `"model":"m","max_tokens":10`
	tests := []invalidCase{
		{`{"max_tokens":10,"messages":[{"role":"user","content":"a"}]}`, `model is required`},
		{`{"model":"m","messages":[{"role":"user","content":"a"}]}`, `max_tokens is required`},
		{`{` + ok + `}`, `messages is required`},
		{`{` + ok + `,"messages":[{"role":"user","content":[]}]}`, `messages[0].content must be a non-empty string or a non-empty array of content blocks`},
		{`{` + ok + `,"messages":[{"role":"user","content":""}]}`, `messages[0].content must be a non-empty string or a non-empty array of content blocks`},
		{`{` + ok + `,"messages":[{"role":"user","content":{"type":"text"}}]}`, `messages[0].content must be a non-empty string or a non-empty array of content blocks`},
		{`{` + ok + `,"messages":[{"role":"user","content":["a"]}]}`, `messages[0].content[0] must be an object`},
		{`{` + ok + `,"messages":[{"role":"user","content":[{"text":"a"}]}]}`, `messages[0].content[0].type is required`},
		{`{` + ok + `,"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}]}]}`,
			`messages[0].content[1].source.data must be base64 of at most 20971520 bytes`},
		{`{` + ok + `,"messages":[{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]}`,
			`messages[0].content[0].type "tool_result" is not allowed in a assistant turn`},
		{`{` + ok + `,"messages":[{"role":"user","content":[{"type":"server_tool_use","id":"t"}]}]}`,
			`messages[0].content[0].type "server_tool_use" is not supported: this gateway relays text, image, document, tool_use, tool_result and thinking blocks`},
		{`{` + ok + `,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`, `messages[0].content[0].text must be a non-empty string`},
		{`{` + ok + `,"messages":[{"role":"user","content":[{"type":"text","text":"a","cites":[]}]}]}`, `unknown field "messages[0].content[0].cites"`},
		{`{` + ok + `,"system":7,"messages":[{"role":"user","content":"a"}]}`, `system must be a string or an array of text blocks`},
		{`{` + ok + `,"system":[{"type":"image"}],"messages":[{"role":"user","content":"a"}]}`, `system[0].type "image" is not supported: the system prompt is text blocks`},
		{`{` + ok + `,"top_p":2,"messages":[{"role":"user","content":"a"}]}`, `top_p must be a number between 0 and 1`},
		{`{` + ok + `,"top_k":-1,"messages":[{"role":"user","content":"a"}]}`, `top_k must be a non-negative integer`},
		{`{` + ok + `,"tools":[{"type":"web_search_20250305","name":"web_search"}],"messages":[{"role":"user","content":"a"}]}`, `tools[0].type "web_search_20250305" is not supported: this gateway relays client tools only (server tools such as web search are not)`},
		{`{` + ok + `,"thinking":{"type":"enabled","budget_tokens":1024},"messages":[{"role":"user","content":"a"}]}`, `thinking.budget_tokens must be below max_tokens, which must be above 1024`},
		{`{` + ok + `,"mcp_servers":[{}],"messages":[{"role":"user","content":"a"}]}`, `"mcp_servers" is not supported: this gateway relays the Messages API's client features only`},
		{`{` + ok + `,"frobnicate":true,"messages":[{"role":"user","content":"a"}]}`, `unknown field "frobnicate"`},
		{`{"model":"m","max_tokens":0,"messages":[{"role":"user","content":"a"}]}`, `max_tokens must be a positive integer`},
	}
	for _, tt := range tests {
		t.Run(tt.message, func(t *testing.T) {
			_, err := ParseMessagesRequest([]byte(tt.body), testDefaults)
			assertInvalid(t, err, tt.message)
		})
	}
}

// checkParsed holds for every request a parser accepts, whatever the input.
func checkParsed(t *testing.T, req *Request, err error) {
	if err != nil {
		if e, ok := errors.AsType[*Error](err); !ok || e.Status != 400 || e.Code != CodeInvalidRequest || e.Message == "" {
			t.Fatalf("error %v is not an invalid_request *Error", err)
		}
		return
	}
	if len(req.Messages) == 0 || req.Model == "" || req.MaxTokens < 1 || req.MaxTokens > testDefaults.MaxTokensCap ||
		len(req.StopSequences) > MaxStopSequences {
		t.Fatalf("accepted an invalid request: %+v", req)
	}
	for _, m := range req.Messages {
		if (m.Role != "user" && m.Role != "assistant") || strings.TrimSpace(m.Content) == "" {
			t.Fatalf("accepted an invalid message: %+v", m)
		}
	}
}

func FuzzParseChatRequest(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"user","content":"Hi"}],"max_tokens":10,"temperature":0.2,"stop_sequences":["x"],"metadata":{"user_id":"u"}}`))
	for _, c := range chatInvalid {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseChatRequest(body, testDefaults)
		checkParsed(t, req, err)
	})
}

func FuzzParseMessagesRequest(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":10,"system":[{"type":"text","text":"s"}],"messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}],"top_k":3}`))
	f.Add([]byte(`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"image"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseMessagesRequest(body, testDefaults)
		checkParsed(t, req, err)
	})
}

func FuzzParseCompletionsRequest(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_completion_tokens":10,"stop":"x","stream":true,"stream_options":{"include_usage":true},"user":"u",` +
		`"messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"Hi"}]}]}`))
	f.Add([]byte(`{"model":"m\u0000","messages":[{"role":"user","content":"x"}]}`))
	f.Add([]byte(`{"messages":[{"role":"system","content":"only a system prompt"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseCompletionsRequest(body, testDefaults)
		checkParsed(t, req, err)
		if err == nil && (hasUnsafe(req.Model) || hasUnsafe(req.Metadata.UserID)) {
			t.Fatalf("accepted control characters: %q %q", req.Model, req.Metadata.UserID)
		}
	})
}

func TestParseCompletionsRequest(t *testing.T) {
	req, err := ParseCompletionsRequest([]byte(`{"model":"gpt-x","max_tokens":7,"temperature":0.5,"stop":"END","user":"u-1",
		"stream":true,"stream_options":{"include_usage":true},
		"messages":[{"role":"system","content":"a"},{"role":"developer","content":[{"type":"text","text":"b"}]},{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "gpt-x" || req.MaxTokens != 7 || *req.Temperature != 0.5 || req.System != "a\n\nb" || len(req.Messages) != 2 ||
		req.StopSequences[0] != "END" || req.Metadata.UserID != "u-1" || !req.Stream || !req.IncludeUsage {
		t.Errorf("parsed %+v", req)
	}
	for body, want := range map[string]string{
		`{"messages":[{"role":"user","content":"x"}],"n":2}`:                                              "n must be 1",
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"custom"}]}`:                        `tools[0].type "custom" is not supported`,
		`{"messages":[{"role":"user","content":"x"}],"seed":1.5}`:                                         "seed must be an integer",
		`{"messages":[{"role":"tool","content":"x"}]}`:                                                    `messages[0].tool_call_id must be`,
		`{"messages":[{"role":"robot","content":"x"}]}`:                                                   `messages[0].role must be`,
		`{"messages":[{"role":"user","content":"x"}],"user":"a\u0000b"}`:                                  "user must not contain control characters",
		`{"messages":[{"role":"user","content":"x"}],"max_completion_tokens":0}`:                          "max_completion_tokens must be a positive integer",
		`{"messages":[{"role":"user","content":"x"}],"frequency_penalty":2.5}`:                            "frequency_penalty must be a number from -2 to 2",
		`{"messages":[{"role":"user","content":"x"}],"presence_penalty":"0"}`:                             "presence_penalty must be a number from -2 to 2",
		`{"messages":[{"role":"user","content":"x"}],"logit_bias":{"50256":-100}}`:                        "logit_bias must be empty",
		`{"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"a1","content":"ok"}]}`: "the tool message with tool_call_id \"a1\" comes before any call it could answer",
		`{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"a1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"x"}]}`:                                                                                                                                                                                    "messages: the tool call tool_call_id \"a1\" has no tool message after it",
		`{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"a1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a1","content":"ok"},{"role":"tool","tool_call_id":"a2","content":"ok"}]}`:                                                                                                            "the tool message with tool_call_id \"a2\" answers no call",
		`{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"a1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a1","content":"ok"},{"role":"assistant","tool_calls":[{"id":"a1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a1","content":"ok"}]}`: "messages: the tool call tool_call_id \"a1\" is given twice",
		`{"messages":[{"role":"user","content":"x"}],"store":true}`: "store must be false",
	} {
		_, err := ParseCompletionsRequest([]byte(body), testDefaults)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// Penalties and verbosity reach an openai-style provider as sent; a
// messages-style provider has no penalties, which is said when it is the
// only one, and a routed target of that style is sent none. A reasoning
// model is sent no penalties either, as no sampling setting.
func TestCompletionsPenaltiesAndVerbosity(t *testing.T) {
	body := []byte(`{"model":"gpt-4.1","messages":[{"role":"user","content":"x"}],"frequency_penalty":0.5,"presence_penalty":-1,"verbosity":"low"}`)
	openai := testDefaults
	openai.Style = StyleOpenAI
	req, err := ParseCompletionsRequest(body, openai)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := json.Marshal(openAIBody(req, false))
	if !strings.Contains(string(o), `"frequency_penalty":0.5,"presence_penalty":-1,"verbosity":"low"`) {
		t.Errorf("openai style: %s", o)
	}
	m, _ := json.Marshal((&messagesAdapter{}).body(req, false))
	if strings.Contains(string(m), "penalty") || strings.Contains(string(m), "verbosity") {
		t.Errorf("a routed messages-style target was sent them: %s", m)
	}
	req.Model = "gpt-5"
	if o, _ := json.Marshal(openAIBody(req, false)); strings.Contains(string(o), "penalty") || !strings.Contains(string(o), `"verbosity":"low"`) {
		t.Errorf("reasoning model: %s", o)
	}
	messages := testDefaults
	messages.Style = StyleMessages
	if _, err := ParseCompletionsRequest(body, messages); err == nil || !strings.Contains(err.Error(), "frequency_penalty and presence_penalty must be 0: this gateway's upstream (messages style) has no penalties") {
		t.Errorf("messages style: %v", err)
	}
	if _, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"frequency_penalty":0,"presence_penalty":0.0,"verbosity":"high"}`), messages); err != nil {
		t.Errorf("messages style, no penalties: %v", err)
	}
}

// Our plain /chat refuses tools by name, and every endpoint that takes
// tools refuses the same bad tool choice by name.
func TestToolsRefusedByNameEverywhere(t *testing.T) {
	for _, field := range []string{"tools", "tool_choice", "thinking"} {
		body := `{"model":"m","` + field + `":[],"messages":[{"role":"user","content":"x"}]}`
		if _, err := ParseChatRequest([]byte(body), testDefaults); err == nil || !strings.HasPrefix(err.Error(), "invalid_request: \""+field+"\" is not supported: /gateway/v1/chat is plain chat") {
			t.Errorf("chat, %s: %v", field, err)
		}
	}
	for name, body := range map[string]string{
		"messages":     `{"model":"m","max_tokens":5,"tool_choice":{"type":"tool","name":"f"},"messages":[{"role":"user","content":"x"}]}`,
		"count_tokens": `{"model":"m","tool_choice":{"type":"any"},"messages":[{"role":"user","content":"x"}]}`,
		"completions":  `{"model":"m","tool_choice":"required","messages":[{"role":"user","content":"x"}]}`,
	} {
		parse := map[string]func([]byte, Defaults) (*Request, error){"messages": ParseMessagesRequest, "count_tokens": ParseCountTokensRequest, "completions": ParseCompletionsRequest}[name]
		if _, err := parse([]byte(body), testDefaults); err == nil || err.Error() != "invalid_request: tool_choice asks for a tool call but tools is empty" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Format characters and line separators, which unicode.IsControl misses,
// are refused as control characters are in the fields that are recorded:
// a right-to-left override (U+202E), a zero-width space (U+200B), a line
// separator (U+2028) would fake or hide text in a log line or the console.
func TestRecordedFieldsRefuseFormatCharacters(t *testing.T) {
	for _, r := range []string{`\u202e`, `\u200b`, `\u2028`, `\u2029`, `\ufeff`, `\u0085`} {
		for field, body := range map[string]string{
			"model":            `{"model":"claude` + r + `x","max_tokens":5,"messages":[{"role":"user","content":"x"}]}`,
			"metadata.user_id": `{"model":"m","max_tokens":5,"metadata":{"user_id":"u` + r + `1"},"messages":[{"role":"user","content":"x"}]}`,
			"user":             `{"model":"m","user":"u` + r + `1","messages":[{"role":"user","content":"x"}]}`,
		} {
			parse := ParseMessagesRequest
			if field == "user" {
				parse = ParseCompletionsRequest
			}
			_, err := parse([]byte(body), testDefaults)
			if err == nil || !strings.Contains(err.Error(), field+" must not contain control characters") {
				t.Errorf("%s with %s: %v", field, r, err)
			}
		}
	}
}

// Clients that send every option with its default are served: options
// the upstream lacks are accepted at the value that asks for nothing.
func TestCompletionsNoOpOptions(t *testing.T) {
	body := `{"messages":[{"role":"user","content":"x"}],"frequency_penalty":0,"presence_penalty":0.0,"logit_bias":{},"store":false,"top_p":1}`
	if _, err := ParseCompletionsRequest([]byte(body), testDefaults); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
}

// What the openai SDK sends as users write code today is served, each
// option at the value that asks for nothing this gateway lacks, and the
// rest refused by name, never as an unknown field.
func TestCompletionsOptionsOfTheSDK(t *testing.T) {
	const msgs = `"messages":[{"role":"user","content":"x"}]`
	for _, opt := range []string{`"seed":42`, `"metadata":{"run":"a"}`, `"safety_identifier":"u-2"`, `"prompt_cache_key":"k"`,
		`"prompt_cache_retention":"24h"`, `"logprobs":false`, `"top_logprobs":0`, `"response_format":{"type":"text"}`,
		`"parallel_tool_calls":true`, `"tool_choice":"none"`, `"service_tier":"auto"`, `"reasoning_effort":"none"`, `"modalities":["text"]`,
		`"seed":null,"verbosity":null,"tools":null`, `"stream":true,"stream_options":{"include_usage":true,"include_obfuscation":true}`} {
		req, err := ParseCompletionsRequest([]byte(`{`+msgs+`,`+opt+`}`), testDefaults)
		if err != nil {
			t.Errorf("%s: %v", opt, err)
			continue
		}
		if opt == `"seed":42` && (req.Seed == nil || *req.Seed != 42) {
			t.Errorf("seed: %v", req.Seed)
		}
	}
	req, _ := ParseCompletionsRequest([]byte(`{`+msgs+`,"user":"u-1","safety_identifier":"u-2"}`), testDefaults)
	if req.Metadata.UserID != "u-2" {
		t.Errorf("safety_identifier: %q", req.Metadata.UserID)
	}
	for opt, want := range map[string]string{
		`"logprobs":true`:                  `"logprobs" is not supported`,
		`"top_logprobs":3`:                 `"top_logprobs" is not supported`,
		`"response_format":{"type":"xml"}`: `response_format.type must be`,
		`"reasoning_effort":"high"`:        `reasoning_effort needs max_completion_tokens above 1024`,
		`"verbosity":"loud"`:               `verbosity must be "low", "medium" or "high"`,
		`"service_tier":"flex"`:            `"service_tier" is not supported`,
		`"modalities":["text","audio"]`:    `"modalities" is not supported`,
		`"tool_choice":"any"`:              `tool_choice must be "auto", "none", "required"`,
		`"metadata":{"a":1}`:               "metadata must map keys",
		`"metadata":"x"`:                   "metadata must be an object",
		`"prompt_cache_key":1`:             "prompt_cache_key must be a string",
		`"messages":[{"role":"assistant","content":null,"tool_calls":[]}]`:                        `messages[0].content must be a non-empty string or array of content parts, or tool_calls given`,
		`"messages":[{"role":"user","content":"x"},{"role":"function","name":"f","content":"r"}]`: `messages[1].role "function" is not supported`,
	} {
		body := `{` + msgs + `,` + opt + `}`
		if strings.HasPrefix(opt, `"messages"`) {
			body = `{` + opt + `}`
		}
		_, err := ParseCompletionsRequest([]byte(body), testDefaults)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", opt, err, want)
		}
	}
}

// The Messages dialect likewise: thinking disabled or adaptive,
// output_config's effort, tool_choice none, top-level cache_control, speed
// "standard", service_tier "auto" and text blocks with empty citations are
// served; fast speed and the like are refused by name.
func TestMessagesOptionsOfTheSDK(t *testing.T) {
	const base = `"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}]`
	for _, opt := range []string{`"thinking":{"type":"disabled"}`, `"thinking":{"type":"adaptive","display":"summarized"}`, `"output_config":{"effort":"low"}`,
		`"tool_choice":{"type":"none"}`, `"cache_control":{"type":"ephemeral"}`,
		`"speed":"standard"`, `"service_tier":"auto"`, `"service_tier":"standard_only"`, `"messages":[{"role":"user","content":[{"type":"text","text":"x","citations":null}]}]`,
		`"messages":[{"role":"user","content":[{"type":"text","text":"x","citations":[]}]}]`} {
		if _, err := ParseMessagesRequest([]byte(`{`+base+`,`+opt+`}`), testDefaults); err != nil {
			t.Errorf("%s: %v", opt, err)
		}
	}
	for opt, want := range map[string]string{
		`"thinking":{"type":"enabled","budget_tokens":1024}`:                                                               `thinking.budget_tokens must be below max_tokens`,
		`"thinking":{"type":"disabled","budget_tokens":1}`:                                                                 `thinking.budget_tokens is for "type":"enabled" only`,
		`"thinking":{"type":"adaptive","budget_tokens":2048}`:                                                              `thinking.budget_tokens is for "type":"enabled" only`,
		`"thinking":{"type":"auto"}`:                                                                                       `thinking.type must be "enabled", "adaptive", "between_tools" or "disabled"`,
		`"thinking":{"type":"adaptive","display":"A B"}`:                                                                   `thinking.display must be a lowercase word`,
		`"output_config":{"format":{"type":"json_schema"}}`:                                                                `output_config.format.schema is required`,
		`"output_config":{"format":{"type":"json"}}`:                                                                       `output_config.format.type must be "json_schema"`,
		`"output_config":{"format":{"type":"json_schema","schema":{}},"verbosity":1}`:                                      `unknown field "output_config.verbosity"`,
		`"output_format":{"type":"json_schema","schema":{}},"output_config":{"format":{"type":"json_schema","schema":{}}}`: `send one`,
		`"output_config":{"effort":"high\nx"}`:                                                                             `output_config.effort must be a lowercase word`,
		`"speed":"fast"`:                                                                                                   `"speed" is not supported`,
		`"inference_geo":"us"`:                                                                                             `"inference_geo" is not supported`,
		`"messages":[{"role":"user","content":[{"type":"text","text":"x","citations":[{"type":"char_location"}]}]}]`:       `citations is not supported`,
	} {
		if _, err := ParseMessagesRequest([]byte(`{`+base+`,`+opt+`}`), testDefaults); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", opt, err, want)
		}
	}
}

// An unsupported option sent as null is no option: clients that serialise
// unset options as null are not refused, in either dialect.
func TestNullUnsupportedOptionIsAbsent(t *testing.T) {
	if _, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"tools":null,"tool_choice":null}`), testDefaults); err != nil {
		t.Errorf("completions: %v", err)
	}
	if _, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":10,"tools":null,"messages":[{"role":"user","content":"a"}]}`), testDefaults); err != nil {
		t.Errorf("messages: %v", err)
	}
}

// A turn encodes as the Messages API's turn, strings escaped as
// encoding/json escapes them: content a string, or its blocks.
func TestChatMessageJSON(t *testing.T) {
	tests := []struct {
		msg  ChatMessage
		want string
	}{
		{ChatMessage{Role: "user", Content: "a <b> & \"c\""}, `{"role":"user","content":"a \u003cb\u003e \u0026 \"c\""}`},
		{ChatMessage{Role: "assistant", Content: "ignored", Blocks: []ContentBlock{{Type: BlockText, Text: "Hi"},
			{Type: BlockToolUse, ID: "toolu_1", Name: "get"}}},
			`{"role":"assistant","content":[{"type":"text","text":"Hi"},{"type":"tool_use","id":"toolu_1","name":"get","input":{}}]}`},
		{ChatMessage{Role: "user", Blocks: []ContentBlock{}}, `{"role":"user","content":[]}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal([]ChatMessage{tt.msg}) // as a request body holds it
		if err != nil || string(got) != "["+tt.want+"]" {
			t.Errorf("%+v: got %s (%v), want [%s]", tt.msg, got, err, tt.want)
		}
	}
}

// Chat Completions' temperature runs to 2, as OpenAI's does; the Messages
// API's ends at 1: one messages-style provider refuses more by name, and a
// routed call's messages-style target gets the nearest it takes.
func TestCompletionsTemperatureAboveOne(t *testing.T) {
	body := `{"messages":[{"role":"user","content":"x"}],"temperature":1.5}`
	req, err := ParseCompletionsRequest([]byte(body), testDefaults)
	if err != nil || *req.Temperature != 1.5 {
		t.Fatalf("temperature 1.5: %v", err)
	}
	if _, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"temperature":2.5}`), testDefaults); err == nil ||
		!strings.Contains(err.Error(), "temperature must be a number between 0 and 2") {
		t.Errorf("temperature 2.5: %v", err)
	}
	if _, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}],"temperature":1.5}`), testDefaults); err == nil {
		t.Error("the Messages endpoint took temperature 1.5")
	}
	if err := CheckStyle(req, StyleMessages); err == nil || !strings.Contains(err.Error(), "temperature 1.5 is not supported") {
		t.Errorf("messages style: %v", err)
	}
	if err := CheckStyle(req, StyleOpenAI); err != nil {
		t.Errorf("openai style: %v", err)
	}
	var a messagesAdapter
	if got := a.body(req, false).Temperature; got == nil || *got != 1 || *req.Temperature != 1.5 {
		t.Errorf("a messages-style target is sent temperature %v", got)
	}
}

// Adaptive thinking, as newer Claude models take it, goes to a
// messages-style provider as sent (with display and output_config's
// effort), and to an openai-style one as the nearest reasoning_effort.
func TestAdaptiveThinkingTranslated(t *testing.T) {
	req, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":4000,"messages":[{"role":"user","content":"x"}],
		"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"max"}}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	var a messagesAdapter
	b, err := a.body(req, false).appendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"max"}`) {
		t.Errorf("messages style: %s", b)
	}
	o, err := json.Marshal(openAIBody(req, false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(o), `"reasoning_effort":"max"`) || !strings.Contains(string(o), `"max_completion_tokens":4000`) || strings.Contains(string(o), "adaptive") {
		t.Errorf("openai style: %s", o)
	}
	// reasoning_effort takes the newest models' efforts too.
	if req, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"max_completion_tokens":4000,"reasoning_effort":"xhigh"}`), testDefaults); err != nil ||
		req.Reasoning.BudgetTokens != req.MaxTokens-1 || req.Reasoning.Effort != "xhigh" {
		t.Errorf("reasoning_effort xhigh: %+v, %v", req, err)
	}
	// Adaptive without an effort leaves the effort to the model.
	req, _ = ParseMessagesRequest([]byte(`{"model":"m","max_tokens":4000,"messages":[{"role":"user","content":"x"}],"thinking":{"type":"adaptive"}}`), testDefaults)
	b, _ = a.body(req, false).appendJSON(nil)
	o, _ = json.Marshal(openAIBody(req, false))
	if !strings.Contains(string(b), `"thinking":{"type":"adaptive"}`) || strings.Contains(string(b), "output_config") || strings.Contains(string(o), "reasoning_effort") {
		t.Errorf("adaptive alone: %s / %s", b, o)
	}
}

// Structured output asked in the Messages API's words (output_config.format,
// or output_format as its beta named it) goes to a messages-style provider
// as it is, beside the caller's tools and thinking, which the forced tool of
// a response_format excludes; an openai-style provider gets it as
// response_format json_schema, named as OpenAI requires. The answer's text
// is the JSON: a tool of the caller's named json_answer stays a tool call.
func TestOutputConfigFormatTranslated(t *testing.T) {
	const schema = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`
	for _, field := range []string{`"output_config":{"effort":"low","format":{"type":"json_schema","schema":` + schema + `}}`,
		`"output_config":{"effort":"low"},"output_format":{"type":"json_schema","schema":` + schema + `}`} {
		req, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":4000,"messages":[{"role":"user","content":"x"}],`+
			`"tools":[{"name":"json_answer","input_schema":{"type":"object"}}],"thinking":{"type":"adaptive"},`+field+`}`), testDefaults)
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		if err := CheckStyle(req, StyleMessages); err != nil {
			t.Errorf("%s: messages style: %v", field, err)
		}
		var a messagesAdapter
		b, err := a.body(req, false).appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		want := `"output_config":{"effort":"low","format":{"type":"json_schema","schema":` + schema + `}}`
		if !strings.Contains(string(b), want) || strings.Contains(string(b), `"tool_choice"`) || strings.Contains(string(b), "output_format") {
			t.Errorf("%s: messages style: %s, want %s and the caller's tools only", field, b, want)
		}
		if isFormatCall(req, ContentBlock{Type: BlockToolUse, Name: formatToolName}) {
			t.Error("the caller's own json_answer tool call would be read as the answer")
		}
		o, err := json.Marshal(openAIBody(req, false))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(o), `"response_format":{"json_schema":{"name":"json_answer","schema":`+schema+`},"type":"json_schema"}`) {
			t.Errorf("%s: openai style: %s", field, o)
		}
	}
	// count_tokens takes it too, and keeps it: the provider counts a
	// format's schema as input.
	if req, err := ParseCountTokensRequest([]byte(`{"model":"m","messages":[{"role":"user","content":"x"}],"output_config":{"format":{"type":"json_schema","schema":`+schema+`}}}`), testDefaults); err != nil || req.Format == nil {
		t.Errorf("count_tokens: %v", err)
	}
}

// A schema reaches the provider with its members in the order sent: a
// structured answer's fields come in its properties' order, and callers
// put "reasoning" before "answer" so that the model reasons first.
func TestSchemaKeepsItsOrder(t *testing.T) {
	const schema = `{"type":"object","properties":{"reasoning":{"type":"string"},"answer":{"type":"string"}},"required":["reasoning","answer"]}`
	req, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],
		"tools":[{"type":"function","function":{"name":"f","parameters":`+schema+`}}],
		"response_format":{"type":"json_schema","json_schema":{"name":"a","schema": `+"\n"+schema+`}}}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(req.Tools[0].InputSchema); got != schema {
		t.Errorf("tool parameters: %s", got)
	}
	if got := string(req.Format.Schema); got != schema {
		t.Errorf("response_format schema: %s", got)
	}
	req, err = ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}],"tools":[{"name":"f","input_schema":`+schema+`}]}`), testDefaults)
	if err != nil || string(req.Tools[0].InputSchema) != schema {
		t.Errorf("input_schema: %s, %v", req.Tools[0].InputSchema, err)
	}
	// A function without parameters takes none, as OpenAI reads it.
	req, err = ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}]}`), testDefaults)
	if err != nil || string(req.Tools[0].InputSchema) != `{"type":"object","properties":{}}` {
		t.Errorf("a function without parameters: %v", err)
	}
	for _, bad := range []string{`"schema"`, `[]`, `"x"`} {
		if _, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}],"tools":[{"name":"f","input_schema":`+bad+`}]}`), testDefaults); err == nil ||
			!strings.Contains(err.Error(), "tools[0].input_schema must be a JSON Schema object") {
			t.Errorf("input_schema %s: %v", bad, err)
		}
	}
}

// Claude Opus 4.7 and later refuse thinking "enabled": a Chat Completions
// reasoning_effort, or a budget, reaches them as adaptive thinking with
// the effort; earlier models keep the budget.
func TestReasoningForAdaptiveOnlyModels(t *testing.T) {
	var a messagesAdapter
	for _, tt := range []struct{ model, body, want string }{
		{"claude-opus-4-7", `"reasoning_effort":"medium"`, `"thinking":{"type":"adaptive"},"output_config":{"effort":"medium"}`},
		{"claude-opus-4-7", `"reasoning_effort":"minimal"`, `"thinking":{"type":"adaptive"},"output_config":{"effort":"low"}`},
		{"claude-sonnet-4-5", `"reasoning_effort":"medium"`, `"thinking":{"type":"enabled","budget_tokens":`},
	} {
		req, err := ParseCompletionsRequest([]byte(`{"messages":[{"role":"user","content":"x"}],"max_completion_tokens":20000,`+tt.body+`}`), testDefaults)
		if err != nil {
			t.Fatal(err)
		}
		req.Model = tt.model // the target's model, as routing sets it
		b, err := a.body(req, false).appendJSON(nil)
		if err != nil || !strings.Contains(string(b), tt.want) || tt.model == "claude-sonnet-4-5" && strings.Contains(string(b), "output_config") {
			t.Errorf("%s with %s: %s, want %s", tt.model, tt.body, b, tt.want)
		}
	}
	req, _ := ParseMessagesRequest([]byte(`{"model":"claude-opus-5","max_tokens":20000,"messages":[{"role":"user","content":"x"}],"thinking":{"type":"enabled","budget_tokens":2000}}`), testDefaults)
	if b, _ := a.body(req, false).appendJSON(nil); !strings.Contains(string(b), `"thinking":{"type":"adaptive"},"output_config":{"effort":"low"}`) {
		t.Errorf("a budget for claude-opus-5: %s", b)
	}
}

// Chat Completions' response_format reaches the newest Claude models
// (thinking on by default, forced tools refused) as their own structured
// output, beside tools and reasoning; earlier models get the forced tool.
func TestResponseFormatForNewestModels(t *testing.T) {
	var a messagesAdapter
	const schema = `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}`
	for _, tt := range []struct{ model, format, want string }{
		{"claude-sonnet-5-5", `{"type":"json_schema","json_schema":{"name":"x","schema":` + schema + `}}`, `"output_config":{"effort":"medium","format":{"type":"json_schema","schema":` + schema + `}}`},
		{"claude-opus-4-7", `{"type":"json_object"}`, `"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}`},
		{"claude-sonnet-4-5", `{"type":"json_object"}`, `"tool_choice":{"type":"tool","name":"json_answer"}`},
	} {
		body := `{"model":"` + tt.model + `","messages":[{"role":"user","content":"x"}],"max_completion_tokens":20000,"response_format":` + tt.format
		if tt.model == "claude-sonnet-5-5" {
			body += `,"reasoning_effort":"medium","tools":[{"type":"function","function":{"name":"f"}}]`
		}
		req, err := ParseCompletionsRequest([]byte(body+`}`), Defaults{MaxTokens: 100, MaxTokensCap: 64000, Style: StyleMessages})
		if err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		b, err := a.body(req, false).appendJSON(nil)
		if err != nil || !strings.Contains(string(b), tt.want) {
			t.Errorf("%s with %s: %s, want %s", tt.model, tt.format, b, tt.want)
		}
		if native := tt.model != "claude-sonnet-4-5"; native == isFormatCall(req, ContentBlock{Type: BlockToolUse, Name: formatToolName}) {
			t.Errorf("%s: a json_answer tool call read as the answer: %v", tt.model, !native)
		}
	}
}

// The newest Claude models refuse sampling settings with a 400: a
// messages-style provider is sent none for them, and earlier models get
// them as asked.
func TestSamplingDroppedForNewestModels(t *testing.T) {
	var a messagesAdapter
	for model, want := range map[string]bool{"claude-opus-4-7": false, "claude-sonnet-5": false, "claude-sonnet-4-6": true} {
		req, err := ParseMessagesRequest([]byte(`{"model":"`+model+`","max_tokens":5,"temperature":0.2,"top_p":0.9,"top_k":40,"messages":[{"role":"user","content":"x"}]}`), testDefaults)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := a.body(req, false).appendJSON(nil)
		if got := strings.Contains(string(b), `"temperature":0.2,"top_p":0.9,"top_k":40`); got != want || !want && strings.Contains(string(b), "top_") {
			t.Errorf("%s: %s", model, b)
		}
	}
}

// The AI SDK asks for fine-grained tool streaming on every streamed tool
// (eager_input_streaming): a messages-style provider is sent it, an
// openai-style one, which streams a call's arguments anyway, is not.
func TestToolEagerInputStreaming(t *testing.T) {
	req, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}],`+
		`"tools":[{"name":"weather","input_schema":{"type":"object"},"eager_input_streaming":true}],"tool_choice":{"type":"auto"}}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	m, err := (&messagesAdapter{}).body(req, true).appendJSON(nil)
	if err != nil || !strings.Contains(string(m), `"input_schema":{"type":"object"},"eager_input_streaming":true}`) {
		t.Errorf("messages style: %s %v", m, err)
	}
	if o, _ := json.Marshal(openAIBody(req, true)); strings.Contains(string(o), "eager") {
		t.Errorf("openai style: %s", o)
	}
	if _, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}],`+
		`"tools":[{"name":"w","input_schema":{"type":"object"},"eager_input_streaming":"yes"}]}`), testDefaults); err == nil || !strings.Contains(err.Error(), "tools[0].eager_input_streaming must be a boolean") {
		t.Errorf("a string: %v", err)
	}
}

// Claude Sonnet 5.5 cannot turn thinking off ("disabled" is a 400 there):
// its lowest setting, between_tools, reaches a messages-style provider as
// sent, with the call's effort; an openai-style one is asked for no
// reasoning effort.
func TestThinkingBetweenTools(t *testing.T) {
	req, err := ParseMessagesRequest([]byte(`{"model":"claude-sonnet-5-5","max_tokens":2000,"messages":[{"role":"user","content":"x"}],`+
		`"thinking":{"type":"between_tools","display":"summarized"},"output_config":{"effort":"low"}}`), testDefaults)
	if err != nil {
		t.Fatal(err)
	}
	m, err := (&messagesAdapter{}).body(req, false).appendJSON(nil)
	if err != nil || !strings.Contains(string(m), `"thinking":{"type":"between_tools","display":"summarized"},"output_config":{"effort":"low"}`) {
		t.Errorf("messages style: %s %v", m, err)
	}
	if o, _ := json.Marshal(openAIBody(req, false)); strings.Contains(string(o), "reasoning_effort") {
		t.Errorf("openai style: %s", o)
	}
	if _, err := ParseMessagesRequest([]byte(`{"model":"m","max_tokens":2000,"messages":[{"role":"user","content":"x"}],`+
		`"thinking":{"type":"between_tools","budget_tokens":1024}}`), testDefaults); err == nil || !strings.Contains(err.Error(), `thinking.budget_tokens is for "type":"enabled" only`) {
		t.Errorf("a budget: %v", err)
	}
}
