package logs

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// Real logs repeat whole messages: after the header, half the lines or more
// of most Loghub samples repeat a message seen shortly before ("Connection
// closed by 10.0.0.1", "workerEnv.init() ok /etc/httpd/conf/workers2.properties").
// The analysis of a message depends on its bytes only, so msgCache keeps the
// outcome of recent messages, the shape and the message's own keyword hit,
// and a repeat skips tokenizing, shape look-up and keyword search. Its size
// bounds memory and keeps the work per line independent of the input's
// length; 256 entries catch about as many repeats in the Loghub samples as
// 4096 did.
const (
	cacheBits  = 8
	cacheSlots = 1 << cacheBits
)

// slots are the entries of a direct-mapped cache, one per hash of a key
// (msgCache). They are allocated on first use.
type slots[E any] struct {
	seed    maphash.Seed
	entries *[cacheSlots]E
}

// of is the entry for key: the last one stored with a key of its hash.
func (s *slots[E]) of(key []byte) *E {
	if s.entries == nil {
		s.seed, s.entries = maphash.MakeSeed(), new([cacheSlots]E)
	}
	return &s.entries[maphash.Bytes(s.seed, key)%cacheSlots]
}

// msgCache is a direct-mapped cache of recent messages.
type msgCache struct {
	slots[msgEntry]
	off bool // every look-up misses: tests compare results with and without the cache
}

type msgEntry struct {
	msg []byte
	// own says msg is the entry's copy, not a view of the input.
	own   bool
	used  bool
	shape int32
	hit   keywordHit // offsets within the message; kw -1 for none
	// hitDone says hit is set: it is looked for only for a line that
	// needs it (see analyzer.line).
	hitDone bool
	// The level field of a structured message, offsets within the
	// message; equal when none.
	lvl0, lvl1 int32
	params     []paramVal // with IncludeParams: the message's values
	structured bool       // a JSON or logfmt message
	quiet      bool       // whose level, not written, is Information (structSpans.quiet)
	status     accessLine // an HTTP access line's status, offsets within the message (access.go)
	table      bool       // else whether the line may be a table row of one (mayBeTable)
}

// lookup returns the entry of msg and whether it holds msg's outcome;
// otherwise the entry is to be filled and stored.
func (c *msgCache) lookup(msg []byte) (*msgEntry, bool) {
	e := c.of(msg)
	return e, e.used && !c.off && string(e.msg) == string(msg)
}

// store keeps msg as the message of e, whose other fields are filled. A
// message in input, which does not change while it is analysed, is kept
// as it stands; any other (a line mended in scratch memory) is copied,
// never into a view of the input.
func (c *msgCache) store(e *msgEntry, msg, input []byte) {
	switch {
	case within(msg, input):
		e.msg, e.own = msg, false
	case e.own:
		e.msg = append(e.msg[:0], msg...)
	default:
		e.msg, e.own = slices.Clone(msg), true
	}
	e.used = true
}

// within reports whether b lies in the memory of in.
func within(b, in []byte) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(in)))
	return len(b) > 0 && p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(in))
}
