package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Upstream is one LLM provider behind the gateway: the messages and openai
// adapters, the in-process demo, or a fake in a handler's tests. The Proxy
// wraps it with timeouts, retry, error mapping and usage accounting, so an
// Upstream only speaks its provider's protocol.
type Upstream interface {
	// Complete answers req in one piece.
	Complete(ctx context.Context, req *Request) (*Message, error)

	// Stream answers req as Messages API events passed to emit in order:
	// message_start, content_block_start, content_block_delta…,
	// content_block_stop, message_delta, message_stop, with ping anywhere
	// after message_start. It returns nil only after emitting message_stop.
	// When emit fails it stops and returns emit's error. It never emits an
	// error event: it returns the error and the Proxy reports it. It calls
	// emit on the goroutine that called Stream.
	Stream(ctx context.Context, req *Request, emit func(Event) error) error
}

// Upstream styles: the wire protocol the configured provider speaks.
const (
	StyleMessages = "messages" // Anthropic Messages API (the default)
	StyleOpenAI   = "openai"   // OpenAI Chat Completions and compatible servers
)

// DemoModel is the demo upstream's model name, the default model when no
// upstream URL is configured; DemoEmbeddingModel its embeddings model.
const (
	DemoModel          = "parapet-demo"
	DemoEmbeddingModel = "parapet-demo-embedding"
)

// Config configures the Proxy. Zero durations and limits take the defaults
// noted beside them.
type Config struct {
	// URL is the provider's base URL without /v1, e.g.
	// https://api.anthropic.com; empty selects the in-process demo upstream.
	URL   string
	Key   string // sent as x-api-key (messages) or a bearer token (openai)
	Style string // StyleMessages (default) or StyleOpenAI

	Model string // default model; required with a URL, DemoModel without
	// EmbeddingModel is the default embeddings model, listed with the
	// chat model: DemoEmbeddingModel without a URL, else none (a request
	// must name one) unless configured.
	EmbeddingModel string
	MaxTokens      int // default max_tokens: 1024
	MaxTokensCap   int // largest max_tokens a request may ask for: 8192

	ConnectTimeout    time.Duration // TCP connect, then TLS handshake, each: 5s
	Timeout           time.Duration // whole non-streamed call, retry included: 120s
	FirstByteTimeout  time.Duration // a stream's first byte from the upstream: 60s
	StreamIdleTimeout time.Duration // longest silence inside a stream: 60s
	StreamMaxDuration time.Duration // a whole stream, retry included: 10m
	// DrainTimeout is how long a stream whose client left is read on, so
	// the upstream's own usage is recorded: 10s.
	DrainTimeout time.Duration

	// Routing, when set (GATEWAY_CONFIG), replaces URL, Key, Style and
	// Model: its providers, its model names and their targets.
	Routing *Routing
	// Breakers holds the targets' circuit breakers; nil lets every call
	// through.
	Breakers Breakers
	// Draining, when set, is told +1 when a call's client leaves while its
	// upstream is still read (the drain) and -1 when that call ends: the
	// draining-calls gauge, kept by the core that already watches the
	// client rather than by a second watch on every call.
	Draining func(delta float64)

	// DemoWordDelay paces the demo upstream's words (no URL); 0 streams
	// at once, which tests and benchmarks use.
	DemoWordDelay time.Duration
}

func (c Config) withDefaults() Config {
	c.URL = strings.TrimRight(strings.TrimSpace(c.URL), "/")
	c.Style = cmp.Or(c.Style, StyleMessages)
	if c.Model == "" && c.URL == "" {
		c.Model = DemoModel
	}
	if c.EmbeddingModel == "" && c.URL == "" && c.Routing == nil {
		c.EmbeddingModel = DemoEmbeddingModel
	}
	c.MaxTokens = cmp.Or(c.MaxTokens, 1024)
	c.MaxTokensCap = cmp.Or(c.MaxTokensCap, max(8192, c.MaxTokens))
	c.ConnectTimeout = cmp.Or(c.ConnectTimeout, 5*time.Second)
	c.Timeout = cmp.Or(c.Timeout, 120*time.Second)
	c.StreamIdleTimeout = cmp.Or(c.StreamIdleTimeout, 60*time.Second)
	c.FirstByteTimeout = cmp.Or(c.FirstByteTimeout, 60*time.Second)
	c.StreamMaxDuration = cmp.Or(c.StreamMaxDuration, 10*time.Minute)
	c.DrainTimeout = cmp.Or(c.DrainTimeout, 10*time.Second)
	return c
}

func (c Config) validate() error {
	var errs []error
	if c.URL != "" && c.Routing == nil {
		u, err := url.Parse(c.URL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			errs = append(errs, fmt.Errorf("upstream URL %q must be an absolute http(s) URL", c.URL))
		case strings.HasSuffix(u.Path, "/v1"):
			errs = append(errs, fmt.Errorf("upstream URL %q must not end in /v1: the gateway appends /v1/…", c.URL))
		}
		if c.Style != StyleMessages && c.Style != StyleOpenAI {
			errs = append(errs, fmt.Errorf("upstream style must be %q or %q, not %q", StyleMessages, StyleOpenAI, c.Style))
		}
		if c.Model == "" {
			errs = append(errs, errors.New("a default model is required with an upstream URL"))
		}
	}
	if c.MaxTokens < 1 || c.MaxTokensCap < c.MaxTokens {
		errs = append(errs, fmt.Errorf("max tokens (%d) must be between 1 and the cap (%d)", c.MaxTokens, c.MaxTokensCap))
	}
	if c.ConnectTimeout < 0 || c.Timeout < 0 || c.StreamIdleTimeout < 0 || c.FirstByteTimeout < 0 || c.StreamMaxDuration < 0 || c.DrainTimeout < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	return errors.Join(errs...)
}
