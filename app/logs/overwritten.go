package logs

import "bytes"

// A terminal program redraws a line in place by writing '\r' and the new
// text over the old: apt's "Reading package lists... 0%\rReading package
// lists... Done", dpkg's "(Reading database ... 5%\r(Reading database ...
// 10%\r…", a download's progress bar. Captured to a file, all the states
// stay on one line, and each capture a different mix of them: every such
// line would be a template of its own, its first state opening it. The
// line is read as the terminal showed it last: the text after its last
// '\r' that something follows. A '\r' ending a line (CRLF, or a bar's
// redraw left open) changes nothing; lines keep their numbers.

// crlfFile is how many '\r' ending lines, before any inside a line, make
// the input a CRLF file, whose '\r's are looked at no further: looking at
// each line's would cost a call a line (CRLF is Windows' line end; a
// program that redraws lines writes to a terminal, mostly on Unix).
const crlfFile = 64

// overwritten is input with each line that holds a '\r' before its end
// cut to its last state; input itself when no line has one, or when it
// is a CRLF file (see crlfFile).
func overwritten(input []byte) []byte {
	at := innerCR(input, 0)
	if at < 0 {
		return input
	}
	out := make([]byte, 0, len(input))
	for start := 0; start < len(input); {
		end := bytes.IndexByte(input[start:], '\n')
		if end < 0 {
			end = len(input)
		} else {
			end += start + 1
		}
		line := input[start:end]
		if at >= start && at < end {
			line = lastState(line)
			at = innerCR(input, end)
		}
		out = append(out, line...)
		start = end
	}
	return out
}

// innerCR returns the offset of the first '\r' at or after from that
// text follows on its line, or -1; -1 too after crlfFile '\r's that end
// their lines.
func innerCR(s []byte, from int) int {
	for ends := 0; from < len(s) && ends < crlfFile; {
		k := bytes.IndexByte(s[from:], '\r')
		if k < 0 {
			return -1
		}
		k += from
		if k+1 < len(s) && s[k+1] != '\n' && s[k+1] != '\r' {
			return k
		}
		if k+1 < len(s) && s[k+1] == '\n' {
			ends++
		}
		from = k + 1
	}
	return -1
}

// lastState is the text of line (its '\n' kept) after its last '\r' that
// text other than blanks follows.
func lastState(line []byte) []byte {
	body := bytes.TrimRight(line, "\r\n")
	for k := len(body) - 1; k >= 0; k-- {
		if body[k] == '\r' && hasNonSpace(body[k+1:]) {
			return line[k+1:]
		}
	}
	return line
}
