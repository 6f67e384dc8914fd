package logs

import (
	"bytes"
	"encoding/binary"
)

// A log line usually starts with a header (timestamp, level, host, process,
// thread, logger) before the message. Header fields vary independently of the
// message (a level changes, a thread name has spaces), so they are cut off
// before templates are mined. The header is found per line, generically: a
// run of header-like fields (dates, times, numbers, [brackets], separators and
// a few words such as host names) that ends at an anchor:
//   - a level word, with what usually follows it: [thread] groups, then a
//     "logger:" token or a separator ("INFO [main] a.b.C: msg", "- INFO [x] - msg");
//   - a syslog process "name[pid]:" (Heroku's "app[web.1]:") after at most
//     two words (the host), or
//     "name:" in a month-name syslog header ("Jun 14 15:16:01 host kernel: msg");
//   - the "file.go:42]" that ends a glog header ("I0401 12:00:00.1 7 main.go:42] msg");
//   - a separator right after the fields ("[time] app.exe - msg", "time|comp|pid|msg"),
//     or a colon right after a time ("update-alternatives 2025-06-24 14:42:14: msg").
// Without an anchor no header is cut, and the whole line is the message.
// A level word may hide in a token: "[10:00:00 INF]" (Serilog),
// "[proxy:error]" (Apache 2.4), "production.INFO:" (Laravel),
// "…:[12]:LOG:" (a PostgreSQL log_line_prefix).
//
// A few headers that these rules would misread are read whole, told apart
// by their first byte: a syslog priority "<27>" (its severity is the level,
// and after "<27>1 " the RFC 5424 header runs to the structured data),
// Python's "INFO:app.worker:msg" and Ruby's "I, [time #pid]  INFO -- app: msg".
// A klog header that opens the message ("host kubelet[812]: W0305 …
// file.go:12] msg", as journald shows it) is header too, and its level counts.

const maxHeaderTokens = 14

type headKind uint8

const (
	hWord    headKind = iota
	hTime             // date, time, number, month or weekday name
	hSep              // "-", "--", "|", ":", and Redis's "*", "#", "."
	hLevel            // INFO, [error], warn:
	hBracket          // any other [...] group
	hProc             // syslog process: name[pid]:
	hColon            // other token ending in ':'
	hField            // other token without letters ("*64", "#3"): neither a time nor a word
	hDetail           // PostgreSQL's DETAIL:, STATEMENT:, HINT: … (see detailWord)
)

// header finds headers, line after line. It keeps the header tokens of the
// last line that may hold a keyword, and remembers recent tokens by position:
// a token equal to one seen at the same place lately (a level, a logger, a
// host) is neither classified nor scanned for keywords again.
type header struct {
	words      []headWord // tokens that may hold a keyword: all but dates, times, numbers and separators
	memo       [maxHeaderTokens + 2]tokenMemo
	lvl0, lvl1 int  // the level word of the last line's header; equal when none
	firstTime  bool // the last line opens with a date, time or number
	layouts    layoutSet
	// How far walk read the last line: to the end of its last token
	// (reach), or to the line's end (eol); open when it read a token
	// that opens with an unclosed '['.
	reach int
	eol   bool
	open  bool
	// walk's words: words may be a layout's (see answer).
	walked []headWord
	// The level kind of the layout the last line fitted, when its level
	// word is that of every line that fits it (see layout); else nil.
	level *layoutLevel
	// inner finds the header of a program's own that opens a syslog
	// line's message (see innerAfter), nil until one is looked for;
	// nested marks an inner finder, which looks for none further in.
	inner  *header
	nested bool
	// Its header keyword hit, kept with the layout: nil when walked.
	hit *layoutHit
}

// headWord is a header token that may hold a keyword, with where its
// keyword is kept (nil past the memo's positions).
type headWord struct {
	start, end int32
	kw         *wordKeyword
}

// tokenMemo remembers the last few distinct tokens seen at one position.
type tokenMemo struct {
	ways [4]memoEntry
	next int // way to fill next
	last int // way found last, tried first
}

type memoEntry struct {
	text    []byte
	pre     uint64 // text's first 8 bytes (see prefix8): most tokens compare without a call
	kind    headKind
	atStart bool
	open    bool // a '[' without its ']': see at
	kw      wordKeyword
}

// wordKeyword is the keyword of a header word, looked for once: the word
// is a memo entry's text, or the text at a place of a layout, the same but
// for digits in every line that fits it, and digits change no keyword hit
// (no keyword has one: see TestKeywordsHaveNoDigits).
type wordKeyword struct {
	done  bool // looked for: hit and found are set
	found bool
	hit   keywordHit // offsets within the word
}

// of returns the keyword of the word t.
func (k *wordKeyword) of(t []byte) (keywordHit, bool) {
	if !k.done {
		k.hit, k.found = findKeyword(t)
		k.done = true
	}
	return k.hit, k.found
}

// end returns the offset in s where the message starts, and sets words
// (some of which may lie past that offset). A line that fits a layout
// learned from an earlier line takes its answer from it (see layout.go);
// any other is walked token by token, and teaches a layout.
func (h *header) end(s []byte) int {
	var hdr int
	if l := h.layouts.fit(s); l != nil {
		hdr = h.answer(l)
	} else {
		h.reach, h.eol, h.open = 0, false, false
		h.level, h.hit = nil, nil
		h.words = h.walked[:0]
		hdr = h.walk(s)
		h.walked = h.words
		h.learn(s, hdr)
	}
	// One space, then a klog letter and date, then a space: a byte or two
	// rule out most messages here, without a call.
	if k := hdr + 6; k < len(s)-1 && s[k] == ' ' && s[hdr] == ' ' && hdr > 0 {
		hdr = h.klogAfter(s, hdr)
	}
	if hdr > 0 && hdr+1 < len(s) && s[hdr+1] == '[' && s[hdr] == ' ' {
		hdr = uptimeAfter(s, hdr)
	}
	if hdr > 1 && hdr+1 < len(s) && s[hdr] == ' ' && s[hdr-1] == ':' && s[hdr-2] == ']' && !h.nested && h.lvl1 <= h.lvl0 {
		hdr = h.innerAfter(s, hdr)
	}
	return hdr
}

