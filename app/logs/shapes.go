package logs

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// A shape is one distinct sequence of message tokens after masking. Lines
// are reduced to shapes while the input is read (one map look-up per line);
// the template miner then works on shapes, whose number grows with the
// variety of the log, not with its length.
type shape struct {
	key  string       // tokens joined by sep, masked values as wild
	toks []string     // the tokens, slices of key
	vals []tokenValue // per token
	// live lists the masked tokens whose values still share a prefix or
	// a suffix: only they can shrink, and most masked tokens (numbers,
	// addresses) share nothing after a few lines.
	live  []int32
	kws   []shapeKeyword // keywords among the literal tokens, in order
	count int
	lines []lineRef // the lines, while count <= the rare cut-off; nil after
	// escaped: the tokens are a JSON or logfmt string's, whose quotes and
	// backslashes are escaped (msg="failed to \"pull\" image"); the
	// template shows them as the message reads (see unescapeQuotes).
	escaped bool
	// folded: the shape of the lines of every shape past the set's
	// budget with its number of tokens, all of them values (see fold).
	folded bool
	first  int32 // the first line's number

	params []valueCounts // with IncludeParams: values seen per token
}

// tokenValue is a token's text in a shape's first line, for display, and
// the prefix and suffix of it that every value seen shares (a literal's
// whole length). One struct rather than three slices: a line of the shape
// reads them together, with one bounds check.
type tokenValue struct {
	val      string
	lcp, lcs uint16
}

// shapeKeyword is a keyword found in the literal tokens of a shape, located
// by token index and byte offset within the token.
type shapeKeyword struct {
	kw         int
	tok0, tok1 int
	off0, off1 int32
}

// keywordsOf scans the literal text of a shape's tokens once: literal tokens
// joined by spaces, a masked value replaced by a NUL byte (no word character,
// no phrase separator). Every keyword is kept, not only the best: whether
// one counts depends on the line (see dismissed).
func keywordsOf(z *tokenizer, text []byte, sc *keywordScratch) []shapeKeyword {
	buf, starts := sc.buf[:0], slices.Grow(sc.starts[:0], len(z.toks))[:len(z.toks)]
	for i, t := range z.toks {
		if i > 0 {
			buf = append(buf, ' ')
		}
		starts[i] = len(buf)
		if t.masked {
			buf = append(buf, text[t.start:t.start+t.keep]...)
			buf = append(buf, 0)
		} else {
			buf = append(buf, text[t.start:t.end]...)
		}
	}
	hits := sc.hits[:0]
	scanKeywords(buf, &hits)
	sc.buf, sc.starts, sc.hits = buf, starts, hits
	at := func(off int, end bool) (int, int32) {
		i := len(starts) - 1
		for i > 0 && (starts[i] > off || end && starts[i] == off) {
			i--
		}
		return i, int32(off - starts[i])
	}
	if len(hits) == 0 {
		return nil
	}
	kws := make([]shapeKeyword, len(hits))
	for i, h := range hits {
		kws[i].kw = h.kw
		kws[i].tok0, kws[i].off0 = at(h.start, false)
		kws[i].tok1, kws[i].off1 = at(h.end, true)
	}
	return kws
}

// lineRef locates one analysed line of the input.
type lineRef struct {
	no         int32  // 1-based input line number
	start, end int32  // byte span in the input, after cutting
	hdr        uint16 // length of the header (lines are at most MaxLineBytes)
	head       uint16 // of the header without the blanks that end it (LineHeader.Header)
	lvl0, lvl1 uint16 // the level word in the line; equal when none
	cut        bool
	fixed      bool // invalid UTF-8 was replaced
	structured bool // a JSON or logfmt message
	joined     bool // an entry of several lines: end is its last line's
}

// shapeSet interns shapes by key.
type shapeSet struct {
	index   map[string]int32
	shapes  []*shape
	maxRefs int // lines kept per shape: the largest possible rare cut-off
	scratch keywordScratch
	// held estimates the memory the shapes take, then templates made of
	// them; past budget, a new shape is folded (see fold).
	held, budget int
}

// Memory bounds. A shape, with what mining, values and examples make of
// it, takes about shapeBytes and shapeTokenBytes per token besides its
// key (measured on logs of one shape per line: a JSON log whose lines
// each had a key of their own took 34 times its size); the shapes of an
// input may take shapeBudgetFactor times its size and shapeBudgetBase,
// which keeps an analysis within the analysis pool's estimate (20 times
// the body and 4 MiB, app/analysis.go) whatever the input, less
// lineBytes a line for what every line costs besides its shape (a match,
// a timestamp), which short lines make most of. Ordinary logs have far
// fewer shapes: none is folded.
const (
	shapeBytes        = 1200
	shapeTokenBytes   = 40
	shapeBudgetFactor = 12
	shapeBudgetBase   = 4 << 20
	lineBytes         = 160
)

