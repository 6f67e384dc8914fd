package logs

import (
	"bytes"
	"regexp"
)

// The message part of a line is split into tokens and every token that looks
// like a value is masked. Masking is by token class, with hand-written
// scanners (no regexp): anything with a digit (numbers, hex, IPv4/IPv6,
// UUIDs, dates and times, durations like 150ms, sizes like 3.2MiB, versions),
// paths, URLs, e-mail addresses, host names, month and weekday names, long
// hex words, quoted strings, and the value of every key=value pair. Words
// that vary without looking like values (user names, states) are left to the
// template miner, which compares lines with each other.

// wild and sep are the bytes that stand for a masked value and a token
// boundary in a shape key; neither can occur in valid UTF-8 text.
const (
	wild = 0xff
	sep  = 0xfe
)

// tok is one message token: its span in the line, whether it is masked, and
// for a masked token the length of the literal prefix kept ("uid=" of "uid=0").
type tok struct {
	start, end int32
	keep       int32
	at         int32 // length of the shape key before this token
	masked     bool
	wordy      bool // has a letter g-z: a masked value may hold a keyword
	digits     bool // its text in the shape key may have a digit (see wordCache)
}

// tokenizer is reused across lines so that tokenizing does not allocate.
type tokenizer struct {
	toks  []tok
	key   []byte      // the shape key: a separator, then tokens joined by separators, masked values as wild
	wordy bool        // some masked token has a letter g-z
	st    structSpans // of a JSON or logfmt message
	// Custom masks, and their matches in the line being tokenized, from
	// the one at spanAt on.
	masks   []*regexp.Regexp
	spans   []maskSpan
	spanAt  int
	cache   wordCache
	classes classCache
	// entry is the cache entry whose key is the key of the message just
	// tokenized, digits and all; nil when there is none. match is the
	// entry of its norm, when it was tokenized as plain text.
	entry, match *wordEntry
	shift        int32 // where the message starts less where match's did
	// lent says toks and key are an entry's, replayed in place (see
	// replay); ownToks and ownKey are then the tokenizer's own, which
	// the next message is tokenized into.
	lent    bool
	ownToks []tok
	ownKey  []byte
}

// tokenize splits the message s[from:] into tokens and builds its shape key.
// A JSON or logfmt message with a message field is templated by that
// field's words alone (see structured.go).
func (z *tokenizer) tokenize(s []byte, from int) {
	if z.lent {
		z.toks, z.key, z.lent = z.ownToks, z.ownKey, false
	}
	z.toks, z.key, z.wordy, z.entry, z.match = z.toks[:0], z.key[:0], false, nil, nil
	i := skipSpace(s, from)
	z.st = structSpans{}
	if len(z.masks) > 0 {
		z.spans, z.spanAt = findMasks(z.masks, s, i, len(s), z.spans), 0
	}
	// A message that opens with a word is looked up first: when it is
	// like one tokenized lately that was plain text, so is it, and its
	// tokens are replayed without looking for structure.
	var e *wordEntry
	hit := false
	if i < len(s) && isLetter(s[i]) {
		if e, hit = z.lookup(s[i:]); hit && e.bare {
			z.replay(s, i, e)
			return
		}
	}
	if i < len(s) && (s[i] == '{' || s[i] == '"' || isLetter(s[i])) {
		if z.st = scanStructured(s, i); z.st.ok && z.st.msg1 > z.st.msg0 {
			z.words(s, z.st.msg0, z.st.msg1, false)
			if len(z.toks) > 0 && !(z.st.ev.action && z.allMasked()) {
				return
			}
			if z.st.ev.action {
				// An event's message that holds no word (auditd's
				// msg=audit(…): is its time and serial) tells nothing.
				z.toks, z.key, z.wordy = z.toks[:0], z.key[:0], false
				z.st.msg0, z.st.msg1 = 0, 0
			}
		}
		if z.st.event() {
			z.eventTokens(s)
			if st := &z.st; st.lvl1 > st.lvl0 && levelOf(s[st.lvl0:st.lvl1]) == levelNone {
				// No severity: Kubernetes audit's level is how much of
				// the call is recorded ("Metadata", "RequestResponse").
				st.lvl0, st.lvl1 = 0, 0
			}
			return
		}
	}
	if i < len(s) && s[i] == '{' && jsonObject(s, i) {
		if z.json(s, i) {
			return
		}
		z.toks, z.key, z.wordy = z.toks[:0], z.key[:0], false // drop what the failed JSON attempt left
	}
	z.plainWords(s, i, e, hit)
}

