// Package gateway is the LLM chat-proxy core: request parsers for each
// dialect (our /chat, Anthropic's Messages, OpenAI's Chat Completions and
// Responses), the upstream adapters (Messages or OpenAI style, or the
// in-process demo), streaming, deadlines, usage checks and the encoders of each
// dialect's answer. It knows nothing of our routes, keys, quotas or
// database: the gateway service (app/meter) admits, calls and records
// around it.
//
// The service parses a body with a dialect's parser (p.Defaults() supplies
// the configured model and max_tokens), then calls the Proxy built once
// at start-up with New:
//
//	req, err := gateway.ParseChatRequest(body, p.Defaults())  // *Error, 400
//	msg, report, err := p.Complete(ctx, req)                 // msg marshals to the Messages shape
//	// or, streamed:
//	sse := gateway.NewSSEWriter(w)                            // set other headers on w first
//	msg, report, err := p.Stream(ctx, req, sse.Send)          // or a CompletionStream's Send
//	if err != nil && sse.Started() { sse.SendError(apierr.From(err), requestID) }
//
// The Report (usage, latency, status) is filled either way. Every error
// the package returns is an *Error (app/apierr's one error type) whose
// Message is safe to show a client: no run of the upstream key is in it.
package gateway
