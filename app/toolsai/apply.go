package toolsai

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"parapet/app/redact"
	"parapet/app/scan"
)

// patch replaces one resource's span with new text.
type patch struct {
	sp   span
	text string
}

// Apply applies a model's answer: each corrected resource is checked (it
// parses, it is one of the fix's resources, only its properties changed,
// masked values stayed where they stood) and replaces its source, the
// document is scanned again, and each finding is verified — gone, with no
// new finding on the resources changed — or not, with the reason.
func (f *Fix) Apply(answer string) *FixResult {
	names, bodies := Blocks(answer)
	scope := map[string]*part{}
	for _, t := range f.targets {
		for _, p := range t.parts {
			scope[p.name] = p
		}
	}
	var outside []string
	for _, n := range names {
		if scope[n] == nil {
			outside = append(outside, n)
		}
	}
	var patches []patch
	failed := map[string]string{} // resource name -> why its answer was refused
	for name, p := range scope {
		body, ok := bodies[name]
		if !ok {
			continue
		}
		text, err := f.accept(p, body)
		if err != nil {
			failed[name] = err.Error()
			continue
		}
		patches = append(patches, patch{p.sp, text})
	}
	res := &FixResult{Format: f.doc.format, Findings: slices.Clone(f.verdicts), Masked: f.Masked}
	var after *scan.Result
	var scanErr error
	if f.doc.files == nil {
		res.Document = splice(f.doc.text, patches)
		res.Diff = Diff(f.doc.text, res.Document)
		if len(patches) > 0 {
			after, scanErr = scan.Scan(f.scanInput(res.Document))
		}
	} else {
		files := f.spliceFiles(patches)
		if !f.doc.sent { // a .tf file pasted alone is scanned as it came
			res.Document = string(files[0].Data)
			res.Diff = Diff(f.doc.text, res.Document)
			if len(patches) > 0 {
				after, scanErr = scan.Scan(f.scanInput(res.Document))
			}
		} else {
			var diffs strings.Builder
			for i, was := range f.doc.files {
				if now := files[i]; string(now.Data) != string(was.Data) {
					res.Files = append(res.Files, SourceFile{Path: now.Path, Content: string(now.Data)})
					diffs.WriteString(diffNamed(now.Path, string(was.Data), string(now.Data)))
				}
			}
			res.Diff = diffs.String()
			if len(patches) > 0 {
				after, scanErr = scan.ScanFiles(files, f.scanOptions())
			}
		}
	}
	if res.Masked == nil {
		res.Masked = []redact.Mask{}
	}
	for _, t := range f.targets {
		reason := t.reason
		if reason == "" {
			reason = f.judge(t, bodies, failed, outside, after, scanErr)
		}
		for _, k := range t.findings {
			res.Findings[k].Verdict, res.Findings[k].Reason = Verified, reason
			if reason != "" {
				res.Findings[k].Verdict = NotVerified
			}
		}
	}
	return res
}

// splice applies patches to text.
func splice(text string, patches []patch) string {
	slices.SortFunc(patches, func(a, b patch) int { return b.sp.start - a.sp.start })
	for _, p := range patches {
		text = text[:p.sp.start] + p.text + text[p.sp.end:]
	}
	return text
}

// spliceFiles applies patches to the files of Terraform source they name.
func (f *Fix) spliceFiles(patches []patch) []scan.File {
	out := slices.Clone(f.doc.files)
	for i, file := range out {
		var mine []patch
		for _, p := range patches {
			if p.sp.file == file.Path {
				mine = append(mine, p)
			}
		}
		if len(mine) > 0 {
			out[i].Data = []byte(splice(string(file.Data), mine))
		}
	}
	return out
}

