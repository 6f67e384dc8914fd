package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// responsesTools is the agents' tool in the Responses API's flat shape.
const responsesTools = `"tools":[{"type":"function","name":"get_weather","description":"The weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]`

// responseOf is a Responses answer as a client reads it: the body, or a
// stream's response.completed (or response.incomplete) event, whose
// events it checks are numbered in order.
func responseOf(t *testing.T, body string, stream bool) map[string]any {
	t.Helper()
	var r map[string]any
	if !stream {
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("not a response: %s", body)
		}
		return r
	}
	for i, chunk := range strings.Split(strings.TrimSpace(body), "\n\n") {
		name, data, _ := strings.Cut(strings.TrimPrefix(chunk, "event: "), "\ndata: ")
		var ev struct {
			Type     string
			Sequence int `json:"sequence_number"`
			Response map[string]any
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Type != name || ev.Sequence != i {
			t.Fatalf("event %d: %q", i, chunk)
		}
		if name == "response.completed" || name == "response.incomplete" {
			r = ev.Response
		}
	}
	if r == nil {
		t.Fatalf("no response.completed: %s", body)
	}
	return r
}

// outputOf is a response's output items, and the text of its messages.
func outputOf(r map[string]any) ([]map[string]any, string) {
	var items []map[string]any
	var text strings.Builder
	for _, it := range r["output"].([]any) {
		item := it.(map[string]any)
		items = append(items, item)
		if item["type"] == "message" {
			for _, p := range item["content"].([]any) {
				s, _ := p.(map[string]any)["text"].(string)
				text.WriteString(s)
			}
		}
	}
	return items, text.String()
}

// A whole tool loop on /responses, streamed or not, through a provider of
// each style: the model's call comes back as a function_call item under
// the provider's id; sent back with its function_call_output it reaches
// the provider as that style's tool result under the same id (the fake
// answers only then), and the answer is a message. Usage is in the
// Responses names, and each call is recorded like any other.
func TestGatewayResponsesToolLoop(t *testing.T) {
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "responses@example.com")
			id := map[string]string{"messages": messagesToolID, "openai": openAIToolID}[style]
			for _, stream := range []bool{false, true} {
				res := env.Client().PostJSON("/gateway/v1/responses", fmt.Sprintf(`{"model":"model-test","stream":%t,"instructions":"Use the tools.",%s,`+
					`"input":[{"role":"user","content":"What is the weather in Paris?"}]}`, stream, responsesTools), bearer(s.Key)...)
				if res.StatusCode != 200 {
					t.Fatalf("%d %s", res.StatusCode, res.Body)
				}
				first := responseOf(t, res.Body, stream)
				items, _ := outputOf(first)
				call := items[len(items)-1]
				if first["status"] != "completed" || call["type"] != "function_call" || call["call_id"] != id || call["name"] != "get_weather" ||
					compact(call["arguments"].(string)) != `{"city":"Paris"}` || !strings.HasPrefix(first["id"].(string), "resp_") {
					t.Fatalf("stream %t: the call %s", stream, res.Body)
				}
				if sys := up.lastBody()["system"]; style == "messages" && sys != "Use the tools." {
					t.Errorf("instructions reached the provider as %v", sys)
				}
				callItem, _ := json.Marshal(call)
				res = env.Client().PostJSON("/gateway/v1/responses", fmt.Sprintf(`{"model":"model-test","stream":%t,%s,"input":[`+
					`{"role":"user","content":"What is the weather in Paris?"},%s,{"type":"function_call_output","call_id":%q,"output":"sunny, 21 C"}]}`,
					stream, responsesTools, callItem, id), bearer(s.Key)...)
				last := responseOf(t, res.Body, stream)
				_, text := outputOf(last)
				u := last["usage"].(map[string]any)
				if res.StatusCode != 200 || text != agentAnswer || last["status"] != "completed" || u["total_tokens"] != 110.0 ||
					u["input_tokens_details"].(map[string]any)["cached_tokens"] != 30.0 {
					t.Errorf("stream %t: after the result %d %s", stream, res.StatusCode, res.Body)
				}
			}
			for _, e := range waitEvents(t, env, 4) {
				if *e.Status != 200 || *e.OutputTokens != 20 || *e.CacheReadTokens != 30 {
					t.Errorf("recorded %+v", e)
				}
			}
		})
	}
}