// words tokenizes s[i:end] on white space. With quotes set, a double-quoted
// string with spaces inside is one token, and so is key="a quoted value"
// (except for message keys), while the words of an HTTP request line such as
// "GET /path HTTP/1.1" stay separate tokens.
func (z *tokenizer) words(s []byte, i, end int, quotes bool) {
	s = s[:end]
	for {
		i = skipSpace(s, i)
		if i >= end {
			return
		}
		if z.spanAt < len(z.spans) {
			if e := z.maskAt(s, i); e > 0 {
				i = e
				continue
			}
		}
		if quotes && s[i] == '"' {
			if q := endQuote(s, i); q > 0 && anyOf(s[i:q], cSpace) {
				j := q
				for j < end && !isSpace(s[j]) {
					j++
				}
				if httpMethod(s[i+1 : q]) {
					// Its words, the last with what follows the quote
					// (`HTTP/1.1",`): the template reads as the line.
					z.words(s, i, j, false)
					i = j
					continue
				}
				z.add(s, i, j)
				i = j
				continue
			}
		}
		if s[i] == '(' {
			if e := z.restatedValue(s, i); e > 0 {
				i = e
				continue
			}
		}
		// Find the token's end and, on the way, the classes of its bytes,
		// which settle most tokens without a second look.
		j, or := scanToken(s, i)
		for j < len(s) && (s[j] == '"' || s[j] == ' ' && j > i && s[j-1] == '\\') {
			// A quote, or a space escaped with a backslash ("a\ b"), does
			// not end the token.
			next := j + 1
			if s[j] == '"' && quotes && j > i && s[j-1] == '=' && !messageKey(s[i:j-1]) {
				if q := endQuote(s, j); q > 0 {
					next = q // key="quoted value" is one token
				}
			}
			var more class
			j, more = scanToken(s, next)
			or |= more | cSpecial
		}
		if or&cBarOpen != 0 {
			if e := barToken(s, i, j, end); e > 0 {
				z.push(s, i, e, 0, true, or) // a progress bar, which no two lines draw alike
				i = e
				continue
			}
		}
		var masked bool
		var keep int32
		switch {
		case or&cDigit != 0 && or&(cEq|cColon) == 0:
			// A number, or a value with digits and no key, unless a name
			// with a digit (SOCKS5, HTTP2, IPv6, ssh2) or a call (jk2_init()).
			masked = or&(cWordy|cHexLower|cHexUpper) == 0 || // no letter: a number, an address
				!namedWithDigit(trimPunct(s[i:j])) && (or&cSpecial == 0 || !callName(s[i:j]) && !errnoWord(s[i:j])) ||
				or&cSpecial != 0 && quoted(s[i:j]) // a quoted string, whatever it holds
		case or&cSpecial != 0 || or&cDot != 0 || or&cWordy == 0 || isUpper(s[i]):
			// A key, a path or an address, or what could be a host name,
			// a hex word or a month: look closer (see wordKind).
			masked, keep = z.classes.of(s[i:j], or)
		}
		// A unit, or a date's next part, joins a whole masked value
		// before it.
		if n := len(z.toks); n > 0 && z.toks[n-1].masked && z.toks[n-1].keep == 0 &&
			(!masked && unitStart[s[i]] && z.unitOfValue(s, i, j) || masked && keep == 0 && z.joinsDate(s, i, j)) {
			i = j
			continue
		}
		z.push(s, i, j, keep, masked, or)
		i = j
	}
}

