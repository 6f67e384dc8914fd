package logs

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
)

// Messages that msgCache misses often differ from a recent one only in
// the digits of their values ("PacketResponder 1 for block blk_3886..."):
// tokenizing treats every digit alike (by its class, or as isDigit), so the
// tokens of such a message, masked or not, fall where the earlier one's
// did, and so does its shape key, but for the digits of the text it holds.
// wordCache keeps the tokens of recent plain-text messages by their bytes
// with every digit as '0'. Custom masks are regular expressions, which may
// tell digits apart: with them nothing is kept.

// wordCache is a two-way set-associative cache of the tokens of recent
// messages. Its entries are allocated on first use.
type wordCache struct {
	entries *[cacheSlots]wordEntry
	seed    uint64
	hash    uint64 // of the norm last looked up
	tick    uint32 // look-ups so far
	norm    []byte // scratch: the message being looked up, digits as '0'
	off     bool   // every look-up misses: tests compare results with and without the cache
}

type wordEntry struct {
	norm  []byte
	toks  []tok // in the line of the message stored, which started at from
	from  int32
	key   []byte
	patch []int32 // the tokens whose text in key has digits
	wordy bool
	// bare says the message stored opens with a word that is no logfmt
	// key (see logfmtStart, which reads digits alike), and so does any
	// message of its norm: it is plain text, with no structure to look for.
	bare bool
	// known says noStatus and table are set, for a message of the norm
	// tokenized as plain text (see tokenizer.access).
	known, noStatus, table bool
	// hits are the keywords in the masked values with letters, once
	// hitsKnown (see tokenizer.valueHits), offsets in the line stored.
	hits      []keywordHit
	hitsKnown bool
	// shape is the index of the shape of key in the analysis, once
	// known, -1 before (see shapeSet.add). A message replayed from the
	// entry without a patch has that key, so that shape.
	shape int32
	// hash is the norm's; tick, when the entry was stored or hit last.
	hash uint64
	tick uint32
}

// lookup returns the cache's entry for the message msg, nil when the cache
// is off, and whether it holds msg's tokens: those of a message with the
// same bytes but digits, tokenized lately.
func (z *tokenizer) lookup(msg []byte) (*wordEntry, bool) {
	c := &z.cache
	if len(z.masks) > 0 || c.off {
		return nil, false
	}
	if c.entries == nil {
		c.entries, c.seed = new([cacheSlots]wordEntry), maphash.Comparable(maphash.MakeSeed(), 0)
	}
	// Two ways a set: of two norms that fall in one set (and there are
	// more than sets in a sample's recent lines), neither evicts the
	// other; a miss takes the way used less lately.
	c.norm, c.hash = normOf(c.norm, msg, c.seed)
	ways := c.entries[c.hash>>(64-cacheBits)&^1:][:2]
	c.tick++
	for k := range ways {
		if e := &ways[k]; e.hash == c.hash && e.norm != nil && string(e.norm) == string(c.norm) {
			e.tick = c.tick
			return e, true
		}
	}
	if ways[0].tick < ways[1].tick {
		return &ways[0], false
	}
	return &ways[1], false
}

// plainWords tokenizes s[i:] as z.words(s, i, len(s), true) does, from the
// cache when it holds its tokens; e and hit are what lookup returned for
// it, e nil when not looked up yet.
func (z *tokenizer) plainWords(s []byte, i int, e *wordEntry, hit bool) {
	if e == nil {
		e, hit = z.lookup(s[i:])
	}
	switch {
	case hit:
		z.replay(s, i, e)
		return
	case e == nil: // the cache is off
		z.words(s, i, len(s), true)
		return
	}
	z.words(s, i, len(s), true)
	e.norm = append(e.norm[:0], z.cache.norm...)
	e.toks, e.from = append(e.toks[:0], z.toks...), int32(i)
	e.patch = e.patch[:0]
	for k := range e.toks {
		if e.toks[k].digits {
			e.patch = append(e.patch, int32(k))
		}
	}
	e.key = append(e.key[:0], z.key...)
	e.wordy = z.wordy
	e.bare = i < len(s) && isLetter(s[i]) && !logfmtStart(s, i)
	e.known, e.hitsKnown = false, false
	e.shape = -1
	e.hash, e.tick = z.cache.hash, z.cache.tick
	z.match, z.shift = e, 0
	if len(e.patch) == 0 {
		z.entry = e
	}
}

