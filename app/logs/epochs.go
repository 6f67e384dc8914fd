package logs

// Epoch timestamps at the start of a line: 1710151505 ERROR …, with a
// fraction (1710151505.123) or in milliseconds (1710151505123),
// microseconds or nanoseconds. A number opening a line is as often a PID,
// a counter or an id, so an epoch is read only when the input's first
// lines agree: every one of its first epochProbeLines lines that opens
// with a digit opens with an epoch of one width, all within
// epochProbeSpan of each other.
const (
	epochProbeLines = 20
	epochProbeSpan  = 31 * secDay
)

// Epochs are read from 2000 to 2099: a 10-digit number of seconds is
// 2001 or later, so nine digits (a PID, a size) never are.
var epochFirst, epochEnd = unixOf(2000, 1, 1, 0, 0, 0), unixOf(2100, 1, 1, 0, 0, 0)

// epochWidth is the width in digits of the epochs that open input's first
// lines, 0 when they do not agree on one (see above).
func epochWidth(input []byte) int {
	width, seen := 0, 0
	var first, last int64
	for n, start := 0, 0; n < epochProbeLines && start < len(input); n++ {
		var line []byte
		line, start = nextLine(input, start)
		if len(line) == 0 || !isDigit(line[0]) {
			continue
		}
		t, w, ok := openingEpoch(line)
		if !ok || seen > 0 && w != width {
			return 0
		}
		if seen == 0 {
			first, last = t, t
		}
		width, seen = w, seen+1
		first, last = min(first, t), max(last, t)
	}
	if last-first > epochProbeSpan {
		return 0
	}
	return width
}

// parseEpoch reads an epoch of the input's width at the start of s.
func (p *stampParser) parseEpoch(s []byte) (int64, bool) {
	if p.epochDigits == 0 {
		return 0, false
	}
	t, w, ok := openingEpoch(s)
	return t, ok && w == p.epochDigits
}

// openingEpoch reads the epoch that opens s: 10 digits of seconds, maybe
// with a fraction, or 13, 16 or 19 digits of milliseconds, microseconds
// or nanoseconds, then a space, a tab, a comma or the line's end. It
// returns the time in seconds and the width in digits.
func openingEpoch(s []byte) (t int64, width int, ok bool) {
	var v int64
	n := 0
	for n < len(s) && n < 20 && isDigit(s[n]) {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	end := n
	switch n {
	case 10:
		end = fraction(s, n)
	case 13:
		v /= 1e3
	case 16:
		v /= 1e6
	case 19:
		v /= 1e9
	default:
		return 0, 0, false
	}
	if end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != ',' || v < epochFirst || v >= epochEnd {
		return 0, 0, false
	}
	return v, n, true
}
