package api_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// loopResult is what a tool-use loop script prints for one loop.
type loopResult struct {
	FirstStop string            `json:"first_stop"`
	Tool      string            `json:"tool"`
	Input     map[string]string `json:"input"`
	ID        string            `json:"id"`
	LastStop  string            `json:"last_stop"`
	Text      string            `json:"text"`
}

// Each official SDK runs a whole tool-use loop, streamed and not, against
// a fake provider of each style: the tool call reaches the client with
// the provider's id, its input whole (streamed as input_json_delta or as
// tool-call argument fragments), and the result goes back to the
// provider in its own form under that same id, which the fake checks
// before it answers.
func TestOfficialSDKsToolLoop(t *testing.T) {
	for _, sdk := range []struct{ script, pkg, base, toolStop, endStop string }{
		{"anthropic_sdk_tools.mjs", "@anthropic-ai/sdk", "/gateway", "tool_use", "end_turn"},
		{"openai_sdk_tools.mjs", "openai", "/gateway/v1", "tool_calls", "stop"},
	} {
		for _, style := range []string{"messages", "openai"} {
			t.Run(sdk.pkg+" to "+style, func(t *testing.T) {
				up := agentUpstream(t, style)
				var got struct{ Plain, Stream loopResult }
				runSDK(t, sdk.script, sdk.pkg, sdk.base, &got, agentOptions(up, style)...)
				id := map[string]string{"messages": messagesToolID, "openai": openAIToolID}[style]
				for name, r := range map[string]loopResult{"create": got.Plain, "stream": got.Stream} {
					if r.FirstStop != sdk.toolStop || r.Tool != "get_weather" || r.Input["city"] != "Paris" || r.ID != id {
						t.Errorf("%s: the tool call %+v", name, r)
					}
					if r.Text != agentAnswer || r.LastStop != sdk.endStop {
						t.Errorf("%s: the answer after the result: %q (%s), want %q", name, r.Text, r.LastStop, agentAnswer)
					}
				}
			})
		}
	}
}

// Embeddings through the openai SDK return the provider's vectors (the
// SDK's default base64 decoded by the SDK itself, and floats), are
// metered by the provider's input tokens and recorded; the embeddings
// model is listed as such. A messages-style provider refuses them by name.
func TestOfficialOpenAISDKEmbeddings(t *testing.T) {
	var got struct {
		One    []float64
		Two    [][]float64
		Usage  int
		Models []string
		Error  string
	}
	up := agentUpstream(t, "openai")
	runSDK(t, "openai_sdk_embeddings.mjs", "openai", "/gateway/v1", &got,
		append(agentOptions(up, "openai"), apptest.WithEnv("GATEWAY_EMBEDDING_MODEL", "embed-test"))...)
	want := []float64{0.5, -0.25, 0.125}
	if !reflect.DeepEqual(got.One, want) || len(got.Two) != 2 || !reflect.DeepEqual(got.Two[1], want) || got.Usage != 21 {
		t.Errorf("embeddings %+v", got)
	}
	if strings.Join(got.Models, ",") != "model-test:chat,embed-test:embeddings" {
		t.Errorf("models.list: %v", got.Models)
	}
	got.Error = ""
	runSDK(t, "openai_sdk_embeddings.mjs", "openai", "/gateway/v1", &got, agentOptions(agentUpstream(t, "messages"), "messages")...)
	if got.Error != "BadRequestError | 400 | embeddings_not_supported" {
		t.Errorf("a messages-style provider: %q", got.Error)
	}
}

