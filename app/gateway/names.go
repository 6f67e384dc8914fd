package gateway

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxIDLen bounds the message id an upstream names, as maxModelLen bounds
// its model name: both are forwarded and the model is recorded.
const maxIDLen = 256

// unsafeRune reports a character no name that is forwarded, logged or
// recorded may hold: a control character (NUL, escape, DEL, the C1
// range), a format character (zero-width space, the bidirectional
// overrides such as U+202E) or a line or paragraph separator. Each can hide
// or fake text in a log line, a terminal or the console; a NUL also makes
// Postgres refuse the record.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func hasUnsafe(s string) bool { return strings.IndexFunc(s, unsafeRune) >= 0 }

// cleanName makes a name the upstream sent back (its model, its message
// id) safe to forward and record: every unsafe character becomes U+FFFD,
// which shows that something was there, and the name is cut to max
// characters.
func cleanName(s string, max int) string {
	if hasUnsafe(s) {
		s = strings.Map(func(r rune) rune {
			if unsafeRune(r) {
				return utf8.RuneError
			}
			return r
		}, s)
	}
	if len(s) <= max {
		return s // fewer bytes than max: fewer characters too
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// maxStopReasonLen bounds the stop reason an upstream names: the Messages
// API's are single words (end_turn, max_tokens, stop_sequence, ...).
const maxStopReasonLen = 64

// cleanStop makes the stop reason and stop sequence an upstream sends
// back safe to forward and record, as everything else it sends: the key
// scrubbed from both, the reason a safe, bounded name. The sequence keeps
// its characters (stop sequences are the client's own, newlines and all).
func cleanStop(sc *scrubber, reason string, seq *string) (string, *string) {
	reason = cleanName(sc.scrub(reason), maxStopReasonLen)
	if seq != nil {
		s := sc.scrub(*seq)
		seq = &s
	}
	return reason, seq
}
