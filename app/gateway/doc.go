// Package gateway is the LLM chat-proxy core behind POST /gateway/v1/chat,
// POST /gateway/v1/messages (Anthropic Messages API compatible) and the
// playground. It knows nothing of our HTTP routes, keys, quotas or database:
// the handlers do that around it.
//
// A handler parses the body with ParseChatRequest or ParseMessagesRequest
// (p.Defaults() supplies the configured model and max_tokens), then calls the
// Proxy built once at start-up with New:
//
//	req, err := gateway.ParseChatRequest(body, p.Defaults())
//	if err != nil { return err }                    // *gateway.Error, 400
//	if !req.Stream {
//		msg, report, err := p.Complete(ctx, req)    // msg marshals to the Messages shape
//		audit(report)
//		if err != nil { return err }                // *gateway.Error: Status, Code, Message, RetryAfter
//		return c.JSON(200, msg)
//	}
//	sse := gateway.NewSSEWriter(w)                  // set other headers on w first
//	_, report, err := p.Stream(ctx, req, sse.Send)
//	audit(report)
//	if err != nil && !sse.Started() { return err }  // nothing sent yet: a normal error response
//	return nil                                      // else the stream already ended with an error event
//
// On the Messages-compatible endpoint errors are answered with
// e.AnthropicStatus() and e.AnthropicJSON() instead, so the official SDKs
// raise the exception class they would against Anthropic.
//
// Every error the package returns is an *Error whose Message is safe to show
// a client: the upstream key is never in it.
package gateway
