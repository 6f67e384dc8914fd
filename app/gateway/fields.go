package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// The request parsers decode JSON objects field by field rather than into
// structs, so that every problem is reported with its exact path and in words
// a client understands ("max_tokens must be a positive integer"),
// never as a Go type error.

// object is a decoded JSON object and where it sits in the request.
type object struct {
	path   string // "" for the top level, else e.g. "messages[2]"
	fields map[string]any
}

// decodeJSON decodes a whole body in one pass into maps, slices, strings,
// bools and numbers kept as their text (json.Number), so that the parsers
// below only look at Go values; ok is false for anything but one JSON
// value. It reads tokens with jsontext rather than encoding/json's
// reflection (a quarter of the time on a short request, which every call
// pays), keeping encoding/json's reading: a name given twice keeps its
// last value, and invalid UTF-8 is replaced (the API's body check has
// refused it before).
func decodeJSON(body []byte) (v any, ok bool) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer func() {
		dec.Reset(noBody) // the pool keeps no body alive
		decoders.Put(dec)
	}()
	// From a bytes.Buffer the decoder reads the body where it is, without
	// copying it into a buffer of its own.
	dec.Reset(bytes.NewBuffer(body), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	v, err := readValue(dec)
	if err != nil {
		return nil, false
	}
	_, err = dec.ReadToken()
	return v, err == io.EOF
}

// decoders are decodeJSON's, reused: a decoder is a large allocation, which
// every call made for a body of a few dozen bytes.
var (
	decoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}
	noBody   = bytes.NewReader(nil)
)

// schemaFields name the members that hold a JSON Schema (a tool's
// input_schema or parameters, a structured output's schema). An object
// there is kept as sent, a json.RawMessage: a schema's properties are in
// the order the model writes them (callers put "reasoning" before
// "answer"), which a map would sort.
var schemaFields = map[string]bool{"input_schema": true, "parameters": true, "schema": true}

// readValue reads the next JSON value of dec. Its recursion is bounded by
// jsontext's nesting limit.
func readValue(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		m := map[string]any{}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String()
			if schemaFields[name] && dec.PeekKind() == '{' {
				raw, err := dec.ReadValue()
				if err != nil {
					return nil, err
				}
				m[name] = json.RawMessage(bytes.Clone(raw))
				continue
			}
			if m[name], err = readValue(dec); err != nil {
				return nil, err
			}
		}
		_, err = dec.ReadToken()
		return m, err
	case '[':
		a := []any{}
		for dec.PeekKind() != ']' {
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err = dec.ReadToken()
		return a, err
	case '"':
		return tok.String(), nil
	case '0':
		return json.Number(tok.String()), nil
	case 't', 'f':
		return tok.Bool(), nil
	default: // 'n'
		return nil, nil
	}
}

// decodeObject reads v as a JSON object; ok is false for anything else.
func decodeObject(v any, path string) (object, bool) {
	fields, ok := v.(map[string]any)
	return object{path: path, fields: fields}, ok
}

// name is a field's path as error messages show it.
func (o object) name(key string) string {
	return join(o.path, key)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// only refuses the first (in sorted order, so messages are deterministic)
// field that is not known and not null (a null field is absent, see get).
func (o object) only(known ...string) *Error {
	var unknown []string
	for k, v := range o.fields {
		if v != nil && !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return invalid("unknown field %q", o.name(unknown[0]))
}

// get returns a field's value; a JSON null counts as absent, so clients
// that serialise unset options as null are not refused.
func (o object) get(key string) (any, bool) {
	v := o.fields[key]
	return v, v != nil
}

// asString reads a JSON string; ok is false for any other JSON type.
func asString(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// asInt reads a JSON number that is an integer (no fraction, no exponent).
func asInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

// asNumber reads any JSON number.
func asNumber(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func asBool(v any) (bool, bool) {
	b, ok := v.(bool)
	return b, ok
}

// asArray reads a JSON array.
func asArray(v any) ([]any, bool) {
	items, ok := v.([]any)
	return items, ok
}
