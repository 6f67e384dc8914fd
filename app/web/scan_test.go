package web_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"parapet/app/apptest"
	"parapet/app/scan"
)

// scanForm encodes the scanner form as the page sends it (multipart).
func scanForm(t *testing.T, fields map[string]string) (body, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return buf.String(), w.FormDataContentType()
}

// scanSignedIn is a client signed in as a seeded user.
func scanSignedIn(t *testing.T, env *apptest.Env) *apptest.Client {
	t.Helper()
	s := env.Seed(t, "scanner@example.com")
	c := env.Client()
	if res := c.SignIn(s.Email, apptest.TestPassword); res.StatusCode != 303 {
		t.Fatalf("sign in: %d", res.StatusCode)
	}
	return c
}

// scanHTMX posts input the way htmx does: multipart, the CSRF token in a
// header, HX-Request set.
func scanHTMX(t *testing.T, c *apptest.Client, token, input string) *apptest.Response {
	t.Helper()
	body, ct := scanForm(t, map[string]string{"resources": input})
	return c.Do("POST", "/scan/app", body, "Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", token)
}

func rowSeverities(doc *goquery.Document) []string {
	var out []string
	doc.Find("[data-testid=finding-row]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, s.AttrOr("data-severity", ""))
	})
	return out
}

func TestScanPageNeedsSignIn(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := env.Client()
	res := c.Get("/scan/app")
	if res.StatusCode != 303 || res.Header.Get("Location") != "/console/signin?next=%2Fscan%2Fapp" {
		t.Errorf("signed out: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// An htmx post from a session that expired is told where to go.
	res = c.Do("POST", "/scan/app", "resources=%7B%7D", "Content-Type", "application/x-www-form-urlencoded", "HX-Request", "true",
		"X-CSRF-Token", c.CSRF("/console/signin"))
	if res.StatusCode != 401 || res.Header.Get("HX-Redirect") != "/console/signin" {
		t.Errorf("signed-out htmx post: %d %q", res.StatusCode, res.Header.Get("HX-Redirect"))
	}
}

func TestScanPage(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := scanSignedIn(t, env)
		res := c.Get("/scan/app")
		if res.StatusCode != 200 {
			t.Fatalf("page: %d", res.StatusCode)
		}
		doc := res.Doc(t)
		if got := strings.TrimSpace(doc.Find("label[for=scan-input]").Text()); got != "Document (JSON or YAML)" {
			t.Errorf("textarea label %q", got)
		}
		if doc.Find("textarea#scan-input[name=resources]").Length() != 1 || doc.Find("[data-testid=scan-submit]").Text() != "Scan" {
			t.Error("the form has no resources textarea or Scan button")
		}
		if got := doc.Find("template#scan-sample").Text(); got != scan.Sample() {
			t.Errorf("the sample template holds %d bytes, not the sample", len(got))
		}
		fill := doc.Find("[data-testid=use-sample]")
		if fill.AttrOr("data-fill", "") != "#scan-input" || fill.AttrOr("data-source", "") != "#scan-sample" {
			t.Error("Use sample data does not fill the textarea from the template")
		}
		zone := doc.Find("[data-dropzone]")
		if zone.AttrOr("data-target", "") != "#scan-input" || zone.AttrOr("data-max-bytes", "") != "5242880" || zone.Find("input[type=file][accept*='.json']").Length() != 1 {
			t.Error("no drop zone with a .json file picker for the textarea")
		}
		if doc.Find("header a[aria-current=page]").Text() != "Scanner" {
			t.Error("the navigation does not mark the scanner")
		}
		if doc.Find("[data-testid=scan-report]").Length() != 0 {
			t.Error("a report before any scan")
		}
		token := c.CSRF("/scan/app")

		// htmx: the fragment, ranked, with counts, filters and downloads.
		res = scanHTMX(t, c, token, scan.Sample())
		if res.StatusCode != 200 || strings.Contains(res.Body, "<html") {
			t.Fatalf("htmx scan: %d, whole page: %v", res.StatusCode, strings.Contains(res.Body, "<html"))
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
		}
		frag := res.Doc(t)
		want, _ := scan.Scan([]byte(scan.Sample()))
		sevs := rowSeverities(frag)
		if len(sevs) != len(want.Findings) {
			t.Fatalf("%d finding rows, want %d", len(sevs), len(want.Findings))
		}
		for i, f := range want.Findings {
			if sevs[i] != string(f.Severity) {
				t.Errorf("row %d is %s, the engine ranks %s there", i, sevs[i], f.Severity)
			}
		}
		first := frag.Find("[data-testid=finding-row]").First()
		if !strings.Contains(first.Text(), want.Findings[0].Rule) || !strings.Contains(first.Text(), want.Findings[0].Resource.Name) ||
			!strings.Contains(first.Text(), want.Findings[0].Remediation[:40]) || first.AttrOr("data-kind", "") != "critical" {
			t.Errorf("first row %q", first.Text())
		}
		for sev, n := range map[string]int{"critical": want.Summary.BySeverity.Critical, "high": want.Summary.BySeverity.High,
			"medium": want.Summary.BySeverity.Medium, "low": want.Summary.BySeverity.Low} {
			box := frag.Find("[data-testid=severity-count-" + sev + "]")
			if strings.TrimSpace(box.Find("strong").Text()) != strconv.Itoa(n) || box.Find(".badge-"+sev).Length() != 1 {
				t.Errorf("severity count %s: %q, want %d", sev, box.Text(), n)
			}
			if n > 0 && frag.Find("[data-filter-scope] [data-filter="+sev+"]").Length() != 1 {
				t.Errorf("no filter button for %s", sev)
			}
		}
		if frag.Find("[data-filter-scope] [data-filter='']").Length() != 1 {
			t.Error("no filter button for all severities")
		}
		if got := frag.Find("[data-testid=suppressed-row]").Length(); got != len(want.Suppressed) ||
			!strings.Contains(frag.Find("[data-testid=suppressed-row]").Text(), want.Suppressed[0].Reason) {
			t.Errorf("%d suppressed rows: %q", got, frag.Find("[data-testid=suppressed-table]").Text())
		}
		if got := frag.Find("[data-testid=skipped-row]").Length(); got != len(want.Skipped) ||
			!strings.Contains(frag.Find("[data-testid=skipped-row]").Text(), want.Skipped[0].Reason) {
			t.Errorf("%d skipped rows", got)
		}
		// The downloads: the API's JSON body exactly, and a SARIF log.
		wantJSON, _ := json.Marshal(map[string]any{"data": want})
		if got := frag.Find("template#scan-json-data").Text(); got != string(wantJSON) {
			t.Errorf("the JSON download is not the API's body:\n%.300s", got)
		}
		wantSARIF, _ := scan.SARIF(want, scan.SARIFOptions{InformationURI: env.URL("/scan/app")})
		if got := frag.Find("template#scan-sarif-data").Text(); got != string(wantSARIF) {
			t.Errorf("the SARIF download is not the engine's log:\n%.300s", got)
		}
		for _, dl := range []struct{ id, tmpl, file, typ string }{
			{"download-json", "#scan-json-data", "scan-results.json", "application/json"},
			{"download-sarif", "#scan-sarif-data", "scan-results.sarif", "application/sarif+json"},
		} {
			b := frag.Find("[data-testid=" + dl.id + "]")
			if b.AttrOr("data-download", "") != dl.tmpl || b.AttrOr("data-filename", "") != dl.file || b.AttrOr("data-type", "") != dl.typ {
				t.Errorf("%s button: %v", dl.id, b.Nodes)
			}
		}

		// CRLF from a browser's textarea scans the same, line numbers kept.
		crlf := scanHTMX(t, c, token, strings.ReplaceAll(scan.Sample(), "\n", "\r\n")).Doc(t)
		if got := rowSeverities(crlf); len(got) != len(want.Findings) {
			t.Errorf("CRLF input: %d rows", len(got))
		}
		if a, b := crlf.Find("[data-testid=finding-row]").First().Text(), first.Text(); a != b {
			t.Errorf("CRLF input shows %q, LF %q", a, b)
		}

		// A clean document: no table, a message.
		clean := scanHTMX(t, c, token, `{"resources":[{"type":"database","name":"db","publicly_accessible":false,"encrypted":true}]}`).Doc(t)
		if clean.Find("[data-testid=no-findings]").Length() != 1 || clean.Find("[data-testid=finding-row]").Length() != 0 {
			t.Error("a clean document does not say there are no findings")
		}
	})
}

