package app_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The server says on stdout, as soon as it listens, where to open it, and
// HOST chooses the address it listens on.
func TestServeAnnouncesItsURLAndListensOnHost(t *testing.T) {
	bin := serverBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "PARAPET_ENV=development", "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port),
		"DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "parapet.db"), "SESSION_SECRET="+strings.Repeat("h", 40), "REDIS_URL=", "PUBLIC_URL=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if strings.HasPrefix(s.Text(), "Parapet is listening") {
				line <- s.Text()
			}
		}
	}()
	var got string
	select {
	case got = <-line:
	case <-time.After(30 * time.Second):
		t.Fatal("no \"Parapet is listening\" line on stdout")
	}
	want := fmt.Sprintf("Parapet is listening on http://127.0.0.1:%d", port)
	if got != want {
		t.Errorf("stdout: %q, want %q", got, want)
	}
	res, err := http.Get(strings.TrimPrefix(got, "Parapet is listening on ") + "/v1/health")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the announced URL does not answer: %v", err)
	}
	res.Body.Close()

	bad := exec.Command(bin, "serve")
	bad.Env = append(os.Environ(), "HOST=not a host", "PORT=1")
	out, err := bad.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "HOST: must be an IP address or a host name") {
		t.Errorf("a bad HOST: %v, %s", err, out)
	}
}
