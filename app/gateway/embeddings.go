package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"
	"unicode/utf8"
)

// Embeddings: POST /gateway/v1/embeddings in OpenAI's shape, served by an
// openai-style provider (or the demo); a messages-style provider has none.

// Limits of an embeddings request: OpenAI's.
const (
	MaxEmbeddingInputs     = 2048
	MaxEmbeddingDimensions = 4096
)

// CodeEmbeddingsNotSupported answers an embeddings call when the
// provider's style has no embeddings (400).
const CodeEmbeddingsNotSupported = "embeddings_not_supported"

// EmbeddingsRequest is a validated embeddings request.
type EmbeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     *int     `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format,omitempty"` // "float" or "base64"
	User           string   `json:"user,omitempty"`
}

// InputTokensBound bounds the input's tokens as a chat's: a token per
// byte at most, and FramingTokensBound per input.
func (r *EmbeddingsRequest) InputTokensBound() int {
	n := 0
	for _, s := range r.Input {
		n += len(s) + FramingTokensBound
	}
	return n
}

// ParseEmbeddingsRequest validates {"model","input": a string or an array
// of strings, "dimensions","encoding_format":"float"|"base64","user"}.
// Inputs as token ids (arrays of integers) are refused by name: their
// tokens are one provider's.
func ParseEmbeddingsRequest(body []byte, d Defaults) (*EmbeddingsRequest, error) {
	req, err := parseEmbeddings(body, d)
	if err != nil {
		return nil, err
	}
	return req, nil
}

func parseEmbeddings(body []byte, d Defaults) (*EmbeddingsRequest, *Error) {
	top, err := decodeTop(body, refusal{}, "model", "input", "dimensions", "encoding_format", "user")
	if err != nil {
		return nil, err
	}
	req := &EmbeddingsRequest{EncodingFormat: "float"}
	if req.Model, err = parseModelField(top, d.EmbeddingModel); err != nil {
		return nil, err
	}
	raw, ok := top.get("input")
	if !ok {
		return nil, invalid("input is required")
	}
	if s, ok := asString(raw); ok {
		raw = []any{s}
	}
	items, ok := asArray(raw)
	if !ok || len(items) == 0 || len(items) > MaxEmbeddingInputs {
		return nil, invalid("input must be a string or an array of 1 to %d strings", MaxEmbeddingInputs)
	}
	for i, item := range items {
		s, ok := asString(item)
		if _, isNumber := item.(json.Number); isNumber || isTokenArray(item) {
			return nil, invalid("%s is not supported as token ids: send text", index("input", i))
		}
		if !ok || s == "" || !utf8.ValidString(s) {
			return nil, invalid("%s must be a non-empty string", index("input", i))
		}
		req.Input = append(req.Input, s)
	}
	if raw, ok := top.get("dimensions"); ok {
		n, ok := asInt(raw)
		if !ok || n < 1 || n > MaxEmbeddingDimensions {
			return nil, invalid("dimensions must be an integer between 1 and %d", MaxEmbeddingDimensions)
		}
		req.Dimensions = &n
	}
	if raw, ok := top.get("encoding_format"); ok {
		if raw != "float" && raw != "base64" {
			return nil, invalid(`encoding_format must be "float" or "base64"`)
		}
		req.EncodingFormat = raw.(string)
	}
	if raw, ok := top.get("user"); ok {
		if req.User, err = parseUserID("user", raw); err != nil {
			return nil, err
		}
	}
	return req, nil
}

func isTokenArray(v any) bool {
	items, ok := asArray(v)
	if !ok || len(items) == 0 {
		return false
	}
	_, isNumber := items[0].(json.Number)
	return isNumber
}