// access returns accessStatus(msg, &z.st, hdr) for the message just
// tokenized, msg, and whether with no status it may be a table row of one
// (mayBeTable). A plain-text message without a double quote and not
// ASP.NET's or Squid's has no status (see accessStatus), and that test and mayBeTable
// read digits alike: the word cache keeps their answers for its norm.
func (z *tokenizer) access(msg []byte, hdr int) (accessLine, bool) {
	e := z.match
	if e == nil || z.st.ok {
		st := accessStatus(msg, &z.st, hdr)
		return st, !st.ok() && !z.st.ok && mayBeTable(msg)
	}
	if !e.known {
		e.known, e.noStatus, e.table = true, aspNetAt(msg) < 0 && bytes.IndexByte(msg, '"') < 0 && squidField(msg) < 0, mayBeTable(msg)
	}
	if e.noStatus {
		return notAccess, e.table
	}
	st := accessStatus(msg, &z.st, hdr)
	return st, !st.ok() && e.table
}

// valueHits appends to hits the keywords in the masked values with letters
// of the message just tokenized, offsets in its line text. Keywords are
// words of letters, which a digit ends or continues whatever its value:
// the word cache keeps them for its norm.
func (z *tokenizer) valueHits(text []byte, hits []keywordHit) []keywordHit {
	e := z.match
	if e != nil && e.hitsKnown {
		for _, h := range e.hits {
			h.start, h.end = h.start+int(z.shift), h.end+int(z.shift)
			hits = append(hits, h)
		}
		return hits
	}
	n := len(hits)
	for i := range z.toks {
		if t := &z.toks[i]; t.masked && t.wordy {
			from := int(t.start + t.keep)
			m := len(hits)
			scanKeywords(text[from:t.end], &hits)
			for k := m; k < len(hits); k++ {
				hits[k].start += from
				hits[k].end += from
			}
		}
	}
	if e != nil {
		e.hits, e.hitsKnown = e.hits[:0], true
		for _, h := range hits[n:] {
			h.start, h.end = h.start-int(z.shift), h.end-int(z.shift)
			e.hits = append(e.hits, h)
		}
	}
	return hits
}

// keyLen is how many bytes of the token's text its shape key holds: the
// kept prefix of a masked value, a literal whole.
func (t *tok) keyLen() int32 {
	if t.masked {
		return t.keep
	}
	return t.end - t.start
}

// replay pushes the tokens of e, found in a message like s[i:], and their
// shape key.
func (z *tokenizer) replay(s []byte, i int, e *wordEntry) {
	z.wordy = e.wordy
	d := int32(i) - e.from
	z.match, z.shift = e, d
	// The key's text with digits (a name such as ssh2 or HTTP/1.1, most
	// often) is usually the entry's message's: then so is the key, and
	// its shape.
	same := true
	for _, k := range e.patch {
		t := &e.toks[k]
		n := t.keyLen()
		if string(e.key[t.at+1:t.at+1+n]) != string(s[t.start+d:t.start+d+n]) { // after the separator
			same = false
			break
		}
	}
	if d == 0 && same {
		// The tokens and key are the entry's, where they stand: most
		// repeats of a message have a header of the same length.
		z.ownToks, z.ownKey = z.toks, z.key
		z.toks, z.key, z.lent, z.entry = e.toks, e.key, true, e
		return
	}
	toks := append(z.toks[:0], e.toks...)
	for k := range toks { // a local slice: no bounds check in the loop
		toks[k].start += d
		toks[k].end += d
	}
	z.toks = toks
	z.key = append(z.key[:0], e.key...)
	if same {
		z.entry = e
		return
	}
	for _, k := range e.patch {
		t := &z.toks[k]
		copy(z.key[t.at+1:], s[t.start:t.start+t.keyLen()])
	}
}

