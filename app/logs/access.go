package logs

import (
	"bytes"
	"encoding/binary"
	"strconv"
)

// An HTTP access line says how a request went in one field, its status:
//
//	1.2.3.4 - bob [05/Mar/2024:15:00:00 +0100] "GET /static/error.css HTTP/1.1" 200 123 "referer" "agent"
//	haproxy[1]: 1.2.3.4:5 [05/Mar/2024:15:00:00.000] fe be/<NOSRV> 0/-1/-1/-1/0 503 212 - - SC-- 1/1/0/0/0 0/0 "GET / HTTP/1.1"
//
// Read as prose, its URL, referer and user agent are words like any
// other: a 200 for /static/error.css would be an error and a 503 nothing.
// So on an access line the status decides, as a level does on other
// lines, and no keyword on the line counts:
//   - 500 to 599 is a match: 502, 503 and 504 (bad gateway, service
//     unavailable, gateway timeout: the upstream down or slow) are
//     reliability, as the keywords "unavailable" and "timeout" are; the
//     rest is error;
//   - 429 (too many requests) is a match too, in reliability: the
//     service throttles, as the keywords "throttled" and "rate limited"
//     say;
//   - any other status (1xx to 4xx: fine, or the client's doing) is none.
//
// The match's keyword is the status as written ("503") and its offsets
// are the status's. For the rest the line is read as at a quiet level
// (see analyzer.line): a traceback printed after it is an entry of its
// own, as no server prints one as part of a request's line.
//
// A plain line is an access line when it has a quoted request line,
// "METHOD target HTTP/x.y", and a status: the number right after it (the
// common and combined formats of nginx, Apache and most servers and
// proxies), or, as HAProxy writes, the number after the timers a/b/c/d/e
// before it, or, as AWS's load balancers write, the first of the two
// statuses after three timings, before the byte counts:
//
//	http 2024-03-05T15:00:00.1Z app/lb/50dc 1.2.3.4:5 10.0.0.1:80 0.000 0.001 0.000 502 - 34 366 "GET http://x/ HTTP/1.1" ...
//
// Two formats name the request without quotes: ASP.NET Core's "Request
// finished HTTP/1.1 GET http://host/path - 500 0 - 12.3ms" (the status
// is the first after the URL; before .NET 6, "Request finished in
// 12.3ms 500"), and the tables of Go's web frameworks, fields between
// bars, one the status and one the method, alone or before the path
// (gin's "[GIN] 2024/03/05 - 15:00:00 | 500 | 1.2ms | 1.2.3.4 | GET
// "/x"", fiber's "15:00:00 | 500 | 1.2ms | 1.2.3.4 | GET | /x | -"):
// there the status may be in what the header finder took for the
// header, so the whole line is read (see tableStatus).
// A JSON or logfmt line is one when it names the request's method (in a
// method key, or a request key holding a request line) and has a status
// key (see httpSpans): Heroku's router writes one after its header
// ("heroku[router]: at=error code=H12 method=GET path="/" status=503").
//
// The test runs on every distinct message, so it must be cheap on lines
// that are no access lines: in a plain line one search for a quote, which
// most lines fail, then a look at the bytes after each quote; in a
// structured line a look at each key as the structured scan meets it; no
// regexp.

// accessLine is the status of an HTTP access line: at is the byte offset
// of its three digits in the message (in the line, once the analyzer adds
// the header's length), -1 for a line that is no access line.
type accessLine struct {
	at   int
	code int
}

var notAccess = accessLine{at: -1}

// ok reports an access line.
func (s accessLine) ok() bool { return s.at >= 0 }

// match is the hit and category the status gives the line, ok false for
// none. The hit's kw is minus the code (see statusWord).
func (s accessLine) match() (h keywordHit, cat Category, ok bool) {
	h = keywordHit{kw: -s.code, start: s.at, end: s.at + 3}
	switch {
	case s.code == 502 || s.code == 503 || s.code == 504 || s.code == 429:
		return h, CategoryReliability, true
	case s.code >= 500:
		return h, CategoryError, true
	}
	return h, "", false
}

