package mail

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// Without SMTP_URL a message goes to the log: whole in development, but in
// production without its body, which may be an invitation's link.
func TestLogMailerKeepsBodiesOutOfProductionLogs(t *testing.T) {
	const link = "https://parapet.example/invite/org_1/secret-token-0123456789"
	for _, production := range []bool{false, true} {
		var out bytes.Buffer
		m, err := New("", slog.New(slog.NewTextHandler(&out, nil)), production)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Send(context.Background(), Message{To: "new@example.com", Subject: "You are invited to Acme", Body: "Join: " + link}); err != nil {
			t.Fatal(err)
		}
		logged := out.String()
		if !strings.Contains(logged, "to=new@example.com") || !strings.Contains(logged, "You are invited to Acme") {
			t.Errorf("production %v: the address or subject is missing: %s", production, logged)
		}
		if strings.Contains(logged, link) == production {
			t.Errorf("production %v: body logged %v: %s", production, strings.Contains(logged, link), logged)
		}
	}
}
