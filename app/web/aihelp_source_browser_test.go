package web_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parapet/app/apptest"
	"parapet/models"
)

// Suggest a fix on a folder of Terraform source scanned in a real
// browser: the page sends the folder's files, the demo upstream fixes the
// public bucket's ACL, and the page shows it verified with a diff of the
// file it changed.
func TestFixSourceInBrowser(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "fix.source@example.com")
	if err := models.SetEntitlement(context.Background(), env.DB.DB, s.OrgID, models.GatewayProductID, 1_000_000); err != nil {
		t.Fatal(err)
	}
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
		chromedp.Click(`tr[data-testid=finding-row] [data-testid=suggest-fix]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-testid=fix-diff]`, chromedp.ByQuery),
	)
	b.Screenshot("ai-fix-source")
	if v := b.Attr(`[data-testid=fix-verdict]`, "data-verdict"); v != "verified" || !strings.Contains(b.Text(`[data-testid=fix-verdict]`), "S3_PUBLIC_READ") {
		t.Errorf("verdict %q: %s", v, b.Text(`[data-testid=fix-verdict]`))
	}
	if d := b.Text(`[data-testid=fix-diff]`); !strings.Contains(d, "--- a/aws_app/main.tf") || !strings.Contains(d, `+  acl      = "private"`) {
		t.Errorf("diff %q", d)
	}
	b.ExpectNoProblems()
}
