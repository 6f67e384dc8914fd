package logs

import (
	"slices"
	"strings"
)

// keywordHit is the keyword a line matched: an index into keywordTable and
// the byte span of the matched text in the line.
type keywordHit struct {
	kw         int
	start, end int
}

// kwWords holds each table entry split into words; kwByLetter lists, per
// first letter, the entries to try, longest phrase first.
var (
	kwWords    [][]string
	kwByLetter [26][]int
	kwLens     [26]uint32 // per first letter, bit n set when a first word has n letters
	kwSeverity []int      // per entry
)

// wordChar marks bytes that continue a word: letters, digits, underscore and
// any non-ASCII byte (so a keyword glued to a non-ASCII letter is no match).
// Upper-case letters also have wordUpper, so that findKeyword learns both
// from one look-up per byte.
var wordChar [256]uint8

const (
	wordCont uint8 = 1 << iota
	wordUpper
)

func init() {
	for c := 0; c < 256; c++ {
		if c == '_' || c >= 0x80 || isAlnum(byte(c)) {
			wordChar[c] = wordCont
		}
		if isUpper(byte(c)) {
			wordChar[c] |= wordUpper
		}
	}
	kwWords = make([][]string, len(keywordTable))
	kwSeverity = make([]int, len(keywordTable))
	for i, k := range keywordTable {
		kwWords[i] = strings.Fields(k.Word)
		kwSeverity[i] = k.Category.severity()
	}
	for i := range keywordTable {
		w := kwWords[i][0]
		kwByLetter[w[0]-'a'] = append(kwByLetter[w[0]-'a'], i)
		kwLens[w[0]-'a'] |= 1 << len(w)
	}
	for _, entries := range kwByLetter {
		slices.SortStableFunc(entries, func(a, b int) int { return len(kwWords[b]) - len(kwWords[a]) })
	}
}

var fatalSeverity = CategoryFatal.severity()

// findKeyword returns the most severe keyword in s (the first among equals).
// Lines are not scanned whole: see better.
func findKeyword(s []byte) (keywordHit, bool) {
	return scanKeywords(s, nil)
}

// scanKeywords returns the most severe keyword in s (the first among
// equals) and, when all is not nil, appends every keyword found to it.
func scanKeywords(s []byte, all *[]keywordHit) (keywordHit, bool) {
	best := keywordHit{kw: -1}
	bestSev := 0
	for i := 0; i < len(s); {
		if wordChar[s[i]] == 0 {
			i++
			continue
		}
		j := i + 1
		var seen uint8
		for j < len(s) {
			k := wordChar[s[j]]
			if k == 0 {
				break
			}
			seen |= k
			j++
		}
		if j-i >= 2 && isLetter(s[i]) { // two letters: "no server available", "is down"
			var h keywordHit
			ok := false
			if j-i < 32 && kwLens[lower(s[i])-'a']&(1<<(j-i)) != 0 {
				h, ok = phraseAt(s, i, j)
			}
			if !ok && seen&wordUpper != 0 {
				h, ok = camelHit(s, i, j)
			}
			if ok {
				if all != nil {
					*all = append(*all, h)
				}
				if sev := kwSeverity[h.kw]; sev > bestSev {
					best, bestSev = h, sev
					if sev == fatalSeverity && all == nil {
						return best, true
					}
				}
				j = max(j, h.end) // a phrase goes on past the word
			}
		}
		i = j
	}
	return best, best.kw >= 0
}

// The keyword of a line is found in three parts, so that no part is scanned
// more often than it can change: the header tokens other than dates, times
// and numbers, once per distinct token and place (see header); the literal
// tokens of the message, once per shape (every line of a shape has them byte
// for byte); and the masked values with letters, once per distinct message
// (see msgCache). A phrase is therefore matched within one part, never across
// a border between header, message and value. better picks among the parts'
// hits: the most severe, then the first.

// better reports whether h beats best (kw < 0: no hit yet).
func better(h, best keywordHit) bool {
	if best.kw < 0 {
		return true
	}
	x, y := kwSeverity[h.kw], kwSeverity[best.kw]
	return x > y || x == y && h.start < best.start
}

// headKeyword is the best keyword hit of the header text[:hdr], kw -1 for none.
func (a *analyzer) headKeyword(text []byte, hdr int) keywordHit {
	best := keywordHit{kw: -1}
	for _, w := range a.head.words {
		if int(w.end) > hdr {
			continue
		}
		var h keywordHit
		var ok bool
		switch k := w.kw; {
		case k != nil && k.done: // most words: looked for before, here without a call
			h, ok = k.hit, k.found
		case k != nil:
			h, ok = k.of(text[w.start:w.end])
		default:
			h, ok = findKeyword(text[w.start:w.end])
		}
		if ok {
			if h.start, h.end = h.start+int(w.start), h.end+int(w.start); better(h, best) {
				best = h
			}
		}
	}
	return best
}

