package scan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCloudsCorpus scans the Google Cloud and Azure documents of
// testdata/clouds (plans as `terraform show -json` writes them, with
// after_unknown and the configuration's references, and states) and
// expects exactly the findings of the .expected file next to each: one
// line "RULE SEVERITY ADDRESS [via LINKED]" per finding, in the order of
// the result. Every resource not named there is deliberately clean, or
// its deciding value unknown until apply.
func TestCloudsCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/clouds/*.json")
	slices.Sort(files)
	if len(files) < 4 {
		t.Fatalf("corpus: %v", files)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".expected")
		if err != nil {
			t.Fatal(err)
		}
		res := scanAt(t, b)
		equalStrings(t, file, cloudFindingLines(res.Findings), expectedLines(string(want)))
		for _, f := range res.Findings {
			if c := cloudOf(f.Resource.Type); c == cloudAWS || f.Title != cloudTexts[c][mustRule(t, f.Rule)].Title {
				t.Errorf("%s: %s on %s has title %q", file, f.Rule, f.Resource.Type, f.Title)
			}
		}
	}
}

// cloudFindingLines renders findings as "RULE SEVERITY ADDRESS [via LINKED]".
func cloudFindingLines(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		s := f.Rule + " " + string(f.Severity) + " " + f.Resource.Name
		if f.Source.Linked != nil {
			s += " via " + f.Source.Linked.Name
		}
		out = append(out, s)
	}
	return out
}

// expectedLines reads an .expected file: its lines, without blank lines
// and # comments.
func expectedLines(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func mustRule(t *testing.T, id string) ruleID {
	t.Helper()
	r, ok := ruleByID(id)
	if !ok {
		t.Fatalf("unknown rule %s", id)
	}
	return r
}

// TestCloudsSourceSameAsPlan: the Terraform source of gcp_plan.json and
// azure_plan.json (testdata/clouds/*_source, with variables, tfvars,
// locals and dynamic blocks) gives the same findings: rule, severity,
// address and linked resource. Each finding from source points at the
// line of the attribute or block that decides it.
func TestCloudsSourceSameAsPlan(t *testing.T) {
	for _, cloud := range []string{"gcp", "azure"} {
		dir := filepath.Join("testdata", "clouds", cloud+"_source")
		var files []File
		names, _ := filepath.Glob(filepath.Join(dir, "*"))
		sources := map[string][]string{}
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, File{Path: filepath.Base(name), Data: b})
			sources[filepath.Base(name)] = strings.Split(string(b), "\n")
		}
		res, err := ScanFiles(files, Options{})
		if err != nil {
			t.Fatalf("%s: %v", cloud, err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", "clouds", cloud+"_plan.expected"))
		if err != nil {
			t.Fatal(err)
		}
		got, wantLines := cloudFindingLines(res.Findings), expectedLines(string(want))
		slices.Sort(got)
		slices.Sort(wantLines)
		equalStrings(t, cloud+" source", got, wantLines)
		for _, f := range res.Findings {
			lines := sources[f.Location.File]
			if f.Location.StartLine < 1 || f.Location.StartLine > len(lines) {
				t.Errorf("%s %s: location %+v", f.Rule, f.Resource.Name, f.Location)
				continue
			}
			if line := lines[f.Location.StartLine-1]; !holdsDecisive(line, f.Path) {
				t.Errorf("%s %s at %s: line %d %q is not where it is decided", f.Rule, f.Resource.Name, f.Path, f.Location.StartLine, line)
			}
		}
	}
}

// holdsDecisive says whether a source line is where the cause at path is
// written: the attribute or block the path names, or the nearest one
// enclosing it (a binding inside a jsonencode'd policy_data is located on
// policy_data), or for a path naming a whole rule resource, its sources.
func holdsDecisive(line, path string) bool {
	segments := strings.Split(path, ".")
	if len(segments) == 2 {
		return strings.Contains(line, "source_address_prefix")
	}
	for _, seg := range segments[2:] {
		if k := strings.IndexByte(seg, '['); k >= 0 {
			seg = seg[:k]
		}
		if strings.Contains(line, seg) {
			return true
		}
	}
	return false
}
