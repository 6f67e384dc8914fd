package toolsai

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"parapet/app/gateway"
)

// The built-in demo upstream runs no model. For the tools' prompts it
// answers from fixed rules instead of describing the request, so that
// `go run .` shows both features: an explanation made from the prompt's
// templates and keywords, and a fix from a small table of known
// remediations. Both say they are demo answers.
func init() { gateway.RegisterDemoAnswer(demoAnswer) }

func demoAnswer(req *gateway.Request) (string, bool) {
	if len(req.Messages) == 0 {
		return "", false
	}
	user := req.Messages[len(req.Messages)-1].Content
	switch {
	case strings.HasPrefix(req.System, explainMarker):
		return demoExplain(user), true
	case strings.HasPrefix(req.System, fixMarker):
		return demoFix(user), true
	}
	return "", false
}

var demoTemplate = regexp.MustCompile(`(?m)^Template (\d+) occurs (\d+) times.*\n<[^>\n]+>\ntemplate: (.*)$`)

// demoCauses are likely causes by keyword, most urgent first.
var demoCauses = []struct {
	words   []string
	urgency string
	cause   string
	check   string
}{
	{[]string{"panic", "fatal", "segfault", "oom", "out of memory"}, "critical", "the process crashed or ran out of memory", "the process's restarts, its memory limit and the last lines before each crash"},
	{[]string{"denied", "unauthorized", "forbidden", "401", "403", "invalid token", "authentication"}, "high", "credentials that are wrong, expired or lack a permission", "which identity made the call, when its credentials were last rotated, and the policy it needs"},
	{[]string{"timeout", "timed out", "deadline"}, "high", "a dependency answering slowly or not at all", "the latency and health of the dependency named in the line, and recent deploys on either side"},
	{[]string{"refused", "unreachable", "reset", "no route", "connection"}, "high", "a service it connects to being down, restarting or unreachable on the network", "whether the target is running and listening, its address, and firewall or security-group rules between them"},
	{[]string{"disk", "no space", "quota"}, "high", "a full disk or an exhausted quota", "free space and quotas on the host or volume named"},
	{[]string{"error", "fail", "exception"}, "medium", "a request or job failing in the application", "the first occurrence, the input that triggered it and the code path in the stack trace"},
	{[]string{"warn", "retry", "slow", "deprecated"}, "low", "a degraded but working condition", "whether its rate grows over time"},
}

func demoExplain(prompt string) string {
	var b strings.Builder
	b.WriteString("**Demo answer**: no model is behind Parapet's demo upstream; this explanation is made from the prompt by fixed rules.\n\n## What it means\n")
	urgency, causes, checks := "low", []string{}, []string{}
	for _, m := range demoTemplate.FindAllStringSubmatch(prompt, -1) {
		fmt.Fprintf(&b, "- Template %s (`%s`) occurs %s times.\n", m[1], strings.ReplaceAll(m[3], "`", "'"), m[2])
		low := strings.ToLower(m[3])
		for _, c := range demoCauses {
			if containsAny(low, c.words) {
				if rank(c.urgency) > rank(urgency) {
					urgency = c.urgency
				}
				causes = appendNew(causes, c.cause)
				checks = appendNew(checks, c.check)
				break
			}
		}
	}
	if len(causes) == 0 {
		causes = append(causes, "normal operation: the lines carry no error or warning keyword")
		checks = append(checks, "whether the volume of these lines is expected")
	}
	b.WriteString("\n## Likely causes\n")
	for _, c := range causes {
		b.WriteString("- " + c + "\n")
	}
	b.WriteString("\n## What to check next\n")
	for _, c := range checks {
		b.WriteString("- " + c + "\n")
	}
	fmt.Fprintf(&b, "\n## Urgency\n%s: the demo ranks urgency by the most serious keyword in the templates.\n", urgency)
	return b.String()
}

func rank(u string) int { return strings.Index("low medium high critical", u) }

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

var (
	demoFinding  = regexp.MustCompile(`(?m)^\d+\. ([A-Z0-9_]+) \([a-z]+\) on resource ("(?:[^"\\]|\\.)*")`)
	demoResource = regexp.MustCompile(`(?s)<resource-[0-9a-f]+ name=("(?:[^"\\]|\\.)*") role="(\w+)" format="(\w+)">\n(.*?)\n</resource-[0-9a-f]+>`)
)

