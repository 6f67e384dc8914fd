package scan

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Limits on one scan. They bound the memory and time a single request can
// cost; the HTTP layer should also cap the request body at MaxInputBytes so
// it never reads more than it will accept.
const (
	// MaxInputBytes is the largest document Scan accepts (5 MiB).
	MaxInputBytes = 5 << 20
	// MaxResources is the largest number of entries in "resources".
	MaxResources = 50_000
	// MaxDepth is the deepest nesting of JSON objects and arrays, the
	// top-level object counting as 1. Our own format needs 5; the rest is
	// room for the extra fields real exports carry.
	MaxDepth = 32
	// MaxDocumentDepth is the nesting limit of Terraform and CloudFormation
	// documents and of the envelope, JSON or YAML: a plan nests modules,
	// blocks and expressions far deeper than our format.
	MaxDocumentDepth = 128
	// MaxSuppressions is how many suppressions an envelope may carry.
	MaxSuppressions = 1_000
	// MaxProblems is how many validation problems a ValidationError keeps.
	MaxProblems = 100
	// MaxFindings is how many findings, suppressed ones included, one scan
	// may report. A finding costs about a hundred times the bytes that
	// can cause it (a 20-byte ingress entry opening one more port), so
	// without a bound 5 MiB could ask for gigabytes of result and report;
	// this is the most the analysis pool's memory estimate was measured
	// with (benchDocument: 50,000 resources, 60,000 findings).
	MaxFindings = 60_000
)

// SyntaxError reports input that is not JSON. Msg uses encoding/json's
// wording; Line and Column say where, for a person reading the pasted text.
type SyntaxError struct {
	// File is the file the error is in, for Terraform source sent as
	// several files; empty for a single document.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`   // 1-based
	Column int    `json:"column"` // 1-based, in characters (not bytes) from the start of the line
	Offset int    `json:"offset"` // 0-based byte offset of the offending byte; the input length at end of input
	Msg    string `json:"message"`
}

func (e *SyntaxError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func newSyntaxError(data []byte, offset int, msg string) *SyntaxError {
	line, col := lineColumn(data, offset)
	return &SyntaxError{Line: line, Column: col, Offset: offset, Msg: msg}
}

// lineColumn converts a byte offset to a 1-based line and character column.
func lineColumn(data []byte, offset int) (line, column int) {
	before := data[:offset]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte{'\n'}) + 1, utf8.RuneCount(before[lineStart:]) + 1
}

// Problem is one reason the document is not a valid resource list.
type Problem struct {
	// Path is where the problem is, e.g. resources[3].ingress[0].cidr; empty
	// for the document as a whole.
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// ValidationError lists everything wrong with a syntactically valid document.
// The whole document is checked before anything is scanned, so a user can
// fix every problem in one round trip.
type ValidationError struct {
	Problems []Problem `json:"problems"` // at most MaxProblems, in document order
	Omitted  int       `json:"omitted"`  // problems found beyond MaxProblems
}

// Error names the first problem and how many more there are.
func (e *ValidationError) Error() string {
	s := e.Problems[0].String()
	switch more := len(e.Problems) - 1 + e.Omitted; more {
	case 0:
	case 1:
		s += " (and 1 more problem)"
	default:
		s += fmt.Sprintf(" (and %d more problems)", more)
	}
	return s
}

// LimitError reports input over one of the limits above; the HTTP layer
// answers it with 413.
type LimitError struct {
	Limit   string `json:"limit"` // "input_bytes", "resources", "depth", "yaml_nodes", "yaml_aliases", "yaml_alias_bytes", "cloudformation_expansion", "suppressions", "suppression_matching" or "findings"
	Max     int    `json:"max"`
	Message string `json:"message"`
}

func (e *LimitError) Error() string { return e.Message }

// tooManyResources refuses a document, of any format, with more than
// MaxResources resources.
func tooManyResources() *LimitError {
	return &LimitError{Limit: "resources", Max: MaxResources, Message: fmt.Sprintf(
		"the document has more than %d resources; the limit is %d per scan", MaxResources, MaxResources)}
}

// tooManyFindings refuses a document with more than MaxFindings findings.
func tooManyFindings() *LimitError {
	return &LimitError{Limit: "findings", Max: MaxFindings, Message: fmt.Sprintf(
		"the document has more than %d findings; the limit is %d per scan: split the document, or fix the causes that repeat", MaxFindings, MaxFindings)}
}
