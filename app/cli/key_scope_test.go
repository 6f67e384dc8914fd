package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestKeyScopesAndExpiry(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		p.ok("org", "create", "--name", "Acme")
		p.ok("key", "create", "--org", "acme", "--name", "logs", "--scope", "logs", "--expires", "30")
		p.ok("key", "create", "--org", "acme", "--name", "two", "--scope", "scan,gateway", "--scope", "logs")
		p.ok("key", "create", "--org", "acme", "--name", "all")

		var list []struct {
			Name      string     `json:"name"`
			Scopes    []string   `json:"scopes"`
			ExpiresAt *time.Time `json:"expires_at"`
			Status    string     `json:"status"`
		}
		if err := json.Unmarshal([]byte(p.ok("key", "list", "--org", "acme", "--json")), &list); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, k := range list {
			got[k.Name] = strings.Join(k.Scopes, " ")
			if k.Name == "logs" && (k.ExpiresAt == nil || time.Until(*k.ExpiresAt) < 29*24*time.Hour) {
				t.Errorf("a 30-day key expires at %v", k.ExpiresAt)
			}
			if k.Name != "logs" && k.ExpiresAt != nil {
				t.Errorf("key %s expires at %v, want never", k.Name, k.ExpiresAt)
			}
		}
		if got["logs"] != "logs" || got["two"] != "logs scan gateway" || got["all"] != "public logs scan gateway" {
			t.Errorf("scopes %v", got)
		}
		text := p.ok("key", "list", "--org", "acme")
		for _, col := range []string{"SCOPES", "CREATED", "LAST USED", "EXPIRES", "never", "logs,scan,gateway"} {
			if !strings.Contains(text, col) {
				t.Errorf("key list lacks %q:\n%s", col, text)
			}
		}
		p.fails(2, `unknown scope "admin"`, "key", "create", "--org", "acme", "--name", "x", "--scope", "admin")
		p.fails(2, "--expires", "key", "create", "--org", "acme", "--name", "x", "--expires", "2020-01-01")
		p.fails(2, "--expires", "key", "create", "--org", "acme", "--name", "x", "--expires", "12")
	})
}