// Structured output asked as text.format json_schema: the answer's text
// is the schema's JSON from either provider style, streamed or not, and
// the response repeats the format.
func TestGatewayResponsesStructuredOutput(t *testing.T) {
	format := `"text":{"format":{"type":"json_schema","name":"weather","strict":true,"schema":{"type":"object","properties":{"city":{"type":"string"},"sunny":{"type":"boolean"}},"required":["city","sunny"],"additionalProperties":false}}}`
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			env := apptest.New(t, apptest.Databases(t)[0], agentOptions(up, style)...)
			s := env.Seed(t, "responses-json@example.com")
			for _, stream := range []bool{false, true} {
				res := env.Client().PostJSON("/gateway/v1/responses", fmt.Sprintf(`{"model":"model-test","stream":%t,%s,"input":"Weather in Paris?"}`, stream, format), bearer(s.Key)...)
				r := responseOf(t, res.Body, stream)
				_, text := outputOf(r)
				f := r["text"].(map[string]any)["format"].(map[string]any)
				if res.StatusCode != 200 || text != formatAnswer || f["type"] != "json_schema" || f["name"] != "weather" {
					t.Errorf("stream %t: %d %s", stream, res.StatusCode, res.Body)
				}
			}
			if rf, _ := up.lastBody()["response_format"].(map[string]any); style == "openai" && rf["type"] != "json_schema" {
				t.Errorf("the openai-style provider got %v", up.lastBody())
			}
		})
	}
}

// Errors take OpenAI's shape on /responses: a refused field names itself
// (stored state above all), a bad key is authentication_error, and a
// provider's failure after the stream started ends it with an error
// event the SDKs raise.
func TestGatewayResponsesErrors(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["stream"] != true {
			messagesJSON(w, "Hi from the fake", 12, 5)
			return
		}
		sse(w, [2]string{"message_start", `{"type":"message_start","message":{"id":"msg_e","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`},
			[2]string{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
			[2]string{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`},
			[2]string{"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`})
	})
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up)
	c := env.Client()
	for body, want := range map[string]string{
		`{"input":"x","previous_response_id":"resp_1"}`:      `"message":"\"previous_response_id\" is not supported: this gateway stores no responses`,
		`{"input":"x","tools":[{"type":"web_search"}]}`:      `"message":"tools[0].type \"web_search\" is not supported`,
		`{"input":[{"type":"item_reference","id":"msg_1"}]}`: `"message":"input[0].type \"item_reference\" is not supported`,
		`{"input":"x","frequency_penalty":1}`:                `"message":"unknown field \"frequency_penalty\""`,
	} {
		res := c.PostJSON("/gateway/v1/responses", body, bearer(s.Key)...)
		if res.StatusCode != 400 || !strings.Contains(res.Body, want) || !strings.Contains(res.Body, `"type":"invalid_request_error"`) ||
			!strings.Contains(res.Body, `"code":"invalid_request"`) {
			t.Errorf("%s: %d %s", body, res.StatusCode, res.Body)
		}
	}
	res := c.PostJSON("/gateway/v1/responses", `{"input":"x"}`, bearer("ppk_wrong")...)
	if res.StatusCode != 401 || !strings.Contains(res.Body, `"type":"authentication_error"`) || !strings.Contains(res.Body, `"code":"invalid_api_key"`) {
		t.Errorf("bad key: %d %s", res.StatusCode, res.Body)
	}
	res = c.PostJSON("/gateway/v1/responses", `{"input":"x","stream":true}`, bearer(s.Key)...)
	evs := strings.Split(strings.TrimSpace(res.Body), "\n\n")
	last := evs[len(evs)-1]
	if !strings.Contains(res.Body, `"delta":"Hel"`) || !strings.HasPrefix(last, "event: error\ndata: {\"type\":\"error\",\"sequence_number\":") ||
		!strings.Contains(last, `"code":"upstream_overloaded"`) || !strings.Contains(last, `"error":{"message":`) {
		t.Errorf("failed stream: %s", res.Body)
	}
	failed := 0
	for _, e := range waitEvents(t, env, 5) {
		if e.Status != nil && *e.Status == 503 && *e.InputTokens == 7 {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d records of the failed stream, want one (503, its input counted)", failed)
	}
}

