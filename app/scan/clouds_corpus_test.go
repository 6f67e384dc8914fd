package scan

import (
	"os"
	"path/filepath"
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
