package logs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func FuzzAnalyze(f *testing.F) {
	// Small seeds: the fuzzer mutates and minimises faster than on the whole sample.
	lines := strings.SplitAfter(Sample(), "\n")
	f.Add([]byte(strings.Join(lines[:12], "")), false)
	f.Add([]byte(strings.Join(lines[138:148], "")), false)
	f.Add([]byte("a=1 b=\"x y\" {\"k\":[1,\"v\"]}\r\n\n[ERROR] E0101 \xff\n"), true)
	f.Add([]byte("Dec 10 06:55:46 host sshd[1]: Failed password for root from 1.2.3.4 port 22 ssh2\n"), false)
	f.Add([]byte("{\"msg\":\"unterminated\n\"GET /x HTTP/1.1\" \"\n"), true)
	f.Add([]byte("1710151505.5 ERROR boom\n\tat x\n1710151506 backend b has no server available!\n11.03.2024 10:15:05 x\n"), false)
	// A container's records (their runtime's times), an epoch column, a
	// JavaScript error's stack, GoogleTest's banner.
	f.Add([]byte("2026-11-29T12:00:01.1Z stdout F GET /a 200\n2026-11-29T12:00:02Z stdout P part \n2026-11-29T12:00:03Z stderr F panic: x\n2026-11-29T12:00:04Z stdout P cut"), false)
	f.Add([]byte("v a b start end\n2 eni-1 10.0.0.1 1795003200 1795003260 ACCEPT\n2 eni-1 10.0.0.2 1795003201 1795003261 REJECT\n2 eni-1 x 1795003202 1 OK\n"), true)
	f.Add([]byte("2026-11-29T12:00:00Z error: x\nError: connect ECONNREFUSED\n    at f (a.js:1:2)\n2026-11-29T12:00:01Z info: y\nTypeError: z\n[==========] Running 2 tests\n"), false)
	f.Fuzz(func(t *testing.T, input []byte, threshold bool) {
		opts := Options{IncludeAssignments: true}
		if threshold {
			opts.RareThreshold = 0.05
		}
		res, err := Analyze(context.Background(), input, opts)
		if err != nil {
			var le *LimitError
			if !errors.Is(err, ErrNoLines) && !errors.As(err, &le) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		checkInvariants(t, res)
	})
}

// FuzzStructured: any line read as JSON or logfmt has its spans inside the
// line, and its fields can be read back.
func FuzzStructured(f *testing.F) {
	f.Add(`{"level":"error","msg":"write failed","n":[1,{"a":"b"}],"log":{"level":"warn"}}`)
	f.Add(`time=2024-01-02T03:04:05Z level=info msg="user \"bob\" in" user=bob`)
	f.Add(`"Reconciling" object="default/web" generation=3`)
	f.Add(`{"msg": "unterminated`)
	f.Add(`a= b="" c`)
	f.Fuzz(func(t *testing.T, line string) {
		s := []byte(line)
		sp := scanStructured(s, 0)
		if !sp.ok {
			return
		}
		if sp.msg0 < 0 || sp.msg0 > sp.msg1 || sp.msg1 > len(s) || sp.lvl0 < 0 || sp.lvl0 > sp.lvl1 || sp.lvl1 > len(s) {
			t.Fatalf("spans out of the line: %+v", sp)
		}
		_ = structuredFields(line)
	})
}

// FuzzEntries: joining continuation lines keeps every invariant, and
// entries never outnumber lines.
func FuzzEntries(f *testing.F) {
	f.Add([]byte("2024-01-02 03:04:05 ERROR x failed\njava.lang.IllegalStateException: y\n\tat a.B.c(B.java:1)\nCaused by: z\n\t... 3 more\n2024-01-02 03:04:06 INFO ok\n"))
	f.Add([]byte("ERROR:root:boom\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: bad\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nKeyError: 'x'\n"))
	f.Add([]byte("  indented\n\tfirst\r\nnext\r\n"))
	f.Add([]byte("2024-01-02 03:04:05 ERROR x\n... 2 more\nWrapped by: a.B: c\n... 1 common frames omitted\n"))
	f.Add([]byte("info: A.B[1]\n      message\r\nfail: C[2]\n      x\n[stacktrace]\n#0 {main}\n\"} \n"))
	f.Add([]byte("line one\rline two\r2001:db8::1 - - x\r"))
	f.Fuzz(func(t *testing.T, input []byte) {
		res, err := Analyze(context.Background(), input, Options{IncludeAssignments: true, IncludeParams: true})
		if err != nil {
			return
		}
		checkInvariants(t, res)
	})
}

// FuzzMasks: any regex is either refused as a bad option or applied
// keeping every invariant.
func FuzzMasks(f *testing.F) {
	f.Add([]byte("order ORD-12 shipped\norder ORD-7 shipped to x=ORD-9\n"), `ORD-[0-9]+`)
	f.Add([]byte("a b c\n"), `(`)
	f.Add([]byte("aaa\n"), `a*`)
	f.Add([]byte("x y\n"), `\s+`)
	f.Fuzz(func(t *testing.T, input []byte, re string) {
		opts := Options{Masks: []Mask{{Name: "m", Regex: re}}, NamedPlaceholders: true, IncludeAssignments: true, IncludeParams: true}
		res, err := Analyze(context.Background(), input, opts)
		if err != nil {
			var le *LimitError
			if !errors.Is(err, ErrNoLines) && !errors.Is(err, ErrBadOption) && !errors.As(err, &le) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		checkInvariants(t, res)
	})
}
