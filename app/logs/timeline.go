package logs

import (
	"bytes"
	"math"
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

// Category codes packed with a timestamp: unix<<2 | code.
const (
	codeNone = iota
	codeReliability
	codeError
	codeFatal
)

func categoryCode(c Category) int64 {
	switch c {
	case CategoryFatal:
		return codeFatal
	case CategoryError:
		return codeError
	case CategoryReliability:
		return codeReliability
	}
	return codeNone
}

// newTimeline reads the timestamps of input's lines and buckets them with
// the categories of res's matches. now is the reference for formats
// without a year. It is nil when no line carries a timestamp, or none of
// the first TimelineProbeLines does.
func newTimeline(input []byte, res *Result, now time.Time) *Timeline {
	p := stampParser{now: now.UTC()}
	// One timestamp per line at most: sized once, not grown.
	stamps := make([]int64, 0, res.Summary.Lines+res.Summary.BlankLines)
	matchStamp := make([]int64, len(res.Matches))
	for i := range matchStamp {
		matchStamp[i] = untimed
	}
	mi, no := 0, 0
	for start := 0; start < len(input); {
		end := len(input)
		if k := bytes.IndexByte(input[start:], '\n'); k >= 0 {
			end = start + k
		}
		line := input[start:end]
		start = end + 1
		no++
		if no > TimelineProbeLines && len(stamps) == 0 {
			return nil
		}
		t, ok := p.parse(line)
		if !ok {
			continue
		}
		for mi < len(res.Matches) && res.Matches[mi].Line < no {
			mi++
		}
		code := int64(codeNone)
		if mi < len(res.Matches) && res.Matches[mi].Line == no {
			code = categoryCode(res.Matches[mi].Category)
			matchStamp[mi] = t
		}
		stamps = append(stamps, t<<2|code)
	}
	if len(stamps) == 0 {
		return nil
	}
	first, last := stamps[0]>>2, stamps[0]>>2
	for _, s := range stamps {
		first, last = min(first, s>>2), max(last, s>>2)
	}
	w := bucketWidth(first, last)
	tl := &Timeline{
		BucketSeconds: w,
		TimedLines:    len(stamps),
		UntimedLines:  max(0, res.Summary.Lines-len(stamps)),
		Buckets:       make([]Bucket, floorDiv(last, w)-floorDiv(first, w)+1),
		start:         floorDiv(first, w) * w,
		matchBucket:   make([]int32, len(matchStamp)),
	}
	for i, t := range matchStamp {
		tl.matchBucket[i] = -1
		if t != untimed {
			tl.matchBucket[i] = int32((t - tl.start) / w)
		}
	}
	for i := range tl.Buckets {
		tl.Buckets[i].Start = rfc3339(tl.start + int64(i)*w)
	}
	tl.Start, tl.End = tl.Buckets[0].Start, rfc3339(tl.start+int64(len(tl.Buckets))*w)
	for _, s := range stamps {
		b := &tl.Buckets[(s>>2-tl.start)/w]
		b.Lines++
		switch s & 3 {
		case codeFatal:
			b.Fatal++
		case codeError:
			b.Error++
		case codeReliability:
			b.Reliability++
		}
	}
	return tl
}

// untimed marks a match without a timestamp.
const untimed = math.MinInt64

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