// innerAfter extends a syslog header that ends at s[hdr], before a space,
// over the header of the program's own that may open its message, as
// journald and syslog keep a program's output ("Mar 5 10:00:01 host1
// app[12]: 2024/03/05 10:00:01 [ERROR] msg"): one that starts with a date
// or a time of day, read by a finder of its own (with its own layouts);
// its level is the line's. Like klogAfter, it is looked at after the
// layouts.
func (h *header) innerAfter(s []byte, hdr int) int {
	m := s[hdr+1:]
	if m[0] == '[' {
		m = m[1:]
	}
	if timeAt(m, 0) == 0 {
		return hdr
	}
	if h.inner == nil {
		h.inner = &header{nested: true}
	}
	in := h.inner
	e := in.end(s[hdr+1:])
	if e == 0 {
		return hdr
	}
	if in.lvl1 > in.lvl0 {
		h.lvl0, h.lvl1, h.level = hdr+1+in.lvl0, hdr+1+in.lvl1, nil
	}
	return hdr + 1 + e
}

// uptimeAfter extends a header that ends at s[hdr], before a space, over
// the kernel's uptime that may open its message, as syslog writes the
// kernel's lines ("Mar 05 14:00:01 node1 kernel: [    2.345678] EXT4-fs
// …"): a time, as it is at the start of dmesg's lines. Like klogAfter, it
// is looked at after the layouts.
func uptimeAfter(s []byte, hdr int) int {
	i := skipBlank(s, hdr+2)
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i || j >= len(s) || s[j] != '.' {
		return hdr
	}
	k := j + 1
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j+1 || k >= len(s) || s[k] != ']' {
		return hdr
	}
	return k + 1
}

// klogAfter extends a header that ends at s[hdr], before a space, over the
// klog header that may open its message, as journald shows Kubernetes'
// components ("Mar 05 14:00:01 node1 kubelet[812]: W0305 14:00:01.000000
// 812 file.go:12] msg"): the klog letter is the level. It is looked at
// after the layouts (see layout.go), whose bytes end with the header, so
// that the messages' first bytes do not split them.
func (h *header) klogAfter(s []byte, hdr int) int {
	k := hdr + 1
	if !glogPrefix(s[k : k+5]) {
		return hdr
	}
	i := k + 6
	for n := 0; n < 3; n++ { // the time, the thread id, the source
		i = skipBlank(s, i)
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		switch t := s[i:j]; {
		case len(t) > 2 && t[len(t)-1] == ']' && glogSource(t):
			h.lvl0, h.lvl1, h.level = k, k+1, nil
			return j
		case len(t) == 0 || !timeField(t):
			return hdr
		}
		i = j
	}
	return hdr
}

// walk finds the header of s token by token, noting how far it read. A
// few formats that the tokens alone would misread are told apart by their
// first byte (see prefixed and priority).
func (h *header) walk(s []byte) int {
	h.lvl0, h.lvl1, h.firstTime = 0, 0, false
	if len(s) == 0 {
		return 0
	}
	switch c := s[0]; {
	case c == '<':
		if k := h.priority(s); k > 0 {
			if e, ok := h.rfc5424(s, k); ok {
				return e
			}
			return h.fields(s, k, 1)
		}
	case isUpper(c):
		if e, ok := h.prefixed(s); ok {
			return e
		}
	}
	return h.fields(s, 0, 0)
}

// fields walks the header fields of s from s[i], its n-th token: the
// tokens before it are header.
func (h *header) fields(s []byte, i, n int) int {
	var (
		end       int
		committed bool
		sawTime   bool
		sawMonth  bool
		zoned     bool // an RFC 3339 time with its zone: rsyslog's and journald's
		host      bool // after a zoned time, its one word is a host name
		words     int  // words since the start or the last separator anchor
		anchorTok = -1 // the token that was the last separator anchor
		lead      = i  // end of the leading dates, times and [groups]: the header without an anchor
		leading   = true
	)
	for ; n < maxHeaderTokens; n++ {
		i = skipBlank(s, i)
		if i >= len(s) {
			h.eol = true
			break
		}
		if s[i] == '#' && sawTime && words == 0 && !committed {
			if e := actionsLevel(s, i); e > 0 { // GitHub Actions' "##[error]": see actions.go
				h.lvl0, h.lvl1 = i+3, e-1
				h.reach = max(h.reach, e)
				return e
			}
		}
		j, kind := h.token(s, i, n)
		if leading = leading && (kind == hTime || kind == hBracket && n > 0 && !messageGroup(s[i:j])); leading &&
			(lead > 0 || !bareNumber(s[i:j])) { // a count ("0 errors") is no time
			lead = j
		}
		switch kind {
		case hTime:
			h.firstTime = h.firstTime || n == 0
			if committed && words <= 1 && s[i] == '[' {
				end, words, anchorTok = j, 0, n // a bracketed time after the fields: ip - user [time]
			} else if !committed && words <= 1 && clockColon(s[i:j]) {
				// The colon after a clock closes the header, as a separator
				// would: "update-alternatives 2025-06-24 14:42:14: run with …".
				end, committed, words, anchorTok = j, true, 0, n
			} else if committed {
				words++ // a value after the separator (an address, a number) is the message's
			}
			sawTime = true
			if isUpper(s[i]) && isMonth(s[i:j]) {
				sawMonth = true
			}
			zoned = zoned || zonedStamp(s[i:j])
			if i == 0 && glogPrefix(s[i:j]) {
				h.lvl0, h.lvl1 = 0, 1
			}
		case hSep:
			if sawTime && words <= 1 {
				if !committed && j == i+1 && redisRole(s) {
					h.lvl0, h.lvl1 = i, j // Redis's level mark: see redisRole
				}
				end, committed, words, anchorTok = j, true, 0, n
			}
		case hLevel:
			// After a separator anchor, a level follows it directly
			// ("- ERROR -"); one further on is the message's word, whatever
			// field stands between ("app.exe - 10.0.0.7:80 error : …").
			if (!committed || n == anchorTok+1) && levelAnchor(s[i:j], n, sawTime, committed, words) {
				h.lvl0, h.lvl1 = levelSpan(s, i, j)
				return h.afterLevel(s, j, n+1)
			}
			words++
		case hProc:
			if sawTime && words <= 2 && (!committed || words == 0) {
				return j
			}
			return max(end, lead)
		case hColon:
			if d := ciscoTag(s[i:j]); d > 0 && sawTime && words <= 2 {
				h.lvl0, h.lvl1 = i+d, i+d+1 // Cisco's "%ASA-4-106023:": see cisco.go
				return j
			}
			// "name:" after the host ends a syslog header: after a month
			// name's time, or after an RFC 3339 one when the word is a
			// host's, in lower case ("2026-11-29T02:03:06+00:00 web-01
			// kernel: msg", as rsyslog and journald write it; not
			// "…Z Starting server: …").
			if (sawMonth && words >= 1 && words <= 2 || host && words == 1) && !committed {
				return j
			}
			return max(end, lead)
		case hDetail:
			// It opens the message, after the fields a level line has
			// there ("[4251] app@db STATEMENT:  select …").
			if sawTime && words <= 2 && !committed {
				return i
			}
			return max(end, lead)
		case hBracket:
		case hWord:
			host = zoned && words == 0 && hostName(s[i:j])
			words++
		}
		if words > 6 {
			return max(end, lead)
		}
		i = j
	}
	return max(end, lead)
}

