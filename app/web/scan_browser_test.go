package web_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/app/scan"
)

// The scanner in a real browser: sign in, load the sample, scan, see the
// findings ranked, filter them by severity, download the JSON, see input
// problems, and all of it on a phone too, without a CSP violation.
func TestScanInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "scan.browser@example.com")
	want, _ := scan.Scan([]byte(scan.Sample()))
	b := apptest.NewBrowser(t)
	downloads := t.TempDir()
	b.Run(
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads),
		// Signed out, the page sends us to sign in and back.
		chromedp.Navigate(env.URL("/scan/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=scan-form]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
	)
	var input string
	b.Run(chromedp.Value(`#scan-input`, &input, chromedp.ByQuery))
	if input != scan.Sample() {
		t.Fatalf("Use sample data put %d bytes in the textarea, want the sample", len(input))
	}
	b.Run(
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if !strings.HasSuffix(b.Location(), "/scan/app") {
		t.Errorf("location %s: htmx should have swapped the result in place", b.Location())
	}
	severities := func() []string {
		var out []string
		b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('[data-testid=finding-row]')).filter(r => r.offsetParent !== null).map(r => r.dataset.severity)`, &out))
		return out
	}
	rows := severities()
	if len(rows) != len(want.Findings) || rows[0] != "critical" {
		t.Fatalf("rows %v: want %d, the first critical", rows, len(want.Findings))
	}
	rank := map[string]int{"critical": 0, "high": 1, "medium": 2, "low": 3}
	if !slices.IsSortedFunc(rows, func(a, b string) int { return rank[a] - rank[b] }) {
		t.Errorf("rows are not in severity order: %v", rows)
	}
	if got := b.Text(`[data-testid=severity-count-critical] strong`); got != "8" || want.Summary.BySeverity.Critical != 8 {
		t.Errorf("critical count %q", got)
	}
	b.Screenshot("scan")

	// Filter by severity, then back to all.
	b.Run(chromedp.Click(`[data-testid=filter-high]`, chromedp.ByQuery))
	if got := severities(); len(got) != want.Summary.BySeverity.High || slices.ContainsFunc(got, func(s string) bool { return s != "high" }) {
		t.Errorf("filtered to high: %v", got)
	}
	if pressed := b.Attr(`[data-testid=filter-high]`, "aria-pressed"); pressed != "true" {
		t.Errorf("the high filter is not pressed: %q", pressed)
	}
	b.Screenshot("scan-filtered")
	b.Run(chromedp.Click(`[data-testid=filter-all]`, chromedp.ByQuery))
	if got := severities(); len(got) != len(want.Findings) {
		t.Errorf("all again: %d rows", len(got))
	}

	// Download JSON: the file is the API's body.
	b.Run(chromedp.Click(`[data-testid=download-json]`, chromedp.ByQuery))
	path := filepath.Join(downloads, "scan-results.json")
	var got []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, _ = os.ReadFile(path); len(got) > 0 {
			break
		}
	}
	var tmpl string
	b.Run(chromedp.Evaluate(`document.querySelector('#scan-json-data').content.textContent`, &tmpl))
	if len(got) == 0 || string(got) != tmpl || !strings.HasPrefix(tmpl, `{"data":{"format":"parapet","summary":`) {
		t.Errorf("downloaded %d bytes; the template holds %d", len(got), len(tmpl))
	}

	// A file picked in the drop zone fills the textarea.
	file := filepath.Join(t.TempDir(), "prod.json")
	if err := os.WriteFile(file, []byte(`{"resources": [{"type": "database", "name": "from-file", "publicly_accessible": true}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Run(
		chromedp.SetUploadFiles(`#scan-file`, []string{file}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#scan-input').value.includes('from-file')`, nil, chromedp.WithPollingTimeout(3*time.Second)),
	)
	if note := b.Text(`[data-file-note]`); note != "Loaded prod.json." {
		t.Errorf("file note %q", note)
	}
	b.Run(
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.Poll(`document.querySelectorAll('[data-testid=finding-row]').length === 1`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		apptest.Settled(),
	)
	if got := b.Text(`[data-testid=finding-row] .res-name`); got != "from-file" {
		t.Errorf("the scan of the picked file shows %q", got)
	}

	// Input problems replace the report, each next to its path.
	b.Run(
		chromedp.SetValue(`#scan-input`, `{"resources": [{"type": "s3_bucket", "name": "logs", "encrypted": "no"}, {"type": "security_group", "name": "sg", "ingress": [{"port": 22, "cidr": "0.0.0.0"}]}]}`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=input-problems]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=input-problem]`); n != 2 {
		t.Errorf("%d problems shown, want 2", n)
	}
	if got := b.Text(`[data-testid=problem-path]`); got != "resources[0].encrypted" {
		t.Errorf("first problem path %q", got)
	}
	b.Screenshot("scan-problems")

	// The input format help opens.
	b.Run(chromedp.Click(`[data-testid=scan-help] summary`, chromedp.ByQuery), chromedp.WaitVisible(`[data-testid=scan-help] table`, chromedp.ByQuery))
	b.Screenshot("scan-help")

	// A Terraform plan chosen as a file: the format is shown, a finding
	// names the linked rule that caused it, unchecked types are listed.
	plan, err := filepath.Abs("../scan/testdata/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	b.Run(
		chromedp.SetUploadFiles(`#scan-file`, []string{plan}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#scan-input').value.includes('planned_values')`, nil, chromedp.WithPollingTimeout(3*time.Second)),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=not-checked-table]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if got := strings.Join(strings.Fields(b.Text(`[data-testid=scan-format]`)), " "); got != "Format: Terraform plan (JSON) · file plan.json" {
		t.Errorf("format %q", got)
	}
	if n := b.Count(`[data-testid=finding-row]`); n != 10 {
		t.Errorf("%d plan findings, want 10", n)
	}
	if n := b.Count(`[data-testid=finding-linked]`); n != 5 {
		t.Errorf("%d findings name a linked resource, want 5", n)
	}
	var sideways string
	b.Run(chromedp.Evaluate(`(w => w.scrollWidth > w.clientWidth ? w.scrollWidth + ">" + w.clientWidth : "")(document.querySelector('.scan-findings .table-wrap'))`, &sideways))
	if sideways != "" {
		var widths string
		b.Run(chromedp.Evaluate(`Array.from(document.querySelectorAll('.scan-findings th')).map(th => th.offsetWidth).join(",") + " / " + Array.from(document.querySelectorAll('.scan-findings td')).filter(td => td.scrollWidth > td.clientWidth).map(td => td.dataset.label + ":" + td.scrollWidth + ">" + td.clientWidth).slice(0, 5).join(",")`, &widths))
		t.Errorf("the findings table of a plan scrolls sideways: %s %s", sideways, widths)
	}
	b.Screenshot("scan-terraform")

	// A phone: the sample again, findings as cards.
	b.Run(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(env.URL("/scan/app")),
		chromedp.WaitVisible(`[data-testid=scan-form]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=use-sample]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery),
	)
	var overflow bool
	b.Run(chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the page scrolls sideways on a phone")
	}
	b.Screenshot("scan-phone")
	// Long Terraform addresses wrap on a phone.
	b.Run(
		chromedp.SetUploadFiles(`#scan-file`, []string{plan}, chromedp.ByQuery),
		chromedp.Poll(`document.querySelector('#scan-input').value.includes('planned_values')`, nil, chromedp.WithPollingTimeout(3*time.Second)),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=not-checked-table]`, chromedp.ByQuery),
		apptest.Settled(),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow),
	)
	if overflow {
		t.Error("a Terraform plan's report scrolls sideways on a phone")
	}
	b.Screenshot("scan-terraform-phone")
	b.Run(chromedp.EmulateViewport(1280, 900))
	b.ExpectNoProblems()
}
