package gateway

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
)

// The request parsers decode JSON objects field by field rather than into
// structs, so that every problem is reported with its exact path and in words
// a client understands ("max_tokens must be an integer between 1 and 4096"),
// never as a Go type error.

// object is a decoded JSON object and where it sits in the request.
type object struct {
	path   string // "" for the top level, else e.g. "messages[2]"
	fields map[string]json.RawMessage
}

// decodeObject reads raw as a JSON object; ok is false for anything else.
func decodeObject(raw json.RawMessage, path string) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return object{}, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return object{}, false
	}
	return object{path: path, fields: fields}, true
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
// field that is not known.
func (o object) only(known ...string) *Error {
	var unknown []string
	for k := range o.fields {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return invalid("unknown field %q", o.name(unknown[0]))
}

// get returns a field's raw value; a JSON null counts as absent, so clients
// that serialise unset options as null are not refused.
func (o object) get(key string) (json.RawMessage, bool) {
	raw, ok := o.fields[key]
	if !ok || isNull(raw) {
		return nil, false
	}
	return raw, true
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// asString decodes a JSON string; ok is false for any other JSON type.
func asString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// asInt decodes a JSON number that is an integer (no fraction, no exponent).
func asInt(raw json.RawMessage) (int, bool) {
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	return n, err == nil
}

// asNumber decodes any JSON number.
func asNumber(raw json.RawMessage) (float64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	var f float64
	return f, json.Unmarshal(raw, &f) == nil
}

func asBool(raw json.RawMessage) (bool, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// asArray decodes a JSON array into its raw elements.
func asArray(raw json.RawMessage) ([]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	return items, json.Unmarshal(raw, &items) == nil
}