// messageGroup reports a [group] that holds a group of its own or four
// words or more: a message in brackets ("[GC (Allocation Failure)
// [PSYoungGen: 65536K->10720K(76288K)] …, 0.0123456 secs]"), not a
// column of a header.
func messageGroup(t []byte) bool {
	in := t[1:]
	if bytes.IndexByte(in, '[') >= 0 {
		return true
	}
	return bytes.Count(bytes.TrimSpace(bytes.TrimRight(in, "]")), []byte{' '}) >= 3
}

// zonedStamp reports an RFC 3339 date and time with its zone
// ("2026-11-29T02:03:06+0000", "…06.123456+00:00", "…06Z").
func zonedStamp(t []byte) bool {
	n := len(t)
	if n < 20 || t[10] != 'T' || t[4] != '-' {
		return false
	}
	switch {
	case t[n-1] == 'Z':
		return true
	case t[n-5] == '+' || t[n-5] == '-':
		return true
	}
	return t[n-6] == '+' || t[n-6] == '-'
}

// hostName reports a word that may be a host's name: lower-case letters,
// digits, dots, dashes and underscores, a letter or digit first.
func hostName(t []byte) bool {
	if !isLower(t[0]) && !isDigit(t[0]) {
		return false
	}
	for _, c := range t {
		if !isLower(c) && !isDigit(c) && c != '.' && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// clockColon reports a time of day followed by a colon ("14:42:14:"), not
// a number and a colon ("1234:", a count or a process id).
func clockColon(t []byte) bool {
	n := len(t) - 1
	return n > 0 && t[n] == ':' && bytes.IndexByte(t[:n], ':') > 0
}

// priority reads the syslog priority "<PRI>" that opens s, as syslog
// sends it (RFC 3164 and 5424) and the kernel's printk writes it ("<3>[
// 1.234567] msg"), and returns its end, or 0. The priority is the line's
// level (see priorityLevel), unless a level word follows in the header.
func (h *header) priority(s []byte) int {
	k := 1
	for k < len(s) && k < 5 && isDigit(s[k]) {
		k++
	}
	h.reach = max(h.reach, min(k, len(s)-1))
	if k < 2 || k > 4 || k >= len(s) || s[k] != '>' {
		h.eol = h.eol || k >= len(s)
		return 0
	}
	h.lvl0, h.lvl1 = 0, k+1
	return k + 1
}

// rfc5424 reads the rest of an RFC 5424 header after its "<PRI>", s[:k]:
// "1 2024-03-05T13:00:00.000+01:00 host app 4242 ID47 [id k=\"v\"] msg",
// the version, five fields (time, host, application, process id, message
// id, each "-" when unknown) and the structured data ("-" or [groups]). It
// returns the header's end, or false when s does not read so.
func (h *header) rfc5424(s []byte, k int) (int, bool) {
	i := k
	for i < len(s) && i < k+3 && isDigit(s[i]) {
		i++
	}
	var f [5][2]int
	for n := range f {
		h.reach = max(h.reach, min(i, len(s)-1))
		if i == k || i+1 >= len(s) || s[i] != ' ' {
			h.eol = h.eol || i+1 >= len(s)
			return 0, false
		}
		j := i + 1
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if j == i+1 {
			return 0, false // an empty field: two spaces
		}
		f[n] = [2]int{i + 1, j}
		i = j
	}
	e := h.structuredData(s, i)
	if e < 0 {
		return 0, false
	}
	for _, w := range f[1:] { // the words, but for the time
		if w[1]-w[0] > 1 || s[w[0]] != '-' {
			h.found(w[0], w[1], hWord, nil)
		}
	}
	return e, true
}

// structuredData returns the end of the RFC 5424 structured data after
// the space at s[i], or -1: "-", or [groups] whose values may hold "]" in
// quotes or escaped; then a space and the message, or nothing.
func (h *header) structuredData(s []byte, i int) int {
	i++
	e := -1
	switch {
	case i < len(s) && s[i] == '-':
		e = i + 1
	default:
		for i < len(s) && s[i] == '[' {
			if i = sdGroupEnd(s, i); i < 0 {
				h.eol = true // read to the end
				return -1
			}
			e = i
		}
	}
	h.reach = max(h.reach, min(max(i, e), len(s)-1)) // the byte after "-" or the groups
	if e < 0 || e < len(s) && s[e] != ' ' {
		h.eol = h.eol || i >= len(s)
		return -1
	}
	h.eol = h.eol || e == len(s)
	return e
}

// sdGroupEnd returns the end of the structured data group that opens at
// s[i], or -1.
func sdGroupEnd(s []byte, i int) int {
	quoted := false
	for k := i + 1; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			quoted = !quoted
		case ']':
			if !quoted {
				return k + 1
			}
		}
	}
	return -1
}

// prefixed reads two headers that open with a level and that the tokens
// alone would misread: Ruby's Logger and Python's logging.basicConfig.
func (h *header) prefixed(s []byte) (int, bool) {
	if len(s) > 3 && s[1] == ',' && s[2] == ' ' && s[3] == '[' {
		return h.ruby(s)
	}
	return h.python(s)
}