func demoFix(prompt string) string {
	rules := map[string][]string{} // resource -> rules
	var order []string
	for _, m := range demoFinding.FindAllStringSubmatch(prompt, -1) {
		name, _ := strconv.Unquote(m[2])
		rules[name] = append(rules[name], m[1])
	}
	var b, notes strings.Builder
	b.WriteString("**Demo fix**: no model is behind Parapet's demo upstream; this fix comes from a small table of known remediations.\n\n")
	var linkedRules []string
	linkedOwner := "" // the finding's resource of the linked resources that follow it
	hclFormat := false
	for _, m := range demoResource.FindAllStringSubmatch(prompt, -1) {
		name, _ := strconv.Unquote(m[1])
		own := rules[name]
		if m[2] == "linked" {
			own = linkedRules
		} else {
			linkedRules, linkedOwner = own, name
			order = append(order, name)
		}
		if m[3] == "hcl" {
			hclFormat = true
			body, fixed, ok := demoFixHCL(m[4], own)
			if !ok {
				continue
			}
			for _, rule := range fixed {
				on := name
				if m[2] == "linked" { // the setting that causes the finding is in the linked resource
					on = linkedOwner + " (in " + name + ")"
				}
				fmt.Fprintf(&notes, "- %s on %s: %s.\n", rule, on, hclRemediations[remediationKey(rule)].says)
			}
			fmt.Fprintf(&b, "Resource: %s\n```hcl\n%s\n```\n\n", name, body)
			continue
		}
		var root yaml.Node
		if yaml.Unmarshal([]byte(m[4]), &root) != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
			continue
		}
		res := root.Content[0]
		props := res
		if p, _ := child(res, "Properties"); p != nil && p.Kind == yaml.MappingNode {
			props = p
		}
		changed := false
		for _, rule := range own {
			if fix, ok := remediations[remediationKey(rule)]; ok && fix.apply(props) {
				changed = true
				if m[2] != "linked" {
					fmt.Fprintf(&notes, "- %s on %s: %s.\n", rule, name, fix.says)
				}
			}
		}
		if !changed {
			continue
		}
		var body string
		if m[3] == "json" {
			body = nodeJSON(res, "")
		} else {
			out, err := yaml.Marshal(res)
			if err != nil {
				continue
			}
			body = strings.TrimRight(string(out), "\n")
		}
		fmt.Fprintf(&b, "Resource: %s\n```%s\n%s\n```\n\n", name, m[3], body)
	}
	for _, name := range order {
		for _, rule := range rules[name] {
			_, known := remediations[remediationKey(rule)]
			if hclFormat {
				_, known = hclRemediations[remediationKey(rule)]
			}
			if !known {
				fmt.Fprintf(&notes, "- %s on %s: the demo's table has no remediation for this rule; the resource is left as it is.\n", rule, name)
			}
		}
	}
	b.WriteString(notes.String())
	return b.String()
}

func remediationKey(rule string) string {
	if strings.HasPrefix(rule, "SG_") {
		return "SG"
	}
	return rule
}

// remediation is one known fix: it changes a resource's properties (ours
// at the top level, CloudFormation's Properties) and says what it did.
type remediation struct {
	says  string
	apply func(props *yaml.Node) bool
}

var remediations = map[string]remediation{
	"S3_PUBLIC_READ": {"made the bucket private (no public ACL, public access blocked)", func(p *yaml.Node) bool {
		if has(p, "public_read") {
			return set(p, "public_read", boolNode(false))
		}
		changed := remove(p, "AccessControl")
		if has(p, "PublicAccessBlockConfiguration") || has(p, "BucketName") || changed {
			blocks := &yaml.Node{Kind: yaml.MappingNode}
			for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
				set(blocks, k, boolNode(true))
			}
			changed = set(p, "PublicAccessBlockConfiguration", blocks) || changed
		}
		return changed
	}},
	"S3_UNENCRYPTED": {"turned on default encryption with KMS keys", func(p *yaml.Node) bool {
		if has(p, "encrypted") || has(p, "type") {
			return set(p, "encrypted", boolNode(true))
		}
		var enc yaml.Node
		_ = yaml.Unmarshal([]byte("ServerSideEncryptionConfiguration:\n- ServerSideEncryptionByDefault:\n    SSEAlgorithm: aws:kms\n"), &enc)
		return set(p, "BucketEncryption", enc.Content[0])
	}},
	"SG": {"narrowed ingress from anywhere to the private network 10.0.0.0/8", func(p *yaml.Node) bool {
		changed := false
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i].Value, n.Content[i+1]
					switch {
					case (k == "cidr" || k == "CidrIp") && v.Value == "0.0.0.0/0":
						v.Value, changed = "10.0.0.0/8", true
					case (k == "cidr" || k == "CidrIpv6") && v.Value == "::/0":
						v.Value, changed = "fd00::/8", true
					}
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(p)
		return changed
	}},
	"DB_PUBLIC": {"made the database private", func(p *yaml.Node) bool {
		if has(p, "type") {
			return set(p, "publicly_accessible", boolNode(false))
		}
		return set(p, "PubliclyAccessible", boolNode(false))
	}},
	"DB_UNENCRYPTED": {"turned on storage encryption", func(p *yaml.Node) bool {
		if has(p, "type") {
			return set(p, "encrypted", boolNode(true))
		}
		return set(p, "StorageEncrypted", boolNode(true))
	}},
}

func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
}

func has(m *yaml.Node, key string) bool { v, _ := child(m, key); return v != nil }

// set sets key to v in mapping m, appending it when absent; it reports
// whether m changed.
func set(m *yaml.Node, key string, v *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			if old.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && old.Value == v.Value {
				return false
			}
			m.Content[i+1] = v
			return true
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return true
}

func remove(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return true
		}
	}
	return false
}

// nodeJSON writes n as indented JSON, keys in their order.
func nodeJSON(n *yaml.Node, indent string) string {
	in := indent + "  "
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			return "{}"
		}
		var parts []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			parts = append(parts, in+jsonString(n.Content[i].Value)+": "+nodeJSON(n.Content[i+1], in))
		}
		return "{\n" + strings.Join(parts, ",\n") + "\n" + indent + "}"
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return "[]"
		}
		var parts []string
		for _, c := range n.Content {
			parts = append(parts, in+nodeJSON(c, in))
		}
		return "[\n" + strings.Join(parts, ",\n") + "\n" + indent + "]"
	case yaml.AliasNode:
		return nodeJSON(n.Alias, indent)
	}
	switch n.Tag {
	case "!!bool", "!!int", "!!float", "!!null":
		return n.Value
	}
	return jsonString(n.Value)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
