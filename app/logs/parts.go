package logs

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"sync"
)

// A large input is read in parts at once, one per processor, each by an
// analyzer of its own; the parts' findings are then joined in input order.
// The result is the one reading the whole input in one pass gives (a test
// compares them), because what one line's analysis depends on besides its
// own bytes is small and checked where two parts meet:
//   - the entry open there: the part before reads on to the next part's
//     first line and stops only if an entry opens there;
//   - the line before's timestamp format and place (see stampParser): the
//     next part learns them from the lines before its first, and they must
//     be the ones the part before ended with;
//   - whether timestamps are read at all, decided for the whole input
//     first (see probeStamps).
//
// The caches (messages, words, header layouts) only save work. When a check
// fails, the part before reads the rest of the input itself and the later
// parts' work is dropped: the result is still the one-pass result, only no
// faster. With IncludeParams the input is read in one pass: values are
// counted up to a bound per position, and bounded counts of two parts do
// not add up to those of one pass.

// minPartLines is the fewest lines of a part: for a smaller input, setting
// up and joining parts costs more than it saves.
const minPartLines = 20_000

// warmLines is how many lines before its first a part reads to learn the
// timestamp format and place of the line before.
const warmLines = 16

// partsOf is how many parts an input of total lines is read in.
func partsOf(opts Options, total int) int {
	if opts.IncludeParams {
		return 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), total/minPartLines))
}

// part is one part of the input and its analyzer.
type part struct {
	a     *analyzer
	start int         // byte offset of its first line
	no    int         // lines before it
	stop  int         // where the next part starts; -1 for the last part
	end   int         // where its read stopped: stop, unless it read on
	warm  stampParser // its stamp parser as it began
	err   error
}

// readParts reads the whole input, in a.parts parts at once when that is
// more than one, and sets a.parts to the parts whose reading was kept.
func (a *analyzer) readParts(ctx context.Context, input []byte) error {
	parts := a.split(input)
	together(len(parts), func(k int) {
		p := &parts[k]
		p.end, p.err = p.a.read(ctx, input, p.start, p.no, p.stop)
	})
	for _, p := range parts {
		if p.err != nil {
			return p.err
		}
	}
	for k := 1; k < len(parts); k++ {
		prev, next := &parts[k-1], &parts[k]
		if prev.end == prev.stop && (!a.stamps.looking || prev.a.stamps.p.same(&next.warm)) {
			continue
		}
		if prev.end == prev.stop { // the part before reads the rest itself
			if _, err := prev.a.read(ctx, input, prev.stop, next.no, -1); err != nil {
				return err
			}
		}
		parts = parts[:k]
		break
	}
	n := 0
	for _, p := range parts {
		n += len(p.a.matches)
	}
	a.matches = slices.Grow(a.matches, n-len(a.matches)) // one copy, not one per part
	for _, p := range parts[1:] {
		a.absorb(p.a)
	}
	a.parts = len(parts)
	return nil
}

// together runs f(0), ..., f(n-1) at once, f(0) on the calling
// goroutine, and returns when all have. A panic in any is raised again
// here, where the caller's recovery (the server's) sees it.
func together(n int, f func(k int)) {
	panics := make([]any, n)
	run := func(k int) {
		defer func() { panics[k] = recover() }()
		f(k)
	}
	var wg sync.WaitGroup
	for k := 1; k < n; k++ {
		wg.Go(func() { run(k) })
	}
	run(0)
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

// split cuts input into a.parts parts of about as many bytes, the first
// read by a itself. A part starts at a line that most likely opens an
// entry (see opener).
func (a *analyzer) split(input []byte) []part {
	parts := []part{{a: a, stop: -1}}
	for k := 1; k < a.parts; k++ {
		last := &parts[len(parts)-1]
		start := a.opener(input, max(k*len(input)/a.parts, last.start+1))
		if start >= len(input) {
			break
		}
		b := a.in.analyzer()
		no := last.no + bytes.Count(input[last.start:start], []byte{'\n'})
		b.stamps.p.warm(input, start)
		last.stop = start
		parts = append(parts, part{a: b, start: start, no: no, stop: -1, warm: b.stamps.p})
	}
	// A later part's timestamps are at most its lines; the first part's
	// room, for the whole input, takes them all when they are joined.
	for k := 1; k < len(parts); k++ {
		end := a.in.total
		if k+1 < len(parts) {
			end = parts[k+1].no
		}
		parts[k].a.stamps.size(end - parts[k].no)
	}
	return parts
}

// opener is the start of the first line after byte offset at, among the
// next few, that likely opens an entry rather than continuing one: it has
// text, is not indented and, in an input of timestamped lines, opens with
// a timestamp. It is len(input) or more when there is none.
func (a *analyzer) opener(input []byte, at int) int {
	k := bytes.IndexByte(input[at-1:], '\n')
	if k < 0 {
		return len(input)
	}
	first := at + k
	for n, start := 0, first; n < 64 && start < len(input); n++ {
		line, next := nextLine(input, start)
		if hasNonSpace(line) && line[0] != ' ' && line[0] != '\t' &&
			(!a.join.rules.timeHeader || opensWithTime(line)) {
			return start
		}
		start = next
	}
	return first
}

// warm reads the timestamps of the warmLines lines before byte offset
// start, to learn the format and place of the last.
func (p *stampParser) warm(input []byte, start int) {
	from := start
	for n := 0; n < warmLines && from > 0; n++ {
		from = bytes.LastIndexByte(input[:from-1], '\n') + 1
	}
	for from < start {
		var line []byte
		line, from = nextLine(input, from)
		p.parse(line)
	}
}

// same reports whether p reads the next lines as q does: beside memos,
// which only save work, what it remembers is the line before's format
// and place.
func (p *stampParser) same(q *stampParser) bool {
	return p.lastFmt == q.lastFmt && (p.lastFmt == fmtNone || p.lastAt == q.lastAt)
}

// absorb adds what b read, the part of the input after a's, to a's
// findings, as if a had read it.
func (a *analyzer) absorb(b *analyzer) {
	ids := a.set.merge(&b.set)
	stamps := int32(len(a.stamps.times))
	a.stamps.times = append(a.stamps.times, b.stamps.times...)
	for _, m := range b.matches {
		m.shape = ids[m.shape]
		if m.stamp >= 0 {
			m.stamp += stamps
		}
		a.matches = append(a.matches, m)
	}
	for _, si := range b.assign {
		a.assign = append(a.assign, ids[si])
	}
	a.assignNo = append(a.assignNo, b.assignNo...)
	for _, st := range b.entryStamp {
		if st >= 0 {
			st += stamps
		}
		a.entryStamp = append(a.entryStamp, st)
	}
	for si, refs := range b.examples {
		for _, ref := range refs {
			a.addExample(ids[si], ref)
		}
	}
	a.lines += b.lines
	a.entries += b.entries
	a.blank += b.blank
	a.cut += b.cut
}