// statusWord is the keyword of a match an HTTP status made: the status.
// Such a hit holds minus the code in kw, below -1, so that every test of
// kw >= 0 reads it as no table keyword. It is asked of every match, so it
// is kept small enough to inline.
func statusWord(h keywordHit) (string, bool) {
	if h.kw >= -1 {
		return "", false
	}
	return codeText(-h.kw), true
}

// codeText stays out of line, so that statusWord inlines into record,
// which every match passes through.
//
//go:noinline
func codeText(code int) string { return strconv.Itoa(code) }

var httpProto = []byte(" HTTP/")

// accessStatus is the status of msg, a line's message after a header of
// hdr bytes, when it is an HTTP access line; st is its structured fields.
// It depends on msg alone, so a repeated message's is kept with its shape
// (see msgCache).
func accessStatus(msg []byte, st *structSpans, hdr int) accessLine {
	if st.ok {
		return st.http.status(msg, hdr)
	}
	if k := aspNetAt(msg); k >= 0 {
		return aspNetStatus(msg, k)
	}
	if bytes.IndexByte(msg, '"') < 0 {
		return squidStatus(msg) // no request line in quotes: maybe Squid's
	}
	// Quotes first: most lines have none, and one search for a byte is
	// the cheapest test there is. The first request line decides.
	for q := bytes.IndexByte(msg, '"'); q >= 0; {
		if end, ok := requestAt(msg, q); ok {
			if end+2 < len(msg) && msg[end+1] == ' ' {
				if s := statusAt(msg, end+2); s.ok() {
					return s
				}
			}
			if s := elbStatus(msg[:q]); s.ok() {
				return s
			}
			return haproxyStatus(msg[:q])
		}
		n := bytes.IndexByte(msg[q+1:], '"')
		if n < 0 {
			break
		}
		q += n + 1
	}
	return notAccess
}

// requestAt reads the request line quoted at s[q], "METHOD target
// HTTP/1.1" (or HTTP/2, HTTP/2.0), and returns the index of its closing
// quote.
func requestAt(s []byte, q int) (int, bool) {
	m := q + 1
	if !httpMethod(s[m:]) {
		return 0, false
	}
	t := m + bytes.IndexByte(s[m:], ' ') + 1
	e := t
	for e < len(s) && !isSpace(s[e]) && s[e] != '"' {
		e++
	}
	if e == t || !bytes.HasPrefix(s[e:], httpProto) {
		return 0, false
	}
	v := e + len(httpProto)
	if v >= len(s) || !isDigit(s[v]) {
		return 0, false
	}
	v++
	if v+1 < len(s) && s[v] == '.' && isDigit(s[v+1]) {
		v += 2
	}
	if v >= len(s) || s[v] != '"' {
		return 0, false
	}
	return v, true
}

// statusAt reads the status at s[i]: three digits from 100 to 599 that end
// the line or a token.
func statusAt(s []byte, i int) accessLine {
	if i+3 > len(s) || s[i] < '1' || s[i] > '5' || !isDigit(s[i+1]) || !isDigit(s[i+2]) ||
		i+3 < len(s) && !isSpace(s[i+3]) {
		return notAccess
	}
	return accessLine{at: i, code: int(s[i]-'0')*100 + int(s[i+1]-'0')*10 + int(s[i+2]-'0')}
}

// haproxyStatus finds the status in s, the line before its request: the
// token after HAProxy's five timers (Tq/Tw/Tc/Tr/Tt, "0/0/1/0/1", -1 for
// a step not reached, + before the total with logasap).
func haproxyStatus(s []byte) accessLine {
	for i := skipSpace(s, 0); i < len(s); {
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if timers(s[i:j]) && j+1 < len(s) && s[j] == ' ' {
			return statusAt(s, j+1)
		}
		i = skipSpace(s, j)
	}
	return notAccess
}

