package scan

import (
	"encoding/json"
)

// An envelope written in YAML is read as YAML: its document, when it is a
// template (a mapping with Resources), keeps its format
// (cloudformation_yaml) and the lines of its resources, instead of being
// re-encoded as JSON, which lost both (and sorted the resources by name).
// Its suppressions and baseline are small and read as the JSON envelope's
// are, each re-encoded. A document in a string is read as in a JSON
// envelope; another mapping (our format, a plan) is JSON's business and is
// re-encoded as JSON, whose formats they are.

// scanYAMLEnvelope scans an envelope read from YAML: m, with the lines
// of the resources of its document.
func scanYAMLEnvelope(m map[string]any, lines map[string]int, env *envelope) (*Result, error) {
	var problems []Problem
	for k := range m {
		if k != "document" && k != "suppressions" && k != "baseline" {
			return nil, validationError([]Problem{unknownField(k)})
		}
	}
	var list []json.RawMessage
	switch s := m["suppressions"].(type) {
	case nil:
	case []any:
		for _, v := range s {
			list = append(list, mustJSON(v))
		}
	default:
		problems = append(problems, Problem{Path: "suppressions", Message: "must be a list of suppressions"})
	}
	if err := env.readSuppressions(list, &problems); err != nil {
		return nil, err
	}
	doc := m["document"]
	if doc == nil {
		problems = append(problems, Problem{Path: "document", Message: "is required: the plan, state, template or resource list to scan"})
	}
	if b, ok := m["baseline"]; ok && b != nil {
		env.readBaseline(mustJSON(b), &problems)
	}
	if len(problems) > 0 {
		return nil, validationError(problems)
	}
	res, err := scanYAMLDocument(doc, lines, env)
	if err != nil {
		return nil, err
	}
	env.finish(res)
	return res, nil
}

// scanYAMLDocument scans the document of a YAML envelope.
func scanYAMLDocument(doc any, lines map[string]int, env *envelope) (*Result, error) {
	if s, ok := doc.(string); ok {
		text, err := decodeText([]byte(s))
		if err != nil {
			return nil, err
		}
		return scanDocument(text, env, true)
	}
	if m, ok := doc.(map[string]any); ok {
		if _, ok := m["Resources"]; ok {
			return scanCloudFormation(m, FormatCloudFormationYAML, lines, env)
		}
	}
	return scanDocument(mustJSON(doc), env, true)
}

// mustJSON encodes a value read from YAML, which is always encodable (its
// maps have string keys; its numbers are finite).
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
