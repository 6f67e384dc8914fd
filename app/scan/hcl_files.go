package scan

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// Terraform source (HCL). A set of files, each named by its path relative
// to the repository's root, is read as Terraform would read the root
// module: the root is the shallowest directory holding *.tf or *.tf.json
// files, its terraform.tfvars and *.auto.tfvars (and their .json forms)
// set its variables, and module blocks with a local source ("./modules/net")
// are read from the same set. hcl_eval.go evaluates it into the graph the
// plan adapter builds.

// FormatTerraformHCL is the format of a Result scanned from Terraform
// source.
const FormatTerraformHCL = "terraform_hcl"

// File is one file of a Terraform source set.
type File struct {
	Path string // relative to the root, with forward slashes: modules/net/main.tf
	Data []byte
}

// Limits of a source set (views/docs/scanner-terraform.md).
const (
	// MaxFiles is how many files one scan may send.
	MaxFiles = 1_000
	// MaxPathDepth is how many directories deep a file may be.
	MaxPathDepth = 16
	// MaxPathBytes bounds a file's path.
	MaxPathBytes = 512
	// MaxModuleDepth is how deeply module calls may nest (the root
	// module's calls are depth 1): a module that calls itself meets it.
	MaxModuleDepth = 16
	// MaxModuleInstances bounds the module instances of one scan, count
	// and for_each included.
	MaxModuleInstances = 1_000
	// MaxHCLEvalBytes bounds what evaluating the source may produce: the
	// values of resource instances, locals, variables and outputs and the
	// results of functions, counted in bytes of text plus 16 per element,
	// and 64 per iteration of a for expression or dynamic block.
	MaxHCLEvalBytes = 4 * MaxInputBytes
	// SourceMemoryPerByte is the peak heap of a source scan per byte of
	// source, with headroom: HCL's tokens and syntax tree take about 90
	// times the text (30,000 blocks, 4 MB: 374 MB). The front doors charge
	// the analysis pool for it (pool.Charge).
	SourceMemoryPerByte = 100
)

// SourceCost is the memory scanning files may take (SourceMemoryPerByte).
func SourceCost(files []File) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.Data))
	}
	return n * SourceMemoryPerByte
}

// CheckFilePath checks a file's path as the front doors receive it: a
// relative path of at most MaxPathDepth directories, no "..", no absolute
// path, no backslash. It returns the cleaned path.
func CheckFilePath(p string) (string, error) {
	bad := func(why string) error {
		return &ValidationError{Problems: []Problem{{Path: p, Message: "invalid file path: " + why}}}
	}
	switch {
	case p == "":
		return "", bad("a file needs a name")
	case len(p) > MaxPathBytes:
		return "", &LimitError{Limit: "path_bytes", Max: MaxPathBytes, Message: fmt.Sprintf("a file path is longer than %d bytes; the limit is %d", MaxPathBytes, MaxPathBytes)}
	case strings.ContainsAny(p, "\\\x00") || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", bad("use forward slashes and no control characters")
	case strings.HasPrefix(p, "/"):
		return "", bad("paths are relative to the root, not absolute")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", bad(`".." is not allowed: paths stay inside the root`)
		}
	}
	c := path.Clean(p)
	if c == "." {
		return "", bad("a file needs a name")
	}
	if d := strings.Count(c, "/"); d > MaxPathDepth {
		return "", &LimitError{Limit: "path_depth", Max: MaxPathDepth, Message: fmt.Sprintf(
			"the file %s is %d directories deep; the limit is %d", c, d, MaxPathDepth)}
	}
	return c, nil
}

// sourceSet is a checked set of files by path.
type sourceSet struct {
	files map[string][]byte
	root  string // directory of the root module, "" for the top
}

