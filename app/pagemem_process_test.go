package app_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// signedIn signs a user made with the CLI in and returns a client with
// the session and the page's CSRF token.
func signedIn(t *testing.T, s *server, email, password string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	token := func(path string) string {
		res, err := c.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindSubmatch(page)
		if m == nil {
			t.Fatalf("no CSRF token on %s (%d)", path, res.StatusCode)
		}
		return string(m[1])
	}
	res, err := c.PostForm(s.url+"/console/signin", url.Values{"_csrf": {token("/console/signin")}, "email": {email}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.StatusCode)
	}
	return c, token("/scan/app")
}

// manyFindingsDocument is a resource list of n bytes or less whose every
// ingress rule, open to the world, is a finding: about 60,000 findings in
// 2 MB, the scanner's most findings for the least input.
func manyFindingsDocument(rules int) string {
	var b strings.Builder
	b.WriteString(`{"resources":[`)
	for g := 0; g*100 < rules; g++ {
		if g > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"security_group","name":"sg-%d","ingress":[`, g)
		for r := range min(100, rules-g*100) {
			if r > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"port":%d,"cidr":"0.0.0.0/0"}`, 1000+r)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// Two scanner pages and two API scans (JSON and SARIF) at once, of a
// document with 60,000 findings: the analysis pool's budget (256 MiB
// here) holds, give or take the runtime and the collector's lag (64 MiB,
// the Go memory limit serve sets) and what the resident size keeps past
// that soft limit (32 MiB: on an AMD EPYC VM one admitted scan peaked at
// 251–331 MiB, the same before and after the change this guards).
// The pool used to charge each scan 20 × its body + 4 MiB, 42 MB, while a
// page held its report several times over (the result, its JSON and SARIF
// as strings, the rendered page buffered whole), about 250 MB: four took
// the server to 1.1 GiB, two past its default 512 MiB budget. A scan now
// charges the pool for its findings before it encodes them, and waits or
// is refused (503) when they do not fit.
func TestServerMemoryUnderParallelScanPages(t *testing.T) {
	const budget = 256
	var key string
	s := startServer(t, serverBinary(t), func(s *server) { key = s.userWithKey(t, "scanner@example.com") },
		fmt.Sprintf("ANALYSIS_MEMORY_MB=%d", budget), "ANALYSIS_CONCURRENCY=4", "ANALYSIS_WAIT=20s")
	c, csrf := signedIn(t, s, "scanner@example.com", "a long load-test passphrase")
	doc := manyFindingsDocument(60_000)
	var form bytes.Buffer
	w := multipart.NewWriter(&form)
	_ = w.WriteField("_csrf", csrf)
	_ = w.WriteField("resources", doc)
	w.Close()
	start := time.Now()
	counts := parallel(4, func(i int) (int, error) {
		req, _ := http.NewRequest("POST", s.url+"/scan/app", bytes.NewReader(form.Bytes()))
		req.Header.Set("Content-Type", w.FormDataContentType())
		want := "60,000 findings"
		if i >= 2 { // the API, as JSON and as SARIF
			req, _ = http.NewRequest("POST", s.url+"/scan/v1/scan"+[]string{"", "?format=sarif"}[i-2], strings.NewReader(doc))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			want = `"SG_PORT_OPEN"`
		}
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == 200 && !bytes.Contains(body, []byte(want)) {
			return 0, fmt.Errorf("the answer does not show the findings")
		}
		if res.StatusCode == 503 && res.Header.Get("Retry-After") == "" {
			return 0, fmt.Errorf("503 without Retry-After")
		}
		return res.StatusCode, nil
	})
	onlyStatuses(t, counts, 200, 503)
	if counts[200] == 0 {
		t.Errorf("statuses %v: no scan was done", counts)
	}
	peak := s.peakRSS(t)
	t.Logf("peak RSS %d MiB, statuses %v, %s, document %d bytes", peak/mib, counts, time.Since(start).Round(time.Millisecond), len(doc))
	if peak >= (budget+64+32)*mib {
		t.Errorf("peak RSS %d MiB under 2 scan pages and 2 API scans of 60,000 findings, want < %d MiB (the budget + 96 MiB)", peak/mib, budget+96)
	}
}