// A provider's stream of thinking, text and a tool call whose input comes
// in fragments reaches a Responses client as a message item and a
// function_call item, the thinking left out, each event in order; the
// last event holds the whole response with its usage.
func TestGatewayResponsesStreamTextAndToolCall(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) { sse(w, claudeCodeStream...) })
	env, s := gatewayEnv(t, apptest.Databases(t)[0], up, apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "QQQQ-ZZZZ-XXXX-9999"))
	res := env.Client().PostJSON("/gateway/v1/responses", `{"model":"claude-sonnet-4-5","stream":true,"max_output_tokens":2000,"reasoning":{"effort":"minimal"},`+
		`"tools":[{"type":"function","name":"Bash","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}],"input":"Run vet"}`, bearer(s.Key)...)
	var names []string
	for _, chunk := range strings.Split(strings.TrimSpace(res.Body), "\n\n") {
		name, _, _ := strings.Cut(strings.TrimPrefix(chunk, "event: "), "\n")
		if !strings.HasSuffix(name, ".delta") {
			names = append(names, name)
		}
	}
	want := "response.created response.in_progress response.output_item.added response.content_part.added response.output_text.done " +
		"response.content_part.done response.output_item.done response.output_item.added response.function_call_arguments.done " +
		"response.output_item.done response.completed"
	if got := strings.Join(names, " "); got != want || strings.Count(res.Body, "event: response.function_call_arguments.delta") != 2 {
		t.Fatalf("events (deltas apart) %s\nwant %s\n%s", got, want, res.Body)
	}
	r := responseOf(t, res.Body, true)
	items, text := outputOf(r)
	u := r["usage"].(map[string]any)
	if len(items) != 2 || text != "The tests pass; running vet." || items[1]["call_id"] != "toolu_01VetRun" || items[1]["name"] != "Bash" ||
		items[1]["arguments"] != `{"command": "go vet ./app/gateway/"}` || u["output_tokens"] != 87.0 || u["total_tokens"] != u["input_tokens"].(float64)+87 ||
		strings.Contains(res.Body, "I should check vet") {
		t.Errorf("the response %v", r)
	}
	if th, _ := up.lastBody()["thinking"].(map[string]any); th["budget_tokens"] != 1024.0 {
		t.Errorf("reasoning.effort reached the provider as %v", up.lastBody()["thinking"])
	}
}

// The demo provider answers /responses too: cut at max_output_tokens the
// response is incomplete, saying why, streamed or not.
func TestGatewayResponsesDemo(t *testing.T) {
	env, s := gatewayEnv(t, apptest.Databases(t)[0], nil)
	for _, stream := range []bool{false, true} {
		res := env.Client().PostJSON("/gateway/v1/responses", fmt.Sprintf(`{"model":"parapet-demo","stream":%t,"max_output_tokens":5,"input":"hi"}`, stream), bearer(s.Key)...)
		r := responseOf(t, res.Body, stream)
		_, text := outputOf(r)
		reason, _ := r["incomplete_details"].(map[string]any)
		if res.StatusCode != 200 || r["status"] != "incomplete" || reason["reason"] != "max_output_tokens" || text == "" ||
			r["usage"].(map[string]any)["output_tokens"] != 5.0 || res.Header.Get("X-Quota-Remaining") == "" {
			t.Errorf("stream %t: %d %s", stream, res.StatusCode, res.Body)
		}
	}
}
