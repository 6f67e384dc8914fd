package toolsai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"parapet/app/scan"
)

// A document is the text of a scanned document and where its resources
// stand in it, so that one resource can be replaced without touching a
// byte of the rest (and the diff shows only the fix).
type document struct {
	format string // the scanner's name for it
	text   string
	yaml   bool // cloudformation_yaml: resources are spans of lines
	// files is Terraform source's set of files (a pasted .tf file is
	// main.tf, as the scanner names it); sent says they came as files.
	files []scan.File
	sent  bool
}

// fixable are the formats whose resources a fix can replace: ours,
// CloudFormation and Terraform source. (Terraform plans and states are
// what Terraform made from its source: a fix belongs in the source.)
var fixable = map[string]bool{"parapet": true, "cloudformation_json": true, "cloudformation_yaml": true, scan.FormatTerraformHCL: true}

// span is where one resource's source stands in the text: bytes
// [start, end) of its value (JSON), or of its lines from the key's
// (YAML); indent is the indentation its replacement takes.
type span struct {
	file       string // Terraform source: the file's path
	start, end int
	indent     string
	key        string // YAML: the key line's text up to its colon
}

// source is the text of the resource named name (by our index for our
// format), as a model is shown it: its JSON value, or its YAML value
// without the key, unindented.
func (d *document) locate(name string, index int) (span, string, error) {
	if d.yaml {
		return d.yamlSpan(name)
	}
	path := []any{"Resources", name}
	if d.format == "parapet" {
		path = []any{"resources", index}
	}
	start, end, err := jsonSpan([]byte(d.text), path)
	if err != nil {
		return span{}, "", err
	}
	ls := strings.LastIndexByte(d.text[:start], '\n') + 1
	indent := d.text[ls:start]
	if strings.TrimLeft(indent, " \t") != "" { // the value follows its key on the line
		indent = indent[:len(indent)-len(strings.TrimLeft(indent, " \t"))]
	}
	return span{start: start, end: end, indent: indent}, d.text[start:end], nil
}

// jsonSpan finds the value at path (keys and array indexes) in doc.
func jsonSpan(doc []byte, path []any) (int, int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	start := func() int {
		i := int(dec.InputOffset())
		for i < len(doc) && strings.IndexByte(" \t\r\n:,", doc[i]) >= 0 {
			i++
		}
		return i
	}
	skip := func() error { var raw json.RawMessage; return dec.Decode(&raw) }
	for _, step := range path {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, err
		}
		found := false
		switch want := step.(type) {
		case string:
			if tok != json.Delim('{') {
				return 0, 0, fmt.Errorf("%v is not an object", step)
			}
			for !found && dec.More() {
				k, err := dec.Token()
				if err != nil {
					return 0, 0, err
				}
				if found = k == want; !found {
					if err := skip(); err != nil {
						return 0, 0, err
					}
				}
			}
		case int:
			if tok != json.Delim('[') {
				return 0, 0, fmt.Errorf("not an array at %v", step)
			}
			for i := 0; !found && dec.More(); i++ {
				if found = i == want; !found {
					if err := skip(); err != nil {
						return 0, 0, err
					}
				}
			}
		}
		if !found {
			return 0, 0, fmt.Errorf("%v not found", step)
		}
	}
	s := start()
	if err := skip(); err != nil {
		return 0, 0, err
	}
	return s, int(dec.InputOffset()), nil
}

var errFlowStyle = errors.New("its Resources are written in flow style ({…}), which a fix cannot replace line by line")

// yamlSpan finds the lines of a CloudFormation YAML template's resource:
// from its key's line to the line before the next key (of Resources, or
// after it of the template), without trailing blank or comment lines.
func (d *document) yamlSpan(name string) (span, string, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(d.text), &root); err != nil || len(root.Content) == 0 {
		return span{}, "", fmt.Errorf("the template does not parse: %v", err)
	}
	top := root.Content[0]
	res, next := child(top, "Resources")
	if res == nil || res.Kind != yaml.MappingNode {
		return span{}, "", errors.New("the template has no Resources mapping")
	}
	if res.Style&yaml.FlowStyle != 0 {
		return span{}, "", errFlowStyle
	}
	lines := strings.SplitAfter(d.text, "\n")
	endLine := len(lines) // 1-based, inclusive
	if next != nil {
		endLine = next.Line - 1
	}
	for i := 0; i+1 < len(res.Content); i += 2 {
		k, v := res.Content[i], res.Content[i+1]
		if k.Value != name {
			continue
		}
		if i+2 < len(res.Content) {
			endLine = res.Content[i+2].Line - 1
		}
		for endLine > k.Line && isBlankOrComment(lines[endLine-1]) {
			endLine--
		}
		if v.Kind != yaml.MappingNode || v.Style&yaml.FlowStyle != 0 || v.Line == k.Line {
			return span{}, "", fmt.Errorf("resource %s is written on one line, which a fix cannot replace line by line", name)
		}
		start := offsetOfLine(lines, k.Line)
		end := offsetOfLine(lines, endLine+1)
		keyLine := lines[k.Line-1]
		indent := keyLine[:len(keyLine)-len(strings.TrimLeft(keyLine, " "))]
		colon := strings.Index(keyLine, ":")
		body := dedent(strings.Join(lines[k.Line:endLine], ""))
		return span{start: start, end: end, indent: indent, key: strings.TrimRight(keyLine[:colon+1], " ")}, body, nil
	}
	return span{}, "", fmt.Errorf("resource %s not found", name)
}

// child is the value of key in mapping m, and the key after it.
func child(m *yaml.Node, key string) (v, nextKey *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if i+2 < len(m.Content) {
				nextKey = m.Content[i+2]
			}
			return m.Content[i+1], nextKey
		}
	}
	return nil, nil
}

func isBlankOrComment(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

func offsetOfLine(lines []string, no int) int {
	n := 0
	for i := 0; i < no-1 && i < len(lines); i++ {
		n += len(lines[i])
	}
	return n
}

// dedent removes the indentation every non-blank line shares.
func dedent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	var b strings.Builder
	for _, l := range lines {
		if len(l) >= common && common > 0 && strings.TrimSpace(l) != "" {
			l = l[common:]
		}
		b.WriteString(l)
	}
	return strings.TrimRight(b.String(), "\n")
}

// indentUnit is the document's indentation step: that of its first
// indented line, two spaces by default, none for a one-line document.
func indentUnit(text string) string {
	if !strings.Contains(strings.TrimSpace(text), "\n") {
		return ""
	}
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimLeft(l, " \t"); t != l && t != "" {
			return l[:len(l)-len(t)]
		}
	}
	return "  "
}

// replacement is the text that replaces sp for the resource value v
// (JSON text, or YAML of the value without its key).
func (d *document) replacement(sp span, v string) (string, error) {
	text, err := d.replace(sp, v)
	if strings.Contains(d.text, "\r\n") { // keep a Windows document's line ends
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text, err
}

func (d *document) replace(sp span, v string) (string, error) {
	if d.yaml {
		var b strings.Builder
		b.WriteString(strings.TrimSuffix(sp.key, "\r") + "\n")
		for _, l := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
			if l != "" {
				l = sp.indent + "  " + l
			}
			b.WriteString(l + "\n")
		}
		return b.String(), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(v)); err != nil {
		return "", err
	}
	unit := indentUnit(d.text)
	if unit == "" {
		return compact.String(), nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), sp.indent, unit); err != nil {
		return "", err
	}
	return out.String(), nil
}