// python reads "LEVEL:logger:" as logging.basicConfig writes it
// ("INFO:app.worker:processed item 0"): no space before the message.
func (h *header) python(s []byte) (int, bool) {
	a := 0
	for a < len(s) && a < 9 && isUpper(s[a]) {
		a++
	}
	h.reach = max(h.reach, min(a, len(s)-1))
	if a == len(s) {
		h.eol = true
	}
	if a < 3 || a == len(s) || s[a] != ':' || !levelWord(s[:a]) {
		return 0, false
	}
	b := a + 1
	for b < len(s) && (isAlnum(s[b]) || s[b] == '.' || s[b] == '_' || s[b] == '-') {
		b++
	}
	h.reach = max(h.reach, min(b, len(s)-1))
	if b == len(s) {
		h.eol = true
	}
	if b == a+1 || b == len(s) || s[b] != ':' {
		return 0, false
	}
	h.lvl0, h.lvl1 = 0, a
	h.found(0, a, hLevel, nil)
	h.found(a+1, b, hWord, nil)
	return b + 1, true
}

// ruby reads Ruby's Logger header, "I, [2024-03-05T10:00:00.123456 #1234]
// INFO -- app: ": the severity's letter, the time and process id, the
// level word (which starts with that letter), and after "-- " the program
// name, maybe none, and ": ". The message follows; a level word in it
// ("Completed 500 Internal Server Error") is no header.
func (h *header) ruby(s []byte) (int, bool) {
	c := closeBracket(s, 3)
	if c < 0 {
		h.open = true // read up to 512 bytes
		return 0, false
	}
	i := skipBlank(s, c+1)
	j := i
	for j < len(s) && isUpper(s[j]) {
		j++
	}
	p := j + 4 // the program name's start, after " -- "
	q := min(p, len(s))
	for q < len(s) && s[q] != ':' && s[q] != ' ' {
		q++
	}
	h.reach = max(h.reach, min(q+1, len(s)-1))
	h.eol = h.eol || q+1 >= len(s)
	if i == j || s[i] != s[0] || p > len(s) || string(s[j:p]) != " -- " || q == len(s) || s[q] != ':' ||
		q+1 < len(s) && s[q+1] != ' ' {
		return 0, false
	}
	if levelWord(s[i:j]) {
		h.lvl0, h.lvl1 = i, j
	}
	h.found(i, j, hLevel, nil)
	if q > p {
		h.found(p, q, hWord, nil)
	}
	return q + 1, true
}

// levelAnchor decides whether a level-looking token ends the header. After a
// separator anchor it must follow it directly; without a time field before it
// only a strong level (upper case, bracketed or with a colon) leading the line
// counts; a weak one ("E", bare lower-case "info") must follow the time fields.
func levelAnchor(t []byte, n int, sawTime, committed bool, words int) bool {
	if committed && words > 0 {
		return false
	}
	bare := isLetter(t[0]) && t[len(t)-1] != ':'
	weak := bare && (len(t) == 1 || isLower(t[0]))
	switch {
	case !sawTime:
		return n == 0 && !weak
	case weak:
		return words == 0
	}
	return true
}

// afterLevel extends a header past the level: [thread] and [context] groups,
// then a "logger:" token, a "logger [context]" pair or a separator. A group
// with spaces inside is a thread ("[IPC Server handler 4]") only when a
// logger or separator follows; otherwise it opens the message ("[client
// 10.0.0.1] File does not exist"). A word padded by two or more spaces is a
// column of its own ("Info   CBS    Loaded ..."), and so part of the header.
func (h *header) afterLevel(s []byte, i, n int) int {
	spaced := -1 // where the first group with spaces starts
	padded := false
	for ; ; n++ {
		k := skipBlank(s, i)
		if k >= len(s) {
			h.eol = true
			return len(s)
		}
		e, kind := h.token(s, k, n)
		switch kind {
		case hBracket:
			if spaced < 0 && spacedGroup(s[k:e]) && !pidGroup(s[k:e]) {
				spaced = i
			}
			i = e
			continue
		case hTime:
			if s[k] == '[' || !bareNumber(s[k:e]) {
				i = e
				continue
			}
			// Spring Boot's process id and separator, then the thread and
			// the logger: "INFO 12345 --- [main] c.e.App : msg".
			if k2 := skipBlank(s, e); k2 < len(s) {
				if e2, _ := h.token(s, k2, n+1); string(s[k2:e2]) == "---" {
					i, n = e2, n+1
					continue
				}
			}
		case hSep, hProc:
			return e
		case hLevel:
			// PHP's "Fatal error:": the Title-case level and the word
			// after it are one level, not "error:" opening the message.
			if string(s[k:e]) == "error:" && k == h.lvl1+1 && isUpper(s[h.lvl0]) && allLower(s[h.lvl0+1:h.lvl1]) {
				return e
			}
			if p := h.moduleColumns(s, k, e, n); p > 0 {
				return p // Django's module named like a level: "WARNING time log 1234 140234 msg"
			}
		case hColon:
			// A key aligned to its value by the spaces after it
			// ("[INF]   Version:  2.9.10", a table the program prints)
			// is the message's, not a logger.
			if !padded && (loggerName(s[k:e-1]) || h.hclogName(s, k, e-1)) && !(e+1 < len(s) && s[e] == ' ' && s[e+1] == ' ') {
				return e
			}
		case hField:
			if s[e-1] == ':' && isDigit(s[k]) {
				// The process, nginx's "pid#tid:" after its [level], and
				// the connection's number after it ("*5").
				return h.connectionAfter(s, e)
			}
			if erlangPid(s[k:e]) {
				return e // the process, as RabbitMQ and Erlang's logger write it
			}
			fallthrough
		case hWord:
			k2 := skipBlank(s, e)
			if k2 >= len(s) {
				h.eol = true
				break
			}
			e2, kind2 := h.token(s, k2, n+1)
			// A logger and a separator: "logger: msg", and log4j's
			// "%c - %m" when the word is a qualified name or a class's
			// ("com.example.App - msg", "Gossiper.java:1083 - msg",
			// "OrderService - msg", "MainVerticle:42 - msg").
			if kind2 == hSep && (s[k2] == ':' || s[k2] == '-' && (isLoggerName(s[k:e]) || className(s[k:e]))) {
				return e2
			}
			if kind2 == hBracket && isLoggerName(s[k:e]) {
				return e2
			}
			if kind == hWord && javaQualified(s[k:e]) {
				// A class's name and its method's, as Tomcat writes
				// them: "SEVERE [main] org.apache.catalina.startup.Catalina.start msg".
				return e
			}
			if kind == hWord && sourceLine(s[k:e]) {
				return e // the caller, as zap writes it: "INFO\tctrl/reconcile.go:123\tmsg"
			}
			if kind == hWord && kind2 == hTime {
				if p := h.moduleColumns(s, k, e, n); p > 0 {
					return p // Django's verbose format: "INFO time views 1234 140234 msg"
				}
			}
			if k2-e >= 2 && spaced < 0 && e-k <= 32 && kind == hWord {
				i, padded = e, true // a padded column: the logger's place
				continue
			}
		}
		if spaced >= 0 {
			return spaced
		}
		return i
	}
}

