package scan

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML input (CloudFormation templates, or an envelope) is parsed into
// yaml.Node trees, which keep tags, then converted to the values
// encoding/json produces, with CloudFormation's short-form tags turned
// into the long form: !Ref x is {"Ref": x}, !GetAtt a.b is
// {"Fn::GetAtt": ["a", "b"]}, !Condition c is {"Condition": c}, and every
// other !Name is {"Fn::Name": ...} (!Sub, !Join, !If, !Equals, !Select,
// !FindInMap, !Base64, !Split, !Not, !And, !Or, !ImportValue, !GetAZs,
// !Cidr, and any function added later).
//
// Aliases are expanded, so an "alias bomb" (a few lines whose aliases
// expand to billions of nodes) is refused: at most MaxYAMLAliases aliases
// written in the document, MaxYAMLNodes values after expansion, and
// MaxYAMLAliasBytes of text added by the expansion. Counting values alone
// is not enough: one anchored string of a megabyte, repeated by a few
// thousand aliases, is few values but gigabytes for whatever reads the
// text afterwards (a policy document is parsed each time it appears).
// CloudFormation itself refuses aliases ("YAML aliases are not allowed in
// CloudFormation templates"), but `aws cloudformation package` and SAM
// expand them before deploying, so templates in repositories do use them;
// they are read, within these bounds. A key given twice in a mapping is a
// validation error, as in JSON.

const (
	// MaxYAMLNodes bounds the values of a YAML document after aliases are
	// expanded.
	MaxYAMLNodes = 1_000_000
	// MaxYAMLAliases bounds the aliases (*name) of a YAML document.
	MaxYAMLAliases = 1_000
	// MaxYAMLAliasBytes bounds the text (keys and scalars) that expanding
	// aliases adds to a YAML document: each use of an alias counts the
	// bytes of everything it repeats. It is the input limit, so a document
	// reads as at most twice what the body limit lets through.
	MaxYAMLAliasBytes = MaxInputBytes
)

type yamlConverter struct {
	nodes, aliases int
	aliasBytes     int // text repeated by aliases so far
	inAlias        int // > 0 while expanding an alias: its own aliases are not counted again
	depth          int
	// anchored are the anchored nodes being converted, outermost first:
	// an alias to one of them is inside the value it names.
	anchored []*yaml.Node
	dups     dupKeys
	lines    yamlLines
}

// yamlLines are the lines of the keys of the mappings that hold a
// template's resources: Resources, or document.Resources in an envelope.
type yamlLines map[string]map[string]int

// of returns the lines of the keys of the mapping at path, and those of
// the OutputKeys of its Fn::ForEach loops (cfn_foreach.go) under
// loopLineKey.
func (l yamlLines) of(path string) map[string]int {
	m := l[path]
	for p, keys := range l {
		if rest, ok := strings.CutPrefix(p, path+"."); ok && loopFragment(rest) {
			loops := strings.TrimSuffix(strings.ReplaceAll(rest, "[2].", "\x00"), "[2]")
			for k, line := range keys {
				m[loopLineKey(loops, k)] = line
			}
		}
	}
	return m
}

// linesOf is where the lines of the keys of the mapping at path are
// noted: the resources' (set up front), and a resource loop's
// OutputKeys, whose path is Resources.Fn::ForEach::Name[2].
func (c *yamlConverter) linesOf(path string) map[string]int {
	if lines := c.lines[path]; lines != nil || !strings.HasSuffix(path, "[2]") {
		return lines
	}
	for _, root := range []string{"Resources.", "document.Resources."} {
		if rest, ok := strings.CutPrefix(path, root); ok && loopFragment(rest) {
			c.lines[path] = map[string]int{}
			return c.lines[path]
		}
	}
	return nil
}

