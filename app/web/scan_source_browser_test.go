package web_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
)

// TestScanSourceInBrowser: a folder of Terraform source chosen in a real
// browser is sent with its paths (htmx, app.js), scanned with its local
// module, and each finding shows the lines around it; at 1280 and 390
// pixels, without a CSP violation.
func TestScanSourceInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "scan.source@example.com")
	repo, err := filepath.Abs(filepath.Join("..", "scan", "testdata", "hcl", "aws_app"))
	if err != nil {
		t.Fatal(err)
	}
	b := apptest.NewBrowser(t)
	b.Run(
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(env.URL("/scan/app")),
		chromedp.WaitVisible(`[data-testid=signin-form]`, chromedp.ByQuery),
		apptest.SubmitSignIn(s.Email, apptest.TestPassword),
		chromedp.WaitVisible(`[data-testid=scan-form]`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#scan-source-folder`, []string{repo}, chromedp.ByQuery),
		chromedp.Click(`[data-testid=scan-submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=finding-row]`, chromedp.ByQuery),
		apptest.Settled(),
	)
	if n := b.Count(`[data-testid=finding-row]`); n != 7 {
		t.Fatalf("%d findings, want the corpus's 7: %s", n, b.Text(`#scan-result`))
	}
	if got := b.Text(`#scan-result`); !strings.Contains(got, "aws_app/modules/net/main.tf:24:3") || !strings.Contains(got, "module.net.aws_security_group.db") {
		t.Errorf("no finding located in the module's file: %.400s", got)
	}
	if n := b.Count(`[data-testid=source-mark]`); n != 7 {
		t.Errorf("%d marked lines, want one per finding", n)
	}
	b.Screenshot("scan-source")
	b.Run(chromedp.EmulateViewport(390, 844))
	b.Screenshot("scan-source-phone")
	b.ExpectNoProblems()
}