// newSourceSet checks the files' count, size and paths, and finds the root
// module's directory.
func newSourceSet(files []File, noSizeLimit bool) (*sourceSet, error) {
	if len(files) > MaxFiles {
		return nil, &LimitError{Limit: "files", Max: MaxFiles, Message: fmt.Sprintf(
			"%d files were sent; the limit is %d files per scan", len(files), MaxFiles)}
	}
	s := &sourceSet{files: make(map[string][]byte, len(files))}
	total := 0
	for _, f := range files {
		p, err := CheckFilePath(f.Path)
		if err != nil {
			return nil, err
		}
		if _, dup := s.files[p]; dup {
			return nil, &ValidationError{Problems: []Problem{{Path: p, Message: "the file was sent twice"}}}
		}
		if total += len(f.Data); total > MaxInputBytes && !noSizeLimit {
			return nil, &LimitError{Limit: "input_bytes", Max: MaxInputBytes, Message: fmt.Sprintf(
				"the files add up to more than %d bytes; the limit is %d bytes (5 MiB) per scan", MaxInputBytes, MaxInputBytes)}
		}
		data, err := decodeText(f.Data)
		if err != nil {
			return nil, err
		}
		s.files[p] = data
	}
	dirs := s.moduleDirs()
	if len(dirs) == 0 {
		return nil, &ValidationError{Problems: []Problem{{Message: "no Terraform configuration: send *.tf or *.tf.json files"}}}
	}
	// The shallowest directory with configuration is the root; another
	// one as shallow is a second root, which one scan does not take.
	best := dirs[0]
	for _, d := range dirs[1:] {
		switch dd, bd := dirDepth(d), dirDepth(best); {
		case dd < bd:
			best = d
		case dd == bd && d != best:
			return nil, &ValidationError{Problems: []Problem{{Message: fmt.Sprintf(
				"two root modules, %s and %s: send one root module (a directory) with the local modules it calls", showDir(best), showDir(d))}}}
		}
	}
	s.root = best
	return s, nil
}

func dirDepth(d string) int {
	if d == "" {
		return 0
	}
	return strings.Count(d, "/") + 1
}

func showDir(d string) string {
	if d == "" {
		return "the top directory"
	}
	return d + "/"
}

// isConfigFile says whether p is read as configuration: *.tf or *.tf.json,
// outside a .terraform directory (modules Terraform downloaded).
func isConfigFile(p string) bool {
	if strings.HasPrefix(p, ".terraform/") || strings.Contains(p, "/.terraform/") {
		return false
	}
	return strings.HasSuffix(p, ".tf") || strings.HasSuffix(p, ".tf.json")
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// moduleDirs lists the directories with configuration, sorted.
func (s *sourceSet) moduleDirs() []string {
	seen := map[string]bool{}
	var out []string
	for p := range s.files {
		if d := dirOf(p); isConfigFile(p) && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// filesIn lists the files of directory dir (not its subdirectories) that
// keep matches, sorted as Terraform reads them.
func (s *sourceSet) filesIn(dir string, keep func(name string) bool) []string {
	var out []string
	for p := range s.files {
		if dirOf(p) == dir && keep(path.Base(p)) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// parse parses one file as native HCL or, for .json, as HCL's JSON form.
func parseHCLFile(p string, data []byte) (*hcl.File, error) {
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(p, ".json") {
		f, diags = hcljson.Parse(data, p)
	} else {
		f, diags = hclsyntax.ParseConfig(data, p, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return nil, hclSyntaxError(diags)
	}
	return f, nil
}

// metered is expression e, counted by meterFunc.
func metered(e hclsyntax.Expression) hclsyntax.Expression {
	r := e.Range()
	return &hclsyntax.FunctionCallExpr{Name: meterFunc, Args: []hclsyntax.Expression{e}, NameRange: r, OpenParenRange: r, CloseParenRange: r}
}

// iterateFunc names the function meterEvaluation puts in the condition of
// every for expression, and meterFunc the one it wraps around each part of
// a string template; Terraform has no functions of those names.
const (
	iterateFunc = "__parapet_iterate"
	meterFunc   = "__parapet_meter"
)

// meterEvaluation makes the expressions of a native file whose cost is
// not in the size of their operands count against MaxHCLEvalBytes
// (hclEval.functions) before they run:
//   - a for expression counts each iteration in its condition, which runs
//     before the element's value: a for expression nested in another
//     iterates the product of their collections, and once the budget is
//     spent each further iteration fails there, skipping its body, so the
//     outer loop ends in linear time. It counts each element's value too:
//     a %{ for } directive is a for expression whose elements are strings
//     built anew each time, then joined;
//   - a string template counts the size of each part before the parts
//     are joined: "${local.big}" written 3,000 times on one line copies
//     the value each time, and a 1 MB file asked gigabytes of memory
//     before the values were counted.
func meterEvaluation(f *hcl.File) {
	if body, ok := f.Body.(*hclsyntax.Body); ok {
		meterNode(body)
	}
}

// meterNode meters the expressions in n, as meterEvaluation describes.
func meterNode(n hclsyntax.Node) {
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		switch e := n.(type) {
		case *hclsyntax.ForExpr:
			r := e.CollExpr.Range()
			count := &hclsyntax.FunctionCallExpr{Name: iterateFunc, NameRange: r, OpenParenRange: r, CloseParenRange: r}
			if e.CondExpr == nil {
				e.CondExpr = count
			} else {
				e.CondExpr = &hclsyntax.BinaryOpExpr{LHS: count, Op: hclsyntax.OpLogicalAnd, RHS: e.CondExpr, SrcRange: e.CondExpr.Range()}
			}
			e.ValExpr = metered(e.ValExpr)
		case *hclsyntax.TemplateExpr:
			if e.IsStringLiteral() {
				break // a plain string, read as is (a module's source)
			}
			for i, part := range e.Parts {
				e.Parts[i] = metered(part)
			}
		}
		return nil
	})
}

// hclSyntaxError is the first error of diags as a SyntaxError with its
// file, line and column.
func hclSyntaxError(diags hcl.Diagnostics) *SyntaxError {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		e := &SyntaxError{Msg: d.Summary, Line: 1, Column: 1}
		if d.Detail != "" {
			e.Msg += ": " + d.Detail
		}
		if d.Subject != nil {
			e.File, e.Line, e.Column, e.Offset = d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Subject.Start.Byte
		}
		return e
	}
	return &SyntaxError{Line: 1, Column: 1, Msg: "invalid Terraform source"}
}

// The top-level blocks the scanner reads; others (terraform, provider,
// moved, import, check) say nothing about what is deployed.
var hclFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "output", LabelNames: []string{"name"}},
}}

var hclVariableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "nullable"}}}

// hclModule is the configuration of one directory.
type hclModule struct {
	dir       string
	variables map[string]*hclVariable
	locals    map[string]*hcl.Attribute
	blocks    []*hclBlock          // resources and data sources, in file order
	byKey     map[string]*hclBlock // "aws_s3_bucket.b", "data.aws_iam_policy_document.d"
	calls     []*hclCall
	callByKey map[string]*hclCall
	outputs   map[string]*hcl.Attribute
	files     []*hcl.File // parsed, for collectRefNames
}

type hclVariable struct {
	def         hcl.Expression // nil without a default
	typ         cty.Type
	dfl         *typeexpr.Defaults
	notNullable bool // nullable = false: null takes the default
}

// hclBlock is a resource or data block.
type hclBlock struct {
	data           bool
	typ, name      string
	body           hcl.Body
	count, forEach hcl.Expression
	rng            hcl.Range
}

func (b *hclBlock) key() string {
	if b.data {
		return "data." + b.typ + "." + b.name
	}
	return b.typ + "." + b.name
}

// hclCall is a module block.
type hclCall struct {
	name           string
	source         string
	inputs         map[string]*hcl.Attribute
	count, forEach hcl.Expression
	rng            hcl.Range
}

// loadModule reads the configuration files of dir.
func (s *sourceSet) loadModule(dir string) (*hclModule, error) {
	m := &hclModule{dir: dir, variables: map[string]*hclVariable{}, locals: map[string]*hcl.Attribute{},
		byKey: map[string]*hclBlock{}, callByKey: map[string]*hclCall{}, outputs: map[string]*hcl.Attribute{}}
	for _, p := range s.filesIn(dir, func(string) bool { return true }) {
		if !isConfigFile(p) {
			continue
		}
		f, err := parseHCLFile(p, s.files[p])
		if err != nil {
			return nil, err
		}
		m.files = append(m.files, f)
		meterEvaluation(f)
		content, _, diags := f.Body.PartialContent(hclFileSchema)
		if diags.HasErrors() {
			return nil, hclSyntaxError(diags)
		}
		for _, b := range content.Blocks {
			if err := m.addBlock(b); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func (m *hclModule) addBlock(b *hcl.Block) error {
	switch b.Type {
	case "resource", "data":
		hb := &hclBlock{data: b.Type == "data", typ: b.Labels[0], name: b.Labels[1], rng: blockRange(b)}
		attrs, rest := splitMeta(b.Body, "count", "for_each")
		hb.count, hb.forEach, hb.body = attrs["count"], attrs["for_each"], rest
		if _, dup := m.byKey[hb.key()]; dup {
			return duplicateBlock(b, hb.key())
		}
		m.byKey[hb.key()] = hb
		m.blocks = append(m.blocks, hb)
	case "variable":
		c, _, diags := b.Body.PartialContent(hclVariableSchema)
		if diags.HasErrors() {
			return hclSyntaxError(diags)
		}
		v := &hclVariable{typ: cty.DynamicPseudoType}
		if a := c.Attributes["type"]; a != nil {
			ty, dfl, diags := typeexpr.TypeConstraintWithDefaults(a.Expr)
			if diags.HasErrors() {
				return hclSyntaxError(diags)
			}
			v.typ, v.dfl = ty, dfl
		}
		if a := c.Attributes["default"]; a != nil {
			v.def = a.Expr
		}
		if a := c.Attributes["nullable"]; a != nil {
			if n, diags := a.Expr.Value(nil); !diags.HasErrors() && n.Type() == cty.Bool && n.IsKnown() && !n.IsNull() {
				v.notNullable = n.False()
			}
		}
		m.variables[b.Labels[0]] = v
	case "locals":
		attrs, diags := b.Body.JustAttributes()
		if diags.HasErrors() {
			return hclSyntaxError(diags)
		}
		for k, a := range attrs {
			m.locals[k] = a
		}
	case "output":
		attrs, _ := b.Body.JustAttributes() // description, sensitive, depends_on, precondition are not read
		if a := attrs["value"]; a != nil {
			m.outputs[b.Labels[0]] = a
		}
	case "module":
		attrs, _ := b.Body.JustAttributes() // blocks in a module call are not inputs
		c := &hclCall{name: b.Labels[0], inputs: map[string]*hcl.Attribute{}, rng: blockRange(b)}
		for k, a := range attrs {
			switch k {
			case "source":
				v, diags := a.Expr.Value(nil)
				if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
					return &SyntaxError{File: a.Range.Filename, Line: a.Range.Start.Line, Column: a.Range.Start.Column,
						Offset: a.Range.Start.Byte, Msg: "a module's source must be a literal string"}
				}
				c.source = v.AsString()
			case "count":
				c.count = a.Expr
			case "for_each":
				c.forEach = a.Expr
			case "version", "providers", "depends_on":
			default:
				c.inputs[k] = a
			}
		}
		if _, dup := m.callByKey[c.name]; dup {
			return duplicateBlock(b, "module."+c.name)
		}
		m.callByKey[c.name] = c
		m.calls = append(m.calls, c)
	}
	return nil
}

func duplicateBlock(b *hcl.Block, key string) error {
	return &SyntaxError{File: b.DefRange.Filename, Line: b.DefRange.Start.Line, Column: b.DefRange.Start.Column,
		Offset: b.DefRange.Start.Byte, Msg: key + " is declared twice"}
}

// blockRange is a block's whole range, header to closing brace.
func blockRange(b *hcl.Block) hcl.Range {
	if sb, ok := b.Body.(*hclsyntax.Body); ok {
		return hcl.RangeBetween(b.DefRange, sb.SrcRange)
	}
	return b.DefRange
}

// splitMeta takes the attributes named out of a resource body.
func splitMeta(body hcl.Body, names ...string) (map[string]hcl.Expression, hcl.Body) {
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	c, rest, _ := body.PartialContent(schema)
	out := map[string]hcl.Expression{}
	for k, a := range c.Attributes {
		out[k] = a.Expr
	}
	return out, rest
}
