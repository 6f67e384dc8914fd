package apptest

import (
	"context"

	"github.com/chromedp/chromedp"
)

// OpenNewKeyForm unfolds the keys page's "New key" form (the list comes
// first), unless it is open already.
func OpenNewKeyForm() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return chromedp.Run(ctx,
			chromedp.Evaluate(`(() => { const d = document.querySelector('details.new-key'); if (d && !d.open) d.querySelector('summary').click(); })()`, nil),
			chromedp.WaitVisible(`#key-name`, chromedp.ByQuery))
	})
}

// Revoke revokes the first key of the keys page the way a user does: its
// row's menu, Revoke, then the confirmation dialog's button.
func Revoke() chromedp.Action {
	return chromedp.Tasks{
		chromedp.Click(`[data-testid=key-actions]`, chromedp.ByQuery),
		chromedp.Click(`[data-testid=revoke]`, chromedp.ByQuery),
		chromedp.WaitVisible(`dialog[open] [data-testid=confirm-revoke]`, chromedp.ByQuery),
		chromedp.Click(`dialog[open] [data-testid=confirm-revoke]`, chromedp.ByQuery),
	}
}
