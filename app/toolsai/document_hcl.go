package toolsai

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"parapet/app/redact"
	"parapet/app/scan"
)

// Terraform source: a resource is its block, found by type and name in
// the source set's *.tf files (hclsyntax gives its byte range), and a fix
// replaces that block's bytes and nothing else.

// instanceKey is an instance's key in an address: ["logs"] or [0].
var instanceKey = regexp.MustCompile(`\[[^\]]*\]`)

// blockAddress is the address of the block that declares the resource
// instance addr: its instance keys dropped (aws_s3_bucket.b["x"] and
// module.m[0].aws_s3_bucket.b are declared by one block each).
func blockAddress(addr string) string { return instanceKey.ReplaceAllString(addr, "") }

// hclBlock finds the resource block declaring addr: the block
// resource "TYPE" "NAME" in a *.tf file; among several (the same
// resource in two modules), the one in the file the finding points
// into.
func (d *document) hclBlock(addr string, near *scan.Location) (span, string, error) {
	segs := strings.Split(blockAddress(addr), ".")
	if len(segs) < 2 {
		return span{}, "", fmt.Errorf("%q is not a resource address", addr)
	}
	typ, name := segs[len(segs)-2], segs[len(segs)-1]
	var found []span
	jsonOnly := false
	for _, f := range d.files {
		if !strings.HasSuffix(f.Path, ".tf") {
			jsonOnly = jsonOnly || strings.HasSuffix(f.Path, ".tf.json")
			continue
		}
		body, err := parseHCL(f.Data, f.Path)
		if err != nil {
			continue // the scan read it; a file it did not read holds no resource
		}
		for _, b := range body.Blocks {
			if b.Type == "resource" && slices.Equal(b.Labels, []string{typ, name}) {
				r := b.Range()
				found = append(found, span{file: f.Path, start: r.Start.Byte, end: r.End.Byte})
			}
		}
	}
	if len(found) > 1 && near != nil {
		if in := slices.DeleteFunc(slices.Clone(found), func(s span) bool { return s.file != near.File }); len(in) > 0 {
			found = in
		}
	}
	switch {
	case len(found) == 1:
		sp := found[0]
		return sp, string(d.fileData(sp.file)[sp.start:sp.end]), nil
	case len(found) == 0 && jsonOnly:
		return span{}, "", fmt.Errorf("its block is not in a .tf file: a fix is made in HCL source, not in .tf.json")
	case len(found) == 0:
		return span{}, "", fmt.Errorf("no block resource %q %q in the source", typ, name)
	}
	return span{}, "", fmt.Errorf("resource %q %q is declared in %d places", typ, name, len(found))
}

func (d *document) fileData(path string) []byte {
	for _, f := range d.files {
		if f.Path == path {
			return f.Data
		}
	}
	return nil
}

func parseHCL(src []byte, name string) (*hclsyntax.Body, error) {
	file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	return file.Body.(*hclsyntax.Body), nil
}

// metaArguments are a resource's arguments that are Terraform's, not the
// resource's: a fix may not change them.
var metaArguments = []string{"count", "for_each", "provider", "depends_on"}

