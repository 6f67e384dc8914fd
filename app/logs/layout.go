package logs

import (
	"bytes"
	"encoding/binary"
)

// Most lines of a log share their header's layout: the same tokens in the
// same places, only the digits of dates, times and numbers change. What
// header.walk decides depends on the bytes it reads, and on digits only as
// digits: every test it makes of a byte (its class, isDigit, the level and
// date names, which hold none) answers alike for all ten. So a line that
// holds the bytes an earlier line's walk read, digit for digit replaced by
// any other, gets the same answer at the same offsets. A layout is those
// bytes, with every digit as '0', and the answer.
//
// The layouts are kept in a tree of their bytes, eight at a time (a radix
// tree: a node holds the run of words its layouts share after its
// parent's), so that a line is looked up in a few steps whatever the
// number of layouts: a log's lines mostly share their first words (the
// time's, digits aside) and part ways at a logger's or thread's name. A
// line that fits two layouts gets the same answer from either: walk,
// reading the same bytes, would have stopped at the same place in the
// lines that taught them.

type layout struct {
	// The bytes walk read: the full words are the path to the node that
	// lists the layout, the bytes of the next word that count (mask) are
	// tail's.
	tail      layoutWord
	mask      uint64
	size      int   // bytes walk read
	whole     bool  // they are the whole line: walk read to its end
	next      int32 // the next layout of its node, plus one
	hdr       int
	lvl0      int
	lvl1      int
	firstTime bool
	words     []headWord
	kws       []wordKeyword // the keywords of words
	// The kind of its level word, kept when the word has no digit:
	// every line that fits the layout holds the same word then (a digit
	// may change a level: <3> and <4>, pino's 30 and 40).
	level      layoutLevel
	fixedLevel bool
	// The best keyword hit of its words in a header that ends at hdr:
	// the words and their hits are the layout's (see wordKeyword).
	hit layoutHit
}

// layoutHit is a layout's header keyword hit for a header end, looked up
// once.
type layoutHit struct {
	hit   keywordHit
	hdr   int
	known bool
}

// layoutLevel is the level kind of a layout's level word, looked up once.
type layoutLevel struct {
	kind  levelKind
	known bool
}

// layoutWord is eight bytes of a layout: the bytes of the line that taught
// it, digits as '0', and digits, 0x0f where it held a digit. A line's
// eight bytes x fit it when they differ from bytes only where digits has
// bits, by a digit: x^bytes is then below 10 there (see fits), as
// '0'...'9' differ in their low four bits only.
type layoutWord struct {
	bytes, digits uint64
}

// layoutNode is a node of the tree of layouts. Its children are reached by
// their first words, keys, no two alike; the rest of a child's words are
// its run. Its layouts are a list by index into the set's layouts plus
// one, 0 ending it.
type layoutNode struct {
	run   []layoutWord // the words after the key that leads here
	kids  []layoutKid  // its children, up to maxBranch
	ends  int32        // its first layout: one whose full words end with run
	nEnds uint8        // layouts, up to maxBranch
}

// layoutKid is a child of a layout node: its first word, and its index in
// the set's nodes.
type layoutKid struct {
	key  layoutWord
	node int32
}

// maxLayoutWords bounds a layout's bytes: a walk that read more teaches
// none.
const maxLayoutWords = 32

// maxLayouts bounds the layouts kept: when one more is learned, all are
// forgotten (a log has far fewer; only an input of ever new headers comes
// to it, and such lines are walked anyway). maxBranch bounds a node's
// children and layouts, which a line may go through one by one: a line
// that would add one more is walked whenever it comes.
const (
	maxLayouts = 1024
	maxBranch  = 64
)

// layoutSet holds the layouts learned.
type layoutSet struct {
	nodes []layoutNode // the root first, its run empty
	all   []layout
	off   bool // nothing fits: tests compare results with and without the layouts
}

// fit returns a layout s fits, or nil.
func (ls *layoutSet) fit(s []byte) *layout {
	if ls.off || len(ls.nodes) == 0 {
		return nil
	}
	nodes, n := ls.nodes, 0
	rest := s // what follows the path to node n
	for {
		node := &nodes[n]
		if node.ends != 0 {
			x := wordAt(rest, 0)
			for e := node.ends; e != 0; e = ls.all[e-1].next {
				if l := &ls.all[e-1]; len(s) >= l.size && (!l.whole || len(s) == l.size) && l.tail.fits(x&l.mask) {
					return l
				}
			}
		}
		if len(rest) < 8 {
			return nil
		}
		// node.find, written out: a call here costs as much as the search.
		x, kids, k := binary.LittleEndian.Uint64(rest), node.kids, 0
		for k < len(kids) && !kids[k].key.fits(x) {
			k++
		}
		if k == len(kids) {
			return nil
		}
		if k > 0 {
			kids[0], kids[k] = kids[k], kids[0]
		}
		n = int(kids[0].node)
		// The rest of its run, two words at a time.
		run := nodes[n].run
		rest = rest[8:]
		if len(rest) < 8*len(run) {
			return nil
		}
		for ; len(run) >= 2 && len(rest) >= 16; run, rest = run[2:], rest[16:] {
			if !run[0].fits(binary.LittleEndian.Uint64(rest)) || !run[1].fits(binary.LittleEndian.Uint64(rest[8:])) {
				return nil
			}
		}
		if len(run) > 0 && len(rest) >= 8 {
			if !run[0].fits(binary.LittleEndian.Uint64(rest)) {
				return nil
			}
			rest = rest[8:]
		}
	}
}

