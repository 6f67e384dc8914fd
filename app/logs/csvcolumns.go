package logs

import "bytes"

// A log exported as comma-separated values (Windows' Event Viewer, "Save
// All Events As… CSV") opens with a title row and holds the message in the
// last column, quoted when it has commas or several lines:
//
//	Level,Date and Time,Source,Event ID,Task Category
//	Information,11/29/2026 10:00:00 AM,Service Control Manager,7036,None,The … service entered the running state.
//	Error,11/29/2026 10:00:05 AM,Application Error,1000,(100),"Faulting application name: app.exe, version: 1.0.0.0
//	Exception code: 0xc0000005"
//
// (Event Viewer names no message column: its rows have one field more
// than the title.) The columns before the message are the header, the
// level column's value the level, and the lines of a quoted message join
// its row (entries.go). The per-line finder, reading words, sees none of
// this: "AM,Service Control Manager,7036,None,The" opened every template
// and no level was read.

// csvLevelNames and csvMessageNames are the titles of a level column and
// of a message column (which then need not be the unnamed one after the
// titles). Case does not matter.
var (
	csvLevelNames   = []string{"level", "severity", "type", "loglevel", "priority"}
	csvMessageNames = []string{"message", "msg", "description", "text", "details"}
)

// detectCSV returns, when input opens with a title row of comma-separated
// column names and most rows under it hold a time of day before the
// message column, the number of columns before the message and the
// 1-based place of the level column (0 for none); 0, 0 otherwise.
func detectCSV(input []byte) (n, level int) {
	title, start := nextLine(input, skipSpace(input, 0))
	names := csvTitles(bytes.TrimRight(title, "\r"))
	if len(names) < 3 {
		return 0, 0
	}
	n = len(names) // the message is the unnamed column after the titles
	if keyRank(names[n-1], csvMessageNames) >= 0 {
		n-- // or the last titled one
	}
	for k, name := range names[:n] {
		if keyRank(name, csvLevelNames) >= 0 {
			level = k + 1
			break
		}
	}
	rows, timed, open := 0, 0, false
	for lines := 0; start < len(input) && lines < colSample; lines++ {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimRight(line, "\r")
		if open { // a line of a quoted message
			open = !oddQuotes(line)
			continue
		}
		if !hasNonSpace(line) || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		rows++
		open = oddQuotes(line)
		if (&columns{csv: n}).end(line) > 0 {
			timed++
		}
	}
	if rows == 0 || float64(timed) < tabShare*float64(rows) {
		return 0, 0
	}
	return n, level
}

// csvTitles splits a title row into its names, or returns nil when it is
// no title row: each name words of letters (maybe quoted), no digits, no
// value.
func csvTitles(row []byte) [][]byte {
	var names [][]byte
	for f := range bytes.SplitSeq(row, []byte{','}) {
		f = bytes.Trim(bytes.TrimSpace(f), `"`)
		if len(f) == 0 || len(f) > 32 || !isLetter(f[0]) {
			return nil
		}
		for _, c := range f {
			if !isLetter(c) && c != ' ' && c != '_' && c != '-' && c != '.' {
				return nil
			}
		}
		names = append(names, f)
	}
	return names
}

// csvField returns where the field that starts at s[i] ends: at its comma
// or at the end of s. A quoted field runs to its closing quote (a doubled
// quote inside it is one quote of its text).
func csvField(s []byte, i int) int {
	if i < len(s) && s[i] == '"' {
		for i++; i < len(s); i++ {
			if s[i] == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					i++
					continue
				}
				break
			}
		}
	}
	if k := bytes.IndexByte(s[min(i, len(s)):], ','); k >= 0 {
		return i + k
	}
	return len(s)
}

// csvEnd returns where the message of row s starts, after its n-th column
// (and the quote that opens it), or 0 when s has fewer columns or nothing
// after them.
func csvEnd(s []byte, n int) int {
	i := 0
	for range n {
		i = csvField(s, i)
		if i >= len(s) {
			return 0
		}
		i++ // the comma
	}
	if i < len(s) && s[i] == '"' {
		i++
	}
	if !hasNonSpace(s[i:]) {
		return 0
	}
	return i
}

// csvLevel returns the span of the k-th column (1-based) of row s.
func csvLevel(s []byte, k int) (int, int) {
	i := 0
	for range k - 1 {
		if i = csvField(s, i) + 1; i >= len(s) {
			return 0, 0
		}
	}
	j := csvField(s, i)
	if j > i && s[i] == '"' && s[j-1] == '"' {
		i, j = i+1, j-1
	}
	return i, j
}

// oddQuotes reports text with an odd number of quotes: a row that leaves
// a quoted field open (a quote inside a field is doubled), whose entry the
// lines under it join up to the one that closes it; or a message after its
// opening quote that closes on that line.
func oddQuotes(line []byte) bool {
	return bytes.Count(line, []byte{'"'})%2 == 1
}
