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