// normOf returns s with every digit as '0', in buf (eight bytes at a time,
// past the first eight the last few with the eight that end s), and a hash
// of that from seed, whose high bits are as good as any: each word made is
// multiplied into the hash, with no second reading of the bytes.
func normOf(buf, s []byte, seed uint64) ([]byte, uint64) {
	buf = slices.Grow(buf[:0], len(s))[:len(s)]
	h := seed ^ uint64(len(s))
	k := 0
	for ; k+8 <= len(s); k += 8 {
		w := digitWord(binary.LittleEndian.Uint64(s[k : k+8]))
		binary.LittleEndian.PutUint64(buf[k:k+8], w)
		h = (bits.RotateLeft64(h, 23) ^ w) * hashMul
	}
	if k < len(s) && k >= 8 {
		k = len(s) - 8
		w := digitWord(binary.LittleEndian.Uint64(s[k : k+8]))
		binary.LittleEndian.PutUint64(buf[k:k+8], w)
		return buf, (bits.RotateLeft64(h, 23) ^ w) * hashMul
	}
	var w uint64
	for ; k < len(s); k++ {
		c := s[k]
		if isDigit(c) {
			c = '0'
		}
		buf[k] = c
		w = w<<8 | uint64(c)
	}
	return buf, (bits.RotateLeft64(h, 23) ^ w) * hashMul
}

// hashMul is odd, 2^64 over the golden ratio: a multiply by it carries
// every bit of a word into the high bits of the product.
const hashMul = 0x9e3779b97f4a7c15

// Tokens with a key, a path or an address ("src:", "uid=0", "[preauth]",
// "/var/www/html/") and words that may be names ("Received",
// "dfs.DataNode$PacketResponder:") are the costly ones to classify, and a
// log repeats a few hundred of them over and over. Their classification
// depends on their bytes and classes alone: classCache keeps it for recent
// ones.

// classCache is a direct-mapped cache of wordKind's answers.
type classCache struct {
	entries [cacheSlots]classEntry
}

type classEntry struct {
	tok    []byte
	or     class
	keep   int32
	masked bool
}

// of is wordKind(t, or), from the cache when t was classified lately.
func (c *classCache) of(t []byte, or class) (bool, int32) {
	e := &c.entries[tokenHash(t, or)>>(64-cacheBits)]
	if e.or == or && e.tok != nil && string(e.tok) == string(t) {
		return e.masked, e.keep
	}
	e.masked, e.keep = wordKind(t, or)
	e.tok, e.or = append(e.tok[:0], t...), or
	return e.masked, e.keep
}

// wordKind decides whether words masks the token t, with classes or, that
// is no number (see words), and how much of it is kept.
func wordKind(t []byte, or class) (masked bool, keep int32) {
	if or&cSpecial != 0 {
		return classify(t, or)
	}
	return wordValue(trimPunct(t)), 0
}

// tokenHash hashes a token and its classes from its length and its first
// and last eight bytes (the whole of most tokens): tokens that share all
// that only take each other's entry.
func tokenHash(t []byte, or class) uint64 {
	h := (uint64(len(t))<<16 | uint64(or)) * hashMul
	if len(t) < 8 {
		for _, c := range t {
			h = (h ^ uint64(c)) * hashMul
		}
		return h
	}
	h = (h ^ binary.LittleEndian.Uint64(t)) * hashMul
	return (h ^ binary.LittleEndian.Uint64(t[len(t)-8:])) * hashMul
}
