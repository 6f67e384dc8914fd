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

// Epochs may stand in a column of their own instead, as in an AWS VPC
// flow log ("2 123456789012 eni-0a1b 10.0.0.1 10.0.1.5 40000 443 6 1
// 60 1795003200 1795003260 ACCEPT OK", the start and end of its window).
// Such a column is read for a line with no other timestamp when the
// input's first lines agree as above: every one of its first
// epochProbeLines lines but one (a title row) has an epoch of one width
// as the same field, the first of them that is one, and at least
// epochColumnLines do.
const (
	epochColumnLines = 3
	epochColumnMax   = 32 // fields looked at
)

// epochColumn is the field (0-based, blank-separated, not the first)
// and width of the epochs of input's first lines, or 0, 0.
func epochColumn(input []byte) (col, width int) {
	agree, misses := 0, 0
	var first, last int64
	for n, start := 0, 0; n < epochProbeLines && start < len(input); n++ {
		var line []byte
		line, start = nextLine(input, start)
		if !hasNonSpace(line) {
			continue
		}
		k, t, w := epochField(line, 0, 0)
		if k == 0 {
			if misses++; misses > 1 {
				return 0, 0
			}
			continue
		}
		if agree == 0 {
			col, width, first, last = k, w, t, t
		} else if k != col || w != width {
			return 0, 0
		}
		agree++
		first, last = min(first, t), max(last, t)
	}
	if agree < epochColumnLines || last-first > epochProbeSpan {
		return 0, 0
	}
	return col, width
}

// epochField finds in line the first field after the first that is an
// epoch, or with col > 0 reads field col as one of width digits: its
// index (0 for none), time in seconds and width.
func epochField(line []byte, col, width int) (k int, t int64, w int) {
	i := 0
	for k = 0; k < epochColumnMax && i < len(line); k++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if k > 0 && (col == 0 || k == col) && j > i && isDigit(line[i]) {
			if t, w, ok := openingEpoch(line[i:j]); ok && (width == 0 || w == width) {
				return k, t, w
			}
		}
		if col > 0 && k == col {
			break
		}
		i = j
	}
	return 0, 0, 0
}
