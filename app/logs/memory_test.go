package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileLog is a log made to have as many shapes as lines, of size
// bytes or MaxLines lines: JSON lines each with a key of its own (as a
// 9.4 MB log took 34 times its size), JSON lines each with a field name
// of its own, or short error lines each with a word of its own.
func hostileLog(kind string, size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size && i < MaxLines-1; i++ {
		ts := fmt.Sprintf("2026-11-29T12:%02d:%02d.%03dZ", (i/60000)%60, (i/1000)%60, i%1000)
		switch kind {
		case "json key":
			fmt.Fprintf(&b, `{"ts":"%s","req_%d":"ok"}`+"\n", ts, i)
		case "json field":
			fmt.Fprintf(&b, `{"ts":"%s","%s":"%d"}`+"\n", ts, word(i), i)
		case "error words":
			fmt.Fprintf(&b, "error %s\n", word(i))
		}
	}
	return []byte(b.String())
}

// peakHeap is the most heap in use while f runs, over what was in use
// before, sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return max(peak.Load(), m0.HeapInuse) - m0.HeapInuse
}

// TestMemoryWithinEstimate holds an analysis of a log of one shape per
// line, with the page's options, to the analysis pool's estimate of its
// memory (20 times the body and 4 MiB, app/analysis.go), less the input's
// own copy. The shapes past the budget fold (see shapeBudget).
func TestMemoryWithinEstimate(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("analyses 9 MB logs; measures memory, which the race detector changes")
	}
	for _, kind := range []string{"json key", "json field", "error words"} {
		in := hostileLog(kind, 9_400_000)
		var res *Result
		peak := peakHeap(func() {
			var err error
			res, err = Analyze(context.Background(), in, Options{IncludeParams: true, IncludePatterns: true})
			if err != nil {
				t.Fatal(err)
			}
		})
		limit := uint64(19*len(in) + 4<<20)
		t.Logf("%s: %d bytes, %d lines, %d templates: peak heap %.1f MiB (%.1f times the input), limit %.1f MiB",
			kind, len(in), res.Summary.Lines, res.Summary.Templates, float64(peak)/(1<<20), float64(peak)/float64(len(in)), float64(limit)/(1<<20))
		if peak > limit {
			t.Errorf("%s: peak heap %d bytes, over the estimate's %d", kind, peak, limit)
		}
	}
}

// TestFoldedShapesKeepKeywords wants the lines of a log of more shapes
// than its size affords counted and matched as before: their shapes fold,
// their keywords do not.
func TestFoldedShapesKeepKeywords(t *testing.T) {
	in := hostileLog("error words", 4<<20)
	res, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := res.Summary.Lines
	if res.Summary.Matched != lines { // error, or fatal for a word such as "fatal"
		t.Errorf("%d of %d lines matched (%+v)", res.Summary.Matched, lines, res.Summary.ByCategory)
	}
	if res.Summary.Templates >= lines/10 {
		t.Errorf("%d templates for %d lines: the shapes did not fold", res.Summary.Templates, lines)
	}
	folded := false
	for _, tp := range res.Templates {
		folded = folded || tp.Template == "<*> <*>"
	}
	if !folded {
		t.Errorf("no template of folded lines")
	}
}