// maskAt pushes the token at s[i] when a custom mask's match starts in it,
// with the tokens the match runs into, and returns where they end; 0 when
// no match starts there.
func (z *tokenizer) maskAt(s []byte, i int) int {
	for z.spanAt < len(z.spans) && z.spans[z.spanAt].start < i {
		z.spanAt++ // inside a token already pushed (a quoted string)
	}
	if z.spanAt == len(z.spans) {
		return 0
	}
	sp := z.spans[z.spanAt]
	te := i
	for te < len(s) && !isSpace(s[te]) {
		te++
	}
	if sp.start >= te || sp.end > len(s) {
		return 0
	}
	z.spanAt++
	e := sp.end
	for e < len(s) && !isSpace(s[e]) {
		e++
	}
	z.toks = append(z.toks, tok{start: int32(i), end: int32(e), keep: int32(sp.start - i), at: int32(len(z.key)),
		masked: true, wordy: true})
	z.wordy = true
	z.key = append(append(z.key, sep), s[i:sp.start]...)
	z.key = append(append(z.key, wild, maskMarker, byte(sp.mask)), s[sp.end:e]...)
	return e
}

// unitOfValue joins a unit ("bytes", "KB", "sec") to the value before it,
// so that "1190 bytes", "<1 sec" and "00:02" are all one value (and so is a
// restatement in parentheses after it, see restatedValue).
func (z *tokenizer) unitOfValue(s []byte, i, j int) bool {
	n := len(z.toks)
	if n == 0 {
		return false
	}
	v := &z.toks[n-1]
	if !v.masked || v.keep != 0 || !unitWord(trimPunct(s[i:j])) || hasNonSpace(s[v.end:i]) {
		return false
	}
	v.end = int32(j)
	return true
}

