package logs

import "bytes"

// A log exported or written as tab-separated columns (Windows' Event
// Viewer and PowerShell exports, many appliances' and databases' logs)
// holds its message in the last column:
//
//	2026-11-29 05:44:16<TAB>Information<TAB>Service Control Manager<TAB>7036<TAB>The … service entered the running state.
//
// The columns before it (a time, a level, a source of several words, an
// event id) are the header, which the per-line finder, reading words,
// cannot tell from the message: "Service Control Manager 7036" would open
// every template. When most lines hold the same number of tabs, the header
// runs to the last of them; a line with fewer is read as any other, and
// tabs further on, inside a message, are the message's.

// tabShare is the share of the sampled lines that must hold the common
// number of tabs (a title row, a wrapped line may not); of fewer than five
// lines, all must.
const tabShare = 0.8

// detectTabs returns the number of tab-separated columns before the
// message that most lines of input have, or 0.
func detectTabs(input []byte) int {
	if bytes.IndexByte(input[:min(len(input), 1<<16)], '\t') < 0 {
		return 0 // most logs: one look
	}
	var counts [colMax + 1]int
	var samples [][]byte
	for start := 0; start < len(input) && len(samples) < colSample; {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimRight(line, "\r")
		if !hasNonSpace(line) || line[0] == ' ' || line[0] == '\t' {
			continue // blank, or a continuation
		}
		samples = append(samples, line)
		counts[min(bytes.Count(line, []byte{'\t'}), colMax)]++
	}
	lines := len(samples)
	if lines == 0 {
		return 0
	}
	// The most common count of at least two tabs, below colMax (more is
	// a table of values, or tabs inside messages).
	best := 0
	for n := 2; n < colMax; n++ {
		if counts[n] > counts[best] {
			best = n
		}
	}
	// A few lines must all agree: a single line of a log pasted alone
	// is read as a longer input's would be.
	if best == 0 || float64(counts[best]) < tabShare*float64(lines) || lines < 5 && counts[best] < lines {
		return 0
	}
	// A last column of JSON is the message's fields, after it (zap's
	// console encoder: time, level, caller, message, {fields}); and the
	// columns before the message are a log's header only with a time of
	// day among them, not a table's values.
	structured, timed, with := 0, 0, 0
	for _, line := range samples {
		e := tabEnd(line, best)
		if e == 0 {
			continue
		}
		with++
		if line[e] == '{' || line[e] == '[' {
			structured++
		}
		if clockIn(line[:e]) {
			timed++
		}
	}
	if float64(timed) < tabShare*float64(with) {
		return 0
	}
	if float64(structured) >= tabShare*float64(with) {
		best--
	}
	return best
}

// clockIn reports text that holds a time of day: a digit, a colon and two
// digits.
func clockIn(t []byte) bool {
	for i := 1; i+2 < len(t); i++ {
		if t[i] == ':' && isDigit(t[i-1]) && isDigit(t[i+1]) && isDigit(t[i+2]) {
			return true
		}
	}
	return false
}

// tabEnd returns where the message of s starts, after its n-th tab, or 0
// when s has fewer tabs or nothing after them.
func tabEnd(s []byte, n int) int {
	i := 0
	for range n {
		t := bytes.IndexByte(s[i:], '\t')
		if t < 0 {
			return 0
		}
		i += t + 1
	}
	if !hasNonSpace(s[i:]) {
		return 0
	}
	return i
}
