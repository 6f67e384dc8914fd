package logs

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

const benchLines = 200_000

// benchInput is the six Loghub samples concatenated and repeated to 200,000
// lines (about 29 MB, over MaxInputBytes: the benchmark calls the engine
// below the input limits).
func benchInput(b testing.TB) []byte {
	var all []byte
	for _, sys := range gaSystems {
		all = append(all, bytes.TrimRight(loghubLog(b, sys.name), "\n")...)
		all = append(all, '\n')
	}
	lines := bytes.SplitAfter(all, []byte{'\n'})
	lines = lines[:len(lines)-1] // the empty rest after the last newline
	var in []byte
	for n := range benchLines {
		in = append(in, lines[n%len(lines)]...)
	}
	return in
}

// splitLines is the baseline: find every line and trim its CR, nothing more.
func splitLines(in []byte) int {
	n := 0
	for len(in) > 0 {
		k := bytes.IndexByte(in, '\n')
		if k < 0 {
			k = len(in) - 1
		}
		line := in[:k]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(line) > 0 {
			n++
		}
		in = in[k+1:]
	}
	return n
}

// BenchmarkAnalyze runs the whole engine and, in the same loop, the
// line-splitting baseline, and reports both rates and their ratio, on one
// core (GOMAXPROCS=1: one pass) and on two (the input read in two parts at
// once).
func BenchmarkAnalyze(b *testing.B) {
	in := benchInput(b)
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			benchAnalyze(b, in)
		})
	}
}

func benchAnalyze(b *testing.B, in []byte) {
	ctx := context.Background()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var engine, split time.Duration
	iters := 0
	for b.Loop() {
		t0 := time.Now()
		if n := splitLines(in); n != benchLines {
			b.Fatalf("split %d lines", n)
		}
		t1 := time.Now()
		res, err := run(ctx, in, benchLines, Options{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Summary.Lines != benchLines {
			b.Fatalf("analysed %d lines", res.Summary.Lines)
		}
		engine += time.Since(t1)
		split += t1.Sub(t0)
		iters++
	}
	lines := float64(benchLines * iters)
	b.ReportMetric(lines/engine.Seconds(), "engine_lines/s")
	b.ReportMetric(lines/split.Seconds(), "split_lines/s")
	b.ReportMetric(engine.Seconds()/split.Seconds(), "ratio")
}
