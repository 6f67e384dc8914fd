package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"parapet/app/apptest"
)

// The agents' fake providers, one of each style: the only fakes. Each
// plays a model with one tool, get_weather: asked a question, it calls
// the tool (id toolu_01A or call_01A); given the tool's result under
// that id, it answers "It is sunny in Paris."; given a result under any
// other id, it says so. Streamed or not as asked, with cache and
// reasoning counts in its usage.

const (
	agentAnswer    = "It is sunny in Paris."
	messagesToolID = "toolu_01A"
	openAIToolID   = "call_01A"
)

// agentUpstream is the fake provider of style ("messages" or "openai").
func agentUpstream(t *testing.T, style string) *upstream {
	return newUpstream(t, func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		stream := body["stream"] == true
		if r.URL.Path == "/v1/embeddings" {
			openAIEmbeddings(w, body)
			return
		}
		if style == "openai" {
			openAIAgent(w, body, stream)
			return
		}
		messagesAgent(w, body, stream)
	})
}

// agentOptions points the gateway at up, of style.
func agentOptions(up *upstream, style string) []apptest.Option {
	return []apptest.Option{apptest.WithEnv("GATEWAY_UPSTREAM_URL", up.URL), apptest.WithEnv("GATEWAY_UPSTREAM_KEY", "sk-upstream-secret"),
		apptest.WithEnv("GATEWAY_UPSTREAM_STYLE", style), apptest.WithEnv("GATEWAY_MODEL", "model-test"),
		apptest.WithEnv("GATEWAY_MONTHLY_TOKENS", "1000000")}
}

// resultID is the id of the last message's tool result in either
// style's request, "" when it has none.
func resultID(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if last["role"] == "tool" {
		id, _ := last["tool_call_id"].(string)
		return id
	}
	blocks, _ := last["content"].([]any)
	for _, b := range blocks {
		if m, _ := b.(map[string]any); m["type"] == "tool_result" {
			id, _ := m["tool_use_id"].(string)
			return id
		}
	}
	return ""
}

func sse(w http.ResponseWriter, events ...[2]string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range events {
		if ev[0] != "" {
			fmt.Fprintf(w, "event: %s\n", ev[0])
		}
		fmt.Fprintf(w, "data: %s\n\n", ev[1])
		w.(http.Flusher).Flush()
	}
}

const messagesUsage = `"usage":{"input_tokens":50,"cache_creation_input_tokens":10,"cache_read_input_tokens":30,"output_tokens":%d}`

// formatAnswer is the fakes' answer in the JSON a response_format asks.
const formatAnswer = `{"city":"Paris","sunny":true}`

