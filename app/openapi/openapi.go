// Package openapi holds the hand-checked OpenAPI 3.1 document of every
// JSON endpoint, served at /openapi.json, and reads it into the outline
// the /docs page shows, so the reference has one source.
package openapi

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
)

//go:embed openapi.json
var document []byte

// JSON is the document as served.
func JSON() []byte { return document }

// Doc is the subset of OpenAPI the reference page and tests read.
type Doc struct {
	Info struct {
		Title       string `json:"title"`
		Version     string `json:"version"`
		Description string `json:"description"`
	} `json:"info"`
	Tags []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tags"`
	Paths      map[string]map[string]Operation `json:"paths"`
	Components struct {
		Schemas   map[string]json.RawMessage `json:"schemas"`
		Responses map[string]Response        `json:"responses"`
	} `json:"components"`
}

// Operation is one method on one path.
type Operation struct {
	Tags        []string            `json:"tags"`
	OperationID string              `json:"operationId"`
	Summary     string              `json:"summary"`
	Description string              `json:"description"`
	Security    *[]any              `json:"security"`
	Parameters  []Parameter         `json:"parameters"`
	RequestBody *RequestBody        `json:"requestBody"`
	Responses   map[string]Response `json:"responses"`
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// RequestBody lists the accepted media types.
type RequestBody struct {
	Description string                     `json:"description"`
	Content     map[string]json.RawMessage `json:"content"`
}

// Response is a documented response (or a $ref to one).
type Response struct {
	Ref         string               `json:"$ref"`
	Description string               `json:"description"`
	Content     map[string]MediaType `json:"content"`
}

// MediaType is a response body: its schema and an example.
type MediaType struct {
	Schema  json.RawMessage `json:"schema"`
	Example json.RawMessage `json:"example"`
}

// Parse reads the embedded document.
func Parse() (*Doc, error) {
	var d Doc
	if err := json.Unmarshal(document, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// Resolve follows a response's $ref.
func (d *Doc) Resolve(r Response) Response {
	if name, ok := strings.CutPrefix(r.Ref, "#/components/responses/"); ok {
		return d.Components.Responses[name]
	}
	return r
}

// Endpoint is an operation with its method and path, for listing.
type Endpoint struct {
	Method, Path string
	Operation
}

// Endpoints lists the operations in the order of the tags, then by path
// and method.
func (d *Doc) Endpoints() []Endpoint {
	order := map[string]int{}
	for i, t := range d.Tags {
		order[t.Name] = i
	}
	var out []Endpoint
	for path, ops := range d.Paths {
		for method, op := range ops {
			out = append(out, Endpoint{Method: strings.ToUpper(method), Path: path, Operation: op})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ti, tj := tagOrder(order, out[i]), tagOrder(order, out[j])
		if ti != tj {
			return ti < tj
		}
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

func tagOrder(order map[string]int, e Endpoint) int {
	if len(e.Tags) == 0 {
		return len(order)
	}
	return order[e.Tags[0]]
}
