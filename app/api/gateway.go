package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/meter"
)

// The gateway's API endpoints are thin dialect adapters over the one
// gateway service (meter.Service), which admits, calls and records every
// call. An adapter only says how its dialect reads a request and writes
// the answer, the stream and (in the central error handler) the errors.

// Chat answers POST /gateway/v1/chat: our request shape, the Messages
// response shape (a JSON message, or its event stream with "stream":true).
func (a *API) Chat(c echo.Context) error {
	return a.Gateway.Serve(c, caller(c), chatDialect)
}

// Messages answers POST /gateway/v1/messages: an Anthropic Messages API
// request as-is, answered as that API would, so the official SDKs work
// when pointed at the gateway.
func (a *API) Messages(c echo.Context) error {
	return a.Gateway.Serve(c, caller(c), messagesDialect)
}

// ChatCompletions answers POST /gateway/v1/chat/completions as OpenAI's
// Chat Completions API does, so the official openai SDKs work unmodified
// with baseURL = the gateway's /gateway/v1.
func (a *API) ChatCompletions(c echo.Context) error {
	return a.Gateway.Serve(c, caller(c), openAIDialect)
}

// Responses answers POST /gateway/v1/responses as OpenAI's Responses API
// does, statelessly (nothing is stored: each call sends its whole input),
// for the clients that speak only it: the AI SDK's openai(model), the
// OpenAI Agents SDK, Codex.
func (a *API) Responses(c echo.Context) error {
	return a.Gateway.Serve(c, caller(c), responsesDialect)
}

// Embeddings answers POST /gateway/v1/embeddings as OpenAI's API does,
// served by an openai-style provider (or the demo); a messages-style
// provider answers 400 embeddings_not_supported.
func (a *API) Embeddings(c echo.Context) error {
	return a.Gateway.ServeEmbeddings(c, caller(c))
}

func caller(c echo.Context) meter.Caller {
	p := Principal(c)
	return meter.Caller{OrgID: p.OrgID, KeyID: p.KeyID}
}

var chatDialect = meter.Dialect{Name: "chat", Parse: gateway.ParseChatRequest, Reply: replyMessage, Stream: messagesStream}

var messagesDialect = meter.Dialect{Name: "messages", Parse: gateway.ParseMessagesRequest, Reply: replyMessage, Stream: messagesStream,
	ErrorStatus: (*apierr.Error).AnthropicStatus,
	Prepare: func(c echo.Context, req *gateway.Request) {
		req.AnthropicBeta = c.Request().Header.Values("Anthropic-Beta")
	}}

var openAIDialect = meter.Dialect{Name: "openai", Parse: gateway.ParseCompletionsRequest,
	Reply: func(c echo.Context, _ *gateway.Request, msg *gateway.Message) error {
		b, err := json.Marshal(gateway.NewCompletion(msg, time.Now()))
		if err != nil {
			return err
		}
		return replyJSON(c, b)
	},
	Stream: func(sse *gateway.SSEWriter, req *gateway.Request) meter.Sink {
		return gateway.NewCompletionStream(sse, req, time.Now())
	}}

var responsesDialect = meter.Dialect{Name: "responses", Parse: gateway.ParseResponsesRequest,
	Reply: func(c echo.Context, req *gateway.Request, msg *gateway.Message) error {
		b, err := json.Marshal(gateway.NewResponse(req, msg, time.Now()))
		if err != nil {
			return err
		}
		return replyJSON(c, b)
	},
	Stream: func(sse *gateway.SSEWriter, req *gateway.Request) meter.Sink {
		return gateway.NewResponseStream(sse, req, time.Now())
	}}

func replyMessage(c echo.Context, _ *gateway.Request, msg *gateway.Message) error {
	b, err := msg.JSON()
	if err != nil {
		return err
	}
	return replyJSON(c, b)
}

// replyJSON sends a call's answer, with its length, and pushes it out at
// once: the client has the whole answer before the call's record, the
// access log line and the metrics are written, which the handler does
// after, off the client's wait.
func replyJSON(c echo.Context, b []byte) error {
	b = append(b, '\n') // as c.JSON ends it
	r := c.Response()
	r.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	r.Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	r.WriteHeader(http.StatusOK)
	if _, err := r.Write(b); err != nil {
		return err
	}
	r.Flush()
	return nil
}

func messagesStream(sse *gateway.SSEWriter, _ *gateway.Request) meter.Sink { return sse }

// CountTokens answers POST /gateway/v1/messages/count_tokens as the
// Messages API does ({"input_tokens":N}): the upstream's own count when it
// offers one, else gateway.EstimateInputTokens; the X-Token-Count header
// says which ("upstream" or "estimated"). Counting is never billed; a
// model outside the caller's policies is refused as a call is.
func (a *API) CountTokens(c echo.Context) error {
	p := Principal(c)
	if err := a.Gateway.Entitled(c.Request().Context(), p.OrgID); err != nil {
		return err
	}
	req, err := a.Gateway.ReadRequest(c, gateway.ParseCountTokensRequest)
	if err != nil {
		return err
	}
	// A model the caller may not call is not counted either: the count
	// asks the provider, with the provider's key.
	if err := a.Gateway.Allowed(c.Request().Context(), caller(c), req.Model); err != nil {
		return err
	}
	req.AnthropicBeta = c.Request().Header.Values("Anthropic-Beta")
	n, estimated := a.Gateway.Proxy.CountTokens(c.Request().Context(), req)
	source := "upstream"
	if estimated {
		source = "estimated"
	}
	c.Response().Header().Set("X-Token-Count", source)
	return c.JSON(http.StatusOK, map[string]int{"input_tokens": n})
}

// Models answers GET /gateway/v1/models with the models this organization
// may call, in a list both official SDKs read: OpenAI's object "list" /
// "model" with created, and Anthropic's type "model", display_name,
// created_at and the page fields has_more, first_id, last_id, paged as
// Anthropic's (limit, after_id, before_id): GATEWAY_CONFIG's model names
// (or the default model) that the organization's and the key's model
// policies allow.
func (a *API) Models(c echo.Context) error {
	if err := a.Gateway.Entitled(c.Request().Context(), Principal(c).OrgID); err != nil {
		return err
	}
	q := c.QueryParams()
	limit := 20 // Anthropic's default page
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return apierr.InvalidRequest("limit must be an integer between 1 and 1000")
		}
		limit = n
	}
	after, before := q.Get("after_id"), q.Get("before_id")
	if after != "" && before != "" {
		return apierr.InvalidRequest("after_id and before_id cannot both be given")
	}
	l, err := a.Gateway.ModelsFor(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l.Page(after, before, limit))
}

// Model answers GET /gateway/v1/models/{model_id} with one model of the
// list, in the shape both SDKs' models.retrieve read (the list's items'
// shape). A model not in the list is 404, in Anthropic's shape, which the
// openai SDK reads as NotFoundError too.
func (a *API) Model(c echo.Context) error {
	if err := a.Gateway.Entitled(c.Request().Context(), Principal(c).OrgID); err != nil {
		return err
	}
	id := c.Param("model_id")
	if u, err := url.PathUnescape(id); err == nil {
		id = u // the SDKs escape the id, "/" included
	}
	m, ok, err := a.Gateway.ModelFor(c.Request().Context(), caller(c), id)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.NotFound(fmt.Sprintf("model %q is not available to this organization: GET /gateway/v1/models lists those that are", id))
	}
	return c.JSON(http.StatusOK, m)
}
