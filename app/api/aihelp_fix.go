package api

import (
	"errors"

	"github.com/labstack/echo/v4"

	"parapet/app/apierr"
	"parapet/app/gateway"
	"parapet/app/httpx"
	"parapet/app/scan"
	"parapet/app/toolsai"
)

// Body limits of the AI help's routes. Explain's is the analysis API's:
// the log may be 10 MiB once decoded. Fix's is a document at the
// scanner's limit, escaped as a JSON string (up to twice as long), plus
// the envelope's suppressions, baseline and fingerprints.
const (
	ExplainBodyLimit = maxLogsJSONBytes
	FixBodyLimit     = 2*scan.MaxInputBytes + 256<<10
)

// fixAnswer is POST /scan/v1/fix's answer.
type fixAnswer struct {
	*toolsai.FixResult
	Answer string        `json:"answer"` // the model's text, as it came ("" when nothing was sent)
	Model  string        `json:"model,omitempty"`
	Usage  gateway.Usage `json:"usage"`
}

// Fix answers POST /scan/v1/fix (and the scanner page's Suggest a fix, as
// who): the document is scanned, the findings named get their resource's
// source (and the resources it links to), secrets masked, sent to the
// model through the gateway as the organization; the corrected resources
// are applied, the document scanned again, and each finding verified or
// not, highest severity first. Nothing is stored.
func (a *API) Fix(who AICaller) echo.HandlerFunc {
	return func(c echo.Context) error {
		caller, err := who(c)
		if err != nil {
			return err
		}
		if err := httpx.RequireJSON(c); err != nil {
			return err
		}
		body, err := httpx.ReadBody(c, FixBodyLimit)
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		var f *toolsai.Fix
		// Terraform source takes far more memory to scan than its size.
		cost := toolsai.FixCost(body)
		err = a.analysis(c, cost, func() error { f, err = toolsai.PlanFix(body); return err })
		var bad *toolsai.InputError
		switch {
		case errors.As(err, &bad):
			return apierr.InvalidRequest("%s", bad.Msg)
		case err != nil:
			return scanError(err)
		}
		if !f.NeedsModel() { // no finding can be fixed in this document: no call
			return answer(c, fixAnswer{FixResult: f.NotSent()})
		}
		return a.aiCall(c, caller, "scan.fix", f.Prompt, func(c echo.Context, msg *gateway.Message) error {
			var res *toolsai.FixResult
			// The patched document is scanned again: another analysis.
			if err := a.analysis(c, cost, func() error { res = f.Apply(msg.Text()); return nil }); err != nil {
				return err
			}
			return answer(c, fixAnswer{FixResult: res, Answer: msg.Text(), Model: msg.Model, Usage: msg.Usage})
		}, nil)
	}
}
