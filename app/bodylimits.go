package app

import (
	"parapet/app/gateway"
	"parapet/app/logs"
	"parapet/app/scan"
)

// Body limits, applied before anything reads a body (httpx.LimitBody), on
// each area or route in routes.go.
// A tool takes its engine's input limit twice over (a browser sends a
// textarea's newlines as CRLF; JSON escapes), plus room for the other
// fields; every other form is small.
const (
	authFormLimit = 8 << 10  // sign-in and sign-up: an email, a password, a token
	pageFormLimit = 64 << 10 // any other console form (a product's description is the longest)
	apiBodyLimit  = gateway.MaxBodyBytes
	logsBodyLimit = 2*logs.MaxInputBytes + 64<<10
	scanBodyLimit = 3*scan.MaxInputBytes + 64<<10 // the page sends the textarea and the chosen file
	compareLimit  = 2 * logsBodyLimit             // two logs
)
