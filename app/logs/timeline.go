package logs

import (
	"time"
)

// Timeline counts the analysed lines that carry a timestamp (see
// timestamp.go for the formats) per time bucket, in all and per category
// of their keyword match. Buckets follow each other without gaps from the
// earliest timestamp to the latest, whatever the order of the lines, and
// are aligned to multiples of their width since 1970-01-01 UTC. Times are
// UTC; a timestamp without a zone is taken as UTC.
type Timeline struct {
	BucketSeconds int64    `json:"bucket_seconds"`
	Start         string   `json:"start"` // RFC 3339, the first bucket's start
	End           string   `json:"end"`   // RFC 3339, the last bucket's end (exclusive)
	TimedLines    int      `json:"timed_lines"`
	UntimedLines  int      `json:"untimed_lines"` // analysed lines without a timestamp: in no bucket
	Buckets       []Bucket `json:"buckets"`

	start int64
	// matchBucket is the bucket of each of the result's matches, in
	// their order; -1 for a line without a timestamp.
	matchBucket []int32
}

// Bucket is one time slice of a Timeline: the timed lines in
// [Start, Start+BucketSeconds) and how many of them matched each category.
type Bucket struct {
	Start       string `json:"start"`
	Lines       int    `json:"lines"`
	Fatal       int    `json:"fatal"`
	Error       int    `json:"error"`
	Reliability int    `json:"reliability"`
}

// MaxTimelineBuckets bounds the buckets: the width is the smallest step
// of bucketSteps (then whole multiples of 365 days) that covers the
// input's time span in at most this many.
const MaxTimelineBuckets = 60

// TimelineProbeLines is how far a timestamp is looked for before giving
// up: an input with none in its first this many lines has no timeline,
// and costs no more than that.
const TimelineProbeLines = 1000

const (
	secMinute = 60
	secHour   = 60 * secMinute
	secDay    = 24 * secHour
	secYear   = 365 * secDay
)

var bucketSteps = []int64{1, 5, 10, 30, secMinute, 5 * secMinute, 10 * secMinute, 15 * secMinute, 30 * secMinute,
	secHour, 3 * secHour, 6 * secHour, 12 * secHour, secDay, 7 * secDay, 30 * secDay, 91 * secDay, secYear}

// bucketWidth is the width giving at most MaxTimelineBuckets buckets from
// first to last.
func bucketWidth(first, last int64) int64 {
	fits := func(w int64) bool { return floorDiv(last, w)-floorDiv(first, w) < MaxTimelineBuckets }
	for _, w := range bucketSteps {
		if fits(w) {
			return w
		}
	}
	w := 2 * int64(secYear)
	for !fits(w) {
		w += secYear
	}
	return w
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// stampLog reads the timestamps of an input's lines for the timeline, as
// the analysis reads the lines: every line once, in input order, so the
// input is not split into lines a second time.
type stampLog struct {
	p     stampParser
	times []int64 // of the lines that carry one, in input order
	// Whether any line is read: see probeStamps.
	looking bool
}

// newStampLog reads the timestamps of input's lines from the first on,
// at now.
func newStampLog(now time.Time, input []byte, lines int) stampLog {
	p := stampParser{now: now.UTC(), epochDigits: epochWidth(input)}
	if p.epochDigits == 0 {
		p.epochCol, p.epochColWidth = epochColumn(input)
	}
	l := stampLog{p: p, looking: probeStamps(p, input)}
	l.size(lines)
	return l
}

// size makes room for the timestamps of lines lines, when they are read.
func (l *stampLog) size(lines int) {
	if l.looking {
		l.times = make([]int64, 0, lines)
	}
}

// probeStamps reports whether any of input's first TimelineProbeLines
// lines has a timestamp read by p: an input without one there has no
// timeline, and costs no more than that. Deciding it first, for the whole
// input, lets parts of the input be read at once (see parts.go).
func probeStamps(p stampParser, input []byte) bool {
	for n, start := 0, 0; n < TimelineProbeLines && start < len(input); n++ {
		var line []byte
		line, start = nextLine(input, start)
		if _, ok := p.parse(line); ok {
			return true
		}
	}
	return false
}

// read reads the timestamp of the next line and returns its index in
// times, -1 for none.
func (l *stampLog) read(line []byte) int32 {
	if !l.looking {
		return -1
	}
	t, ok := l.p.parse(line)
	if !ok {
		return -1
	}
	return l.add(t)
}

// add records the time t, in Unix seconds, of the next line, and returns
// its index in times.
func (l *stampLog) add(t int64) int32 {
	l.times = append(l.times, t)
	return int32(len(l.times) - 1)
}

// timeline buckets the timestamps read with the categories of res's
// matches; stampOf(i) is the index in times of the i-th match's
// timestamp, -1 for none. It is nil when no line carries a timestamp, or
// none of the first TimelineProbeLines does.
func (l *stampLog) timeline(res *Result, matches int, matchOf func(i int) (int32, Category)) *Timeline {
	stamps := l.times
	if len(stamps) == 0 {
		return nil
	}
	first, last := stamps[0], stamps[0]
	for _, s := range stamps {
		first, last = min(first, s), max(last, s)
	}
	w := bucketWidth(first, last)
	tl := &Timeline{
		BucketSeconds: w,
		TimedLines:    len(stamps),
		UntimedLines:  max(0, res.Summary.Lines-len(stamps)),
		Buckets:       make([]Bucket, floorDiv(last, w)-floorDiv(first, w)+1),
		start:         floorDiv(first, w) * w,
		matchBucket:   make([]int32, len(res.Matches)), // those listed
	}
	for i := range tl.matchBucket {
		tl.matchBucket[i] = -1
		if k, _ := matchOf(i); k >= 0 {
			tl.matchBucket[i] = int32((stamps[k] - tl.start) / w)
		}
	}
	for i := range tl.Buckets {
		tl.Buckets[i].Start = rfc3339(tl.start + int64(i)*w)
	}
	tl.Start, tl.End = tl.Buckets[0].Start, rfc3339(tl.start+int64(len(tl.Buckets))*w)
	for _, s := range stamps {
		tl.Buckets[(s-tl.start)/w].Lines++
	}
	for i := range matches { // every match, listed or not
		k, cat := matchOf(i)
		if k < 0 {
			continue
		}
		b := (stamps[k] - tl.start) / w
		switch cat {
		case CategoryFatal:
			tl.Buckets[b].Fatal++
		case CategoryError:
			tl.Buckets[b].Error++
		case CategoryReliability:
			tl.Buckets[b].Reliability++
		}
	}
	return tl
}

func rfc3339(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

// MatchBucket is the index of the bucket of the result's i-th match,
// -1 when its line has no timestamp.
func (t *Timeline) MatchBucket(i int) int {
	if i < 0 || i >= len(t.matchBucket) {
		return -1
	}
	return int(t.matchBucket[i])
}

// BucketTimes is the span [from, to) of bucket i.
func (t *Timeline) BucketTimes(i int) (from, to time.Time) {
	from = time.Unix(t.start+int64(i)*t.BucketSeconds, 0).UTC()
	return from, from.Add(time.Duration(t.BucketSeconds) * time.Second)
}