// restatedValue joins to the value before it a parenthesised number and
// unit that restates it ("1190 bytes (1.16 KB)") and returns where it ends;
// 0 when there is none. Whether the restatement is
// printed depends on the value (a size from 1 KiB on), not on the event, so
// a line with it is the same event as one without (Loghub-2.0's corrected
// labels count them so).
func (z *tokenizer) restatedValue(s []byte, i int) int {
	n := len(z.toks)
	if n == 0 {
		return 0
	}
	v := &z.toks[n-1]
	if !v.masked || v.keep != 0 || hasNonSpace(s[v.end:i]) {
		return 0
	}
	end := i + 1
	for end < len(s) && end-i <= 24 && s[end] != ')' && s[end] != '(' {
		end++
	}
	if end >= len(s) || s[end] != ')' {
		return 0
	}
	num, after := s[i+1:end], end+1
	if after < len(s) && (s[after] == ',' || s[after] == ';') {
		after++ // the value's own punctuation: "(1.16 KB),"
	}
	if after < len(s) && !isSpace(s[after]) {
		return 0
	}
	k := indexByte(num, ' ')
	if k <= 0 || !unitWord(num[k+1:]) {
		return 0 // a bare number in parentheses is a count of its own ("exceptions (35591533)")
	}
	for _, c := range num[:k] {
		if !isDigit(c) && c != '.' && c != ',' {
			return 0
		}
	}
	v.end = int32(after)
	return after
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// unitStart marks the bytes a unit starts with: a quick test before unitWord.
var unitStart = byteSet("BbKkMGTnumshd%p")

// unitWord reports a unit of size, duration or share.
func unitWord(t []byte) bool {
	switch string(t) {
	case "B", "byte", "bytes", "KB", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB",
		"ns", "us", "ms", "msec", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes",
		"hour", "hours", "day", "days", "milliseconds", "microseconds", "nanoseconds", "%", "percent":
		return true
	}
	return false
}

func hasNonSpace(s []byte) bool { return !allOf(s, cSpace) }

// anyOf reports whether some byte of t has class k.
func anyOf(t []byte, k class) bool {
	for _, c := range t {
		if charClass[c]&k != 0 {
			return true
		}
	}
	return false
}

// allOf reports whether every byte of t has class k.
func allOf(t []byte, k class) bool {
	for _, c := range t {
		if charClass[c]&k == 0 {
			return false
		}
	}
	return true
}

// scanToken returns where the token at s[i] ends (white space, a double
// quote or the end) and the classes of its bytes. It is the hot loop.
func scanToken(s []byte, i int) (int, class) {
	or := class(0)
	for i+4 <= len(s) { // four bytes a step while no byte stops the token
		b := s[i : i+4]
		k := charClass[b[0]] | charClass[b[1]] | charClass[b[2]] | charClass[b[3]]
		if k&(cSpace|cQuote) != 0 {
			break
		}
		or |= k
		i += 4
	}
	for ; i < len(s); i++ {
		k := charClass[s[i]]
		if k&(cSpace|cQuote) != 0 {
			break
		}
		or |= k
	}
	return i, or
}

// add pushes the token s[i:j], classified from scratch.
func (z *tokenizer) add(s []byte, i, j int) {
	masked, keep := classify(s[i:j], allClasses)
	z.push(s, i, j, keep, masked, allClasses)
}

// push appends the token s[i:j] and its part of the shape key; or holds the
// classes of its bytes (allClasses: not known, any may be there). The token
// is written field by field into its slot: copying a tok assembled
// piecewise on the stack stalls on store forwarding, and this is the hot
// path.
func (z *tokenizer) push(s []byte, i, j int, keep int32, masked bool, or class) {
	z.toks = append(z.toks, tok{})
	t := &z.toks[len(z.toks)-1]
	t.start, t.end, t.keep, t.at = int32(i), int32(j), keep, int32(len(z.key))
	wordy := or&cWordy != 0
	t.masked, t.wordy = masked, wordy
	// A masked value's key holds its kept prefix alone. (or may miss the
	// bytes of a quoted value that words ran past, but a token with a
	// digit there is a value, masked: see classify and variable.)
	t.digits = or&cDigit != 0 && (!masked || keep > 0 && anyOf(s[i:i+int(keep)], cDigit))
	if !masked {
		z.key = append(append(z.key, sep), s[i:j]...)
		return
	}
	z.wordy = z.wordy || wordy
	z.key = append(append(append(z.key, sep), s[i:i+int(keep)]...), wild)
}

// shapeKey is the key of the tokens pushed: tokens joined by sep, masked
// values as wild (push writes a separator before every token).
func (z *tokenizer) shapeKey() []byte {
	if len(z.key) == 0 {
		return z.key
	}
	return z.key[1:]
}

// json tokenizes a JSON object: keys are literal tokens ("level":), values are
// masked, except the words of message fields (msg, message, ...). It reports
// false for text that is not JSON-like, which is then tokenized as words.
func (z *tokenizer) json(s []byte, i int) bool {
	inMsg := false
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			e := endQuote(s, i)
			if e < 0 {
				return false
			}
			k := skipSpace(s, e)
			if k < len(s) && s[k] == ':' {
				z.push(s, i, k+1, 0, false, allClasses)
				inMsg = messageKey(s[i+1 : e-1])
				i = k + 1
				continue
			}
			switch {
			case inMsg && e-i > 2:
				z.words(s, i+1, e-1, false)
			case inMsg: // an empty message is one, shown as it is
				z.push(s, i, e, 0, false, allClasses)
			default:
				z.push(s, i, e, 0, true, allClasses)
			}
			i = e
		case c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || isSpace(c):
			i++
		default:
			j := i
			for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && !isSpace(s[j]) {
				j++
			}
			z.push(s, i, j, 0, true, allClasses)
			i = j
		}
	}
	return true
}

// jsonObject reports text that opens a JSON object: '{' then a key or '}'.
func jsonObject(s []byte, i int) bool {
	k := skipSpace(s, i+1)
	return k < len(s) && (s[k] == '"' || s[k] == '}')
}

// endQuote returns the index after the double quote closing the one at s[i],
// or -1.
func endQuote(s []byte, i int) int {
	for k := i + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return -1
}

// httpMethod reports a quoted string that starts with an HTTP method.
func httpMethod(q []byte) bool {
	end := 0
	for end < len(q) && isUpper(q[end]) {
		end++
	}
	if end == len(q) || q[end] != ' ' {
		return false
	}
	return methodWord(q[:end])
}

// methodWord reports an HTTP method's name, alone.
func methodWord(w []byte) bool {
	switch string(w) {
	case "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE":
		return true
	}
	return false
}

