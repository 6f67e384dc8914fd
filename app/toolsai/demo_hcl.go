package toolsai

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// The demo's known remediations for Terraform source: each edits the
// resource block with hclwrite, which keeps every other token (comments,
// the masked values' placeholders) as it was.
var hclRemediations = map[string]struct {
	says  string
	apply func(b *hclwrite.Body) bool
}{
	"S3_PUBLIC_READ": {"set the bucket's ACL to private", func(b *hclwrite.Body) bool {
		if b.GetAttribute("acl") == nil {
			return false // a public bucket policy or grants: not in the demo's table
		}
		b.SetAttributeValue("acl", cty.StringVal("private"))
		return true
	}},
	"SG": {"narrowed ingress from anywhere to the private network 10.0.0.0/8", func(b *hclwrite.Body) bool {
		return narrowCIDRs(b)
	}},
	"DB_PUBLIC": {"made the database private (publicly_accessible = false)", func(b *hclwrite.Body) bool {
		b.SetAttributeValue("publicly_accessible", cty.False)
		return true
	}},
	"DB_UNENCRYPTED": {"turned on storage encryption (storage_encrypted = true)", func(b *hclwrite.Body) bool {
		b.SetAttributeValue("storage_encrypted", cty.True)
		return true
	}},
}

// narrowCIDRs replaces "0.0.0.0/0" and "::/0" in the body's and its
// nested blocks' (ingress) attributes, egress left as it is.
func narrowCIDRs(b *hclwrite.Body) bool {
	changed := false
	for _, a := range b.Attributes() {
		for _, t := range a.Expr().BuildTokens(nil) {
			if t.Type != hclsyntax.TokenQuotedLit {
				continue
			}
			switch string(t.Bytes) {
			case "0.0.0.0/0":
				t.Bytes, changed = []byte("10.0.0.0/8"), true
			case "::/0":
				t.Bytes, changed = []byte("fd00::/8"), true
			}
		}
	}
	for _, c := range b.Blocks() {
		if c.Type() != "egress" && narrowCIDRs(c.Body()) {
			changed = true
		}
	}
	return changed
}

// demoFixHCL applies the rules' known remediations to a resource block;
// it returns the corrected block, the rules it fixed, and whether it
// changed anything.
func demoFixHCL(src string, rules []string) (string, []string, bool) {
	f, diags := hclwrite.ParseConfig([]byte(hclMarks(src)), "demo.tf", hcl.InitialPos)
	if diags.HasErrors() || len(f.Body().Blocks()) != 1 {
		return "", nil, false
	}
	body := f.Body().Blocks()[0].Body()
	var fixed []string
	for _, rule := range rules {
		if fix, ok := hclRemediations[remediationKey(rule)]; ok && fix.apply(body) {
			fixed = append(fixed, rule)
		}
	}
	if len(fixed) == 0 {
		return "", nil, false
	}
	out := bytes.TrimSpace(hclwrite.Format(f.Bytes()))
	return bareMark.ReplaceAllStringFunc(string(out), func(m string) string { return "<" + m[1:len(m)-1] + ">" }), fixed, true
}
