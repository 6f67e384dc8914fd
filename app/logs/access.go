package logs

import (
	"bytes"
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
//   - any other status (1xx to 4xx: fine, or the client's doing) is none.
//
// The match's keyword is the status as written ("503") and its offsets
// are the status's. For the rest the line is read as at a quiet level
// (see analyzer.line): a traceback printed after it is an entry of its
// own, as no server prints one as part of a request's line.
//
// An access line has a quoted request line, "METHOD target HTTP/x.y",
// and its status is
//   - the number right after it (the common and combined formats of
//     nginx, Apache and most servers and proxies);
//   - or, as HAProxy writes, the number after the timers a/b/c/d/e
//     before it.
//
// The test runs on every distinct message, so it must be cheap on lines
// that are no access lines: one search for a quote, which most lines fail,
// then a look at the bytes after each quote; no regexp.

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
	case s.code == 502 || s.code == 503 || s.code == 504:
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

// accessStatus is the status of msg, a line's message, when it is an HTTP
// access line. It depends on msg alone, so a repeated message's is kept
// with its shape (see msgCache). A structured (JSON or logfmt) message is
// no access line of this kind.
func accessStatus(msg []byte, structured bool) accessLine {
	if structured {
		return notAccess
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
