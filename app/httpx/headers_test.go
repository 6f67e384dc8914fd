package httpx

import (
	"net/http"
	"testing"
)

// A group of headers set at once reads as each set alone, and a header
// added to one of them later leaves its neighbours as they were.
func TestHeaderGroups(t *testing.T) {
	h := http.Header{}
	keys := []string{"X-A", "X-B", "X-C"}
	SetInts(h, keys, 0, -12, 1796083200)
	h.Add("X-A", "again")
	SetValues(h, []string{"X-Provider", "X-Model"}, []string{"anthropic", "claude-sonnet-4-5"})
	h.Add("X-Provider", "openai")
	for k, want := range map[string][]string{
		"X-A": {"0", "again"}, "X-B": {"-12"}, "X-C": {"1796083200"},
		"X-Provider": {"anthropic", "openai"}, "X-Model": {"claude-sonnet-4-5"},
	} {
		if got := h.Values(k); len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
