package redact

import (
	"strings"
	"testing"
)

// benchLog is a log as AI help masks it: mostly lines without a secret,
// some with a secret's key word (token counts, key names), a few secrets.
var benchLog = []string{
	`127.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /api/v1/items?page=2 HTTP/1.1" 200 2326 "-" "Mozilla/5.0"`,
	`2024-10-10T13:55:36.123Z INFO  request_id=3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b user=bob path=/login status=200 duration_ms=12`,
	`2024-10-10T13:55:37.001Z WARN  usage input_tokens=1200 output_tokens=350 token_count=1550 model=m1`,
	`{"level":"error","ts":"2024-10-10T13:55:38Z","msg":"connection refused","host":"10.0.0.12:5432","attempt":3}`,
	`    at com.example.app.Service.handle(Service.java:142)`,
	`2024-10-10 13:55:39,512 ERROR [worker-7] commit 3f786850e387550fdab836ed7e6dc881de23001b failed: key_name=deploy`,
	`level=info msg="login" user=alice password=hunter2x session_id=SESS77aa`,
	`Oct 10 13:55:40 web1 sshd[2211]: Accepted publickey for deploy from 10.0.0.5 port 50122 ssh2`,
}

// BenchmarkLines masks a 10 MiB log line by line, as AI help's explain
// does.
func BenchmarkLines(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 10<<20; i++ {
		sb.WriteString(benchLog[i%len(benchLog)])
		sb.WriteByte('\n')
	}
	lines := strings.Split(sb.String(), "\n")
	b.SetBytes(int64(sb.Len()))
	for b.Loop() {
		New().Lines(lines)
	}
}