// find returns the index in node.kids of the child whose key the eight
// bytes x fit, or -1. The child found is swapped with the first, so its
// index is 0: the lines of a log come back to the layouts they used
// lately.
func (node *layoutNode) find(x uint64) int {
	for k := range node.kids {
		if !node.kids[k].key.fits(x) {
			continue
		}
		if k > 0 {
			node.kids[0], node.kids[k] = node.kids[k], node.kids[0]
		}
		return 0
	}
	return -1
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

// newLayoutWord is the layout word of the eight bytes x.
func newLayoutWord(x uint64) layoutWord {
	d := digitMask(x)
	return layoutWord{x &^ d, d}
}

// answer sets the header from l and returns its end. The words are l's
// own, for reading only: walk writes its own elsewhere.
func (h *header) answer(l *layout) int {
	h.words = l.words
	h.lvl0, h.lvl1, h.firstTime = l.lvl0, l.lvl1, l.firstTime
	h.level, h.hit = nil, &l.hit
	if l.fixedLevel {
		h.level = &l.level
	}
	return l.hdr
}

// learn makes a layout of the line s that walk just read, whose header
// ends at hdr.
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
	if len(ls.nodes) == 0 || len(ls.all) == maxLayouts {
		ls.nodes = append(ls.nodes[:0], layoutNode{})
		ls.all = ls.all[:0]
	}
	n := ls.path(s[:reach&^7])
	if n < 0 || ls.nodes[n].nEnds == maxBranch {
		return
	}
	// A slot of a layout forgotten keeps its slices for this one.
	if len(ls.all) < cap(ls.all) {
		ls.all = ls.all[:len(ls.all)+1]
	} else {
		ls.all = append(ls.all, layout{})
	}
	l := &ls.all[len(ls.all)-1]
	at := reach &^ 7
	l.mask = ^uint64(0) >> (8 * (8 - (reach - at))) // none when reach is at
	l.tail = newLayoutWord(wordAt(s[:reach], at))
	l.size = reach
	l.whole = reach == len(s)
	node := &ls.nodes[n]
	l.next, node.ends = node.ends, int32(len(ls.all))
	node.nEnds++
	l.hdr, l.lvl0, l.lvl1, l.firstTime = hdr, h.lvl0, h.lvl1, h.firstTime
	l.hit = layoutHit{}
	l.level, l.fixedLevel = layoutLevel{}, h.lvl1 > h.lvl0 && h.lvl1 <= reach && !bytes.ContainsAny(s[h.lvl0:h.lvl1], "0123456789")
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

// path returns the node whose path is the words of s, made as needed: a
// child for a word no key fits, a node split where its run and s part
// ways. It returns -1 when a node has maxBranch children already.
func (ls *layoutSet) path(s []byte) int {
	n := 0
	for len(s) > 0 {
		x := binary.LittleEndian.Uint64(s)
		s = s[8:]
		k := ls.nodes[n].find(x)
		if k < 0 {
			if len(ls.nodes[n].kids) == maxBranch {
				return -1
			}
			run := make([]layoutWord, len(s)/8)
			for k := range run {
				run[k] = newLayoutWord(binary.LittleEndian.Uint64(s[8*k:]))
			}
			ls.nodes = append(ls.nodes, layoutNode{run: run})
			c := len(ls.nodes) - 1
			ls.nodes[n].kids = append(ls.nodes[n].kids, layoutKid{newLayoutWord(x), int32(c)})
			return c
		}
		n = int(ls.nodes[n].kids[k].node)
		run := ls.nodes[n].run
		m := 0
		for m < len(run) && 8*m < len(s) && run[m].fits(binary.LittleEndian.Uint64(s[8*m:])) {
			m++
		}
		if m < len(run) {
			// The words from run[m] on go to a child of their own, with
			// the node's children and layouts.
			node := ls.nodes[n]
			ls.nodes = append(ls.nodes, layoutNode{run: node.run[m+1:], kids: node.kids, ends: node.ends, nEnds: node.nEnds})
			ls.nodes[n] = layoutNode{run: node.run[:m:m], kids: []layoutKid{{node.run[m], int32(len(ls.nodes) - 1)}}}
		}
		s = s[8*m:]
	}
	return n
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