// elbStatus finds the status in s, the line of an AWS load balancer
// (ALB or classic ELB) before its request: the last seven tokens are
// three timings (seconds, -1 for a step not reached), the balancer's
// status, the target's (or "-", or 0 when none answered) and the bytes
// received and sent.
func elbStatus(s []byte) accessLine {
	var tok [7][2]int // the last seven tokens, last first
	j := len(s)
	for n := range tok {
		for j > 0 && s[j-1] == ' ' {
			j--
		}
		i := j
		for i > 0 && s[i-1] != ' ' {
			i--
		}
		if i == j {
			return notAccess
		}
		tok[n] = [2]int{i, j}
		j = i
	}
	word := func(n int) []byte { return s[tok[n][0]:tok[n][1]] }
	if !bareNumber(word(0)) || !bareNumber(word(1)) {
		return notAccess
	}
	if t := word(2); !(len(t) == 1 && (t[0] == '-' || t[0] == '0')) && !statusAt(t, 0).ok() {
		return notAccess
	}
	for n := 4; n < 7; n++ {
		if !timing(word(n)) {
			return notAccess
		}
	}
	return statusAt(s[:tok[3][1]], tok[3][0])
}

// timing reports a number of seconds, "0.001", or -1.
func timing(t []byte) bool {
	if string(t) == "-1" {
		return true
	}
	d := bytes.IndexByte(t, '.')
	return d > 0 && d < len(t)-1 && bareNumber(t[:d]) && bareNumber(t[d+1:])
}

var requestFinished = []byte("Request finished ")

// aspNetAt is where ASP.NET Core's "Request finished" opens msg: at its
// first letter, or after the logger and event id that the console's
// single-line format writes first ("Microsoft.AspNetCore.Hosting.
// Diagnostics[2] Request finished …"); -1 for none. A byte or two rule
// out most messages.
func aspNetAt(msg []byte) int {
	k := skipSpace(msg, 0)
	if k < len(msg) && msg[k] == 'M' {
		if e := bytes.IndexByte(msg[k:], ' '); e > 1 && msg[k+e-1] == ']' {
			k += e + 1
		}
	}
	if k < len(msg) && msg[k] == 'R' && bytes.HasPrefix(msg[k:], requestFinished) {
		return k
	}
	return -1
}

// aspNetStatus reads the status of ASP.NET Core's "Request finished"
// line, msg, from msg[k] on: "Request finished HTTP/1.1 GET
// http://host/path - 500 0 - 12.3ms" (.NET 8; .NET 6 writes the request's
// content type and length before the '-', "- -" when it has no body),
// where the status follows the first '-' after the URL and any other
// '-'; or, before .NET 6, "Request finished in 12.3ms 500
// application/json".
func aspNetStatus(msg []byte, k int) accessLine {
	i := k + len(requestFinished)
	field := func() (int, int) {
		i = skipSpace(msg, i)
		a := i
		for i < len(msg) && !isSpace(msg[i]) {
			i++
		}
		return a, i
	}
	dash := func(a, b int) bool { return b-a == 1 && msg[a] == '-' }
	a, b := field()
	switch {
	case string(msg[a:b]) == "in":
		field() // the duration
		a, b = field()
	case bytes.HasPrefix(msg[a:b], httpProto[1:]):
		if a, b = field(); !methodWord(msg[a:b]) {
			return notAccess
		}
		if a, b = field(); !bytes.Contains(msg[a:b], []byte("://")) {
			return notAccess
		}
		// The request's content type and length (.NET 6 and 7), then '-'.
		for n := 0; n < 3; n++ {
			if a, b = field(); dash(a, b) {
				break
			}
		}
		if !dash(a, b) {
			return notAccess
		}
		for dash(a, b) {
			a, b = field()
		}
	default:
		return notAccess
	}
	if b-a != 3 {
		return notAccess
	}
	return statusAt(msg[:b], a)
}