// msgKeyword is the best keyword hit of the message text[hdr:] just
// tokenized in a.z, of shape sh, kw -1 for none. Hits that say there was
// no trouble (see dismissed) do not count.
func (a *analyzer) msgKeyword(text []byte, hdr int, sh *shape) keywordHit {
	best := keywordHit{kw: -1}
	z := &a.z
	take := func(h keywordHit) {
		if better(h, best) && !dismissed(text[hdr:], h.start-hdr, h.end-hdr) {
			best = h
		}
	}
	for _, k := range sh.kws {
		take(keywordHit{k.kw, int(z.toks[k.tok0].start + k.off0), int(z.toks[k.tok1].start + k.off1)})
	}
	if !z.wordy {
		return best // no masked value with letters on this line
	}
	hits := z.valueHits(text, a.hits[:0])
	for _, h := range hits {
		take(h)
	}
	a.hits = hits
	return best
}

// fieldKeyword is the best keyword hit anywhere in the structured message
// text[hdr:], kw -1 for none.
func (a *analyzer) fieldKeyword(text []byte, hdr int) keywordHit {
	best := keywordHit{kw: -1}
	msg := text[hdr:]
	hits := a.hits[:0]
	scanKeywords(msg, &hits)
	for _, h := range hits {
		if better(h, best) && !dismissed(msg, h.start, h.end) {
			best = h
		}
	}
	a.hits = hits
	if best.kw >= 0 {
		best.start, best.end = best.start+hdr, best.end+hdr
	}
	return best
}

// dismissed reports a keyword hit msg[start:end] that says there was no
// trouble: a key with an empty or null value ("err=<nil>", "errors=0",
// "\"error\":null", "error="), or a count of none ("0 errors", "no
// errors", "without errors", "5 passed, 0 failed"). Not dismissed: a
// keyword that is not a key but a verb or part of a name before ": null"
// ("Request failed: null", "IllegalStateException: null", Java's way of
// writing an exception without a message), and a 0 that numbers a thing
// rather than counts ("disk 0 failed", "GPU 0 crashed"). Nor is the cause
// the JVM names a routine collection by (see gcCause).
func dismissed(msg []byte, start, end int) bool {
	if gcCause(msg, start, end) {
		return true
	}
	// A key: the word, maybe its closing quote, then '=' or ':'.
	k := end
	if k < len(msg) && (msg[k] == '"' || msg[k] == '\'') {
		k++
	}
	if k < len(msg) && (msg[k] == '=' || msg[k] == ':') {
		v := k + 1
		for v < len(msg) && msg[v] == ' ' && msg[k] == ':' {
			v++
		}
		e := v
		for e < len(msg) && !isSpace(msg[e]) && strings.IndexByte(",;)}]", msg[e]) < 0 {
			e++
		}
		// After '=' a null value is the whole value; after ':' it may
		// start prose ("error: null pointer"), so it must end there, and
		// the keyword must be a key of its own: a whole word, not a
		// past-tense verb.
		if nullValue(msg[v:e]) && (msg[k] == '=' ||
			(e == len(msg) || !isSpace(msg[e]) || keyNext(msg[e:])) && (start == 0 || wordChar[msg[start-1]] == 0) && !pastTense(msg[start:end])) {
			return true
		}
	}
	// A count of none: the word before is 0, no, zero or without.
	p := start
	for p > 0 && (msg[p-1] == ' ' || msg[p-1] == '\t') {
		p--
	}
	if p == start {
		return false
	}
	w := p
	for w > 0 && wordChar[msg[w-1]] != 0 {
		w--
	}
	word := msg[w:p]
	switch {
	case oneOf(word, "no", "without"):
		return true
	case oneOf(word, "0", "zero"):
		// "0 errors" counts; "disk 0 failed" numbers the disk: a 0 after
		// a word counts only a plural or in a list of counts ("5 passed
		// 0 failed"). A 0 after '=' or ':' is another key's value
		// ("changed=0 failed=1", Ansible's recap), which counts nothing
		// of this one.
		if w > 0 && (msg[w-1] == '=' || msg[w-1] == ':') {
			return false
		}
		before := w
		for before > 0 && (msg[before-1] == ' ' || msg[before-1] == '\t') {
			before--
		}
		if before == 0 || wordChar[msg[before-1]] == 0 || plural(msg[start:end]) {
			return true
		}
		b := before
		for b > 0 && wordChar[msg[b-1]] != 0 {
			b--
		}
		return pastTense(msg[b:before])
	}
	return false
}

// plural reports a keyword in the plural: "errors", "failures".
func plural(kw []byte) bool { return lower(kw[len(kw)-1]) == 's' }

// pastTense reports a word ending in -ed: "failed", "passed".
func pastTense(w []byte) bool {
	n := len(w)
	return n > 2 && lower(w[n-2]) == 'e' && lower(w[n-1]) == 'd'
}