// messageKey reports keys whose value is the message itself: its words are
// tokens of the template rather than one masked value.
func messageKey(k []byte) bool {
	for len(k) > 0 && !isLetter(k[0]) {
		k = k[1:]
	}
	for len(k) > 0 && !isLetter(k[len(k)-1]) {
		k = k[:len(k)-1]
	}
	return oneOf(k, "msg", "message", "event", "log", "text", "error", "err", "reason")
}

// classify decides whether a token is masked and how much of it is kept;
// or holds the classes of its bytes.
func classify(t []byte, or class) (masked bool, keep int32) {
	if k := 0; or&cEq != 0 {
		if k = kvKeyLen(t); k > 0 {
			switch {
			case k == len(t):
				return false, 0 // "key=" with no value
			case messageKey(t[:k-1]):
				if variable(t[k:]) {
					return true, int32(k)
				}
				return false, 0
			}
			return true, int32(k)
		}
	}
	if or&cColon != 0 {
		if k := colonKeyLen(t); k > 0 && variable(t[k:]) {
			if widthName(trimPunct(t[k:])) {
				return false, 0 // "gpg:amd64": a name qualified by a name, no key and value
			}
			return true, int32(k)
		}
	}
	if !variable(t) {
		return false, 0
	}
	return quoted(t) || !codeName(t), 0 // a quoted string is a value, whatever it holds
}

// codeName reports a name whose digits name rather than count (see
// namedWithDigit), a call or a scoped name: words of the program's own.
func codeName(t []byte) bool {
	core := trimPunct(t)
	return namedWithDigit(core) || callName(t) || scopedName(core)
}

// scopedName reports a name qualified by its class or namespace with
// "::" ("AirPort_Brcm43xx::syncPowerState"): code's own name, digits or
// not, as a call is. Every part is an identifier that starts with a
// letter, which no IPv6 address ("fe80::1ff:fe23") has after its first.
func scopedName(t []byte) bool {
	parts := bytes.Split(t, []byte("::"))
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || !isLetter(p[0]) {
			return false
		}
		for _, c := range p {
			if !isAlnum(c) && c != '_' {
				return false
			}
		}
	}
	return true
}

// kvKeyLen returns the length of "key=" when t starts with an identifier
// (after opening punctuation) followed by '=', else 0.
func kvKeyLen(t []byte) int {
	start, i := keyName(t, &kvOpen, true)
	if i == start || i >= len(t) || t[i] != '=' || !isLetter(t[start]) {
		return 0
	}
	if i+1 < len(t) && t[i+1] == '=' {
		return 0 // "a==b" is a comparison
	}
	return i + 1
}

// keyName returns where the name of a key at the start of t begins and
// ends: after opening punctuation (bytes in open), a run of letters, '_',
// '.', '-' and, with digits set, digits.
func keyName(t []byte, open *[256]bool, digits bool) (start, end int) {
	i := 0
	for i < len(t) && open[t[i]] {
		i++
	}
	start = i
	name := &keyLetters // one look-up a byte rather than five comparisons
	if digits {
		name = &keyAlnums
	}
	for i < len(t) && name[t[i]] {
		i++
	}
	return start, i
}

// The punctuation that may open a key=value and a key:value token, and
// the bytes of a key's name, without digits and with.
var (
	kvOpen, colonOpen     = byteSet("([{,"), byteSet("([{<")
	keyLetters, keyAlnums = byteSet(keyNameBytes), byteSet(keyNameBytes + "0123456789")
)

const keyNameBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.-"

func byteSet(s string) (set [256]bool) {
	for _, c := range []byte(s) {
		set[c] = true
	}
	return set
}

// colonKeyLen returns the length of "key:" when t starts with a letters-only
// identifier followed by ':' and a value ("sid:1", "vCores:1>"). Keys with
// digits, host names and drive letters are left out so that times, IPv6,
// host:port and C:\paths stay whole.
func colonKeyLen(t []byte) int {
	start, i := keyName(t, &colonOpen, false)
	if i-start < 2 || i+1 >= len(t) || t[i] != ':' || t[i+1] == '/' || t[i+1] == ':' ||
		isHostname(t[start:i]) || hostPort(t[start:i], t[i+1:]) {
		return 0
	}
	return i + 1
}