// spacedGroup reports a [group] with spaces inside its text; the padding
// after a short name is none ("[o.e.c.r.a.AllocationService   ]", as
// Elasticsearch pads its logger to a width).
func spacedGroup(t []byte) bool {
	return bytes.IndexByte(bytes.TrimRight(t[1:bytes.LastIndexByte(t, ']')], " "), ' ') >= 0
}

// connectionAfter extends a header ending at s[e] over the connection
// number nginx writes after its process ("1234#1234: *5 open() …"),
// noting the bytes it read (see layout.go).
func (h *header) connectionAfter(s []byte, e int) int {
	k := skipBlank(s, e)
	j := k + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	h.reach = max(h.reach, min(j+1, len(s)))
	if j == k+1 || s[k] != '*' || j < len(s) && s[j] != ' ' {
		return e
	}
	return j
}

// erlangPid reports an Erlang process id, "<0.223.0>": three numbers
// joined by dots, in angle brackets.
func erlangPid(t []byte) bool {
	if len(t) < 7 || t[0] != '<' || t[len(t)-1] != '>' {
		return false
	}
	parts := bytes.Split(t[1:len(t)-1], []byte{'.'})
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || !bareNumber(p) {
			return false
		}
	}
	return true
}

// pidGroup reports Apache 2.4's "[pid 100:tid 7]" (or "[pid 100]"): a
// column of the header, not the message, although it has a space.
func pidGroup(t []byte) bool {
	return len(t) > 6 && string(t[:5]) == "[pid " && isDigit(t[5])
}

// bareNumber reports digits only: after a level, a count that opens the
// message ("INFO 3 files copied") rather than a time.
func bareNumber(t []byte) bool { return allOf(t, cDigit) }

// loggerName reports the name of a "logger:" after a level: a qualified
// name (org.a.B, dfs.DataNode$PacketResponder, app/db) or a capitalised
// one (SparkContext, Executor). A lower-case word ("ciod:", "error:") or an
// acronym ("SQM:") opens the message.
func loggerName(t []byte) bool {
	lower := false
	for _, c := range t {
		switch {
		case c == '.' || c == '/' || c == '$':
			return true
		case isLower(c):
			lower = true
		}
	}
	return len(t) > 1 && isUpper(t[0]) && lower
}