// TestAnswerBounded wants the JSON answer to a log of error lines, each a
// match with its fields, no larger than its input: the matches listed
// are bounded (MaxResultMatches, MaxResultMatchBytes), their count is not.
func TestAnswerBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 9_400_000; i++ {
		fmt.Fprintf(&b, `{"ts":"2026-11-29T12:00:%02dZ","level":"error","msg":"request failed","req_%d":"ok","user":"u%d"}`+"\n", i%60, i, i%97)
	}
	in := []byte(b.String())
	res, err := Analyze(context.Background(), in, Options{IncludeParams: true, IncludePatterns: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes in, %d out, %d matches listed of %d", len(in), len(out), len(res.Matches), res.Summary.Matched)
	if len(out) > len(in) {
		t.Errorf("answer of %d bytes for %d of input", len(out), len(in))
	}
	if len(res.Matches) != MaxResultMatches || res.Truncated == nil || res.Truncated.Matches != res.Summary.Matched-MaxResultMatches {
		t.Errorf("%d matches listed, truncated %+v; want %d and the rest counted", len(res.Matches), res.Truncated, MaxResultMatches)
	}
	if tl := res.Timeline; tl == nil || tl.Buckets[0].Error+tl.Buckets[len(tl.Buckets)-1].Error == 0 {
		t.Errorf("the timeline lost the matches not listed")
	} else {
		n := 0
		for _, bk := range tl.Buckets {
			n += bk.Error
		}
		if n != res.Summary.Matched {
			t.Errorf("the timeline counts %d errors, the summary %d", n, res.Summary.Matched)
		}
	}
	// Long lines: the bytes bound the list first.
	long := strings.Repeat(`{"level":"error","msg":"failed `+strings.Repeat("x", 2000)+`"}`+"\n", 4000)
	res, err = Analyze(context.Background(), []byte(long), Options{})
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, m := range res.Matches {
		size += len(m.Text) + headerBytes(&m.LineHeader)
	}
	if size > MaxResultMatchBytes+4096 || res.Truncated == nil || res.Truncated.Matches == 0 {
		t.Errorf("%d matches of %d bytes listed, truncated %+v", len(res.Matches), size, res.Truncated)
	}
}

// TestCompareMemoryWithinEstimate holds a comparison of two logs of one
// shape per line, each of the side's limits, to the estimate as the
// analysis (the body is both sides): a comparison reads its matches'
// categories, not the matches.
func TestCompareMemoryWithinEstimate(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("compares 5 MB logs; measures memory, which the race detector changes")
	}
	// (A log of short error lines, each a match, takes 19-21 times its
	// size compared, against 18-21 times analysed: what every line costs
	// is most of it, and a comparison holds every entry's template.)
	for _, kind := range []string{"json key"} {
		in := hostileLog(kind, 2*MaxCompareSideBytes-2)
		half := len(in) / 2
		for half < len(in) && in[half-1] != '\n' {
			half++
		}
		base, cur := in[:half], in[half:]
		if lineCount(base) > MaxLines/2 {
			k := 0
			for n := 0; n < MaxLines/2-1; n++ {
				k += bytes.IndexByte(in[k:], '\n') + 1
			}
			base, cur = in[:k], in[k:k+len(in[:k])]
		}
		var cmp *Comparison
		peak := peakHeap(func() {
			var err error
			cmp, err = Compare(context.Background(), base, cur, Options{})
			if err != nil {
				t.Fatal(err)
			}
		})
		size := len(base) + len(cur)
		limit := uint64(19*size + 4<<20)
		t.Logf("%s: %d+%d bytes, %d templates: peak heap %.1f MiB (%.1f times the input), limit %.1f MiB",
			kind, len(base), len(cur), cmp.Summary.Templates, float64(peak)/(1<<20), float64(peak)/float64(size), float64(limit)/(1<<20))
		if peak > limit {
			t.Errorf("%s: peak heap %d bytes, over the estimate's %d", kind, peak, limit)
		}
	}
}

// TestCompareCategoriesBeyondListed wants a comparison's categories from
// every match, not only those an analysis lists.
func TestCompareCategoriesBeyondListed(t *testing.T) {
	var base, cur strings.Builder
	for i := range MaxResultMatches + 10 {
		fmt.Fprintf(&base, "request %d failed with error\n", i)
		fmt.Fprintf(&cur, "request %d failed with error\n", i)
	}
	cur.WriteString("disk full: fatal error on /dev/sda1\n")
	cmp, err := Compare(context.Background(), []byte(base.String()), []byte(cur.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.New) != 1 || cmp.New[0].Category != CategoryFatal {
		t.Errorf("new templates %+v; want the fatal one", cmp.New)
	}
}