func TestScanPageInputProblems(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		c := scanSignedIn(t, env)
		token := c.CSRF("/scan/app")

		// Invalid: every problem next to its path, with 200 so htmx swaps it.
		res := scanHTMX(t, c, token, `{"resources": [
			{"type": "s3_bucket", "public_read": "yes"},
			{"type": "security_group", "name": "sg", "ingress": [{"port": 22, "cidr": "1.2.3.4"}]}
		]}`)
		if res.StatusCode != 200 {
			t.Fatalf("invalid input: %d", res.StatusCode)
		}
		doc := res.Doc(t)
		var got []string
		doc.Find("[data-testid=input-problem]").Each(func(_ int, s *goquery.Selection) {
			got = append(got, strings.TrimSpace(s.Find("[data-testid=problem-path]").Text())+" → "+strings.TrimSpace(s.Find("span").Text()))
		})
		want := []string{
			"resources[0].name → is required",
			"resources[0].public_read → must be a boolean, got string \"yes\"",
			"resources[1].ingress[0].cidr → \"1.2.3.4\" is not a CIDR: it has no prefix length (write \"1.2.3.4/32\" for this one address)",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if doc.Find("[data-testid=finding-row]").Length() != 0 || doc.Find("[data-testid=download-json]").Length() != 0 {
			t.Error("an invalid document shows findings or downloads")
		}

		// Malformed JSON: the line and column, and the line itself.
		doc = scanHTMX(t, c, token, "{\"resources\": [\n  {\"type\": \"s3_bucket\",, \"name\": \"x\"}\n]}").Doc(t)
		if p := doc.Find("[data-testid=input-problem]").Text(); !strings.Contains(p, "line 2, column 24") {
			t.Errorf("syntax problem %q", p)
		}
		if ex := doc.Find("[data-testid=syntax-excerpt]").Text(); !strings.Contains(ex, `{"type": "s3_bucket",, "name": "x"}`) ||
			!strings.HasSuffix(ex, "\n"+strings.Repeat(" ", 23)+"^") {
			t.Errorf("excerpt %q", ex)
		}

		// Nothing pasted.
		doc = scanHTMX(t, c, token, "  \n").Doc(t)
		if !strings.Contains(doc.Find("[data-testid=input-problem]").Text(), "Paste a document") {
			t.Errorf("empty input: %q", doc.Text())
		}

		// Over 5 MiB: a message naming the limit, not an error page.
		big := `{"resources":[],"pad":"` + strings.Repeat("x", scan.MaxInputBytes) + `"}`
		res = scanHTMX(t, c, token, big)
		if res.StatusCode != 200 || !strings.Contains(res.Doc(t).Find("[data-testid=input-problem]").Text(), "5 MiB") {
			t.Errorf("oversize: %d %.300s", res.StatusCode, res.Body)
		}
		// Over the whole form's bound: refused before it is read.
		huge := strings.Repeat("x", 2*scan.MaxInputBytes+100<<10)
		res = scanHTMX(t, c, token, huge)
		if res.StatusCode != 200 || !strings.Contains(res.Doc(t).Find("[data-testid=input-problem]").Text(), "5 MiB") {
			t.Errorf("huge: %d %.300s", res.StatusCode, res.Body)
		}
		// Nothing of the input reaches the logs.
		scanHTMX(t, c, token, `{"resources":[{"type":"s3_bucket","name":"zz-log-marker","public_read":"zz-log-marker"}]}`)
		scanHTMX(t, c, token, `{"resources":[{"type":"s3_bucket","name":"zz-log-marker","public_read":true}]}`)
		if strings.Contains(env.Logs.String(), "zz-log-marker") {
			t.Error("the scanned input appears in the logs")
		}
		// Over the engine's resource limit.
		many := `{"resources":[` + strings.TrimSuffix(strings.Repeat(`{"type":"x","name":"a"},`, scan.MaxResources+1), ",") + `]}`
		if p := scanHTMX(t, c, token, many).Doc(t).Find("[data-testid=input-problem]").Text(); !strings.Contains(p, "50000 resources") {
			t.Errorf("too many resources: %q", p)
		}
	})
}