// shapeBudget is the memory the shapes of input of size bytes and lines
// lines may take, read in parts parts (each has its share).
func shapeBudget(size, lines, parts int) int {
	return max(shapeBudgetBase/4, shapeBudgetFactor*size+shapeBudgetBase-lineBytes*lines) / max(1, parts)
}

// shapeCost is the memory a new shape of the tokens just made is
// estimated to take.
func shapeCost(z *tokenizer) int {
	return shapeBytes + len(z.key) + shapeTokenBytes*len(z.toks)
}

// keywordScratch is keywordsOf's working memory, reused from shape to shape.
type keywordScratch struct {
	buf    []byte
	starts []int
	hits   []keywordHit
}

// add records one line whose tokens z has just produced from text. The
// shape of a key replayed from the tokenizer's cache (tokcache.go) is
// known there without a look-up.
func (ss *shapeSet) add(z *tokenizer, text []byte, ref lineRef) int32 {
	var si int32
	ok := false
	if e := z.entry; e != nil && e.shape >= 0 {
		si, ok = e.shape, true
	} else {
		si, ok = ss.index[string(z.shapeKey())]
		switch {
		case ok:
		case ss.budget > 0 && ss.held > ss.budget:
			si = ss.fold(z, text, ref)
		default:
			si = int32(len(ss.shapes))
			ss.shapes = append(ss.shapes, newShape(z, text, &ss.scratch))
			ss.shapes[si].first = ref.no
			ss.index[ss.shapes[si].key] = si
			ss.held += shapeCost(z)
		}
		if e != nil {
			e.shape = si
		}
	}
	ss.count(si, ref)
	if ok {
		ss.shapes[si].share(z.toks, text)
	}
	return si
}

// fold is the shape of a line whose own shape would take the set past
// its budget: one shape per number of tokens, every token a value. Its
// lines are counted, their values too, and their keywords found in their
// whole message (see messageHit); they make a template of placeholders
// ("<*> <*> <*>"), which says that the log has more shapes than are
// told apart. A log of more shapes than its size affords is made so, or
// is all values.
func (ss *shapeSet) fold(z *tokenizer, text []byte, ref lineRef) int32 {
	n := len(z.toks)
	key := "\xfd" + strconv.Itoa(n) // no UTF-8 text has the byte 0xfd
	if si, ok := ss.index[key]; ok {
		return si
	}
	sh := &shape{key: key, toks: make([]string, n), vals: make([]tokenValue, n), lines: make([]lineRef, 0, 4),
		folded: true, first: ref.no}
	for p, t := range z.toks {
		sh.toks[p] = wildTok
		sh.vals[p].val = string(text[t.start:t.end]) // shared by no other value: lcp and lcs 0
	}
	si := int32(len(ss.shapes))
	ss.shapes = append(ss.shapes, sh)
	ss.index[key] = si
	return si
}

// share shrinks the shared prefix and suffix of the shape's masked tokens to
// what the values of toks, in text, share with them, and drops from live
// the tokens left sharing nothing (the order of live does not matter).
func (sh *shape) share(toks []tok, text []byte) {
	live := sh.live
	for k := 0; k < len(live); k++ {
		p := live[k]
		t, tv := &toks[p], &sh.vals[p]
		rep, v := tv.val, text[t.start:t.end]
		// The usual case, an unchanged prefix and suffix, costs two
		// comparisons (which the compiler makes of empty strings too).
		lcp, lcs := min(int(tv.lcp), len(v)), min(int(tv.lcs), len(v))
		if lcp > 0 && rep[:lcp] != string(v[:lcp]) || lcs > 0 && rep[len(rep)-lcs:] != string(v[len(v)-lcs:]) {
			lcp, lcs = shrunk(rep, v, lcp, lcs)
		}
		lcp, lcs = wordEnds(v, lcp, lcs)
		tv.lcp, tv.lcs = uint16(lcp), uint16(lcs)
		if lcp == 0 && lcs == 0 {
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
			k--
		}
	}
	sh.live = live
}

// count records one more line of shape si. A line whose message repeats
// one already added needs no more than this: its values are those seen, so
// they shrink no shared prefix or suffix.
func (ss *shapeSet) count(si int32, ref lineRef) {
	sh := ss.shapes[si]
	sh.count++
	switch {
	case sh.count <= ss.maxRefs:
		sh.lines = append(doubled(sh.lines), ref)
	case sh.lines != nil:
		sh.lines = nil // too frequent to ever be rare
	}
}

// extend makes the line numbered no of shape si, just counted, end at end:
// the entry it opens goes on there.
func (ss *shapeSet) extend(si int32, no, end int32) {
	sh := ss.shapes[si]
	if n := len(sh.lines); n > 0 && sh.lines[n-1].no == no {
		sh.lines[n-1].end, sh.lines[n-1].joined = end, true
	}
}