// hclogName reports a lower-case name s[k:e] ("agent", "nomad",
// "worker.service_sched") right after a bracketed level padded to five
// letters: HashiCorp's hclog writes "[INFO]  agent: msg" and "[ERROR]
// agent: msg", its logger's name, one word or qualified, before the
// message (Consul, Vault, Nomad, Terraform). Elsewhere a lower-case word
// after the level opens the message (see loggerName).
func (h *header) hclogName(s []byte, k, e int) bool {
	b := h.lvl0 - 1
	if b < 0 || s[b] != '[' || h.lvl1 >= len(s) || s[h.lvl1] != ']' || k != b+8 || e == k || !isLower(s[k]) {
		return false
	}
	for _, c := range s[k:e] {
		if !isLower(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func skipBlank(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// token returns the end of the n-th header token of a line, at s[i], and
// its kind. Dates, times and numbers are recognised from their bytes' classes
// at once; other tokens are classified once per distinct text at a place.
func (h *header) token(s []byte, i, n int) (int, headKind) {
	if n < len(h.memo) {
		// The first byte rules out most tokens that differ (times) here,
		// inline.
		if m := &h.memo[n]; byte(m.ways[m.last].pre) == s[i] {
			if e := &m.ways[m.last]; e.at(s, i) {
				return h.found(i, i+len(e.text), e.kind, e)
			}
		}
	}
	j, or := headSpan(s, i)
	// An unclosed '[' was looked for its ']' up to 512 bytes further.
	h.open = h.open || unclosed(s[i:j], or)
	if or&cNotTime == 0 && or&cDigit != 0 {
		return h.found(i, j, hTime, nil)
	}
	var kind headKind
	e := h.entry(s, i, j, n, or)
	if e != nil {
		kind = e.kind
	} else {
		kind = headKindOf(s, i, j, or)
	}
	return h.found(i, j, kind, e)
}

// found notes the token s[i:j] of kind with its memo entry e (nil when
// past the memo's places), and how far walk read, and returns token's
// answer.
func (h *header) found(i, j int, kind headKind, e *memoEntry) (int, headKind) {
	h.reach = max(h.reach, j)
	if kind != hTime && kind != hSep {
		var kw *wordKeyword
		if e != nil {
			kw = &e.kw
		}
		h.words = append(h.words, headWord{int32(i), int32(j), kw})
	}
	return j, kind
}

// at reports whether the token at s[i] is e's text. When the token found
// last at a position (a level, a logger, a host name) is there again, it
// is found without scanning its bytes' classes. The token at s[i] is that
// text when s holds the text there and a byte that ends a token (or
// nothing) after it: headSpan would end it there too, a [group] included,
// as its closing bracket is inside the text. An unclosed '[' is scanned.
func (e *memoEntry) at(s []byte, i int) bool {
	j := i + len(e.text)
	return len(e.text) > 0 && !e.open && j <= len(s) && (j == len(s) || charClass[s[j]]&cHeadStop != 0) &&
		e.same(s[i:j], prefix8(s, i, j), i == 0)
}

// entry returns the memo entry of the n-th token s[i:j], filling a way
// when the token is new at that position; nil past the memo's positions.
func (h *header) entry(s []byte, i, j, n int, or class) *memoEntry {
	if n >= len(h.memo) {
		return nil
	}
	m := &h.memo[n]
	t := s[i:j]
	pre, start := prefix8(s, i, j), i == 0
	if e := &m.ways[m.last]; e.same(t, pre, start) {
		return e
	}
	for k := range m.ways {
		if e := &m.ways[k]; k != m.last && e.same(t, pre, start) {
			m.last = k
			return e
		}
	}
	e := &m.ways[m.next]
	m.last, m.next = m.next, (m.next+1)%len(m.ways)
	*e = memoEntry{text: append(e.text[:0], t...), pre: pre, kind: headKindOf(s, i, j, or), atStart: start,
		open: unclosed(t, or)}
	return e
}

// unclosed reports a token t, of byte classes or, that opens with a '['
// headSpan found no ']' for: it is no [group].
func unclosed(t []byte, or class) bool {
	return t[0] == '[' && or&cGroup == 0
}

// same reports whether e holds the token t, not empty, whose prefix8 is
// pre, at the line's start or not. An unused entry has no text.
func (e *memoEntry) same(t []byte, pre uint64, atStart bool) bool {
	return e.pre == pre && len(e.text) == len(t) && e.atStart == atStart &&
		(len(t) <= 8 || string(e.text[8:]) == string(t[8:]))
}

// prefix8 packs the first 8 bytes of s[i:j] (fewer when shorter) into a
// word: one load, masked, unless the line ends within 8 bytes.
func prefix8(s []byte, i, j int) uint64 {
	n := j - i
	if i+8 <= len(s) {
		x := binary.LittleEndian.Uint64(s[i:])
		if n >= 8 {
			return x
		}
		return x & (1<<(8*n) - 1)
	}
	var x uint64
	for k := min(j, i+8) - 1; k >= i; k-- {
		x = x<<8 | uint64(s[k])
	}
	return x
}

// headSpan returns the end of the header token at s[i] and the classes of
// its bytes. A bracket group is one token even with spaces inside (its
// classes are left out); '|' is a token of its own.
func headSpan(s []byte, i int) (int, class) {
	switch s[i] {
	case '|':
		return i + 1, cNotTime
	case '[':
		if c := closeBracket(s, i); c > 0 {
			e := c + 1
			if e < len(s) && (s[e] == ':' || s[e] == ',') {
				e++
			}
			return e, cNotTime | cGroup
		}
	}
	j := i
	or := class(0)
	for j+4 <= len(s) { // four bytes a step while no byte stops the token
		b := s[j : j+4]
		k := charClass[b[0]] | charClass[b[1]] | charClass[b[2]] | charClass[b[3]]
		if k&cHeadStop != 0 {
			break
		}
		or |= k
		j += 4
	}
	for j < len(s) {
		k := charClass[s[j]]
		if k&cHeadStop != 0 {
			break
		}
		or |= k
		j++
	}
	return j, or
}

// headKindOf classifies the header token s[i:j] whose bytes have classes or.
func headKindOf(s []byte, i, j int, or class) headKind {
	t := s[i:j]
	switch {
	case t[0] == '|':
		return hSep
	case or&cGroup != 0:
		// log4j's %-5p pads a short level inside its brackets: "[INFO ]".
		inner := bytes.TrimRight(t[1:bytes.LastIndexByte(t, ']')], " ")
		switch {
		case levelWord(inner):
			return hLevel
		case allTimeFields(inner):
			return hTime
		case groupLevel(inner):
			return hLevel
		}
		return hBracket
	}
	switch string(t) {
	case "-", "--", ":", "*", "#", ".":
		// Redis writes its level as one of "-*#." after the time.
		return hSep
	}
	if or&(cHexLower|cHexUpper|cWordy) == 0 {
		return hField
	}
	if or&cWordy == 0 && ipv6Address(t) {
		return hTime // as an IPv4 address is: a client's, opening an access line
	}
	if isDateName(trimComma(t)) || meridiem(t) || i == 0 && glogPrefix(t) {
		return hTime
	}
	last := t[len(t)-1]
	core := t
	if last == ':' {
		core = t[:len(t)-1]
	}
	if len(core) > 0 {
		if levelWord(core) {
			if last != ':' && opensSentence(s, j) {
				return hWord
			}
			return hLevel
		}
		if len(core) > 2 && core[0] == '<' && core[len(core)-1] == '>' && levelWord(core[1:len(core)-1]) {
			return hLevel
		}
		if last == ':' && upperLevelTail(core) {
			return hLevel
		}
		if last == ':' && detailWord(core) {
			return hDetail
		}
	}
	if last == ']' && glogSource(t) {
		return hProc
	}
	if last == ':' && len(t) > 1 && t[len(t)-2] != ':' {
		if len(t) > 3 && t[len(t)-2] == ']' && (isDigit(t[len(t)-3]) || procName(t)) {
			return hProc
		}
		return hColon
	}
	return hWord
}

// detailWord reports the word, in capitals, of a line that PostgreSQL
// writes after an ERROR or LOG line to say more of it: "STATEMENT:  select
// …", "DETAIL:  Key (id)=(1) already exists.". It stands where the level
// does; the message starts with it, as it says what the line holds.
func detailWord(t []byte) bool {
	switch string(t) {
	case "DETAIL", "HINT", "STATEMENT", "CONTEXT", "QUERY", "LOCATION":
		return true
	}
	return false
}

// procName reports a process named in brackets after its program's name,
// as Heroku writes "app[web.1]:" and "heroku[router]:" where syslog
// writes a pid: a word, '[', a name, "]:".
func procName(t []byte) bool {
	k := bytes.IndexByte(t, '[')
	return k > 0 && isLetter(t[0]) && k < len(t)-3 && isLetter(t[k+1]) && bytes.IndexByte(t[k+1:], '[') < 0
}

// opensSentence reports a bare level word ending at s[j] that is rather
// the first word of a message: written in Title case ("Debug endpoint
// returned error 500", "Log rotation failed") or the pronoun I ("I failed
// to open"), then a lower-case word that does not end with a colon
// ("Fatal error:" is PHP's level, "I chromium:" Android's tag). Loggers
// write a bare level in capitals or before a separator; read as a level,
// a message's first word would hide its keywords behind a quiet level.
func opensSentence(s []byte, j int) bool {
	if j+1 >= len(s) || s[j] != ' ' || !isLower(s[j+1]) {
		return false
	}
	k := j + 1
	for k < len(s) && s[k] != ' ' {
		k++
	}
	if s[k-1] == ':' {
		return false
	}
	i := j - 1
	for i > 0 && isLetter(s[i-1]) {
		i--
	}
	if t := s[i:j]; len(t) > 1 {
		return isUpper(t[0]) && allLower(t[1:])
	}
	return s[i] == 'I'
}

// glogPrefix reports the level and date that open a glog/klog line: I0401.
func glogPrefix(t []byte) bool {
	if len(t) != 5 || (t[0] != 'I' && t[0] != 'W' && t[0] != 'E' && t[0] != 'F') {
		return false
	}
	for _, c := range t[1:] {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// glogSource reports the "file.go:42]" that closes a glog/klog header.
// sourceLine reports a source file and line ("reconcile.go:123",
// "app/main.py:42", "OrderService.java:31"): a name, a dot, a lower-case
// extension of up to five letters, a colon and digits.
func sourceLine(t []byte) bool {
	c := bytes.LastIndexByte(t, ':')
	d := bytes.LastIndexByte(t[:max(c, 0)], '.')
	return c > 0 && c < len(t)-1 && allOf(t[c+1:], cDigit) && d > 0 && c-d >= 2 && c-d <= 6 && allLower(t[d+1:c])
}

func glogSource(t []byte) bool {
	k := len(t) - 2
	for k >= 0 && isDigit(t[k]) {
		k--
	}
	return k > 0 && k < len(t)-2 && t[k] == ':'
}

// closeBracket returns the index of the ']' closing the '[' at s[i], within
// 512 bytes, or -1. It jumps from ']' to ']', counting the '[' passed.
func closeBracket(s []byte, i int) int {
	s = s[:min(len(s), i+512)]
	depth := 0
	for k := i; ; {
		c := bytes.IndexByte(s[k:], ']')
		if c < 0 {
			return -1
		}
		depth += bytes.Count(s[k:k+c], []byte{'['}) - 1
		if k += c; depth == 0 {
			return k
		}
		k++
	}
}

// timeField reports a date, time, number or timezone-like field: digits with
// separators (2015-07-29, 17:41:44,747, 2005.06.03, 081109, 1117838570,
// 2005-06-03-15.42.50.675872, 2023-01-02T03:04:05Z), or a month/weekday name.
// An IP address is one too, as it opens an access line where others open
// with a time: IPv4's digits and dots are, and so is IPv6 (ipv6Address).
func timeField(t []byte) bool {
	t = trimComma(t)
	if len(t) == 0 {
		return false
	}
	if isUpper(t[0]) {
		return isDateName(t) || meridiem(t)
	}
	or := class(0)
	for _, c := range t {
		or |= charClass[c]
	}
	return or&cNotTime == 0 && or&cDigit != 0 || or&cDigit != 0 && monthDate(t) ||
		or&cWordy == 0 && ipv6Address(t)
}

// ipv6Address reports an IPv6 address: groups of at most four hex digits
// between colons, eight of them or fewer around one "::" ("2001:db8::1",
// "::1", "fe80::1ff:fe23:4567:890a"), the last maybe an IPv4 address
// ("::ffff:10.0.0.1"). "dead:beef" and times are no such address.
func ipv6Address(t []byte) bool {
	if len(t) < 3 || len(t) > 45 {
		return false
	}
	colons, gap, run, dots := 0, false, 0, false
	for i, c := range t {
		switch {
		case c == ':':
			if dots {
				return false
			}
			colons++
			if i > 0 && t[i-1] == ':' {
				if gap {
					return false // a second "::"
				}
				gap = true
			}
			run = 0
		case c == '.':
			dots = true
		case isDigit(c) || charClass[c]&(cHexLower|cHexUpper) != 0:
			if run++; run > 4 && !dots {
				return false
			}
		default:
			return false
		}
	}
	return colons <= 7 && (gap || colons == 7)
}

// monthDate reports a date with a month name inside: 17/May/2015:08:05:32.
func monthDate(t []byte) bool {
	i := 0
	for i < len(t) && !isLetter(t[i]) {
		i++
	}
	j := i
	for j < len(t) && isLetter(t[j]) {
		j++
	}
	if j-i != 3 || !isMonth(t[i:j]) {
		return false
	}
	for _, c := range t[j:] {
		if charClass[c]&cNotTime != 0 {
			return false
		}
	}
	for _, c := range t[:i] {
		if charClass[c]&cNotTime != 0 {
			return false
		}
	}
	return true
}

func trimComma(t []byte) []byte {
	if len(t) > 0 && t[len(t)-1] == ',' {
		return t[:len(t)-1]
	}
	return t
}

func allTimeFields(t []byte) bool {
	t = t[skipBlank(t, 0):] // the kernel pads its uptime: "[    0.000000]"
	if len(t) == 0 || !isDigit(t[0]) && !isUpper(t[0]) {
		return false // neither a number nor a month or weekday name
	}
	n := 0
	for i := 0; i < len(t); {
		i = skipBlank(t, i)
		j := i
		for j < len(t) && t[j] != ' ' && t[j] != '\t' {
			if j++; j-i > 32 {
				return false // longer than any date or time
			}
		}
		if j > i {
			if !timeField(t[i:j]) {
				return false
			}
			n++
		}
		i = j
	}
	return n > 0
}

var levelWords = func() *wordSet {
	var all []string
	for _, n := range levelNames {
		all = append(all, n.words...)
	}
	return newWordSet(all...)
}()

// levelWord reports a log level in upper, title or lower case, or one of the
// single-letter levels V D I W E F (Android, glog style).
func levelWord(t []byte) bool {
	if len(t) == 1 {
		switch t[0] {
		case 'V', 'D', 'I', 'W', 'E', 'F':
			return true
		}
		return false
	}
	// Mixed case other than Title case ("ErRoR") is not a level.
	t = numberedLevel(t)
	return len(t) > 1 && levelWords.has(t) && (titleOrUpper(t) || allLower(t))
}

// groupLevel reports the inside of a [group] that holds a level: MySQL's
// "Note" and "System" (see groupLevels), Apache's "module:level"
// ("proxy:error", "mpm_event:notice", ":error"), or times then a level
// ("10:00:00 INF" as Serilog writes it, "2024-03-05 10:00:00 INFO"), or
// Celery's times, a colon and "LEVEL/Process".
func groupLevel(t []byte) bool {
	if oneOf(t, groupLevels...) && (titleOrUpper(t) || allLower(t)) {
		return true
	}
	k := len(t) - 1
	for k >= 0 && t[k] != ' ' && t[k] != ':' {
		k--
	}
	if k > 0 && t[k] == ' ' && t[k-1] == ':' {
		// Celery's "2026-11-29 02:00:00,123: INFO/MainProcess": times,
		// a colon, the level and its process.
		w := t[k+1:]
		if p := bytes.IndexByte(w, '/'); p > 0 && levelWord(w[:p]) {
			return allTimeFields(t[:k-1])
		}
	}
	if k < 0 || !levelWord(t[k+1:]) || len(t)-k-1 < 3 {
		return false
	}
	if t[k] == ' ' {
		return allTimeFields(t[:k])
	}
	for _, c := range t[:k] { // a module's name
		if !isAlnum(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// upperLevelTail reports a token that ends in an upper-case level after a
// '.' or ':': Laravel's "production.INFO" or a PostgreSQL
// log_line_prefix's "UTC:10.0.0.1(5432):app@db:[12]:LOG" (the token less
// its final colon).
func upperLevelTail(t []byte) bool {
	k := len(t) - 1
	if k >= 0 && isDigit(t[k]) { // DEBUG1
		k--
	}
	for k >= 0 && isUpper(t[k]) {
		k--
	}
	if k < 0 || t[k] != '.' && t[k] != ':' || len(t)-k-1 < 3 || !isUpper(t[k+1]) {
		return false
	}
	return levelWord(t[k+1:])
}

func allLower(t []byte) bool {
	for _, c := range t {
		if !isLower(c) {
			return false
		}
	}
	return true
}

// Month and weekday names.
var (
	monthNames = newWordSet(months...)
	dateNames  = newWordSet(append(append(months, weekdays...),
		"utc", "gmt", "cet", "cest", "eet", "eest", "wet", "bst", "ist", "jst", "kst", "msk",
		"est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt", "akst", "akdt", "hst", "aest", "aedt")...)
)

var weekdays = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

var months = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
	"january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"}

// isMonth and isDateName accept Title or UPPER case only: "may" and "sat"
// are also ordinary words.
func isMonth(t []byte) bool {
	return len(t) >= 3 && isUpper(t[0]) && monthNames.has(t) && titleOrUpper(t)
}

// meridiem reports the AM or PM after a 12-hour time, as Windows writes
// them ("3/11/2024 10:15:02 AM").
func meridiem(t []byte) bool {
	return len(t) == 2 && (t[0] == 'A' || t[0] == 'P') && t[1] == 'M'
}

func isDateName(t []byte) bool {
	return len(t) >= 3 && isUpper(t[0]) && dateNames.has(t) && titleOrUpper(t)
}

func titleOrUpper(t []byte) bool {
	if len(t) < 2 || !isUpper(t[0]) {
		return false
	}
	for k := 2; k < len(t); k++ {
		if isUpper(t[k]) != isUpper(t[1]) {
			return false
		}
	}
	return true
}

// wordSet is a small set of lower-case words for case-insensitive look-up,
// indexed by first letter and length so that most misses cost two tests.
type wordSet struct {
	lens  [256]uint32 // by first byte, either case: bit n set for a word of n letters
	words [26][]string
}

func newWordSet(words ...string) *wordSet {
	ws := &wordSet{}
	for _, w := range words {
		ws.lens[w[0]] |= 1 << len(w)
		ws.lens[w[0]-'a'+'A'] |= 1 << len(w)
		ws.words[w[0]-'a'] = append(ws.words[w[0]-'a'], w)
	}
	return ws
}

// has reports whether t, which is not empty, is in the set. It is small
// enough to be inlined: the usual miss costs no call.
func (ws *wordSet) has(t []byte) bool {
	return ws.lens[t[0]]>>uint(len(t))&1 != 0 && ws.lookup(t) // a shift past 31 gives 0
}

func (ws *wordSet) lookup(t []byte) bool {
	for _, w := range ws.words[lower(t[0])-'a'] {
		if equalFold(t, w) {
			return true
		}
	}
	return false
}

// javaQualified reports a Java class's qualified name, maybe with a
// method's after it: four or more dotted parts, the first a lower-case
// package, one a capitalised class ("org.apache.catalina.startup.Catalina.start").
// Dotted configuration keys ("mapreduce.task.attempt.id") have no class.
func javaQualified(t []byte) bool {
	if !isLower(t[0]) || bytes.Count(t, []byte{'.'}) < 3 {
		return false
	}
	class := false
	for i, c := range t {
		switch {
		case c == '.':
			class = class || i+1 < len(t) && isUpper(t[i+1])
		case !isAlnum(c) && c != '_' && c != '$':
			return false
		}
	}
	return class
}

// className reports a class's name in CamelCase, maybe with a line number
// ("OrderService", "MainVerticle:42"): a capital, lower-case letters, and
// a capital after one of them. A Title-case word ("Starting") is none.
func className(t []byte) bool {
	if c := bytes.IndexByte(t, ':'); c > 0 && allOf(t[c+1:], cDigit) {
		t = t[:c]
	}
	if len(t) < 3 || !isUpper(t[0]) {
		return false
	}
	camel := false
	for i, c := range t {
		if !isLetter(c) && !isDigit(c) {
			return false
		}
		camel = camel || i > 0 && isUpper(c) && isLower(t[i-1])
	}
	return camel
}

func isLoggerName(t []byte) bool {
	return bytes.IndexByte(t, '.') >= 0
}