// Without JavaScript the form posts itself and the whole page comes back
// with the report and the input; problems get a 4xx status.
func TestScanPageWithoutJavaScript(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := scanSignedIn(t, env)
	token := c.CSRF("/scan/app")
	body, ct := scanForm(t, map[string]string{"_csrf": token, "resources": scan.Sample()})
	res := c.Do("POST", "/scan/app", body, "Content-Type", ct)
	if res.StatusCode != 200 {
		t.Fatalf("form post: %d", res.StatusCode)
	}
	doc := res.Doc(t)
	if doc.Find("html").Length() != 1 || doc.Find("#scan-result [data-testid=finding-row]").Length() == 0 {
		t.Error("the page does not show the report under the form")
	}
	if got := doc.Find("textarea#scan-input").Text(); got != scan.Sample() {
		t.Errorf("the textarea holds %d bytes, not the input", len(got))
	}
	// The classic url-encoded form works too.
	res = c.PostForm("/scan/app", url.Values{"_csrf": {token}, "resources": {`{"resources": [}`}})
	if res.StatusCode != 422 || res.Doc(t).Find("[data-testid=input-problem]").Length() != 1 {
		t.Errorf("malformed without JS: %d", res.StatusCode)
	}
	big := `{"resources":[],"pad":"` + strings.Repeat("x", scan.MaxInputBytes) + `"}`
	body, ct = scanForm(t, map[string]string{"_csrf": token, "resources": big})
	res = c.Do("POST", "/scan/app", body, "Content-Type", ct)
	if res.StatusCode != 413 || !strings.Contains(res.Doc(t).Find("[data-testid=input-problem]").Text(), "5 MiB") {
		t.Errorf("oversize without JS: %d", res.StatusCode)
	}
}

func TestScanPageNeedsCSRFToken(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	c := scanSignedIn(t, env)
	body, ct := scanForm(t, map[string]string{"resources": scan.Sample()})
	for name, headers := range map[string][]string{
		"no token":    {"Content-Type", ct, "HX-Request", "true"},
		"wrong token": {"Content-Type", ct, "HX-Request", "true", "X-CSRF-Token", "forged"},
		"form field":  {"Content-Type", ct},
	} {
		if res := c.Do("POST", "/scan/app", body, headers...); res.StatusCode != 403 {
			t.Errorf("%s: %d", name, res.StatusCode)
		}
	}
}