// hostPort reports a name of three or more lower-case labels before a
// port ("edge.cdn.example.asia:443"): a host, whatever its top-level domain
// (isHostname knows the common ones), not a key, which is one word ("sid:1").
func hostPort(name, port []byte) bool {
	port = trimPunct(port)
	if len(port) < 2 || len(port) > 5 || !allOf(port, cDigit) {
		return false
	}
	dots := 0
	for i, c := range name {
		switch {
		case c == '.':
			if i == 0 || name[i-1] == '.' {
				return false
			}
			dots++
		case charClass[c]&cHostChar == 0:
			return false
		}
	}
	return dots >= 2 && name[len(name)-1] != '.'
}

// class is a set of character classes, for the scanners.
type class uint16

const allClasses = ^class(0)

const (
	cDigit    class = 1 << iota
	cHexLower       // a-f
	cHexUpper       // A-F
	cHostChar       // a-z, 0-9, '-', '.'
	cNotTime        // anything but 0-9 and the separators of dates and times: - / : . , + _ T Z
	cDot            // '.'
	cSpecial        // characters of keys, quotes, paths and addresses
	cSpace          // white space
	cWordy          // a letter that is no hex digit: g-z, G-Z (every keyword has one)
	cEq             // '=', which may end a key
	cColon          // ':', which may end a key
	cQuote          // '"'
	cHeadStop       // ends a header token: ' ', '\t', '|'
	cGroup          // no byte's class: marks a [bracket group] in the header
	cBarOpen        // '[' and '|', which may open a progress bar (progress.go)
)

var charClass [256]class

func init() {
	for c := 0; c < 256; c++ {
		b := byte(c)
		var k class
		switch {
		case isDigit(b):
			k |= cDigit | cHostChar
		case isLower(b):
			k |= cHostChar
		}
		if b >= 'a' && b <= 'f' {
			k |= cHexLower
		}
		if b >= 'A' && b <= 'F' {
			k |= cHexUpper
		}
		if isLetter(b) && lower(b) > 'f' {
			k |= cWordy
		}
		switch b {
		case '-':
			k |= cHostChar
		case '.':
			k |= cHostChar | cDot
		case '/', ':', ',', '+', '_', 'T', 'Z':
		default:
			if !isDigit(b) {
				k |= cNotTime
			}
		}
		switch b {
		case '=', ':', '@', '\\', '/', '"', '\'', '`', '(', '[', '{', '<', '~':
			k |= cSpecial
		}
		switch b {
		case '=':
			k |= cEq
		case ':':
			k |= cColon
		case '"':
			k |= cQuote
		case ' ', '\t', '|':
			k |= cHeadStop
		}
		if b == '[' || b == '|' {
			k |= cBarOpen
		}
		switch b {
		case ' ', '\t', '\v', '\f', '\r', '\n':
			k |= cSpace
		}
		charClass[c] = k
	}
}

// variable reports a token that looks like a value.
func variable(t []byte) bool {
	if quoted(t) {
		return true
	}
	core := trimPunct(t)
	if len(core) == 0 {
		return false
	}
	for i, c := range core {
		if isDigit(c) {
			return true
		}
		switch c {
		case '\\', '@':
			return true
		case '/':
			if i > 0 && (core[i-1] == '(' || core[i-1] == ':' || core[i-1] == '[') {
				return true // a path or URL inside a token: chdir(/home/x), file:/x, http://x
			}
		}
	}
	switch {
	case len(core) >= 2 && (core[0] == '/' || core[0] == '~' && core[1] == '/'):
		return true // path
	case len(core) >= 3 && core[0] == '.' && (core[1] == '/' || core[1] == '.' && core[2] == '/'):
		return true // relative path
	case notAvailable(core), literalValue(core):
		return true
	}
	return wordValue(core)
}