// keyNext reports whether the next word of s is a key ("warnings:", "n=2").
func keyNext(s []byte) bool {
	i := skipSpace(s, 0)
	j := i
	for j < len(s) && !isSpace(s[j]) {
		if s[j] == '=' {
			return true
		}
		j++
	}
	return j > i && s[j-1] == ':'
}

// nullValue reports an empty or null value, quoted or not.
func nullValue(v []byte) bool {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return oneOf(v, "", "nil", "<nil>", "null", "none", "false", "0", "[]", "{}")
}

// oneOf reports whether b is one of the lowercase words, ignoring case.
func oneOf(b []byte, words ...string) bool {
	for _, w := range words {
		if equalFold(b, w) {
			return true
		}
	}
	return false
}

// phraseAt matches the table against the word s[i:j] and the words after it.
func phraseAt(s []byte, i, j int) (keywordHit, bool) {
	for _, k := range kwByLetter[lower(s[i])-'a'] {
		words := kwWords[k]
		if !equalFold(s[i:j], words[0]) {
			continue
		}
		end, ok := j, true
		for _, w := range words[1:] {
			p := skipPhraseSep(s, end)
			if p == end || p+len(w) > len(s) || !equalFold(s[p:p+len(w)], w) ||
				(p+len(w) < len(s) && wordChar[s[p+len(w)]] != 0) {
				ok = false
				break
			}
			end = p + len(w)
		}
		if ok {
			return keywordHit{k, i, end}, true
		}
	}
	return keywordHit{}, false
}

func skipPhraseSep(s []byte, p int) int {
	if p < len(s) && s[p] == '-' {
		return p + 1
	}
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	return p
}

// camelHit looks inside a CamelCase identifier s[i:j]: its last hump, and the
// humps before a final Error/Exception hump.
func camelHit(s []byte, i, j int) (keywordHit, bool) {
	// Cheap test first: the last hump starts at the last upper-case letter
	// (after the first byte) and must be a keyword's length.
	k := j - 1
	for k > i && !isUpper(s[k]) {
		k--
	}
	if k == i || j-k < 3 || j-k >= 32 || kwLens[lower(s[k])-'a']&(1<<(j-k)) == 0 {
		return keywordHit{}, false
	}
	var starts [16]int
	n := 1
	starts[0] = i
	for k := i + 1; k < j && n < len(starts); k++ {
		if isUpper(s[k]) && (isLower(s[k-1]) || isDigit(s[k-1]) ||
			(isUpper(s[k-1]) && k+1 < j && isLower(s[k+1]))) {
			starts[n] = k
			n++
		}
	}
	if n < 2 {
		return keywordHit{}, false
	}
	best, found := keywordHit{}, false
	take := func(h keywordHit) {
		if !found || kwSeverity[h.kw] > kwSeverity[best.kw] {
			best, found = h, true
		}
	}
	last := s[starts[n-1]:j]
	if k, ok := singleWord(last); ok {
		take(keywordHit{k, starts[n-1], j})
	}
	if !equalFold(last, "error") && !equalFold(last, "exception") {
		return best, found
	}
	// Humps before the final one, read as a phrase ending right before it.
	for k, words := range kwWords {
		m := len(words)
		if m > n-1 {
			continue
		}
		ok := true
		for w := 0; w < m && ok; w++ {
			h := n - 1 - m + w
			ok = equalFold(s[starts[h]:starts[h+1]], words[w])
		}
		if ok {
			take(keywordHit{k, starts[n-1-m], starts[n-1]})
		}
	}
	return best, found
}

func singleWord(w []byte) (int, bool) {
	if len(w) == 0 || !isLetter(w[0]) {
		return 0, false
	}
	for _, k := range kwByLetter[lower(w[0])-'a'] {
		if len(kwWords[k]) == 1 && equalFold(w, kwWords[k][0]) {
			return k, true
		}
	}
	return 0, false
}

// equalFold compares ASCII text with a lowercase word, ignoring case.
func equalFold(b []byte, w string) bool {
	if len(b) != len(w) {
		return false
	}
	for i := range len(b) {
		if lower(b[i]) != w[i] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if isUpper(c) {
		return c + ('a' - 'A')
	}
	return c
}

func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }

// gcCause reports the keyword msg[start:end] in "(Allocation Failure)",
// the cause the JVM gives for a routine young collection ("[GC
// (Allocation Failure) [PSYoungGen: …]", "Pause Young (Allocation
// Failure)"): a full young generation, not a failure.
func gcCause(msg []byte, start, end int) bool {
	const cause = "(Allocation Failure)"
	a := start - len("(Allocation ")
	return a >= 0 && a+len(cause) <= len(msg) && end == a+len(cause)-1 && string(msg[a:a+len(cause)]) == cause
}
