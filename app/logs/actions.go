package logs

import "bytes"

// GitHub Actions marks a step's line with its kind after the runner's
// timestamp, glued to the message: "2026-11-29T10:00:09.4234567Z
// ##[error]Process completed with exit code 1.", "##[warning]…",
// "##[debug]…" (with step debugging on), "##[notice]…". The kinds error,
// warning, debug and notice are levels, so a debug line saying
// "failure()" is no error; "##[group]" and the like are the message's.

// actionsLevel returns, when s[i:] opens with such a mark of a level, the
// end of the mark (the message starts there); else 0.
func actionsLevel(s []byte, i int) int {
	if i+5 > len(s) || s[i+1] != '#' || s[i+2] != '[' {
		return 0
	}
	k := bytes.IndexByte(s[i+3:min(len(s), i+12)], ']')
	if k <= 0 {
		return 0
	}
	switch string(s[i+3 : i+3+k]) {
	case "error", "warning", "debug", "notice":
		return i + 4 + k
	}
	return 0
}
