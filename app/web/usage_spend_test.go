package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// The usage page shows each day's cost per key and the organization's
// budget with what it has spent this month.
func TestUsagePageShowsSpend(t *testing.T) {
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":2000}}`)
	}))
	defer provider.Close()
	config := "providers:\n  - {name: anthropic, style: messages, url: " + provider.URL + ", key: \"${TEST_KEY}\"}\n" +
		"models:\n  - name: smart\n    targets: [{provider: anthropic, model: claude-sonnet-4-5}]\n"
	env := apptest.New(t, apptest.Databases(t)[0], apptest.WithEnv("GATEWAY_CONFIG", config), apptest.WithEnv("TEST_KEY", "sk-test"))
	c, s := playgroundSignedIn(t, env, "spend@example.com")
	if err := models.SetBudget(env.DB.DB, s.OrgID, "", 25_000_000); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if res := env.Client().PostJSON("/gateway/v1/chat", `{"messages":[{"role":"user","content":"hi"}],"max_tokens":2000}`, "Authorization", "Bearer "+s.Key); res.StatusCode != 200 {
			t.Fatalf("call: %d %s", res.StatusCode, res.Body)
		}
	}
	env.App.FlushAudit()
	// $3 × 10 + $15 × 2,000 per million: 30,030 µ$ a call.
	doc := c.Get("/console/usage").Doc(t)
	if got := strings.TrimSpace(doc.Find("[data-testid=usage-cost]").First().Text()); got != "$0.06" {
		t.Errorf("the day's cost %q, want $0.06 (two calls of $0.03003)", got)
	}
	if got := strings.Join(strings.Fields(doc.Find("[data-testid=budget]").Text()), " "); !strings.Contains(got, "$0.06 spent of $25.00") {
		t.Errorf("budget line %q", got)
	}
}
