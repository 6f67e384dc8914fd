package logs

import (
	"errors"
	"fmt"
	"time"
)

// Limits of one analysis. They bound memory and time for a single request;
// the HTTP layer maps a *LimitError to 413/422 and may print its message.
const (
	MaxInputBytes = 10 << 20 // whole input, bytes
	MaxLines      = 200_000  // input lines, blank ones included
	MaxLineBytes  = 16 << 10 // longer lines are analysed on their first 16 KiB and flagged as cut
)

// DefaultRareThreshold is the fraction of lines at or below which a template is rare.
const DefaultRareThreshold = 0.005

// Timeout bounds one analysis from either front door (page or API), so no
// input holds a worker for long. The engine checks its context as it reads
// and mines; inputs within the limits take well under a second.
const Timeout = 10 * time.Second

// LimitError reports input over one of the limits above.
type LimitError struct {
	Limit string // "input_bytes" or "lines"
	Max   int
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "input_bytes":
		return fmt.Sprintf("log input is too large: at most %d bytes (%d MiB)", e.Max, e.Max>>20)
	case "lines":
		return fmt.Sprintf("log input has too many lines: at most %d", e.Max)
	}
	return fmt.Sprintf("log input over the %s limit of %d", e.Limit, e.Max)
}

// ErrNoLines is returned for empty input or input made only of blank lines.
var ErrNoLines = errors.New("no log lines")

// ErrBadOption wraps every invalid Options value.
var ErrBadOption = errors.New("invalid option")
