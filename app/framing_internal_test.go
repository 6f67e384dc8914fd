package app

import (
	"strconv"
	"strings"
	"testing"
)

// framedConn finds a head with both Content-Length and Transfer-Encoding
// however the stream is cut into reads, and only there: not in a body,
// a chunk or a trailer that holds the same text, nor in a head with one
// of the two.
func TestFramingFollowsTheStream(t *testing.T) {
	bad := "POST /b HTTP/1.1\r\nHost: x\r\ncontent-length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
	decoy := "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
	good := "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(decoy)) + "\r\n\r\n" + decoy +
		"POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"1a\r\n" + decoy[:26] + "\r\n" + "0\r\nX-T: y\r\n\r\n" +
		"GET /d HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + // HTTP/1.0: no body, as Go reads it
		"GET /e HTTP/1.1\n\n" // bare LF, as Go accepts
	for _, tc := range []struct {
		stream string
		want   int // index of the refused head's last byte, -1 for none
	}{
		{good, -1},
		{good + bad, len(good+bad) - 1},
		{bad, len(bad) - 1},
	} {
		for _, step := range []int{1, 2, 7, 64, len(tc.stream)} {
			c := &framedConn{}
			got := -1
			for i := 0; i < len(tc.stream) && got < 0; i += step {
				if end := c.follow([]byte(tc.stream[i:min(i+step, len(tc.stream))])); end >= 0 {
					got = i + end
				}
			}
			if got != tc.want {
				t.Errorf("reads of %d bytes: refused at %d, want %d in %q", step, got, tc.want, tc.stream)
			}
			if tc.want < 0 && c.state != inHead {
				t.Errorf("reads of %d bytes: state %d at the end of %q, want a new head", step, c.state, strings.TrimSpace(tc.stream))
			}
		}
	}
}
