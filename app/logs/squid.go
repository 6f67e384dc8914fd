package logs

import "bytes"

// Squid's native access log writes its result code and the HTTP status
// as one field, with no quote around the request:
//
//	1732859064.123      5 10.0.0.2 TCP_DENIED/403 3456 CONNECT blocked.example.com:443 - HIER_NONE/- text/html
//
// The field is an upper-case code ("TCP_MISS", "TCP_DENIED",
// "NONE_NONE"), a slash and the status, followed by the size and the
// method: only then is it read as an access line's status.
func squidStatus(msg []byte) accessLine {
	if k := squidField(msg); k >= 0 {
		return statusAt(msg, k)
	}
	return notAccess
}

// squidField returns where the three digits of Squid's status field start
// in msg, or -1. It reads digits as digits only, whatever their values
// ("TCP_MISS/000" of an aborted request too), as the word cache needs.
func squidField(msg []byte) int {
	for from := 0; ; {
		k := bytes.IndexByte(msg[from:], '/')
		if k < 0 {
			return -1
		}
		k += from
		from = k + 1
		a := k
		for a > 0 && (isUpper(msg[a-1]) || msg[a-1] == '_') {
			a--
		}
		if k-a < 3 || a > 0 && msg[a-1] != ' ' || bytes.IndexByte(msg[a:k], '_') < 0 {
			continue
		}
		if k+4 >= len(msg) || !isDigit(msg[k+1]) || !isDigit(msg[k+2]) || !isDigit(msg[k+3]) || msg[k+4] != ' ' {
			continue
		}
		// The size, then the method.
		i := k + 5
		j := i
		for j < len(msg) && isDigit(msg[j]) {
			j++
		}
		if j == i || j >= len(msg) || msg[j] != ' ' {
			return -1
		}
		m := j + 1
		e := m
		for e < len(msg) && isUpper(msg[e]) {
			e++
		}
		if e < len(msg) && msg[e] == ' ' && methodWord(msg[m:e]) {
			return k + 1
		}
		return -1
	}
}
