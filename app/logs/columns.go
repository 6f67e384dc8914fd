package logs

import "bytes"

// Some logs open every line with bare columns and nothing the per-line
// header finder can anchor on (no level, no separator, no "proc[pid]:"):
//
//	134681 node-246 unix.hw state_change.unavailable 1077804742 1 Component State Change: ...
//
// Such columns are found once per input, from its first lines: a leading
// run of numbers, times and ids (node-246) on nearly every line, then maybe
// a few word columns of a few values each (a component, a state), closed by
// a number column. The header of a line is then those columns when the
// line fits their classes, and otherwise what the per-line finder says.
const (
	colSample = 256 // lines looked at
	colMax    = 8   // leading columns considered
	colShare  = 0.9 // share of the lines a column's class must hold
)

type colClass uint8

const (
	colOther colClass = iota
	colNum            // a number, date or time
	colID             // letters and digits: node-246, R02-M1, gige7
	colWord           // letters, maybe with . _ -: unix.hw, state_change.unavailable
	colClasses
)

// columns is the bare-column header of one input: n leading columns of the
// given classes; n 0 when the input has none.
type columns struct {
	n     int
	class [colMax]colClass
	tabs  int // or, when not 0, tab-separated columns (tabcolumns.go)
	// or, when csv is not 0, comma-separated columns before the message,
	// level the place of the level column among them (csvcolumns.go)
	csv, level int
}

func colClassOf(t []byte) colClass {
	if timeField(t) {
		return colNum
	}
	letters, digits := false, false
	for _, c := range t {
		switch {
		case isLetter(c):
			letters = true
		case isDigit(c):
			digits = true
		case c != '.' && c != '_' && c != '-':
			return colOther
		}
	}
	switch {
	case letters && digits:
		return colID
	case letters:
		return colWord
	}
	return colOther
}

// fields splits the first max white-space separated fields of s.
func fields(s []byte, max int, out [][2]int) [][2]int {
	out = out[:0]
	for i := 0; len(out) < max; {
		i = skipBlank(s, i)
		if i >= len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// detectColumns finds the bare-column header of input, if any. Columns
// that the per-line finder would cut anyway (a header anchored further on
// most lines) are dropped, so that logs with such headers pay nothing.
func detectColumns(input []byte) columns {
	if n := detectTabs(input); n > 0 {
		return columns{tabs: n}
	}
	if n, level := detectCSV(input); n > 0 {
		return columns{csv: n, level: level}
	}
	var (
		counts   [colMax][colClasses]int
		distinct [colMax]map[string]struct{}
		lines    int
		further  int // lines whose anchored header ends past the columns: counted after
		f        [][2]int
		samples  [][]byte
	)
	for start := 0; start < len(input) && lines < colSample; {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' {
			continue // blank, or a continuation
		}
		lines++
		samples = append(samples, line)
		f = fields(line, colMax, f)
		for p, sp := range f {
			t := line[sp[0]:sp[1]]
			c := colClassOf(t)
			counts[p][c]++
			if c == colWord {
				if distinct[p] == nil {
					distinct[p] = make(map[string]struct{})
				}
				if len(distinct[p]) <= colSample {
					distinct[p][string(t)] = struct{}{}
				}
			}
		}
	}
	need := int(colShare*float64(lines) + 0.5)
	if lines < 4 {
		return columns{}
	}
	var cols columns
	lead := 0
	for lead < colMax && counts[lead][colNum]+counts[lead][colID] >= need {
		cols.class[lead] = colNum
		if counts[lead][colNum] < need {
			cols.class[lead] = colID
		}
		lead++
	}
	if lead == 0 {
		return columns{}
	}
	cols.n = lead
	few := max(8, lines/16)
	for p := lead; p < colMax; p++ {
		switch {
		case counts[p][colNum] >= need:
			cols.class[p] = colNum
			cols.n = p + 1
			continue
		case counts[p][colWord]+counts[p][colID] >= need && len(distinct[p]) >= 2 && len(distinct[p]) <= few:
			cols.class[p] = colWord
			continue
		}
		break
	}
	var h header
	for _, line := range samples {
		if e := cols.end(line); e > 0 && h.end(line) >= e {
			further++
		}
	}
	if further >= need {
		return columns{}
	}
	return cols
}

// end returns where the columns of line s end, or 0 when s does not fit.
func (c *columns) end(s []byte) int {
	if c.tabs > 0 {
		return tabEnd(s, c.tabs)
	}
	if c.csv > 0 {
		if e := csvEnd(s, c.csv); e > 0 && clockIn(s[:e]) { // the title row has none
			return e
		}
		return 0
	}
	i := 0
	for p := 0; p < c.n; p++ {
		i = skipBlank(s, i)
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j == i || j == len(s) {
			return 0 // no such column, or no message after it
		}
		got := colClassOf(s[i:j])
		switch want := c.class[p]; {
		case got == want, want == colID && got == colNum, want == colWord && got == colID:
		default:
			return 0
		}
		i = j
	}
	return i
}