// judge says why target t's findings are not verified, or "".
func (f *Fix) judge(t *target, bodies map[string]string, failed map[string]string, outside []string, after *scan.Result, scanErr error) string {
	main := t.parts[0]
	var changed []string
	for _, p := range t.parts {
		if why, ok := failed[p.name]; ok {
			return fmt.Sprintf("the corrected %s was refused: %s", p.name, why)
		}
		if _, ok := bodies[p.name]; ok {
			changed = append(changed, p.name)
		}
	}
	switch {
	case len(outside) > 0:
		return fmt.Sprintf("the answer also changes %s, which the fix is not about: a fix may change only the finding's resource and what it links to", quoteList(outside))
	case len(changed) == 0:
		return fmt.Sprintf("the answer has no corrected %s", main.name)
	case scanErr != nil:
		return "the patched document does not scan: " + scanErr.Error()
	}
	for _, k := range t.findings {
		fp := f.verdicts[k].Fingerprint
		if i := slices.IndexFunc(after.Findings, func(x scan.Finding) bool { return x.Fingerprint == fp }); i >= 0 {
			return "the finding is still there: " + after.Findings[i].Message
		}
	}
	known := map[string]bool{}
	for _, x := range f.before.Findings {
		known[x.Fingerprint] = true
	}
	for _, x := range after.Findings {
		if !known[x.Fingerprint] && slices.Contains(changed, x.Resource.Name) {
			return fmt.Sprintf("the fix adds a finding: %s (%s) on %s: %s", x.Rule, x.Severity, x.Resource.Name, x.Message)
		}
	}
	return ""
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// accept checks one corrected resource against the source it replaces
// and returns its replacement text, secrets put back where they stood.
func (f *Fix) accept(p *part, body string) (string, error) {
	if f.doc.files != nil {
		return f.acceptHCL(p, body)
	}
	var was, now any
	parse, lang := json.Unmarshal, "JSON"
	if f.doc.yaml {
		parse, lang = yaml.Unmarshal, "YAML"
	}
	if err := parse([]byte(p.masked), &was); err != nil {
		return "", fmt.Errorf("its source does not parse: %v", err)
	}
	if err := parse([]byte(body), &now); err != nil {
		return "", fmt.Errorf("it does not parse as %s: %v", lang, err)
	}
	if err := f.sameResource(was, now); err != nil {
		return "", err
	}
	at := map[string][]string{} // placeholder -> the paths where it stood
	walkStrings(was, "", func(path, s string) {
		for _, ph := range redact.Placeholder.FindAllString(s, -1) {
			at[ph] = append(at[ph], path)
		}
	})
	var moved error
	walkStrings(now, "", func(path, s string) {
		for _, ph := range redact.Placeholder.FindAllString(s, -1) {
			if moved == nil && !slices.Contains(at[ph], path) {
				moved = fmt.Errorf("it puts the masked value %s at %s, where it did not stand", ph, strings.TrimPrefix(path, "/"))
			}
		}
	})
	if moved != nil {
		return "", moved
	}
	value, err := f.restore(body)
	if err != nil {
		return "", err
	}
	return f.doc.replacement(p.sp, value)
}

// sameResource refuses an answer that is not the same resource with
// other properties: another type or name, or (CloudFormation) a change
// outside Properties.
func (f *Fix) sameResource(was, now any) error {
	w, ok1 := was.(map[string]any)
	n, ok2 := now.(map[string]any)
	if !ok1 || !ok2 {
		return fmt.Errorf("it is not one resource (an object)")
	}
	if f.doc.format == "parapet" {
		for _, k := range []string{"type", "name"} {
			if !reflect.DeepEqual(w[k], n[k]) {
				return fmt.Errorf("it changes the resource's %s from %v to %v", k, w[k], n[k])
			}
		}
		return nil
	}
	for _, k := range keysOf(w, n) {
		if k != "Properties" && !reflect.DeepEqual(w[k], n[k]) {
			if _, had := w[k]; !had {
				return fmt.Errorf("it adds %s: only the resource's Properties may change", k)
			}
			return fmt.Errorf("it changes %s: only the resource's Properties may change", k)
		}
	}
	return nil
}

func keysOf(maps ...map[string]any) []string {
	var keys []string
	for _, m := range maps {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// walkStrings calls fn with every string of v and its path.
func walkStrings(v any, path string, fn func(path, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			walkStrings(c, path+"/"+k, fn)
		}
	case []any:
		for i, c := range x {
			walkStrings(c, fmt.Sprintf("%s/%d", path, i), fn)
		}
	case string:
		fn(path, x)
	}
}

// restore puts the masked values back into a corrected resource whose
// placeholders were checked to stand where they stood: in its JSON
// strings, escaped; in its YAML scalars, re-encoded.
func (f *Fix) restore(body string) (string, error) {
	if !f.doc.yaml {
		return redact.Placeholder.ReplaceAllStringFunc(body, func(ph string) string {
			v, ok := f.r.Original(ph)
			if !ok {
				return ph
			}
			b, _ := json.Marshal(v)
			return string(b[1 : len(b)-1])
		}), nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(body), &n); err != nil {
		return "", err
	}
	restoreNode(&n, f.r)
	var out strings.Builder
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return "", err
	}
	return out.String(), nil
}

func restoreNode(n *yaml.Node, r *redact.Redactor) {
	if n.Kind == yaml.ScalarNode && redact.Placeholder.MatchString(n.Value) {
		n.Value = redact.Placeholder.ReplaceAllStringFunc(n.Value, func(ph string) string {
			if v, ok := r.Original(ph); ok {
				return v
			}
			return ph
		})
		if strings.Contains(n.Value, "\n") {
			n.Style = yaml.LiteralStyle
		}
	}
	for _, c := range n.Content {
		restoreNode(c, r)
	}
}
