package logs

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"time"
)

// newTimeline is the timeline of res, the result of analysing input, read
// again with now as the analysis's time: for tests of formats without a
// year. The analysis reads the timestamps on its way (analyzer.read).
func newTimeline(input []byte, res *Result, now time.Time) *Timeline {
	l := newStampLog(now, input, res.Summary.Lines+res.Summary.BlankLines)
	matchStamp := make([]int32, len(res.Matches))
	mi, no := 0, 0
	for start := 0; start < len(input); {
		end := len(input)
		if k := bytes.IndexByte(input[start:], '\n'); k >= 0 {
			end = start + k
		}
		t := l.read(input[start:end])
		start = end + 1
		no++
		for mi < len(res.Matches) && res.Matches[mi].Line == no {
			matchStamp[mi] = t
			mi++
		}
	}
	return l.timeline(res, len(res.Matches), func(i int) (int32, Category) { return matchStamp[i], res.Matches[i].Category })
}

// TestTimelineReadOnTheWay wants the timeline the analysis reads on its
// way through the input to be the one read again afterwards, matches'
// buckets included, on the Loghub samples (lines of five timestamp formats,
// keyword matches) and with continuation lines joined or not.
func TestTimelineReadOnTheWay(t *testing.T) {
	for _, sys := range gaSystems {
		raw := loghubLog(t, sys.name)
		for _, split := range []bool{false, true} {
			res, err := Analyze(context.Background(), raw, Options{SplitContinuations: split})
			if err != nil {
				t.Fatal(err)
			}
			again := newTimeline(raw, res, time.Now())
			if res.Timeline == nil || again == nil {
				t.Fatalf("%s: no timeline", sys.name)
			}
			if !reflect.DeepEqual(res.Timeline, again) {
				t.Errorf("%s (split %v): the timeline read on the way differs from the one read again", sys.name, split)
			}
		}
	}
}