func messagesAgent(w http.ResponseWriter, body map[string]any, stream bool) {
	if tc, _ := body["tool_choice"].(map[string]any); tc["name"] == "json_answer" {
		messagesFormatted(w, stream)
		return
	}
	text := ""
	switch id := resultID(body); {
	case id == messagesToolID:
		text = agentAnswer
	case id != "":
		text = "unknown tool_use_id " + id
	case outputFormat(body) != nil:
		text = formatAnswer // structured output, the provider's own
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		content := fmt.Sprintf(`[{"type":"tool_use","id":%q,"name":"get_weather","input":{"city":"Paris"}}]`, messagesToolID)
		stop := "tool_use"
		if text != "" {
			content, stop = fmt.Sprintf(`[{"type":"text","text":%q}]`, text), "end_turn"
		}
		fmt.Fprintf(w, `{"id":"msg_a1","type":"message","role":"assistant","model":"model-test","content":%s,"stop_reason":%q,"stop_sequence":null,`+messagesUsage+`}`,
			content, stop, 20)
		return
	}
	start := [2]string{"message_start", `{"type":"message_start","message":{"id":"msg_a2","type":"message","role":"assistant","model":"model-test","content":[],"stop_reason":null,"stop_sequence":null,` +
		fmt.Sprintf(messagesUsage, 1) + `}}`}
	end := func(stop string) [][2]string {
		return [][2]string{{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"` + stop + `","stop_sequence":null},"usage":{"output_tokens":20}}`},
			{"message_stop", `{"type":"message_stop"}`}}
	}
	if text != "" {
		sse(w, append([][2]string{start, {"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
			{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, text[:6])},
			{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%q}}`, text[6:])}},
			end("end_turn")...)...)
		return
	}
	sse(w, append([][2]string{start,
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"` + messagesToolID + `","name":"get_weather","input":{}}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"Paris\"}"}}`}},
		end("tool_use")...)...)
}

// outputFormat is a Messages request's output_config.format.
func outputFormat(body map[string]any) map[string]any {
	oc, _ := body["output_config"].(map[string]any)
	f, _ := oc["format"].(map[string]any)
	return f
}

// messagesFormatted answers the forced tool of a response_format.
func messagesFormatted(w http.ResponseWriter, stream bool) {
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_f","type":"message","role":"assistant","model":"model-test","content":[{"type":"tool_use","id":"toolu_f","name":"json_answer","input":%s}],"stop_reason":"tool_use","stop_sequence":null,`+messagesUsage+`}`, formatAnswer, 9)
		return
	}
	sse(w, [][2]string{
		{"message_start", `{"type":"message_start","message":{"id":"msg_f","type":"message","role":"assistant","model":"model-test","content":[],"stop_reason":null,"stop_sequence":null,` + fmt.Sprintf(messagesUsage, 1) + `}}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_f","name":"json_answer","input":{}}}`},
		{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%q}}`, formatAnswer[:10])},
		{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%q}}`, formatAnswer[10:])},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`},
		{"message_stop", `{"type":"message_stop"}`}}...)
}

const openAIUsage = `"usage":{"prompt_tokens":90,"completion_tokens":20,"total_tokens":110,"prompt_tokens_details":{"cached_tokens":30},"completion_tokens_details":{"reasoning_tokens":8}}`

func openAIAgent(w http.ResponseWriter, body map[string]any, stream bool) {
	text := ""
	switch id := resultID(body); {
	case id == openAIToolID:
		text = agentAnswer
	case id != "":
		text = "unknown tool_call_id " + id
	case body["response_format"] != nil:
		text = formatAnswer
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		msg := fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`, openAIToolID)
		finish := "tool_calls"
		if text != "" {
			msg, finish = fmt.Sprintf(`{"role":"assistant","content":%q}`, text), "stop"
		}
		fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"model-test","choices":[{"index":0,"message":%s,"finish_reason":%q}],%s}`,
			msg, finish, openAIUsage)
		return
	}
	chunk := func(delta, finish string) [2]string {
		return [2]string{"", `{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1,"model":"model-test","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`}
	}
	tail := [][2]string{{"", `{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1,"model":"model-test","choices":[],` + openAIUsage + `}`}, {"", "[DONE]"}}
	if text != "" {
		sse(w, append([][2]string{chunk(`{"role":"assistant","content":""}`, "null"), chunk(fmt.Sprintf(`{"content":%q}`, text[:6]), "null"),
			chunk(fmt.Sprintf(`{"content":%q}`, text[6:]), "null"), chunk(`{}`, `"stop"`)}, tail...)...)
		return
	}
	sse(w, append([][2]string{
		chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"`+openAIToolID+`","type":"function","function":{"name":"get_weather","arguments":""}}]}`, "null"),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, "null"),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}`, "null"),
		chunk(`{}`, `"tool_calls"`)}, tail...)...)
}

// openAIEmbeddings answers each input with the vector [0.5, -0.25,
// 0.125] (base64 of float32s when asked), 7 prompt tokens an input.
func openAIEmbeddings(w http.ResponseWriter, body map[string]any) {
	inputs, _ := body["input"].([]any)
	vec := `[0.5,-0.25,0.125]`
	if body["encoding_format"] == "base64" {
		vec = `"AAAAPwAAgL4AAAA+"`
	}
	var data []string
	for i := range inputs {
		data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":%s}`, i, vec))
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"object":"list","data":[%s],"model":"embed-test","usage":{"prompt_tokens":%d,"total_tokens":%d}}`,
		strings.Join(data, ","), 7*len(inputs), 7*len(inputs))
}

// lastBody is the last request the fake provider received.
func (u *upstream) lastBody() map[string]any {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.bodies[len(u.bodies)-1]
}

// compact is a JSON text without the spaces between its tokens.
func compact(s string) string { return strings.Join(strings.Fields(s), "") }
