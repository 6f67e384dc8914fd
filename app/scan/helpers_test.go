package scan

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// doc wraps resource objects into a document.
func doc(resources ...string) string {
	return `{"resources":[` + strings.Join(resources, ",") + `]}`
}

// mustScan scans a document that must be valid.
func mustScan(t *testing.T, input string) *Result {
	t.Helper()
	res, err := Scan([]byte(input))
	if err != nil {
		t.Fatalf("Scan(%s): %v", input, err)
	}
	return res
}

// scanTestdata scans testdata/file, which must be valid, and renders its
// findings as "RULE resource line N", in order.
func scanTestdata(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range mustScan(t, string(data)).Findings {
		out = append(out, fmt.Sprintf("%s %s line %d", f.Rule, f.Resource.Name, f.Line))
	}
	return out
}

// summarize renders findings as "RULE path: message", one per finding, in order.
func summarize(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Rule+" "+f.Path+": "+f.Message)
	}
	return out
}

// problemsOf returns the problems of a ValidationError as strings.
func problemsOf(t *testing.T, input string) []string {
	t.Helper()
	_, err := Scan([]byte(input))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Scan(%s): want *ValidationError, got %T %v", input, err, err)
	}
	out := []string{}
	for _, p := range ve.Problems {
		out = append(out, p.String())
	}
	return out
}

func equalStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
