package app

import (
	"github.com/labstack/echo/v4"
)

// analysisMemoryFactor is the memory an analysis takes per byte of input,
// measured on the log analyzer and the scanner at their input limits
// (their peak heap is about 15 times the input; the rest is headroom for
// the garbage collector's lag).
const (
	analysisMemoryFactor = 20
	analysisBaseCost     = 4 << 20
)

// analysisCost estimates the memory of one analysis from its body size.
func analysisCost(bodyBytes int64) int64 {
	return bodyBytes*analysisMemoryFactor + analysisBaseCost
}

// analyze runs a tool's request (page or API) in the analysis pool, whose
// jobs are bounded in number and in estimated memory; past a short wait
// the request gets 503 busy with Retry-After.
func (a *App) analyze(maxBody int64) echo.MiddlewareFunc {
	return a.analyses.Middleware(maxBody, analysisCost)
}

// maxMediaCalls is no bound in practice: the media pool bounds memory
// (a call with images may run for minutes; it must not hold a scarce slot).
const maxMediaCalls = 1 << 20

// mediaCost is what a gateway call's large body is estimated to hold
// while the call runs: the body, its parsed form and the provider's copy.
func mediaCost(bodyBytes int64) int64 { return 3 * bodyBytes }

// gatewayMedia admits a gateway call whose body may be above apiBodyLimit
// (declared so, or of unknown length) to the media pool before its body
// is read: 120 parallel calls of 32 MiB held 8 GiB. The usual call, of a
// small declared body, passes as it is. The AI help's requests (a log or
// a document of up to 10 MiB, read before their analysis waits for the
// analysis pool) are admitted alike.
func (a *App) gatewayMedia(next echo.HandlerFunc) echo.HandlerFunc {
	bounded := a.mediaBodies.Middleware(gatewayMediaLimit, mediaCost)(next)
	return func(c echo.Context) error {
		if n := c.Request().ContentLength; n >= 0 && n <= apiBodyLimit {
			return next(c)
		}
		return bounded(c)
	}
}
