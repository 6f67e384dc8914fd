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