// Embeddings is the answer, in OpenAI's shape.
type Embeddings struct {
	Object string      `json:"object"` // "list"
	Data   []Embedding `json:"data"`
	Model  string      `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

// Embedding is one input's vector: an array of floats, or base64 of
// little-endian float32s (encoding_format).
type Embedding struct {
	Object    string          `json:"object"` // "embedding"
	Index     int             `json:"index"`
	Embedding json.RawMessage `json:"embedding"`
}

// embedder is an Upstream that serves embeddings.
type embedder interface {
	Embed(ctx context.Context, req *EmbeddingsRequest) (*Embeddings, error)
}

// embedderOf is the first target of model's route that serves
// embeddings, or nil.
func (p *Proxy) embedderOf(model string) (*target, embedder) {
	r, err := p.routeOf(model)
	if err != nil {
		return nil, nil
	}
	for _, t := range r.targets {
		if e, ok := t.up.(embedder); ok {
			return t, e
		}
	}
	return nil, nil
}

// Embed answers req through the provider, under the non-streamed call's
// total timeout; the Report carries the input tokens (checked against the
// bound, estimated when the provider reported none).
func (p *Proxy) Embed(ctx context.Context, req *EmbeddingsRequest) (*Embeddings, Report, error) {
	start := time.Now()
	rep := Report{Model: req.Model}
	fail := func(e *Error) (*Embeddings, Report, error) {
		rep.Latency, rep.Status, rep.ErrorCode = time.Since(start), e.Status, e.Code
		return nil, rep, e
	}
	t, up := p.embedderOf(req.Model)
	if up == nil {
		return fail(&Error{Status: http.StatusBadRequest, Code: CodeEmbeddingsNotSupported,
			Message: fmt.Sprintf("no provider of model %q serves embeddings (the messages style has none)", req.Model)})
	}
	if t.model != "" {
		r := *req
		r.Model = t.model
		req = &r
	}
	rep.Provider, rep.TargetModel = t.provider, req.Model
	rep.price, rep.priceVersion = t.price, t.priceVersion
	sc := t.scrub.sparing(func() []string { return append([]string{req.Model, req.User}, req.Input...) })
	callCtx, cancel := context.WithTimeoutCause(withScrubber(ctx, sc), p.cfg.Timeout, errTotalTimeout)
	defer cancel()
	emb, err := up.Embed(callCtx, req)
	if e := p.classify(ctx, callCtx, err); e != nil {
		return fail(e)
	}
	if len(emb.Data) != len(req.Input) {
		return fail(errInvalidResponse(fmt.Errorf("%d embeddings for %d inputs", len(emb.Data), len(req.Input))))
	}
	emb.Object, emb.Model = "list", cleanName(sc.scrub(modelOr(emb.Model, req.Model)), maxModelLen)
	for i := range emb.Data {
		emb.Data[i].Object, emb.Data[i].Index = "embedding", i
	}
	n, bound := emb.Usage.PromptTokens, req.InputTokensBound()
	switch {
	case n <= 0:
		n, rep.UsageFlag = (bound+EstimateBytesPerToken-1)/EstimateBytesPerToken, UsageEstimated
	case n > bound:
		n, rep.UsageFlag = bound, UsageClamped
	}
	emb.Usage.PromptTokens, emb.Usage.TotalTokens = n, n
	rep.Model, rep.Usage, rep.Status, rep.Latency = emb.Model, Usage{InputTokens: n}, http.StatusOK, time.Since(start)
	return emb, rep, nil
}

// Embed calls POST {URL}/v1/embeddings.
func (a *openAIAdapter) Embed(ctx context.Context, req *EmbeddingsRequest) (*Embeddings, error) {
	resp, err := a.http.post(ctx, "/v1/embeddings", req, false, nil)
	if err != nil {
		return nil, err
	}
	var e Embeddings
	if err := readJSON(resp, &e); err != nil {
		return nil, err
	}
	for _, d := range e.Data {
		if len(d.Embedding) == 0 {
			return nil, errInvalidResponse(errors.New("an embedding without its vector"))
		}
	}
	return &e, nil
}

// demoDimensions is the demo's vector size when a request names none.
const demoDimensions = 16

// Embed makes each input a deterministic unit vector from its SHA-256, so
// the same text always has the same vector; usage counts its words.
func (d *Demo) Embed(ctx context.Context, req *EmbeddingsRequest) (*Embeddings, error) {
	dims := demoDimensions
	if req.Dimensions != nil {
		dims = *req.Dimensions
	}
	e := &Embeddings{Model: req.Model}
	for i, text := range req.Input {
		vec := demoVector(text, dims)
		var raw []byte
		if req.EncodingFormat == "base64" {
			b := make([]byte, 4*len(vec))
			for j, f := range vec {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(f))
			}
			raw, _ = json.Marshal(base64.StdEncoding.EncodeToString(b))
		} else {
			raw, _ = json.Marshal(vec)
		}
		e.Data = append(e.Data, Embedding{Index: i, Embedding: raw})
		e.Usage.PromptTokens += max(1, countWords(text))
	}
	return e, ctx.Err()
}

func demoVector(text string, dims int) []float32 {
	vec := make([]float32, dims)
	var norm float64
	for i := range vec {
		h := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", i, text)))
		v := float64(binary.BigEndian.Uint32(h[:4]))/math.MaxUint32*2 - 1
		vec[i], norm = float32(v), norm+v*v
	}
	for i := range vec {
		vec[i] = float32(float64(vec[i]) / math.Sqrt(norm))
	}
	return vec
}