// quoted reports a quoted string, maybe with one byte of punctuation after
// its closing quote; its double quotes may be escaped, as inside a JSON or
// logfmt string (\"nginx\").
func quoted(t []byte) bool {
	if len(t) >= 4 && t[0] == '\\' && t[1] == '"' {
		t = t[1:]
	}
	if len(t) < 2 || t[0] != '"' && t[0] != '\'' {
		return false
	}
	q := t[0]
	return t[len(t)-1] == q || len(t) >= 3 && t[len(t)-2] == q
}

// notAvailable reports "n/a" (or "N/A"), written where a value is missing:
// it stands in the value's place ("path:n/a", "path:/a/b"), so it is one.
func notAvailable(t []byte) bool {
	return len(t) == 3 && t[1] == '/' && lower(t[0]) == 'n' && lower(t[2]) == 'a'
}

// wordValue reports values written without digits: long hex words, host
// names, month and weekday names.
func wordValue(core []byte) bool {
	if len(core) == 0 {
		return false
	}
	all := allClasses
	for _, c := range core {
		all &= charClass[c]
	}
	switch {
	case len(core) >= 8 && all&(cHexLower|cHexUpper) != 0:
		return true
	case all&cHostChar != 0:
		return isHostname(core)
	}
	return isUpper(core[0]) && isDateName(core)
}

// namedWithDigit reports a name written with a digit rather than a value:
// a versioned name (SOCKS5, IPv6), a capital and one digit naming a level
// or a class (L2 cache, P0, C1), an acronym and a part with digits
// (BIOS-e820) or a versioned name and a word (EXT4-fs), two or more lower-case letters and a single final digit
// (ssh2, sha1, ext4), or a width name (amd64, sha256). A word that varies
// this way (node1, node2) is still found by the miner, which compares
// lines.
func namedWithDigit(t []byte) bool {
	if len(t) > 0 && isUpper(t[0]) {
		return len(t) == 2 && isDigit(t[1]) || versionedName(t) || protocolVersion(t) || acronymPart(t) || versionedPart(t)
	}
	if widthName(t) {
		return true
	}
	n := len(t) - 1
	if n < 2 || !isDigit(t[n]) {
		return false
	}
	for _, c := range t[:n] {
		if !isLetter(c) {
			return false
		}
	}
	return true
}

// errnoWord reports an error number in parentheses glued to the first
// word of its text, as Apache's error log writes the APR's ("(111)Connection
// refused", "(70007)The timeout specified has expired"): the number
// names the error the words say, so both are the message's own words.
func errnoWord(t []byte) bool {
	if len(t) < 4 || t[0] != '(' || !isDigit(t[1]) {
		return false
	}
	k := 1
	for k < len(t) && k <= 6 && isDigit(t[k]) {
		k++
	}
	if k >= len(t)-1 || t[k] != ')' || !isUpper(t[k+1]) {
		return false
	}
	for _, c := range t[k+2:] {
		if !isLetter(c) && c != ':' {
			return false
		}
	}
	return true
}

// widthName reports two or more lower-case letters and a width in bits
// from 16 on (amd64, arm64, sha256, base64, int32): an architecture, a
// type or an encoding, not a value.
func widthName(t []byte) bool {
	n := 0
	for n < len(t) && isLower(t[n]) {
		n++
	}
	if n < 2 {
		return false
	}
	switch string(t[n:]) {
	case "16", "32", "64", "128", "256", "384", "512":
		return true
	}
	return false
}

// acronymPart reports an acronym, a hyphen and a part that starts with a
// letter and has digits ("BIOS-e820"): one thing's name, whose digits
// name a kind, as in SOCKS5. A number after the hyphen (CVE-2021-44228,
// JIRA-123) is an id, a value.
func acronymPart(t []byte) bool {
	k := 0
	for k < len(t) && isUpper(t[k]) {
		k++
	}
	if k < 2 || k+2 >= len(t) || t[k] != '-' || !isLetter(t[k+1]) {
		return false
	}
	for _, c := range t[k+1:] {
		if !isAlnum(c) {
			return false
		}
	}
	return true
}

// versionedPart reports a versioned name, a hyphen and a lower-case word
// ("EXT4-fs", the kernel's name for its ext4 driver): one name, as the
// versioned name alone is.
func versionedPart(t []byte) bool {
	h := bytes.IndexByte(t, '-')
	return h > 0 && h < len(t)-1 && versionedName(t[:h]) && allLower(t[h+1:])
}