// loopFragment says whether a path below the resources is a loop's
// OutputKeys: Fn::ForEach::A[2], or Fn::ForEach::A[2].Fn::ForEach::B[2]
// for a nested loop.
func loopFragment(rest string) bool {
	rest, ok := strings.CutSuffix(rest, "[2]")
	if !ok {
		return false
	}
	for _, part := range strings.Split(rest, "[2].") {
		if !isLoop(part) || strings.ContainsAny(part, ".[") {
			return false
		}
	}
	return true
}

// parseYAML reads a YAML document into JSON-like values.
func parseYAML(data []byte) (any, yamlLines, error) {
	var root, next yaml.Node
	d := yaml.NewDecoder(bytes.NewReader(data))
	err := d.Decode(&root)
	if err == nil {
		// A stream of several documents (templates joined with ---) was
		// read as its first one, the others dropped without a word.
		if err = d.Decode(&next); err == io.EOF {
			err = nil
		} else if err == nil && !emptyDocument(&next) {
			return nil, nil, &SyntaxError{Line: next.Line, Column: 1, Msg: "invalid YAML: a second document starts here (---): " +
				"send one template or envelope at a time"}
		}
	}
	if err == io.EOF { // no document at all: what the converter says of an empty one
		err = nil
	}
	if err != nil {
		if strings.Contains(err.Error(), "exceeded max depth") {
			// The parser's own bound (10,000 levels) met before ours:
			// the same limit as nesting past MaxDocumentDepth, not a
			// syntax error.
			return nil, nil, &LimitError{Limit: "depth", Max: MaxDocumentDepth, Message: fmt.Sprintf(
				"YAML nesting is deeper than %d levels; the limit is %d", MaxDocumentDepth, MaxDocumentDepth)}
		}
		return nil, nil, yamlSyntaxError(data, err)
	}
	c := &yamlConverter{lines: yamlLines{"Resources": {}, "document.Resources": {}}}
	v, err := c.convert(&root, "")
	if err != nil {
		return nil, nil, err
	}
	if err := c.dups.err(); err != nil {
		return nil, nil, err
	}
	return v, c.lines, nil
}

// emptyDocument reports whether a document has nothing in it but null: a
// --- at the end of a stream.
func emptyDocument(n *yaml.Node) bool {
	return len(n.Content) == 0 || len(n.Content) == 1 && n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null" && n.Content[0].Value == ""
}

func (c *yamlConverter) convert(n *yaml.Node, path string) (any, error) {
	if err := countYAML(&c.nodes, MaxYAMLNodes, "yaml_nodes", "values once its aliases are expanded"); err != nil {
		return nil, err
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > MaxDocumentDepth {
		return nil, &LimitError{Limit: "depth", Max: MaxDocumentDepth, Message: fmt.Sprintf(
			"YAML nesting is deeper than %d levels at line %d; the limit is %d", MaxDocumentDepth, n.Line, MaxDocumentDepth)}
	}
	if n.Anchor != "" {
		c.anchored = append(c.anchored, n)
		defer func() { c.anchored = c.anchored[:len(c.anchored)-1] }()
	}
	var v any
	var err error
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.convert(n.Content[0], path)
	case yaml.AliasNode:
		if slices.Contains(c.anchored, n.Alias) {
			// The library resolves it to its own ancestor: the value
			// would never end, and it read as nesting past the limit.
			return nil, &SyntaxError{Line: n.Line, Column: n.Column, Msg: "invalid YAML: the alias *" + n.Value +
				" is inside the value its anchor &" + n.Value + " names, so that value would never end"}
		}
		if c.inAlias == 0 {
			if err := countYAML(&c.aliases, MaxYAMLAliases, "yaml_aliases", "aliases"); err != nil {
				return nil, err
			}
		}
		c.inAlias++
		defer func() { c.inAlias-- }()
		return c.convert(n.Alias, path)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		var merges []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			key := k.Value
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				merges = append(merges, val)
				continue
			}
			if err := c.repeated(key); err != nil {
				return nil, err
			}
			kp := key
			if path != "" {
				kp = path + "." + key
			}
			if _, dup := m[key]; dup {
				c.dups.add(func() Problem {
					return Problem{Path: kp, Message: duplicateKey + fmt.Sprintf(" (line %d, column %d)", k.Line, k.Column)}
				})
				continue
			}
			if lines := c.linesOf(path); lines != nil {
				lines[key] = k.Line
			}
			if m[key], err = c.convert(val, kp); err != nil {
				return nil, err
			}
		}
		for _, val := range merges {
			if err := c.merge(m, val, path); err != nil {
				return nil, err
			}
		}
		v = m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, e := range n.Content {
			if l[i], err = c.convert(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return nil, err
			}
		}
		v = l
	case yaml.ScalarNode:
		if err := c.repeated(n.Value); err != nil {
			return nil, err
		}
		v = scalar(n)
	}
	return shortForm(n, v), nil
}