// continuedAccess is the status of the line that continues an entry at
// input[first:] (after its line end), when it is an HTTP access line:
// .NET's console log writes "info: Microsoft.AspNetCore.Hosting.
// Diagnostics[2]" and the message on the next line, indented. The
// status's offset is the input's.
func continuedAccess(input []byte, first, end int) accessLine {
	i := first // past the line end of the first line
	if i < end && input[i] == '\r' {
		i++
	}
	i++
	line, _ := nextLine(input[:end], i)
	k := skipSpace(line, 0)
	if k == 0 {
		return notAccess
	}
	st := accessStatus(line[k:], &structSpans{}, 0)
	if st.ok() {
		st.at += i + k
	}
	return st
}

// mayBeTable reports a message that may end a table row of an HTTP
// access line (see tableStatus): one with a bar, one that opens with a
// method (gin's, whose bars the header finder took for the header's), or
// none (fiber's, all of whose fields it took).
func mayBeTable(msg []byte) bool {
	k := skipSpace(msg, 0)
	return k == len(msg) || isUpper(msg[k]) && httpMethod(msg[k:]) || bytes.IndexByte(msg[k:], '|') >= 0
}

// tableStatus is the status of line, when it is a table row of an HTTP
// access line: fields between bars ('|'), at least four, one of them a
// status alone and another a method, alone or before its path (quoted or
// not). The status's offset is the line's.
func tableStatus(line []byte) accessLine {
	status, method, fields := notAccess, false, 0
	for i := 0; i <= len(line); {
		j := bytes.IndexByte(line[i:], '|')
		if j < 0 {
			j = len(line)
		} else {
			j += i
		}
		fields++
		a, b := i, j
		for a < b && isSpace(line[a]) {
			a++
		}
		for b > a && isSpace(line[b-1]) {
			b--
		}
		f := line[a:b]
		switch {
		case len(f) == 3 && !status.ok():
			if st := statusAt(line[:b], a); st.ok() {
				status = st
			}
		case methodWord(f) || httpMethod(f):
			method = true
		}
		i = j + 1
	}
	if fields < 4 || !method {
		return notAccess
	}
	return status
}

// timers reports five signed numbers joined by slashes.
func timers(t []byte) bool {
	n := 0
	for i := 0; i < len(t); {
		if n > 0 {
			if t[i] != '/' {
				return false
			}
			i++
		}
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			i++
		}
		d := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == d {
			return false
		}
		n++
	}
	return n == 5
}

// httpSpans are the fields of a JSON or logfmt line that make it an HTTP
// access line, as byte offsets in the line, each equal when absent: the
// value of a status key, and of a method or a request key. The
// structured scan notes them on its way (structSpans.note), so that the
// line is not read again. A status key alone is not enough: it could be a
// job's or an order's.
type httpSpans struct {
	stat0, stat1 int32
	plain        bool // the status is a plain "status" key's
	meth0, meth1 int32
	req0, req1   int32
	// audit: the status is a Kubernetes audit event's responseStatus.code,
	// which needs no method beside it (see noteEvent).
	audit bool
}

// Keys are matched ignoring case on their last dotted part, so that a
// nested key counts as a flattened one ("http.status_code",
// {"http":{"status_code":…}}). Status keys: the "status" of nginx's JSON
// formats, Caddy and most loggers, which any other of them overrides, as
// Datadog writes the level in "status" and the code in
// "http.status_code"; Elastic's status_code, Traefik's DownstreamStatus,
// Envoy's and Istio's response_code, and the W3C fields sc-status and
// cs-method, which Azure App Service writes as ScStatus and CsMethod.
// Method keys: Caddy's, Datadog's, Elastic's and Envoy's "method",
// Traefik's RequestMethod; "request" holds nginx's $request.
var (
	statusKeys = []string{"status", "status_code", "statuscode", "http_status", "downstreamstatus",
		"response_code", "sc-status", "scstatus"}
	methodKeys  = []string{"method", "request_method", "requestmethod", "http_method", "cs-method", "csmethod"}
	requestKeys = []string{"request"}
)

