package logs

import (
	"bytes"
	"slices"
)

// Docker Compose (docker compose up, docker compose logs) prints the
// output of all its services as one stream, each line behind its
// service's name, padded so that the bars line up:
//
//	web-1    | 2024-03-05 10:00:00 ERROR request failed
//	db-1     | 2024-03-05 10:00:00.123 UTC [1] LOG:  checkpoint starting
//	web-1    |     at com.x.Api.handle(Api.java:12)
//
// (Compose v1 writes web_1, podman-compose [web]; the prefix is coloured
// on a terminal, which plainText removes first.) Read as it is, every line
// opens with the prefix, so no header is found behind it and no stack
// trace is joined; and the services' lines are interleaved, so the frame
// of one service's trace can land under another's line. When nearly every
// sampled line has a prefix, composed takes the prefixes off and puts each
// service's lines together, in the order the services first appear and
// each service's lines in their order, so that a service's entries join
// its own lines only. A lineMap keeps where each line was: the result's
// line numbers are the input's, as if nothing moved (Analyze maps them
// back), and no entry spans two services (each is a segment of its own,
// with the entry rules of its own lines).

// lineMap is how the text the analysis reads was put together from the
// input's lines.
type lineMap struct {
	// of[i] is the input's line number (1-based) of the text's line i+1.
	of []int32
	// segments are the runs of lines of the text written by one writer,
	// each from a line on, after the first (which starts at line 1).
	segments []segmentStart
}

// segmentStart is where a segment starts in the text: its first line's
// number and byte offset.
type segmentStart struct {
	no int32
	at int
}

// composed is input with the Compose prefixes taken off and the lines
// grouped by service, and where each line was; input itself and nil when
// it is no Compose output.
func composed(input []byte) ([]byte, *lineMap) {
	if !composeOutput(input) {
		return input, nil
	}
	type service struct {
		lines []int32 // input line numbers
		msgs  [][]byte
	}
	var services []*service
	byName := map[string]*service{}
	var last *service // a line without a prefix stays with the one above
	no := int32(0)
	for start := 0; start < len(input); {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimSuffix(line, []byte("\r"))
		no++
		name, msg, ok := composePrefix(line)
		s := last
		if ok {
			if s = byName[string(name)]; s == nil {
				s = &service{}
				byName[string(name)] = s
				services = append(services, s)
			}
		} else {
			msg = line
		}
		if s == nil {
			s = &service{}
			services = append(services, s)
		}
		s.lines, s.msgs = append(s.lines, no), append(s.msgs, msg)
		last = s
	}
	m := &lineMap{of: make([]int32, 0, no)}
	out := make([]byte, 0, len(input))
	for k, s := range services {
		if k > 0 {
			m.segments = append(m.segments, segmentStart{no: int32(len(m.of) + 1), at: len(out)})
		}
		m.of = append(m.of, s.lines...)
		for _, msg := range s.msgs {
			out = append(append(out, msg...), '\n')
		}
	}
	return out, m
}

// composeOutput reports input whose sampled lines nearly all (all but one
// in ten of the first wrapSample with text) have a Compose prefix, the
// lines Compose writes of its own aside ("Attaching to web-1, db-1",
// "web-1 exited with code 1"), and of at least two services or of one
// numbered as Compose numbers a service's containers (web-1, web_1): a
// single unnumbered name could be a logger's column ("app | msg").
func composeOutput(input []byte) bool {
	lines, prefixed, numbered := 0, 0, false
	var first []byte
	two := false
	for start := 0; start < len(input) && lines < wrapSample; {
		var line []byte
		line, start = nextLine(input, start)
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !hasNonSpace(line) || composeNote(line) {
			continue
		}
		lines++
		name, _, ok := composePrefix(line)
		if !ok {
			continue
		}
		prefixed++
		switch {
		case first == nil:
			first = name
		case !bytes.Equal(name, first):
			two = true
		}
		numbered = numbered || replicaNumbered(name)
	}
	return lines > 0 && prefixed*10 >= lines*9 && (two || numbered)
}