// merge adds to m the keys it does not have of the mapping, or mappings,
// of a merge key (<<: *base, or <<: [*a, *b], the first one winning), as
// YAML 1.1 and the tools that expand aliases before CloudFormation sees a
// template (aws cloudformation package, SAM) do: without it, a resource
// written as <<: *base was a resource without a Type.
func (c *yamlConverter) merge(m map[string]any, n *yaml.Node, path string) error {
	v, err := c.convert(n, path)
	if err != nil {
		return err
	}
	sources, isList := v.([]any)
	if !isList {
		sources = []any{v}
	}
	for _, src := range sources {
		sm, ok := src.(map[string]any)
		if !ok {
			return &SyntaxError{Line: n.Line, Column: n.Column, Msg: "invalid YAML: a merge key (<<) takes a mapping or a list of mappings"}
		}
		for key, x := range sm {
			if _, has := m[key]; !has {
				m[key] = x
			}
		}
	}
	return nil
}

// repeated counts the text of a key or scalar met while expanding an
// alias, and refuses the document once aliases have added more than
// MaxYAMLAliasBytes.
func (c *yamlConverter) repeated(text string) error {
	if c.inAlias == 0 {
		return nil
	}
	if c.aliasBytes += len(text); c.aliasBytes > MaxYAMLAliasBytes {
		return &LimitError{Limit: "yaml_alias_bytes", Max: MaxYAMLAliasBytes, Message: fmt.Sprintf(
			"the YAML document's aliases repeat more than %d bytes of text (5 MiB); the limit is %d", MaxYAMLAliasBytes, MaxYAMLAliasBytes)}
	}
	return nil
}

// countYAML adds one to *n, a count of what the document has, and refuses the
// document once it passes max.
func countYAML(n *int, max int, limit, what string) error {
	if *n++; *n > max {
		return &LimitError{Limit: limit, Max: max, Message: fmt.Sprintf(
			"the YAML document has more than %d %s; the limit is %d", max, what, max)}
	}
	return nil
}

// scalar reads a plain scalar by its resolved tag.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		if b, ok := boolOf(n.Value); ok {
			return b
		}
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return n.Value
}

// shortForm turns a CloudFormation short-form tag into the long form.
func shortForm(n *yaml.Node, v any) any {
	tag := n.Tag
	if !strings.HasPrefix(tag, "!") || strings.HasPrefix(tag, "!!") {
		return v
	}
	name := tag[1:]
	if n.Kind == yaml.ScalarNode {
		v = n.Value // a tagged scalar is a string: !Ref 22 names "22"
	}
	switch name {
	case "Ref":
		return map[string]any{"Ref": v}
	case "Condition":
		return map[string]any{"Condition": v}
	case "GetAtt":
		if s, ok := v.(string); ok {
			res, att, _ := strings.Cut(s, ".")
			return map[string]any{"Fn::GetAtt": []any{res, att}}
		}
	}
	return map[string]any{"Fn::" + name: v}
}
