package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"parapet/app/keys"
	"parapet/models"
)

// createKey runs `key create` in text mode and returns the id and key it
// printed.
func createKey(t *testing.T, p *parapet, org, name string) (id, key string) {
	t.Helper()
	res := p.run("key", "create", "--org", org, "--name", name)
	if res.code != 0 {
		t.Fatalf("key create: exit %d: %s", res.code, res.stderr)
	}
	if _, err := fmt.Sscanf(res.stdout, "id: %s\nkey: %s\n", &id, &key); err != nil {
		t.Fatalf("key create printed %q: %v", res.stdout, err)
	}
	if !strings.Contains(res.stderr, "not shown again") {
		t.Errorf("no warning that the key is shown once: %q", res.stderr)
	}
	return id, key
}

func TestKeyCreate(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")

		id, key := createKey(t, p, "acme", "ci")
		if !keys.WellFormed(key) {
			t.Errorf("printed key %q is not well formed", key)
		}
		k, err := models.APIKeyByHash(ctx, p.gorm(), keys.Hash(key))
		if err != nil {
			t.Fatalf("no key has the printed key's hash: %v", err)
		}
		if k.ID != id || k.OrgID != org.ID || k.Name != "ci" || k.Hint != keys.Hint(key) || !k.Active() || k.CreatedBy != nil {
			t.Errorf("stored %+v", k)
		}
		// Only the hash is stored: no column of any key row holds the key.
		var rows []map[string]any
		if err := p.gorm().Table("api_keys").Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for col, v := range row {
				if strings.Contains(fmt.Sprint(v), key) {
					t.Errorf("column %s holds the key", col)
				}
			}
		}
		events := p.audit(models.ActionKeyCreate)
		if len(events) != 1 || *events[0].OrgID != org.ID || events[0].Target != "ci ("+k.Hint+")" || events[0].IP != "cli" {
			t.Errorf("key.create events %+v", events)
		}

		p.fails(1, "an active key with this name already exists", "key", "create", "--org", org.ID, "--name", "ci")
		p.fails(1, `no organization has the id or slug "nope"`, "key", "create", "--org", "nope", "--name", "ci")
	})
}

func TestKeyCreateJSON(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")
		out := p.ok("key", "create", "--json", "--org", "acme", "--name", "deploy")

		// Exactly one JSON object, with exactly id, key and org.
		dec := json.NewDecoder(strings.NewReader(out))
		var got map[string]string
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
		}
		if err := dec.Decode(new(any)); err != io.EOF {
			t.Errorf("more than one JSON value on stdout: %q", out)
		}
		if len(got) != 3 || got["org"] != org.ID || !keys.WellFormed(got["key"]) || !strings.HasPrefix(got["id"], "key_") {
			t.Errorf("printed %v", got)
		}
		k, err := models.APIKeyByHash(context.Background(), p.gorm(), keys.Hash(got["key"]))
		if err != nil || k.ID != got["id"] {
			t.Errorf("the printed key is not the stored one: %+v, %v", k, err)
		}
	})
}

func TestKeyListAndRevoke(t *testing.T) {
	eachDB(t, func(t *testing.T, p *parapet) {
		ctx := context.Background()
		p.ok("org", "create", "--name", "Acme")
		org := p.org("acme")
		oldID, oldKey := createKey(t, p, "acme", "old")
		newID, newKey := createKey(t, p, "acme", "new")

		out := p.ok("key", "revoke", oldID)
		if !strings.Contains(out, "revoked key "+oldID) {
			t.Errorf("revoke printed %q", out)
		}
		k, _ := models.APIKeyByID(ctx, p.gorm(), oldID)
		if k.Active() || k.RevokedBy != nil {
			t.Errorf("after revoke: %+v", k)
		}
		if out := p.ok("key", "revoke", oldID); !strings.Contains(out, "already revoked") {
			t.Errorf("second revoke printed %q", out)
		}
		if events := p.audit(models.ActionKeyRevoke); len(events) != 1 || *events[0].OrgID != org.ID || events[0].Target != "old ("+k.Hint+")" {
			t.Errorf("key.revoke events %+v, want one", events)
		}
		p.fails(1, `no API key has the id "key_nope"`, "key", "revoke", "key_nope")

		table := p.ok("key", "list", "--org", "acme")
		lines := strings.Split(strings.TrimSpace(table), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
			!strings.HasPrefix(lines[1], newID) || !strings.Contains(lines[1], "active") || !strings.Contains(lines[1], "never") ||
			!strings.HasPrefix(lines[2], oldID) || !strings.Contains(lines[2], "revoked") {
			t.Errorf("key list:\n%s", table)
		}

		var list []struct {
			ID, Name, Hint, Status string
			RevokedAt              *string `json:"revoked_at"`
		}
		out = p.ok("key", "list", "--org", org.ID, "--json")
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("key list --json: %v\n%s", err, out)
		}
		if len(list) != 2 || list[0].ID != newID || list[0].Status != "active" || list[0].RevokedAt != nil ||
			list[1].ID != oldID || list[1].Status != "revoked" || list[1].RevokedAt == nil || list[1].Hint != keys.Hint(oldKey) {
			t.Errorf("key list --json: %+v", list)
		}
		for _, key := range []string{oldKey, newKey} {
			if strings.Contains(table, key) || strings.Contains(out, key) {
				t.Error("key list shows a key's text")
			}
		}

		p.ok("org", "create", "--name", "Empty")
		if out := p.ok("key", "list", "--org", "empty", "--json"); strings.TrimSpace(out) != "[]" {
			t.Errorf("no keys as JSON: %q, want []", out)
		}
		p.fails(1, `no organization has the id or slug "nope"`, "key", "list", "--org", "nope")
	})
}