// replicaNumbered reports a name ending in '-' or '_' and a number, as
// Compose names a service's containers (web-1, web_1).
func replicaNumbered(name []byte) bool {
	n := len(name)
	for n > 0 && isDigit(name[n-1]) {
		n--
	}
	return n > 1 && n < len(name) && (name[n-1] == '-' || name[n-1] == '_')
}

// composeNote reports a line Compose writes of its own, without a prefix.
func composeNote(line []byte) bool {
	return bytes.HasPrefix(line, []byte("Attaching to ")) || bytes.HasPrefix(line, []byte("Gracefully stopping")) ||
		bytes.HasPrefix(line, []byte("Aborting on container exit")) || bytes.Contains(line, []byte(" exited with code "))
}

// composePrefix reads "name | message": a service's name (letters,
// digits, '_', '.', '-', bracketed as podman-compose writes it), one or
// more spaces, a bar and one space before the message (none when it is
// empty). A name that is a level word or a number is a logger's column.
func composePrefix(line []byte) (name, msg []byte, ok bool) {
	i, open := 0, false
	if len(line) > 0 && line[0] == '[' {
		i, open = 1, true
	}
	j := i
	for j < len(line) && j-i <= 128 && (isAlnum(line[j]) || line[j] == '_' || line[j] == '.' || line[j] == '-') {
		j++
	}
	if j == i || !isAlnum(line[i]) || j-i > 128 {
		return nil, nil, false
	}
	name = line[i:j]
	if open {
		if j >= len(line) || line[j] != ']' {
			return nil, nil, false
		}
		j++
	}
	k := j
	for k < len(line) && line[k] == ' ' {
		k++
	}
	if k == j || k >= len(line) || line[k] != '|' {
		return nil, nil, false
	}
	k++
	if k < len(line) {
		if line[k] != ' ' {
			return nil, nil, false
		}
		k++
	}
	if bareNumber(name) || levelOf(name) != levelNone {
		return nil, nil, false
	}
	return name, line[k:], true
}

// restore gives res the input's line numbers where m moved lines, and
// its lines, assignments included, the input's order.
func (m *lineMap) restore(res *Result) {
	if m == nil || m.of == nil {
		return
	}
	orig := func(no int) int { return int(m.of[no-1]) }
	order := make([]int, len(res.Matches))
	for i := range res.Matches {
		res.Matches[i].Line = orig(res.Matches[i].Line)
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return res.Matches[x].Line - res.Matches[y].Line })
	matches := make([]Match, len(order))
	var buckets []int32
	if tl := res.Timeline; tl != nil {
		buckets = make([]int32, len(order))
	}
	for i, k := range order {
		matches[i] = res.Matches[k]
		if buckets != nil {
			buckets[i] = res.Timeline.matchBucket[k]
		}
	}
	res.Matches = matches
	if buckets != nil {
		res.Timeline.matchBucket = buckets
	}
	for i := range res.Outliers {
		res.Outliers[i].Line = orig(res.Outliers[i].Line)
	}
	slices.SortStableFunc(res.Outliers, func(x, y Outlier) int { return x.Line - y.Line })
	for _, t := range res.Templates {
		if t.PatternInfo == nil {
			continue
		}
		for i := range t.Examples {
			t.Examples[i].Line = orig(t.Examples[i].Line)
		}
		slices.SortStableFunc(t.Examples, func(x, y Example) int { return x.Line - y.Line })
	}
	if res.entryLines != nil {
		order = order[:0]
		for i := range res.entryLines {
			res.entryLines[i] = orig(res.entryLines[i])
			order = append(order, i)
		}
		slices.SortStableFunc(order, func(x, y int) int { return res.entryLines[x] - res.entryLines[y] })
		lines, ids := make([]int, len(order)), make([]int, len(order))
		for i, k := range order {
			lines[i], ids[i] = res.entryLines[k], res.Assignments[k]
		}
		res.entryLines, res.Assignments = lines, ids
	}
}
