package scan

import (
	"bytes"
	"errors"
	"fmt"
)

// Formats are told apart by content, not by name or Content-Type: a
// document starting with '{' or '[' is JSON, anything else YAML. In JSON
// the top-level keys decide, whatever their order (tools sort them: a raw
// state file sorted by key has resources before terraform_version):
//   - the first key only one format has decides: document, suppressions,
//     baseline for the envelope; format_version, terraform_version,
//     planned_values, resource_changes, prior_state, lineage for Terraform
//     (a plan when it has planned_values, a state otherwise: the output of
//     `terraform show -json`, or the raw state file, tfstate.go);
//     AWSTemplateFormatVersion, Resources, Transform for CloudFormation;
//   - without one, resources makes our own format, and values or
//     configuration (which our format's exports may well carry too)
//     Terraform.
//
// A JSON document with none of them is read as our format, which then says
// what is missing. Once detectJSON meets resources, our parser reads the
// remaining keys anyway and hands the document back (foreignFormat) when
// one of them decides otherwise: no second pass over a large resource list.

type family8 uint8

const (
	famOwn family8 = iota
	famEnvelope
	famTerraform
	famCloudFormation
)

// familyOfKey tells the family a top-level key belongs to, and whether it
// decides the format on its own.
func familyOfKey(key string) (fam family8, known, decides bool) {
	switch key {
	case "resources":
		return famOwn, true, false
	case "values", "configuration":
		return famTerraform, true, false
	case "document", "suppressions", "baseline":
		return famEnvelope, true, true
	case "format_version", "terraform_version", "planned_values", "resource_changes", "prior_state", "lineage":
		return famTerraform, true, true
	case "AWSTemplateFormatVersion", "Resources", "Transform":
		return famCloudFormation, true, true
	}
	return famOwn, false, false
}

// detectJSON reads top-level keys until one decides the format, or until
// resources (our parser checks the keys after it). A document that is not
// JSON is ours (fam's zero value), its error dropped: our parser reports
// the problem in its own words.
func detectJSON(data []byte) (fam family8) {
	r := &reader{data: data, maxDepth: MaxDocumentDepth}
	defer catchAbort(new(error))
	if r.valueStart() != '{' {
		return famOwn
	}
	r.enter()
	weak := famOwn // values or configuration, and no resources
	for first := true; ; first = false {
		key, ok := r.objectKey(first)
		if !ok {
			return weak
		}
		switch f, known, decides := familyOfKey(string(key)); {
		case decides:
			return f
		case known && f == famOwn:
			return famOwn
		case known:
			weak = f
		}
		r.skip()
	}
}

// foreignFormat is what our parser returns for a document with a key that
// decides another format (after resources, which detectJSON stopped at).
type foreignFormat struct{ fam family8 }

func (e *foreignFormat) Error() string { return "not our format" }

// looksJSON tells JSON from YAML by the first character: an object, an
// array, a string or a number (YAML documents of interest start with a key,
// "---" or a comment). An empty document goes to our parser, which says so.
func looksJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 {
		return true
	}
	switch c := t[0]; {
	case c == '{' || c == '[' || c == '"' || isDigit(c):
		return true
	case c == '-':
		return len(t) > 1 && isDigit(t[1])
	}
	for _, lit := range []string{"true", "false", "null"} {
		if string(bytes.TrimSpace(t)) == lit {
			return true
		}
	}
	return false
}

// validateJSON checks the syntax, nesting and keys of a document the
// adapters then decode with encoding/json, so errors have lines and our
// wording, and no key given twice reaches encoding/json, which would keep
// the last copy.
func validateJSON(data []byte) error {
	return readDocument(data, func(r *reader) {
		r.uniqueKeys = true
		r.skip()
	})
}

// scanDocument dispatches a UTF-8 document to its adapter. nested is true
// for the document inside an envelope.
func scanDocument(data []byte, env *envelope, nested bool) (*Result, error) {
	if !looksJSON(data) {
		if looksHCL(data) { // a .tf file pasted alone
			return scanHCL([]File{{Path: "main.tf", Data: data}}, env, true)
		}
		return scanYAML(data, env, nested)
	}
	res, err := scanFamily(data, env, nested, detectJSON(data))
	var ff *foreignFormat
	if errors.As(err, &ff) {
		return scanFamily(data, env, nested, ff.fam)
	}
	return res, err
}

// scanFamily scans a JSON document as a document of family fam.
func scanFamily(data []byte, env *envelope, nested bool, fam family8) (*Result, error) {
	switch fam {
	case famEnvelope:
		if nested {
			return nil, &ValidationError{Problems: []Problem{{Path: "document", Message: "an envelope cannot hold another envelope"}}}
		}
		if err := validateJSON(data); err != nil {
			return nil, err
		}
		doc, err := env.parse(data)
		if err != nil {
			return nil, err
		}
		res, err := scanDocument(doc, env, true)
		if err != nil {
			return nil, err
		}
		env.finish(res)
		return res, nil
	case famTerraform:
		return scanTerraform(data, env)
	case famCloudFormation:
		doc, lines, err := readCloudFormationJSON(data)
		if err != nil {
			return nil, err
		}
		return scanCloudFormation(doc, FormatCloudFormationJSON, lines, env)
	}
	return scanOwn(data, env)
}

// scanYAML reads a YAML document: a CloudFormation template, or an
// envelope (envelope_yaml.go).
func scanYAML(data []byte, env *envelope, nested bool) (*Result, error) {
	v, lines, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, &ValidationError{Problems: []Problem{{Message: fmt.Sprintf(
			"the YAML document must be a mapping: a CloudFormation template or an envelope, got %s", yamlKind(v))}}}
	}
	for k := range m {
		if f, _, _ := familyOfKey(k); f == famEnvelope {
			if nested {
				return nil, &ValidationError{Problems: []Problem{{Path: "document", Message: "an envelope cannot hold another envelope"}}}
			}
			return scanYAMLEnvelope(m, lines.of("document.Resources"), env)
		}
	}
	if _, ok := m["Resources"]; ok {
		return scanCloudFormation(m, FormatCloudFormationYAML, lines.of("Resources"), env)
	}
	return nil, &ValidationError{Problems: []Problem{{Path: "Resources",
		Message: "YAML is read for CloudFormation templates, which need a Resources mapping; Terraform and our own format are JSON"}}}
}

func yamlKind(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case []any:
		return "a sequence"
	}
	return "a scalar"
}
