package scan

import (
	"fmt"
	"strconv"
	"strings"
)

// A raw Terraform state file (terraform.tfstate, `terraform state pull`),
// format version 4 (Terraform 0.12 and later):
//
//	{"version": 4, "terraform_version": "1.9.5", "serial": 3, "lineage": "…",
//	 "resources": [{"module": "module.net[0]", "mode": "managed",
//	   "type": "aws_security_group", "name": "web", "each": "list",
//	   "instances": [{"index_key": 0, "attributes": {…}}]}]}
//
// It is read like the values of `terraform show -json` of a state (the
// attributes are the same JSON): one node per instance of a managed
// resource, addressed as Terraform addresses it (module path, type, name
// and index key: module.net[0].aws_security_group.web[0],
// aws_s3_bucket.b["logs"]), linked by the bucket name or group id its
// attributes hold, as a state always is. Data sources are not read. The
// result's format is terraform_state, as for `terraform show -json`.
//
// Format 3 (Terraform 0.11 and before: "modules" with flattened
// attributes) is refused with a message saying how to get a document that
// is read. An instance that has only attributes_flat (a state written by
// 0.11, upgraded but never refreshed) has its top-level scalar attributes
// read; its blocks (ingress, grant) are not.

// tfStateResource is one resource of a raw state, with its instances.
type tfStateResource struct {
	Module, Mode, Type, Name string
	Instances                []tfStateInstance
}

type tfStateInstance struct {
	IndexKey   any // nil, a number (count) or a string (for_each)
	Deposed    string
	Attributes map[string]any
	Line       int
}

func (r *reader) tfStateResource() tfStateResource {
	var res tfStateResource
	r.object(func(key string) {
		switch key {
		case "module":
			res.Module = r.stringValue()
		case "mode":
			res.Mode = r.stringValue()
		case "type":
			res.Type = r.stringValue()
		case "name":
			res.Name = r.stringValue()
		case "instances":
			res.Instances = appendArray(r, res.Instances, r.tfStateInstance)
		}
	})
	return res
}

func (r *reader) tfStateInstance() tfStateInstance {
	var in tfStateInstance
	r.ws()
	in.Line = r.lines.at(r.pos)
	var flat map[string]any
	r.object(func(key string) {
		switch key {
		case "index_key":
			in.IndexKey = r.anyValue()
		case "deposed":
			in.Deposed = r.stringValue()
		case "attributes":
			in.Attributes, _ = r.anyValue().(map[string]any)
		case "attributes_flat":
			flat, _ = r.anyValue().(map[string]any)
		}
	})
	if in.Attributes == nil && flat != nil {
		in.Attributes = unflatScalars(flat)
	}
	return in
}

// unflatScalars keeps the top-level scalar attributes of a flatmap
// ("acl": "private"; not "grant.#" or "ingress.123.from_port").
func unflatScalars(flat map[string]any) map[string]any {
	out := make(map[string]any, len(flat))
	for k, v := range flat {
		if _, ok := v.(string); ok && !strings.Contains(k, ".") {
			out[k] = v
		}
	}
	return out
}

// scanStateFile checks a raw state file.
func scanStateFile(doc *tfDocument, env *envelope) (*Result, error) {
	if doc.HasModules && !doc.HasStateResources || doc.StateVersion > 0 && doc.StateVersion < 4 {
		return nil, &ValidationError{Problems: []Problem{{Path: "version", Message: fmt.Sprintf(
			"a state file of format %s (Terraform 0.11 or earlier) is not read: run `terraform show -json` on it with Terraform 0.12 or later (or `terraform init` and `terraform state pull` with a current version, which upgrades it) and send that",
			stateVersionText(doc.StateVersion))}}}
	}
	g := newGraph(FormatTerraformState)
	count := 0
	for i := range doc.StateResources {
		res := &doc.StateResources[i]
		if res.Mode != "managed" || res.Type == "" || res.Name == "" {
			continue // a data source, or nothing to name
		}
		prefix := res.Module
		if prefix != "" {
			prefix += "."
		}
		prefix += res.Type + "." + res.Name
		for j := range res.Instances {
			in := &res.Instances[j]
			if count++; count > MaxResources {
				return nil, tooManyResources()
			}
			addr := prefix + indexKeyText(in.IndexKey)
			if in.Deposed != "" {
				g.add(deposedNode(addr, in.Deposed, res.Type, in.Line))
				continue
			}
			attrs := in.Attributes
			if attrs == nil {
				attrs = map[string]any{}
			}
			g.add(&node{addr: addr, typ: res.Type, line: in.Line, base: addr, attrs: attrs})
		}
	}
	newTFLinker(g, nil).linkAll()
	return g.evaluate(env), nil
}

// indexKeyText is an instance's index key as Terraform writes it in an
// address: [0] for count, ["key"] for for_each, nothing without either.
func indexKeyText(k any) string {
	switch x := k.(type) {
	case float64:
		return "[" + strconv.FormatFloat(x, 'f', -1, 64) + "]"
	case string:
		return "[" + strconv.Quote(x) + "]"
	}
	return ""
}

func stateVersionText(v float64) string {
	if v <= 0 {
		return "3 or earlier"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