// protocolVersion reports a protocol and its version: HTTP/1.1, TLSv1.3.
func protocolVersion(t []byte) bool {
	k := 0
	for k < len(t) && isUpper(t[k]) {
		k++
	}
	if k < 2 || k == len(t) {
		return false
	}
	rest := t[k:]
	if rest[0] == '/' || rest[0] == 'v' {
		rest = rest[1:]
	}
	if len(rest) == 0 || !isDigit(rest[0]) {
		return false
	}
	for _, c := range rest {
		if !isDigit(c) && c != '.' {
			return false
		}
	}
	return true
}

// callName reports a function called with no arguments, as a program names
// itself in its messages: "jk2_init()", "workerEnv.init()".
func callName(t []byte) bool {
	for len(t) > 0 && (t[len(t)-1] == ',' || t[len(t)-1] == ';' || t[len(t)-1] == ':' || t[len(t)-1] == '.') {
		t = t[:len(t)-1]
	}
	if len(t) < 3 || string(t[len(t)-2:]) != "()" || !isLetter(t[0]) {
		return false
	}
	for _, c := range t[:len(t)-2] {
		if !isAlnum(c) && c != '_' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

// versionedName reports a name of two or more capitals, with other letters
// maybe, ending in one or two digits: SOCKS5, HTTP2, IPv6, MD5. Such tokens
// name protocols and algorithms, constants rather than values.
func versionedName(t []byte) bool {
	d := len(t)
	for d > 0 && isDigit(t[d-1]) {
		d--
	}
	if d < 2 || len(t)-d > 2 || len(t) == d {
		return false
	}
	caps := 0
	for _, c := range t[:d] {
		switch {
		case isUpper(c):
			caps++
		case !isLower(c):
			return false
		}
	}
	return caps >= 2
}

// trimPunct strips the punctuation that wraps a value in prose: brackets,
// quotes and sentence punctuation.
func trimPunct(t []byte) []byte {
	for len(t) > 0 {
		switch t[0] {
		case '(', '[', '{', '<', '"', '\'', '`':
			t = t[1:]
			continue
		}
		break
	}
	for len(t) > 0 {
		switch t[len(t)-1] {
		case ')', ']', '}', '>', '"', '\'', '`', ',', ';', ':', '.', '!', '?':
			t = t[:len(t)-1]
			continue
		}
		break
	}
	return t
}

// isHostname reports lower-case dotted names with a known or two-letter top
// level domain: "ns.example.com", "db.internal". Java packages
// ("org.apache.hadoop") have no such suffix and stay words, and neither
// do dotted configuration keys, which end in "id" or "ms" more often than
// any host does in Indonesia's or Montserrat's domain ("mapred.task.id",
// "session.timeout.ms").
func isHostname(t []byte) bool {
	dot := -1
	for i, c := range t {
		switch {
		case c == '.':
			if i == 0 || i == len(t)-1 || t[i-1] == '.' {
				return false
			}
			dot = i
		case charClass[c]&cHostChar == 0:
			return false
		}
	}
	if dot < 0 {
		return false
	}
	tld := t[dot+1:]
	if len(tld) == 2 && isLower(tld[0]) && isLower(tld[1]) {
		return string(tld) != "id" && string(tld) != "ms"
	}
	switch string(tld) {
	case "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "local", "localdomain",
		"internal", "lan", "corp", "home", "arpa", "cloud", "dev", "app", "svc":
		return true
	}
	return false
}

// isSpace reports ASCII white space; one table look-up is cheaper than six
// comparisons in the scanners' loops.
func isSpace(c byte) bool {
	return charClass[c]&cSpace != 0
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// literalValue is a JSON or language literal (true, false, null, nil,
// None): it stands where a value stands, so it is one (the Loghub-2.0
// convention), even when a sample happens to hold only one of them.
func literalValue(t []byte) bool {
	switch string(t) {
	case "true", "false", "null", "True", "False", "TRUE", "FALSE", "NULL", "nil", "None":
		return true
	}
	return false
}
