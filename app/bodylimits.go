package app

import (
	"parapet/app/gateway"
	"parapet/app/web"
)

// Body limits, applied before anything reads a body (httpx.LimitBody), on
// each area or route in routes.go.
// A tool takes what its page's form may hold (its engine's input limit
// twice over, as a browser sends a textarea's newlines as CRLF and JSON
// escapes, plus room for the other fields), for the page and the API
// alike; every other form is small.
const (
	authFormLimit = 8 << 10  // sign-in and sign-up: an email, a password, a token
	pageFormLimit = 64 << 10 // any other console form (a product's description is the longest)
	apiBodyLimit  = gateway.MaxBodyBytes
	// gatewayMediaLimit: the gateway's calls with images or documents.
	gatewayMediaLimit = gateway.MaxMediaBodyBytes
	logsBodyLimit     = web.MaxLogsFormBytes
	scanBodyLimit     = web.MaxScanFormBytes // the page sends the textarea and the chosen file
	compareLimit      = 2 * logsBodyLimit    // two logs
)