// merge adds the shapes of o, of the lines after those of ss, to ss and
// returns the index in ss of each of o's shapes.
func (ss *shapeSet) merge(o *shapeSet) []int32 {
	ids := make([]int32, len(o.shapes))
	for i, sh := range o.shapes {
		si, ok := ss.index[sh.key]
		if !ok {
			si = int32(len(ss.shapes))
			ss.shapes = append(ss.shapes, sh)
			ss.index[sh.key] = si
		} else {
			ss.shapes[si].absorb(sh, ss.maxRefs)
		}
		ids[i] = si
	}
	return ids
}

// absorb counts the lines of o, the same shape, in sh. What o's values
// share with sh's first values is what o's first values share with sh's
// first (o's values share at least lcp with o's first, and where o's first
// differs earlier, so does one of them); see share.
func (sh *shape) absorb(o *shape, maxRefs int) {
	sh.count += o.count
	if sh.count <= maxRefs {
		sh.lines = append(sh.lines, o.lines...)
	} else {
		sh.lines = nil
	}
	live := sh.live[:0]
	for _, p := range sh.live {
		tv, ov := &sh.vals[p], &o.vals[p]
		lcp, lcs := wordEnds(ov.val, commonPrefix(tv.val, ov.val), commonSuffix(tv.val, ov.val))
		tv.lcp = min(tv.lcp, ov.lcp, clamp16(lcp))
		tv.lcs = min(tv.lcs, ov.lcs, clamp16(lcs))
		if tv.lcp > 0 || tv.lcs > 0 {
			live = append(live, p)
		}
	}
	sh.live = live
}

func newShape(z *tokenizer, text []byte, sc *keywordScratch) *shape {
	key := string(z.shapeKey())
	n := len(z.toks)
	sh := &shape{
		key:  key,
		toks: make([]string, 0, n),
		vals: make([]tokenValue, n),
		kws:  keywordsOf(z, text, sc),
		// Room for a few lines: every shape has one, most a few more.
		lines:   make([]lineRef, 0, 4),
		escaped: z.st.msg1 > z.st.msg0 && bytes.IndexByte(text[z.st.msg0:z.st.msg1], '\\') >= 0,
	}
	for len(key) > 0 || len(sh.toks) < n {
		i := 0
		for i < len(key) && key[i] != sep {
			i++
		}
		sh.toks = append(sh.toks, key[:i])
		if i < len(key) {
			i++
		}
		key = key[i:]
	}
	// One allocation holds the text of all masked tokens, and one their
	// live list.
	size, masked := 0, 0
	for _, t := range z.toks {
		if t.masked {
			size += int(t.end - t.start)
			masked++
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, t := range z.toks {
		if t.masked {
			b.Write(text[t.start:t.end])
		}
	}
	all := b.String()
	sh.live = make([]int32, 0, masked)
	for p, t := range z.toks {
		tv := &sh.vals[p]
		if t.masked {
			l := int(t.end - t.start)
			tv.val, all = all[:l], all[l:]
		} else {
			tv.val = sh.toks[p]
		}
		// A literal token is shared whole by every line; add shrinks the
		// shared part of masked ones.
		tv.lcp, tv.lcs = clamp16(len(tv.val)), clamp16(len(tv.val))
		if t.masked && len(tv.val) > 0 {
			sh.live = append(sh.live, int32(p))
		}
	}
	return sh
}

// wordEnds shortens the shared prefix and suffix, p and s bytes, until
// neither ends inside a word of the value v: "384.0 B," and "2.1 KB,"
// share ",", not "B,", whose display would cut "KB" (see valueAt). A
// prefix may end where a word of two letters or more meets its digits:
// "eth0" and "eth1" share "eth", a numbered name's word (numbered.go);
// "0x1f" and "0x2e" share nothing, nor "R02" and "R03".
func wordEnds[T ~string | ~[]byte](v T, p, s int) (int, int) {
	for p > 0 && p < len(v) && wordByte(v[p-1]) && wordByte(v[p]) && !(isDigit(v[p]) && letterRun(v, p)) {
		p--
	}
	for s > 0 && s < len(v) && wordByte(v[len(v)-s]) && wordByte(v[len(v)-s-1]) {
		s--
	}
	return p, s
}

// letterRun reports a word of two letters or more that ends at v[p]:
// letters from a word's start.
func letterRun[T ~string | ~[]byte](v T, p int) bool {
	a := p
	for a > 0 && isLetter(v[a-1]) {
		a--
	}
	return p-a >= 2 && (a == 0 || !wordByte(v[a-1]))
}

// shrunk is the prefix and suffix that rep and v share, within p and s
// bytes.
func shrunk(rep string, v []byte, p, s int) (int, int) {
	return commonPrefix(rep[:p], string(v[:p])), commonSuffix(rep[len(rep)-s:], string(v[len(v)-s:]))
}

func clamp16(n int) uint16 {
	return uint16(min(n, 0xffff))
}
