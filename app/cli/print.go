package cli

import (
	"encoding/json"
	"io"
	"time"
)

// printJSON writes v as one indented JSON document.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// formatTime is how tables show a time: to the minute, in UTC.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// formatTimePtr is formatTime of an optional time, "never" when absent.
func formatTimePtr(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return formatTime(*t)
}