// acceptHCL checks a corrected resource block: it parses as HCL, is one
// resource block of the same type and name and nothing else, keeps the
// meta-arguments (count, for_each, provider, depends_on, lifecycle) as
// they were, and keeps each masked value in the attribute where it stood.
// It returns the block with the masked values put back.
func (f *Fix) acceptHCL(p *part, answer string) (string, error) {
	answer = strings.TrimSpace(answer)
	if bareMark.MatchString(answer) {
		return "", fmt.Errorf("it writes a masked value's placeholder without its angle brackets")
	}
	wasSrc, nowSrc := []byte(hclMarks(p.masked)), []byte(hclMarks(answer))
	wasBody, err := parseHCL(wasSrc, "source.tf")
	if err != nil || len(wasBody.Blocks) != 1 {
		return "", fmt.Errorf("its source does not parse: %v", err)
	}
	nowBody, err := parseHCL(nowSrc, "answer.tf")
	if err != nil {
		return "", fmt.Errorf("it does not parse as HCL: %v", err)
	}
	if len(nowBody.Attributes) > 0 || len(nowBody.Blocks) != 1 {
		return "", fmt.Errorf("it is not one resource block: it holds %d blocks and %d attributes at the top level, and a fix may not add a resource", len(nowBody.Blocks), len(nowBody.Attributes))
	}
	was, now := wasBody.Blocks[0], nowBody.Blocks[0]
	if now.Type != was.Type || !slices.Equal(now.Labels, was.Labels) {
		return "", fmt.Errorf("it changes the block from %s to %s: a fix keeps the resource's type and name", blockHead(was), blockHead(now))
	}
	for _, k := range metaArguments {
		if rangeText(wasSrc, attrRange(was.Body, k)) != rangeText(nowSrc, attrRange(now.Body, k)) {
			return "", fmt.Errorf("it changes %s: only the resource's own attributes and blocks may change", k)
		}
	}
	if blocksText(wasSrc, was.Body, "lifecycle") != blocksText(nowSrc, now.Body, "lifecycle") {
		return "", fmt.Errorf("it changes lifecycle: only the resource's own attributes and blocks may change")
	}
	at := map[string][]string{} // placeholder -> the attributes where it stood
	walkHCL(wasSrc, was.Body, "", func(path, text string) {
		for _, ph := range bareMark.FindAllString(text, -1) {
			at[ph] = append(at[ph], path)
		}
	})
	var moved error
	walkHCL(nowSrc, now.Body, "", func(path, text string) {
		for _, ph := range bareMark.FindAllString(text, -1) {
			if moved == nil && !slices.Contains(at[ph], path) {
				moved = fmt.Errorf("it puts the masked value %s at %s, where it did not stand", ph, path)
			}
		}
	})
	if moved != nil {
		return "", moved
	}
	// A masked value is the source's own bytes: back as they were written.
	text := redact.Placeholder.ReplaceAllStringFunc(answer, func(ph string) string {
		if v, ok := f.r.Original(ph); ok {
			return v
		}
		return ph
	})
	if strings.Contains(string(f.doc.fileData(p.sp.file)), "\r\n") { // keep a Windows file's line ends
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
	}
	return text, nil
}

// A masked value outside quotes (password = random_password.db.result
// was masked whole) leaves <REDACTED_PASSWORD_1>, which is not HCL.
// hclMarks writes each placeholder as an identifier of the same length,
// _REDACTED_PASSWORD_1_, so that the block parses and its byte ranges
// stay those of the text; bareMark finds them.
var bareMark = regexp.MustCompile(`_REDACTED_[A-Z0-9_]+?_[0-9]+_`)

func hclMarks(s string) string {
	return redact.Placeholder.ReplaceAllStringFunc(s, func(ph string) string { return "_" + ph[1:len(ph)-1] + "_" })
}

func blockHead(b *hclsyntax.Block) string {
	q := make([]string, len(b.Labels))
	for i, l := range b.Labels {
		q[i] = fmt.Sprintf("%q", l)
	}
	return strings.TrimSpace(b.Type + " " + strings.Join(q, " "))
}

func attrRange(b *hclsyntax.Body, name string) *hcl.Range {
	if a, ok := b.Attributes[name]; ok {
		r := a.SrcRange
		return &r
	}
	return nil
}

func rangeText(src []byte, r *hcl.Range) string {
	if r == nil {
		return ""
	}
	return strings.Join(strings.Fields(string(src[r.Start.Byte:r.End.Byte])), " ")
}

// blocksText is the text of b's blocks of type typ, spacing normalised.
func blocksText(src []byte, b *hclsyntax.Body, typ string) string {
	var out []string
	for _, c := range b.Blocks {
		if c.Type == typ {
			r := c.Range()
			out = append(out, rangeText(src, &r))
		}
	}
	return strings.Join(out, "\n")
}

// walkHCL calls fn with the source text of every attribute of b and its
// path: name, or block.name for a nested block's (the nth block of a type
// is type[n]).
func walkHCL(src []byte, b *hclsyntax.Body, prefix string, fn func(path, text string)) {
	for name, a := range b.Attributes {
		fn(prefix+name, string(src[a.SrcRange.Start.Byte:a.SrcRange.End.Byte]))
	}
	seen := map[string]int{}
	for _, c := range b.Blocks {
		n := seen[c.Type]
		seen[c.Type]++
		walkHCL(src, c.Body, fmt.Sprintf("%s%s[%d].", prefix, c.Type, n), fn)
	}
}
