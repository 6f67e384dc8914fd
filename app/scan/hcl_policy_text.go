package scan

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// A policy written as a heredoc or a quoted string template
// (policy = <<EOF {"Resource": "${aws_s3_bucket.b.arn}/*", ...} EOF) is
// unknown as a whole in Terraform as soon as one interpolation is, and
// nearly every such policy names the ARN of a resource the configuration
// creates: the whole document was unread, so its Action "*" or its
// Principal "*" went unreported. Read as jsonencode and templatefile are,
// the template is rendered with each unknown interpolation as
// knownAfterApply, and policyDocument takes a string holding one as that
// placeholder whole, so it matches no principal, action or resource.

// policyAttrs are the attributes holding a policy document that the
// families read (family_iam.go, family_s3.go, family_gcp_iam.go).
var policyAttrs = map[string]bool{"policy": true, "policy_data": true}

// The same holds for an Azure role assignment's scope written as
// "/subscriptions/${var.subscription_id}": its shape, a subscription, is
// known, as data "azurerm_subscription"'s id is, and an unknown scope was
// graded as a narrow one (Owner there IAM_WILDCARD_ACTION, not
// IAM_FULL_ADMIN). A scope is rendered only when each unknown part is a
// whole segment of the path: what it stands for is then one name.

// policyText returns the template expr, the value of attribute name,
// rendered with its unknown interpolations as knownAfterApply, when v, its
// value, is unknown and the attribute holds a policy (or a scope); else v.
func (mi *hclInst) policyText(name string, expr hcl.Expression, v cty.Value, sc *hclScope) cty.Value {
	te, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || !policyAttrs[name] && name != "scope" || v.IsKnown() {
		return v
	}
	var b strings.Builder
	var unknownAt []int // where each unknown part starts in the text
	for _, part := range te.Parts {
		pv, _ := mi.eval(part, sc).UnmarkDeep()
		if !pv.IsKnown() {
			unknownAt = append(unknownAt, b.Len())
			b.WriteString(knownAfterApply)
			continue
		}
		s, err := convert.Convert(pv, cty.String)
		if err != nil || s.IsNull() || !s.IsKnown() {
			return v // Terraform would refuse it: left unknown
		}
		b.WriteString(s.AsString())
	}
	text := b.String()
	if name == "scope" {
		if !strings.HasPrefix(text, "/") {
			return v
		}
		for _, at := range unknownAt {
			end := at + len(knownAfterApply)
			if text[at-1] != '/' || end < len(text) && text[end] != '/' {
				return v // part of a segment: it might hold more of the path
			}
		}
	} else if !strings.HasPrefix(strings.TrimSpace(text), "{") {
		return v // not a JSON document: no policy to read
	}
	out := cty.StringVal(text)
	mi.ev.charge(out)
	return out
}

// renderTemplateFile is the rendered attribute of data "template_file"
// (the template provider's, which configurations older than templatefile
// render their policies with): its template rendered with its vars, each
// known only after apply as knownAfterApply; ok is false when the
// template is not known or does not render.
func renderTemplateFile(vals map[string]cty.Value, fs map[string]function.Function) (cty.Value, bool) {
	tmpl, _ := vals["template"].UnmarkDeep()
	if tmpl == cty.NilVal || !tmpl.IsKnown() || tmpl.IsNull() || tmpl.Type() != cty.String {
		return cty.NilVal, false
	}
	vars, _ := vals["vars"].UnmarkDeep()
	if vars == cty.NilVal || vars.IsNull() {
		vars = cty.EmptyObjectVal
	}
	if !vars.IsKnown() {
		return cty.NilVal, false
	}
	out, err := renderTemplate("template_file", []byte(tmpl.AsString()), vars, fs)
	if err != nil {
		return cty.NilVal, false
	}
	return out, true
}
