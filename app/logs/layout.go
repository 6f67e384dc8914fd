package logs

import "encoding/binary"

// Most lines of a log share their header's layout: the same tokens in the
// same places, only the digits of dates, times and numbers change. What
// header.walk decides depends on the bytes it reads, and on digits only as
// digits: every test it makes of a byte (its class, isDigit, the level and
// date names, which hold none) answers alike for all ten. So a line that
// holds the bytes an earlier line's walk read, digit for digit replaced by
// any other, gets the same answer at the same offsets. A layout is those
// bytes, with every digit as '0', and the answer; checking a line against
// one costs a comparison of eight bytes at a time.

type layout struct {
	// The bytes walk read, digits as '0', eight at a time (see digitWord),
	// and the rest one by one.
	key       []uint64
	tail      []byte
	size      int  // bytes in key and tail
	whole     bool // they are the whole line: walk read to its end
	hdr       int
	lvl0      int
	lvl1      int
	firstTime bool
	words     []headWord
	kws       []wordKeyword // the keywords of words
}

// maxLayoutWords bounds a layout's key: a walk that read more bytes teaches
// none.
const maxLayoutWords = 32

// layoutSet holds the layouts learned last, tried most recently used first.
type layoutSet struct {
	all   [32]layout
	order [32]uint8 // indexes into all, most recently used first
	n     int       // layouts learned, up to len(all)
	// The words of the line being fitted, digits as '0', the first
	// lineWords of them filled.
	line      [maxLayoutWords]uint64
	lineWords int
	off       bool // nothing fits: tests compare results with and without the layouts
}

// fit returns the layout s fits, or nil.
func (ls *layoutSet) fit(s []byte) *layout {
	if ls.off {
		return nil
	}
	ls.lineWords = 0
	for k := 0; k < ls.n; k++ {
		l := &ls.all[ls.order[k]]
		if len(s) < l.size || l.whole && len(s) != l.size {
			continue
		}
		// Most layouts tried differ in their last word (see fits): when a
		// layout tried before made it, the test is made here, without a call.
		if n := len(l.key); n > 0 && n <= ls.lineWords && ls.line[n-1] != l.key[n-1] || !ls.fits(s, l) {
			continue
		}
		ls.toFront(k)
		return l
	}
	return nil
}

// toFront makes the k-th most recently used layout the most recent.
func (ls *layoutSet) toFront(k int) {
	first := ls.order[k]
	copy(ls.order[1:k+1], ls.order[:k])
	ls.order[0] = first
}

// answer sets the header from l and returns its end. The words are l's
// own, for reading only: walk writes its own elsewhere.
func (h *header) answer(l *layout) int {
	h.words = l.words
	h.lvl0, h.lvl1, h.firstTime = l.lvl0, l.lvl1, l.firstTime
	return l.hdr
}

// learn makes a layout of the line s that walk just read, whose header
// ends at hdr, in place of the one used least recently.
func (h *header) learn(s []byte, hdr int) {
	if h.open {
		return // walk read further than its tokens
	}
	reach := min(h.reach+1, len(s)) // the byte after the last token too
	if h.eol {
		reach = len(s)
	}
	if reach > 8*maxLayoutWords {
		return
	}
	ls := &h.layouts
	if ls.n < len(ls.all) {
		ls.order[ls.n] = uint8(ls.n)
		ls.n++
	}
	ls.toFront(ls.n - 1) // the least recently used, or the new slot
	l := &ls.all[ls.order[0]]
	l.key, l.tail, l.size = l.key[:0], l.tail[:0], 0
	for ; l.size+8 <= reach; l.size += 8 {
		l.key = append(l.key, digitWord(binary.LittleEndian.Uint64(s[l.size:])))
	}
	l.tail = digitless(l.tail, s[l.size:reach])
	l.size = reach
	l.whole = reach == len(s)
	l.hdr, l.lvl0, l.lvl1, l.firstTime = hdr, h.lvl0, h.lvl1, h.firstTime
	l.words = l.words[:0]
	if cap(l.kws) < len(h.words) {
		l.kws = make([]wordKeyword, len(h.words))
	}
	l.kws = l.kws[:len(h.words)]
	for k, w := range h.words {
		l.kws[k] = wordKeyword{}
		l.words = append(l.words, headWord{w.start, w.end, &l.kws[k]})
	}
}

// fits reports whether s, at least l.size bytes long, starts with l's bytes,
// digits aside. The last word is compared first: where layouts of a log
// differ (a logger's name) is usually further than where they agree (the
// time).
func (ls *layoutSet) fits(s []byte, l *layout) bool {
	key := l.key
	line := ls.line[:len(key)]
	for k := ls.lineWords; k < len(line); k++ {
		line[k] = digitWord(binary.LittleEndian.Uint64(s[8*k : 8*k+8]))
	}
	ls.lineWords = max(ls.lineWords, len(line))
	if n := len(key); n > 0 && line[n-1] != key[n-1] {
		return false
	}
	for k, w := range key {
		if line[k] != w {
			return false
		}
	}
	n := len(key)
	for k, c := range l.tail {
		if c2 := s[8*n+k]; c2 != c && !(c == '0' && isDigit(c2)) {
			return false
		}
	}
	return true
}

// digitWord returns the eight bytes x with every digit as '0'.
func digitWord(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x80 * ones
	)
	// A digit is a byte that is below 10 once xor-ed with '0'. The
	// subtraction cannot borrow across bytes, each at least 0x80 with
	// its high bit set; the high bit of a byte of other is set for any
	// other byte.
	y := x ^ '0'*ones
	other := ((y | high) - 10*ones) | y
	// '0'...'9' differ in the low four bits only: clear them.
	return x &^ ((^other & high >> 7) * 0x0f)
}
