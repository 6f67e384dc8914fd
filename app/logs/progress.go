package logs

// A program that draws a progress bar into a file, or a terminal captured
// line by line (docker pull, wget, Keras, tqdm), writes one line per
// redraw, each bar a little longer:
//
//	[=====>                                             ]  5.2MB/50MB
//	train:  45%|████▌     | 45/100 [00:10<00:12,  4.50it/s]
//
// Split on its blanks the bar is words that differ from line to line, one
// template per width. So a bar, from its opening '[' or '|' to its closing
// ']' or '|', with what is joined to it, is one token and a value. ('\r'
// redraws on one line are read as shown last: overwritten.go.)

// minBar is the fewest cells between a bar's ends: "[==]" or "|#|" are
// more likely words of the message.
const minBar = 4

// barToken returns, when a progress bar opens inside the token s[i:j],
// where the token holding it ends: after the bar's closing end (maybe past
// blanks inside the bar) and what is joined to it, before end; else 0.
func barToken[T ~string | ~[]byte](s T, i, j, end int) int {
	for p := i; p < j; p++ {
		if s[p] != '[' && s[p] != '|' {
			continue
		}
		if k := barEnd(s[:end], p); k > 0 {
			for k < end && !isSpace(s[k]) {
				k++
			}
			return k
		}
	}
	return 0
}

// barEnd returns the end of the bar opening at s[p] ('[' or '|'): after its
// closing ']' or '|', with minBar cells or more between them of a bar's
// characters (=, >, #, ., -, *, blanks, and Unicode's block elements as
// tqdm draws them), at least one of them a filled cell (=, #, > or a
// block), so that a table's rule ("|-----|") or an ellipsis is none, nor
// a run of '=' or '#' alone; 0 when there is none.
func barEnd[T ~string | ~[]byte](s T, p int) int {
	closer := byte(']')
	if s[p] == '|' {
		closer = '|'
	}
	cells, filled := 0, false
	same := true // every cell the first's
	for k := p + 1; k < len(s); {
		c := s[k]
		switch {
		case c == closer:
			// A run of one ASCII character is a rule or a banner
			// (GoogleTest's "[==========]"), or a bar at its end, drawn
			// so on every line: a word of the message either way.
			if cells < minBar || !filled || same && (s[p+1] == '=' || s[p+1] == '#') {
				return 0
			}
			return k + 1
		case c == '=' || c == '#' || c == '>':
			filled = true
		case c == ' ' || c == '.' || c == '-' || c == '*':
		case c == 0xE2 && k+2 < len(s) && s[k+1] == 0x96 && s[k+2] >= 0x80 && s[k+2] <= 0x9F:
			filled = true // U+2580–U+259F, a block element: "█▌"
			k += 2
		default:
			return 0
		}
		same = same && c == s[p+1]
		cells++
		k++
	}
	return 0
}

// barCells are a bar's cells (the block elements U+2580–U+259F last):
// what bars of different lengths share of them ("[==" of "[=====>" and
// "[==>") says nothing.
const barCells = "=#>.-* ▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐░▒▓▔▕▖▗▘▙▚▛▜▝▞▟"