// An embeddings call is admitted, metered and recorded like a chat: its
// input tokens in the audit record and the month's usage.
func TestGatewayEmbeddingsMetered(t *testing.T) {
	up := agentUpstream(t, "openai")
	env := apptest.New(t, apptest.Databases(t)[0], append(agentOptions(up, "openai"), apptest.WithEnv("GATEWAY_EMBEDDING_MODEL", "embed-test"))...)
	s := env.Seed(t, "embed@example.com")
	res := env.Client().PostJSON("/gateway/v1/embeddings", `{"input":["a","b","c"]}`, bearer(s.Key)...)
	if res.StatusCode != 200 || !strings.Contains(res.Body, `"prompt_tokens":21`) || res.Header.Get("X-Quota-Remaining") == "" {
		t.Fatalf("%d %s", res.StatusCode, res.Body)
	}
	if up.lastBody()["model"] != "embed-test" {
		t.Errorf("the provider got %v", up.lastBody())
	}
	for body, want := range map[string]string{
		`{"input":[]}`:                           "input must be a string or an array of 1 to 2048 strings",
		`{"input":[[1,2]]}`:                      "input[0] is not supported as token ids",
		`{"input":"a","encoding_format":"int8"}`: `encoding_format must be \"float\" or \"base64\"`,
		`{"input":"a","dimensions":0}`:           "dimensions must be an integer between 1 and 4096",
	} {
		if res := env.Client().PostJSON("/gateway/v1/embeddings", body, bearer(s.Key)...); res.StatusCode != 400 || !strings.Contains(res.Body, want) {
			t.Errorf("%s: %d %s", body, res.StatusCode, res.Body)
		}
	}
	e := waitEvents(t, env, 5)[0]
	if *e.InputTokens != 21 || *e.OutputTokens != 0 || *e.Model != "embed-test" || *e.Status != 200 {
		t.Errorf("recorded %+v", e)
	}
	a, err := models.AllowanceOf(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
	if err != nil || a.UsedTokens != 21 {
		t.Errorf("the quota counted %d (%v)", a.UsedTokens, err)
	}
}

// The openai SDK's Responses API against a provider of each style: a
// whole tool loop with responses.create and with responses.stream (whose
// helper checks every event against the response it rebuilds), the
// stream's event types, and a stateful call refused as a BadRequestError.
func TestOfficialOpenAISDKResponses(t *testing.T) {
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			var got struct {
				Plain, Stream struct {
					FirstStatus string `json:"first_status"`
					Tool, ID    string
					Input       map[string]any `json:"input"`
					LastStatus  string         `json:"last_status"`
					Text        string
					Usage       int
				}
				Events  []string
				Refused string
			}
			runSDK(t, "openai_sdk_responses.mjs", "openai", "/gateway/v1", &got, agentOptions(up, style)...)
			id := map[string]string{"messages": messagesToolID, "openai": openAIToolID}[style]
			if !reflect.DeepEqual(got.Stream, got.Plain) {
				t.Errorf("responses.stream: %+v, responses.create: %+v", got.Stream, got.Plain)
			}
			p := got.Plain
			if p.FirstStatus != "completed" || p.Tool != "get_weather" || p.Input["city"] != "Paris" || p.ID != id ||
				p.LastStatus != "completed" || p.Text != agentAnswer || p.Usage != 110 {
				t.Errorf("the tool loop %+v", p)
			}
			want := "response.created response.in_progress response.output_item.added response.function_call_arguments.delta " +
				"response.function_call_arguments.done response.output_item.done response.completed"
			if strings.Join(got.Events, " ") != want {
				t.Errorf("events %v", got.Events)
			}
			if !strings.HasPrefix(got.Refused, `BadRequestError 400 400 "previous_response_id" is not supported`) { // the message starts with the status
				t.Errorf("previous_response_id: %q", got.Refused)
			}
		})
	}
}

// The Vercel AI SDK's default OpenAI model speaks the Responses API: a
// tool loop with generateText and with streamText (each step's call, the
// tool's result, the answer), and generateObject, against a provider of
// each style (CI installs the AI SDK beside the official SDKs).
func TestAISDKResponses(t *testing.T) {
	for _, style := range []string{"messages", "openai"} {
		t.Run(style, func(t *testing.T) {
			up := agentUpstream(t, style)
			type loop struct {
				Text  string
				Steps int
				Calls [][]string
				Parts []string
				Usage int
			}
			var got struct {
				Generate, Stream loop
				Object           struct {
					City  string
					Sunny bool
				}
			}
			runSDK(t, "ai_sdk_responses.mjs", "ai", "/gateway/v1", &got, agentOptions(up, style)...)
			if g := got.Generate; g.Text != agentAnswer || g.Steps != 2 || !reflect.DeepEqual(g.Calls, [][]string{{"get_weather", "Paris"}}) || g.Usage != 220 {
				t.Errorf("generateText: %+v", g)
			}
			s := got.Stream
			for _, part := range []string{"tool-input-delta", "tool-call", "tool-result", "text-delta", "finish"} {
				if !slices.Contains(s.Parts, part) {
					t.Errorf("streamText: no %s part in %v", part, s.Parts)
				}
			}
			if s.Text != agentAnswer || s.Steps != 2 || s.Usage != 220 {
				t.Errorf("streamText: %+v", s)
			}
			if got.Object.City != "Paris" || !got.Object.Sunny {
				t.Errorf("generateObject: %+v", got.Object)
			}
		})
	}
}
