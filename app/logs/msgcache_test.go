package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMessageCacheChangesNothing analyses inputs with the message cache and
// without it and wants the same results: the Loghub samples (about half of
// their messages repeat), the built-in sample, and an input of many more
// distinct messages than the cache holds, repeated at varying distances
// with other headers, keywords in the header, the message and masked values.
func TestMessageCacheChangesNothing(t *testing.T) {
	inputs := map[string][]byte{"sample": []byte(Sample())}
	for _, sys := range gaSystems { // when present (always in CI, see loghubDir)
		if raw, err := os.ReadFile(filepath.Join(loghubPath, sys.name, sys.name+"_2k.log")); err == nil {
			inputs[sys.name] = raw
		}
	}
	var b bytes.Buffer
	levels := []string{"INFO", "ERROR", "WARN"}
	for i := range 3000 {
		m := (i * 7919) % (3 * cacheSlots) // distinct messages, revisited out of order
		fmt.Fprintf(&b, "2024-01-02 03:04:%02d %s [w-%d] job %d done path=/tmp/retry-%d state=ok\n",
			i%60, levels[i%3], i%5, m%40, m)
		if i%9 == 0 {
			fmt.Fprintf(&b, "2024-01-02 03:04:%02d INFO msg=\"upstream timed out\" id=%d\n", i%60, m%3)
		}
	}
	inputs["churn"] = b.Bytes()
	for name, in := range inputs {
		total := bytes.Count(in, []byte{'\n'}) + 1
		opts := Options{IncludeAssignments: true, IncludeParams: true}
		with, err := newAnalyzer(opts, in, total, nil, nil).run(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		x, _ := json.Marshal(with)
		// Without the message cache every line is tokenized, through the
		// word cache or (all off) the plain way, its header walked afresh
		// rather than fitted to a layout.
		for _, off := range []struct {
			what                string
			msgs, word, layouts bool
		}{{"the message cache", true, false, false}, {"the message, word and layout caches", true, true, true}} {
			a := newAnalyzer(opts, in, total, nil, nil)
			a.msgs.off, a.z.cache.off, a.head.layouts.off = off.msgs, off.word, off.layouts
			without, err := a.run(context.Background(), in)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if y, _ := json.Marshal(without); !bytes.Equal(x, y) {
				t.Errorf("%s: %s changed the result (%d matches, %d templates with; %d, %d without)",
					name, off.what, len(with.Matches), len(with.Templates), len(without.Matches), len(without.Templates))
			}
		}
	}
}

// TestMessageCacheMendedLines repeats messages with invalid UTF-8, which
// are mended in scratch memory the next line overwrites: the cache must
// keep a copy of them, not a view of the scratch.
func TestMessageCacheMendedLines(t *testing.T) {
	// Many distinct messages of one length, which share cache entries.
	var b bytes.Buffer
	for i := range 2000 {
		n := (i * 7919) % 1000
		word := []byte{'a' + byte(n%26), 'a' + byte(n/26%26), 'a' + byte(n/676)}
		fmt.Fprintf(&b, "2024-01-02 03:04:%02d task \xff%s %s\n", i%60, word, []string{"failed", "passed"}[n%2])
	}
	in := b.Bytes()
	total := bytes.Count(in, []byte{'\n'})
	results := make([][]byte, 2)
	for k, off := range []bool{false, true} {
		a := newAnalyzer(Options{IncludeAssignments: true}, in, total, nil, nil)
		a.msgs.off = off
		res, err := a.run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		results[k], _ = json.Marshal(res)
	}
	if !bytes.Equal(results[0], results[1]) {
		t.Error("the message cache changed the result of mended lines")
	}
}

func TestWithin(t *testing.T) {
	in := []byte("0123456789")
	for _, c := range []struct {
		b    []byte
		want bool
	}{{in[2:5], true}, {in, true}, {in[:0], false}, {[]byte("234"), false}} {
		if got := within(c.b, in); got != c.want {
			t.Errorf("within(%q) = %v", c.b, got)
		}
	}
}

// FuzzCachesChangeNothing analyses an input followed by itself with every
// digit changed and by itself again, so that the caches meet messages
// alike but for their digits, with the caches and without, and wants the
// same results.
func FuzzCachesChangeNothing(f *testing.F) {
	f.Add([]byte("2024-01-02 03:04:05 INFO job 12 done path=/tmp/x-1 state=ok\n"))
	f.Add([]byte("Dec 10 06:55:46 host sshd[1]: Failed password for root from 1.2.3.4 port 22 ssh2\n"))
	f.Add([]byte("a=1 b=\"x 2\" {\"k\":[1,\"v\"]}\n[ERROR] E0101 \xff9\nGET /a/1 \"GET /x HTTP/1.1\" 500 12\n"))
	f.Add([]byte("10.1.2.3 - - [10/Oct/2024:13:55:36 +0000] \"GET /i 1 HTTP/1.1\" 404 2326\nReceived block blk_-12 of size 3 from /10.0.0.1\n"))
	// Levels, statuses and headers read from a mark, a digit or a field:
	// Redis, Cisco, Squid (an aborted /000, then a 503), Django, an event.
	f.Add([]byte("1:M 29 Nov 2026 05:44:16.123 * Ready\n1:M 29 Nov 2026 05:44:17.123 # Background saving error\n" +
		"Nov 29 05:44:19 fw1 : %ASA-4-106023: Deny tcp\nNov 29 05:44:21 fw1 : %ASA-3-710003: TCP access denied\n"))
	f.Add([]byte("1732859062.123 1 10.0.0.1 TCP_MISS/000 0 GET http://a/ - HIER_NONE/- -\n" +
		"1732859063.123 1 10.0.0.1 TCP_MISS/503 0 GET http://a/ - HIER_NONE/- -\n" +
		"INFO 2026-11-29 05:44:16,123 views 1234 140234 Request finished\n" +
		`{"kind":"Event","verb":"get","objectRef":{"resource":"pods"},"responseStatus":{"code":500}}` + "\n"))
	f.Fuzz(func(t *testing.T, input []byte) {
		other := bytes.Clone(input)
		for i, c := range other {
			if isDigit(c) {
				other[i] = '0' + (c-'0'+3)%10
			}
		}
		in := append(append(append(bytes.Clone(input), '\n'), other...), append([]byte{'\n'}, input...)...)
		if len(in) > MaxInputBytes {
			return
		}
		total := lineCount(in)
		var results [2][]byte
		for k, off := range []bool{false, true} {
			a := newAnalyzer(Options{IncludeAssignments: true}, in, total, nil, nil)
			a.msgs.off, a.z.cache.off, a.head.layouts.off = off, off, off
			res, err := a.run(context.Background(), in)
			if err != nil {
				return
			}
			results[k], _ = json.Marshal(res)
		}
		if !bytes.Equal(results[0], results[1]) {
			t.Errorf("the caches changed the result of %q", in)
		}
	})
}