// The last four letters of those keys, lowercase, read as a little-endian
// number, and by last letter the one a key must end with: note is called
// for every key of every structured line, and these looks reject most
// keys at once.
const (
	tailStatus  = 'a' | 't'<<8 | 'u'<<16 | 's'<<24
	tailCode    = 'c' | 'o'<<8 | 'd'<<16 | 'e'<<24
	tailMethod  = 't' | 'h'<<8 | 'o'<<16 | 'd'<<24
	tailRequest = 'u' | 'e'<<8 | 's'<<16 | 't'<<24
)

var httpTails = [256]uint32{
	's': tailStatus, 'S': tailStatus, 'e': tailCode, 'E': tailCode,
	'd': tailMethod, 'D': tailMethod, 't': tailRequest, 'T': tailRequest,
}

// note records the value s[v0:v1] of key k when it is one of the above.
// It is small enough to inline, and its one look rejects most keys.
func (h *httpSpans) note(k []byte, v0, v1 int) {
	if len(k) >= len("status") && httpTails[k[len(k)-1]] != 0 {
		h.noteKey(k, v0, v1)
	}
}

func (h *httpSpans) noteKey(k []byte, v0, v1 int) {
	// OR 0x20 lowers letters and turns no other byte into one.
	tail := binary.LittleEndian.Uint32(k[len(k)-4:]) | 0x20202020
	if tail != httpTails[k[len(k)-1]] {
		return
	}
	switch tail {
	case tailStatus, tailCode:
		if r := partRank(k, statusKeys); r >= 0 && !h.audit && (h.stat1 == h.stat0 || h.plain && r > 0) {
			h.stat0, h.stat1, h.plain = int32(v0), int32(v1), r == 0
		}
	case tailMethod:
		if h.meth1 == h.meth0 && partRank(k, methodKeys) >= 0 {
			h.meth0, h.meth1 = int32(v0), int32(v1)
		}
	default:
		if h.req1 == h.req0 && partRank(k, requestKeys) >= 0 {
			h.req0, h.req1 = int32(v0), int32(v1)
		}
	}
}

// partRank is the rank in keys of the last dotted part of key k, -1 for
// none.
func partRank(k []byte, keys []string) int {
	for r, w := range keys {
		if n := len(k) - len(w); n >= 0 && (n == 0 || k[n-1] == '.') && equalFold(k[n:], w) {
			return r
		}
	}
	return -1
}

// status is the status of the structured message msg after a header of
// hdr bytes (the spans' offsets are the line's), when its fields make it
// an access line.
func (h *httpSpans) status(msg []byte, hdr int) accessLine {
	if h.stat1-h.stat0 != 3 {
		return notAccess
	}
	m0, m1, r0, r1 := int(h.meth0)-hdr, int(h.meth1)-hdr, int(h.req0)-hdr, int(h.req1)-hdr
	if !h.audit && !(m1 > m0 && capitals(msg[m0:m1])) && !(r1 > r0 && requestValue(msg, r0, r1)) {
		return notAccess
	}
	at := int(h.stat0) - hdr
	return statusAt(msg[:at+3], at)
}

// capitals reports a word of capital letters: a method's name.
func capitals(w []byte) bool {
	for _, c := range w {
		if !isUpper(c) {
			return false
		}
	}
	return len(w) > 0
}

// requestValue reports a quoted value s[v0:v1] that is a request line.
func requestValue(s []byte, v0, v1 int) bool {
	if v0 == 0 || s[v0-1] != '"' {
		return false
	}
	end, ok := requestAt(s, v0-1)
	return ok && end == v1
}
