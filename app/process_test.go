package app_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the real server binary, so that memory is measured on
// a process of its own: peak RSS (VmHWM) from /proc. They take a few
// seconds each and are skipped under -short.

// buildServer builds the parapet binary once per test run.
var buildServer = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "parapet-bin-*")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "parapet")
	out, err := exec.Command("go", "build", "-o", bin, "parapet").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

func serverBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the real server: skipped under -short")
	}
	bin, err := buildServer()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// server is one running server process on a fresh SQLite database.
type server struct {
	cmd  *exec.Cmd
	url  string
	env  []string
	bin  string
	logs *bytes.Buffer
}

func startServer(t *testing.T, bin string, setup func(s *server), extraEnv ...string) *server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &server{bin: bin, url: fmt.Sprintf("http://127.0.0.1:%d", port), logs: &bytes.Buffer{}}
	s.env = append(os.Environ(), "PARAPET_ENV=development", "PORT="+strconv.Itoa(port),
		"DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "parapet.db"), "SESSION_SECRET="+strings.Repeat("m", 40),
		"REDIS_URL=", "PUBLIC_URL=", "TRUST_PROXY=false")
	s.env = append(s.env, extraEnv...)
	s.run(t, "", "migrate")
	if setup != nil {
		setup(s)
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = io.Discard, s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		_ = s.cmd.Wait()
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := http.Get(s.url + "/v1/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not come up: %v\n%s", err, s.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run runs a command of the binary on the server's database.
func (s *server) run(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.bin, args...)
	cmd.Env = s.env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("parapet %v: %v", args, err)
	}
	return string(out)
}

// wantPeakBelow fails the test when the process's peak resident memory
// reached limit (shown as want) under load, else logs it with the
// statuses the load got.
func (s *server) wantPeakBelow(t *testing.T, limit int64, load, want string, statuses map[int]int) {
	t.Helper()
	if peak := s.peakRSS(t); peak >= limit {
		t.Errorf("peak RSS %d MiB under %s, want < %s", peak/mib, load, want)
	} else {
		t.Logf("peak RSS %d MiB, statuses %v", peak/mib, statuses)
	}
}

// peakRSS is the process's peak resident memory so far.
func (s *server) peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no VmHWM in /proc status")
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// parallel runs n requests at once and counts their statuses; a transport
// error (a reset, a refused connection) counts as status 0.
func parallel(n int, do func(i int) (int, error)) map[int]int {
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			status, err := do(i)
			if err != nil {
				status = 0
			}
			mu.Lock()
			counts[status]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return counts
}

