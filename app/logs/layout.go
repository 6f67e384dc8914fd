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
// one costs a few operations on eight bytes at a time (see layoutWord).

type layout struct {
	// The bytes walk read, eight at a time, the last word's bytes past
	// size zero.
	key       []layoutWord
	last      uint64 // the bytes of the last word that count
	size      int    // bytes in key
	whole     bool   // they are the whole line: walk read to its end
	hdr       int
	lvl0      int
	lvl1      int
	firstTime bool
	words     []headWord
	kws       []wordKeyword // the keywords of words
}

// layoutWord is eight bytes of a layout: the bytes of the line that taught
// it, digits as '0', and digits, 0x0f where it held a digit. A line's
// eight bytes x fit it when they differ from bytes only where digits has
// bits, by a digit: x^bytes is then below 10 there (see fits), as
// '0'...'9' differ in their low four bits only.
type layoutWord struct {
	bytes, digits uint64
}

// maxLayoutWords bounds a layout's key: a walk that read more bytes teaches
// none.
const maxLayoutWords = 32

// layoutSet holds the layouts learned last, tried most recently used first.
type layoutSet struct {
	all   [32]layout
	order [32]uint8 // indexes into all, most recently used first
	n     int       // layouts learned, up to len(all)
	off   bool      // nothing fits: tests compare results with and without the layouts
}

// fit returns the layout s fits, or nil. The last word of a layout is
// compared first, here: where layouts of a log differ (a logger's name) is
// usually further than where they agree (the time).
func (ls *layoutSet) fit(s []byte) *layout {
	if ls.off {
		return nil
	}
	for k := 0; k < ls.n; k++ {
		l := &ls.all[ls.order[k]]
		n := len(l.key)
		if len(s) < l.size || l.whole && len(s) != l.size ||
			n > 0 && !l.key[n-1].fits(wordAt(s, 8*(n-1))&l.last) || !l.fits(s[:8*max(n-1, 0)]) {
			continue
		}
		ls.toFront(k)
		return l
	}
	return nil
}

// toFront makes the k-th most recently used layout the most recent.
func (ls *layoutSet) toFront(k int) {
	if k == 0 {
		return // most lines fit the layout the line before fitted
	}
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
	l.key = l.key[:0]
	for at := 0; at < reach; at += 8 {
		x := wordAt(s[:reach], at)
		d := digitMask(x)
		l.key = append(l.key, layoutWord{x &^ d, d})
	}
	l.last = ^uint64(0) >> (8 * ((8 - reach%8) % 8))
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

// fits reports whether the words of l but its last fit s, as long as they,
// two at a time.
func (l *layout) fits(s []byte) bool {
	key := l.key
	for len(s) >= 16 && len(key) >= 2 {
		if !key[0].fits(binary.LittleEndian.Uint64(s)) || !key[1].fits(binary.LittleEndian.Uint64(s[8:])) {
			return false
		}
		s, key = s[16:], key[2:]
	}
	return len(s) < 8 || key[0].fits(binary.LittleEndian.Uint64(s))
}

// fits reports whether x holds w's bytes, digits aside: where w.digits
// has bits, x^w.bytes is a digit's xor with '0' when at most its low four
// bits are set and it is below 10, so that adding 6 carries into no fifth
// bit.
func (w layoutWord) fits(x uint64) bool {
	const (
		six  = 0x0606060606060606
		high = 0x1010101010101010
	)
	y := x ^ w.bytes
	return y&^w.digits == 0 && (y+w.digits&six)&high == 0
}

// wordAt returns the eight bytes of s at i, zeros past its end.
func wordAt(s []byte, i int) uint64 {
	if i+8 <= len(s) {
		return binary.LittleEndian.Uint64(s[i:])
	}
	return shortWord(s[i:])
}

// shortWord returns the bytes of s, fewer than eight, as a word.
func shortWord(s []byte) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.LittleEndian.Uint64(b[:])
}

// digitWord returns the eight bytes x with every digit as '0'.
func digitWord(x uint64) uint64 {
	// '0'...'9' differ in the low four bits only: clear them.
	return x &^ digitMask(x)
}

// digitMask returns 0x0f for every byte of x that is a digit, 0 for the
// others.
func digitMask(x uint64) uint64 {
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
	return (^other & high >> 7) * 0x0f
}
