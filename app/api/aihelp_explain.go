package api

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/logs"
	"parapet/app/meter"
	"parapet/app/redact"
	"parapet/app/toolsai"
)

// explainRequest is POST /logs/v1/explain's body.
type explainRequest struct {
	Text        *string `json:"text"`
	TemplateIDs []int   `json:"template_ids"`
}

// explanation is the answer: the model's text (Markdown, to be shown as
// text) and what it was about.
type explanation struct {
	Explanation string                      `json:"explanation"`
	Model       string                      `json:"model"`
	Templates   []toolsai.ExplainedTemplate `json:"templates"`
	Masked      []redact.Mask               `json:"masked"`
	Usage       gateway.Usage               `json:"usage"`
}

// Explain answers POST /logs/v1/explain (and the analyzer page's Explain,
// as who): the log is analysed as POST /logs/v1/analyze does with its
// default options, the templates named (or, with none, the analysis's
// main ones) are explained by the model through the gateway, as the
// organization. Nothing is stored. With Accept: text/event-stream the
// explanation streams: meta (templates, masked, model), delta… (text),
// done (usage), or error.
func (a *API) Explain(who AICaller) echo.HandlerFunc {
	return func(c echo.Context) error {
		caller, err := who(c)
		if err != nil {
			return err
		}
		if err := httpx.RequireJSON(c); err != nil {
			return err
		}
		req, err := decodeBody[explainRequest](readLogBody(c, maxLogsJSONBytes))
		if err != nil {
			return err
		}
		if req.Text == nil {
			return apierr.InvalidRequest("text is required: the log that was analysed, one entry per line")
		}
		var ex *toolsai.Explanation
		err = a.analysis(c, len(*req.Text), func() error {
			ctx, cancel := context.WithTimeout(c.Request().Context(), logs.Timeout)
			defer cancel()
			ex, err = toolsai.Explain(ctx, []byte(*req.Text), req.TemplateIDs)
			return err
		})
		var bad *toolsai.InputError
		switch {
		case errors.As(err, &bad):
			return apierr.InvalidRequest("%s", bad.Msg)
		case err != nil:
			return logsError(err)
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		out := explanation{Templates: ex.Templates, Masked: ex.Masked}
		reply := func(c echo.Context, msg *gateway.Message) error {
			out.Explanation, out.Model, out.Usage = msg.Text(), msg.Model, msg.Usage
			return answer(c, out)
		}
		var stream func(*gateway.SSEWriter) meter.Sink
		if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/event-stream") {
			stream = func(sse *gateway.SSEWriter) meter.Sink { return &explainStream{sse: sse, out: &out} }
		}
		return a.aiCall(c, caller, "logs.explain", ex.Prompt, reply, stream)
	}
}

// explainStream writes an explanation's events: meta, delta…, done, or
// error.
type explainStream struct {
	sse *gateway.SSEWriter
	out *explanation
}

func (s *explainStream) Send(ev gateway.Event) error {
	switch ev.Type {
	case gateway.EventMessageStart:
		if ev.Message != nil {
			s.out.Model, s.out.Usage = ev.Message.Model, ev.Message.Usage
		}
		return s.write("meta", map[string]any{"model": s.out.Model, "templates": s.out.Templates, "masked": s.out.Masked})
	case gateway.EventContentBlockDelta:
		return s.write("delta", map[string]string{"text": ev.Text})
	case gateway.EventMessageDelta:
		if ev.Usage != nil {
			s.out.Usage.OutputTokens = ev.Usage.OutputTokens
			if ev.Usage.InputTokens > 0 {
				s.out.Usage.InputTokens = ev.Usage.InputTokens
			}
		}
	case gateway.EventMessageStop:
		return s.write("done", map[string]any{"usage": s.out.Usage})
	}
	return nil
}

// SendError ends a started stream with the error in the API's shape.
func (s *explainStream) SendError(e *apierr.Error, requestID string) error {
	return s.write("error", map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message, "request_id": requestID}})
}

func (s *explainStream) write(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.sse.Write(name, b)
}