func onlyStatuses(t *testing.T, counts map[int]int, allowed ...int) {
	t.Helper()
	for s, n := range counts {
		if !containsInt(allowed, s) {
			t.Errorf("%d responses with status %d (0: no response); want only %v: all %v", n, s, allowed, counts)
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

const mib = 1 << 20

// 60 parallel anonymous sign-ups: hashing is bounded and sign-ups are
// throttled per address, so memory stays under 400 MiB.
func TestServerMemoryUnderParallelSignUps(t *testing.T) {
	s := startServer(t, serverBinary(t), nil)
	counts := parallel(60, func(i int) (int, error) {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Get(s.url + "/console/signup")
		if err != nil {
			return 0, err
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		tok := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(page)
		if tok == nil {
			return 0, fmt.Errorf("no token")
		}
		res, err = c.PostForm(s.url+"/console/signup", url.Values{"_csrf": {string(tok[1])}, "email": {fmt.Sprintf("load%d@example.com", i)},
			"password": {"a long load-test passphrase"}})
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 303, 429, 503)
	if counts[303] == 0 || counts[429] == 0 {
		t.Errorf("statuses %v: want some sign-ups and some refused by the throttle", counts)
	}
	s.wantPeakBelow(t, 400*mib, "60 parallel sign-ups", "400 MiB", counts)
}

// 12 parallel 20 MiB sign-in forms are refused (413) before anything reads
// them, and the client reads the answer.
func TestServerMemoryUnderHugeSignInForms(t *testing.T) {
	s := startServer(t, serverBinary(t), nil)
	body := "email=a%40b.co&password=" + strings.Repeat("p", 20*mib)
	counts := parallel(12, func(int) (int, error) {
		res, err := http.Post(s.url+"/console/signin", "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 413, 429, 503)
	s.wantPeakBelow(t, 400*mib, "12 parallel 20 MiB sign-in forms", "400 MiB", counts)
}

// 2000 connections from one address, each with 15 KiB of headers in
// thousands of tiny fields and a body that never comes: Go's parsed
// header map costs about 15 times its bytes, held until the body's
// deadline. Past MaxConnsPerClient the connections are refused with 503
// before any of it is read. (With 64 KiB of headers and no bound on
// connections, 256 of them took the server past 300 MiB.)
func TestServerMemoryUnderManyHeavyConnections(t *testing.T) {
	s := startServer(t, serverBinary(t), nil)
	var fields strings.Builder
	for i := 0; fields.Len() < 15<<10; i++ {
		fmt.Fprintf(&fields, "x%x:1\r\n", i)
	}
	head := []byte("POST /console/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
		"Content-Length: 8000\r\n" + fields.String() + "\r\n_csrf=")
	addr := strings.TrimPrefix(s.url, "http://")
	for range 2000 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = c.Write(head) // fails once the server has refused and closed it
	}
	for range 20 { // let the server read what it accepted
		time.Sleep(100 * time.Millisecond)
	}
	// The next request over a connection of its own, read by hand: the
	// server answers an over-limit connection as it accepts it, which an
	// http.Client may see before it has sent its request and then drops as
	// an unsolicited answer on an idle connection.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Errorf("the same client's next request: %d, want 503 with Retry-After", res.StatusCode)
	}
	if peak := s.peakRSS(t); peak >= 150*mib {
		t.Errorf("peak RSS %d MiB under 2000 connections with 15 KiB of headers, want < 150 MiB", peak/mib)
	} else {
		t.Logf("peak RSS %d MiB", peak/mib)
	}
}

// 16 parallel anonymous 40 MiB forms to the tools' pages (the compare
// form takes two logs): a visitor is sent to sign in before anything reads
// the body. The CSRF check used to parse each whole form first, outside
// the analysis pool: 16 of them took the server to 1.3 GiB.
func TestServerMemoryUnderAnonymousToolForms(t *testing.T) {
	s := startServer(t, serverBinary(t), nil)
	body := "baseline=" + strings.Repeat("a", 20*mib) + "&current=" + strings.Repeat("b", 20*mib)
	counts := parallel(16, func(int) (int, error) {
		c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.Post(s.url+"/logs/app/compare", "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 303, 413)
	s.wantPeakBelow(t, 400*mib, "16 parallel anonymous 40 MiB tool forms", "400 MiB", counts)
}

// 40 parallel 30 MiB gateway calls without a valid key, on the routes
// that take bodies of up to 32 MiB: each is refused (401) before its body
// is read, so nothing of them is held (they were read and checked first,
// and 60 such calls held over 2 GiB).
func TestServerMemoryUnderKeylessGatewayBodies(t *testing.T) {
	s := startServer(t, serverBinary(t), nil)
	body := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"` + strings.Repeat("a", 30*mib) + `"}]}`
	counts := parallel(40, func(i int) (int, error) {
		path := []string{"/gateway/v1/messages", "/gateway/v1/chat/completions", "/gateway/v1/messages/count_tokens"}[i%3]
		req, _ := http.NewRequest(http.MethodPost, s.url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if i%2 == 0 {
			req.Header.Set("X-Api-Key", "ppk_not_a_key_at_all")
		}
		res, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 401, 429)
	s.wantPeakBelow(t, 300*mib, "40 parallel keyless 30 MiB gateway calls", "300 MiB", counts)
}

// 40 parallel gateway calls with a key and 30 MiB of documents each, to a
// provider that takes its time: the media pool admits what its budget
// (GATEWAY_MEDIA_MEMORY_MB, 256) holds and refuses the rest with 503 busy
// after its wait, so the process stays under 700 MiB (each held about
// 70 MiB, 2.8 GiB together).
func TestServerMemoryUnderParallelMediaCalls(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"A PDF."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":3}}`)
	}))
	defer up.Close()
	var key string
	s := startServer(t, serverBinary(t), func(s *server) { key = s.userWithKey(t, "media@example.com") },
		"GATEWAY_UPSTREAM_URL="+up.URL, "GATEWAY_UPSTREAM_KEY=k", "GATEWAY_MODEL=claude-test", "GATEWAY_MONTHLY_TOKENS=1000000000000",
		"GATEWAY_RATE_LIMIT_PER_MINUTE=1000")
	// Two documents of 11 MiB (a PDF may be 20 MiB): a body of 30 MiB.
	doc := `{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"` +
		base64.StdEncoding.EncodeToString(append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("0123456789abcdef"), 11*mib/16)...)) + `"}}`
	body := `{"model":"claude-test","max_tokens":5,"messages":[{"role":"user","content":[` + doc + `,` + doc + `,{"type":"text","text":"Summarise."}]}]}`
	counts := parallel(40, func(int) (int, error) {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/gateway/v1/messages", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", key)
		res, err := (&http.Client{Timeout: 120 * time.Second}).Do(req)
		if err != nil {
			return 0, err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == 413 {
			t.Log(string(b))
		}
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 200, 503)
	if counts[200] == 0 || counts[503] == 0 {
		t.Errorf("statuses %v: want some calls served and some refused busy", counts)
	}
	s.wantPeakBelow(t, 700*mib, "40 parallel 30 MiB gateway calls", "700 MiB", counts)
}

// 8 parallel 9 MiB log analyses through the API: the analysis pool keeps
// the process under 1.2 GiB; each is answered 200, 429 or 503, never a
// crash or a reset.
func TestServerMemoryUnderParallelAnalyses(t *testing.T) {
	var key string
	s := startServer(t, serverBinary(t), func(s *server) { key = s.userWithKey(t, "analyst@example.com") })
	log := analysisLog(9 * mib)
	counts := parallel(8, func(int) (int, error) {
		req, _ := http.NewRequest("POST", s.url+"/logs/v1/analyze", strings.NewReader(log))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 200, 429, 503)
	if counts[200] == 0 {
		t.Errorf("statuses %v: no analysis was done", counts)
	}
	if s.cmd.ProcessState != nil {
		t.Fatalf("the server exited: %s", s.logs)
	}
	s.wantPeakBelow(t, 1229*mib, "8 parallel 9 MiB analyses", "1.2 GiB", counts)
}

// userWithKey makes a user, an org of theirs and an API key of the org
// with every scope; it returns the key.
func (s *server) userWithKey(t *testing.T, email string) string {
	t.Helper()
	s.run(t, "a long load-test passphrase\n", "user", "create", "--email", email)
	s.run(t, "", "org", "create", "--name", "Load", "--owner", email)
	var k struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal([]byte(s.run(t, "", "key", "create", "--org", "load", "--name", "load", "--json")), &k); err != nil || k.Key == "" {
		t.Fatalf("key create: %v", err)
	}
	return k.Key
}

// analysisLog is n bytes of a varied application log: many shapes, ids
// and numbers, some errors, as a real service writes.
func analysisLog(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	w := bufio.NewWriter(&b)
	levels := []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	msgs := []string{"request served", "cache miss for key", "retrying upstream call", "connection reset by peer", "user signed in",
		"payment declined", "timeout waiting for lock", "job finished", "disk usage high", "queue depth"}
	word := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyz"
		buf := make([]byte, 4+r.IntN(6))
		for i := range buf {
			buf[i] = letters[r.IntN(len(letters))]
		}
		return string(buf)
	}
	for b.Len()+w.Buffered() < n {
		if r.IntN(2) == 0 {
			// A line whose words never repeat: its own shape, an outlier.
			fmt.Fprintf(w, "%s %s %s %s %s failed %s\n", levels[r.IntN(len(levels))], word(), word(), word(), word(), word())
			continue
		}
		fmt.Fprintf(w, "2026-11-24T%02d:%02d:%02d.%03dZ %s service=%s request_id=%016x user=%d %s path=/v1/items/%d latency_ms=%d status=%d\n",
			r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000), levels[r.IntN(len(levels))], []string{"api", "worker", "billing", "auth"}[r.IntN(4)],
			r.Uint64(), r.IntN(100000), msgs[r.IntN(len(msgs))], r.IntN(1000000), r.IntN(5000), []int{200, 200, 201, 404, 500, 503}[r.IntN(6)])
	}
	w.Flush()
	return b.String()[:n]
}

// In production, a missing PUBLIC_URL stops the server at start with a
// message that names it.
func TestProductionRequiresPublicURL(t *testing.T) {
	bin := serverBinary(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "PARAPET_ENV=production", "PUBLIC_URL=", "PORT=1", "DATABASE_URL=postgres://127.0.0.1:1/none",
		"SESSION_SECRET="+strings.Repeat("p", 40), "GATEWAY_UPSTREAM_URL=https://llm.example", "GATEWAY_UPSTREAM_KEY=k")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(stderr.String(), "PUBLIC_URL") {
		t.Fatalf("serve without PUBLIC_URL in production: %v, stderr %q; want a non-zero exit naming PUBLIC_URL", err, stderr.String())
	}
}
