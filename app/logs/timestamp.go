package logs

import (
	"bytes"
	"encoding/binary"
	"time"
)

// Timestamps for the timeline. A line's timestamp is looked for near its
// start only: a parse may begin in the first stampWindow bytes, at a token
// start (the line's start or after a byte that is not a letter or digit),
// so the work per line is bounded whatever its length. A JSON line's
// ts/time/timestamp field is looked for in its first jsonWindow bytes.
//
// The formats, all read to the second (a fraction is dropped):
//
//	2006-01-02T15:04:05.000Z07:00   RFC 3339 / ISO 8601: T or a space, any fraction after . or ,,
//	2006-01-02 15:04:05,000         zone Z, ±hh:mm, ±hhmm or ±hh, or " ±hhmm" after a space; an hour
//	                                padded with a space after the space ("2006-01-02  5:04:05", MariaDB's);
//	                                a comma after the date ("2006-01-02, 15:04:05", Airflow's web view)
//	2006/01/02 15:04:05             no zone is UTC
//	2005-06-03-15.42.50.675872      (BGL, IBM DB2)
//	Jan _2 15:04:05                 syslog, no year (see stampParser.yearOf)
//	Sun Dec 04 04:47:44 2005        Apache error log, asctime (in brackets or not), maybe
//	                                a fraction after the seconds (Apache 2.4)
//	081109 203615                   yyMMdd HHmmss, at the start of a line only (HDFS)
//	I0102 15:04:05.000000           klog/glog, at the start of a line only, no year
//	01-02 15:04:05.000              Android's logcat, no year
//	10/Oct/2000:13:55:36 -0700      nginx and Apache access logs (a space before the hour: Django's runserver)
//	11-Mar-2024 10:15:05.123        Tomcat, PHP; with spaces, Redis and RFC 1123;
//	29-Nov-2026::10:00:00           Erlang's reports (RabbitMQ), the day maybe of one digit
//	11 Mar 2024 10:15:19.123        ("Mon, 11 Mar 2024 10:15:02 GMT"); a zone name is UTC
//	3/11/2024 1:15:02 PM            US month-first date and 12-hour time, as Windows'
//	                                Event Viewer exports them (with AM or PM only)
//	11.03.2024 10:15:05,123         day-first dotted date (German and other European tools),
//	                                fraction and zone as ISO's
//	20240311T101505Z                ISO 8601 basic (compact), or 20240311 10:15:05; a
//	20240311 10:15:05.123           fraction and a zone as ISO's
//	1710151505.123 ERROR …          epoch seconds (maybe a fraction), milliseconds,
//	                                microseconds or nanoseconds at the start of a line
//	                                only, and only when the input's first lines agree
//	                                (see epochs.go)
//
// An ISO date's time may be a 12-hour one too, with AM or PM after it.
//
//	{"ts": 1700000000.5, …}         epoch seconds, milliseconds, microseconds or
//	                                nanoseconds (told apart by size) or an RFC 3339 string in a
//	                                JSON line's ts, time, timestamp or @timestamp field,
//	                                or journald's _SOURCE_REALTIME_TIMESTAMP or
//	                                __REALTIME_TIMESTAMP (microseconds, in a string), or
//	                                one of the rarer names of jsonTimeKeys
const (
	stampWindow = 64
	jsonWindow  = 1024
)

type stampFormat uint8

const (
	fmtNone stampFormat = iota
	fmtISO
	fmtBGL
	fmtSyslog
	fmtAsctime
	fmtHDFS
	fmtKlog
	fmtAccess
	fmtJSON
	fmtUS
	fmtDayMonth
	fmtDotted
	fmtCompact
	fmtEpoch
	fmtMonthDay
)

// yearOf picks the year of a date written without one: the analysis's
// current year (UTC), or the year before when that would put the minute
// more than a day ahead of now (a December log read in January). The
// seconds do not count, so all lines of one minute get the same year.
func (p *stampParser) yearOf(month, day, hour, min int) int64 {
	y := int64(p.now.Year())
	if unixOf(y, month, day, hour, min, 0) > p.now.Unix()+86400 {
		y--
	}
	return y
}

// stampParser finds timestamps line after line. It remembers where and
// how the last one was written, so a log of one format costs one parse
// per line, and most lines share the date of their timestamp with the
// line before (memo), so that only its time of day is read.
type stampParser struct {
	now      time.Time // when the analysis ran, for formats without a year
	lastFmt  stampFormat
	lastAt   int
	memo     dateMemo
	lastDate int64
	lastDay  int64
	// epochDigits is the width of the epoch numbers that open the
	// input's lines, 0 when they are not read (see epochWidth).
	epochDigits int
	// epochCol and epochColWidth are the field and width of the epochs
	// of a column of the input's lines, 0 for none (see epochColumn).
	epochCol, epochColWidth int
}

// dateMemo is the last timestamp read up to its hour: format, position
// in the line, its bytes before the hour (the date), and the Unix time of
// that day's midnight. The Loghub samples, drawn from long logs, change
// minute on almost every other line but date on one in forty.
//
// The date, 6 to 12 bytes, is kept as the words of its bytes 0–7 and
// 4–11 (masked to the date), so that a line's is compared in two loads.
// Every timestamp the memo serves has 12 bytes or more.
type dateMemo struct {
	format       stampFormat
	at           int
	w0, w1       uint64
	mask0, mask1 uint64
	hour         int  // where the time of day is in the timestamp
	sep          byte // between hour, minute and second, 0 for none
	base         int64
	year         [4]byte // an asctime's, which follows its seconds
}

// hourAt is, for the formats the memo serves, where the hour of a
// timestamp is: the length of its date. The minute and the second follow
// it after a separator each (BGL's dot, others' colon), HDFS's without.
var hourAt = [...]int{fmtISO: 11, fmtBGL: 11, fmtHDFS: 7, fmtSyslog: 7, fmtAsctime: 11, fmtKlog: 6, fmtAccess: 12, fmtJSON: 0, fmtUS: 0, fmtDayMonth: 0, fmtDotted: 11, fmtCompact: 0, fmtEpoch: 0, fmtMonthDay: 6}

// parse returns the Unix time (seconds, UTC) of the line's timestamp:
// where the line before had its own, else for a JSON line its time
// field, else the first timestamp that begins at a token start in the
// first stampWindow bytes.
func (p *stampParser) parse(line []byte) (int64, bool) {
	if at := p.lastAt; p.lastFmt != fmtNone && (at == 0 || at < len(line) && !isAlnum(line[at-1])) {
		// Most lines: the memo's date where the line before had its
		// timestamp, looked up here rather than in a call.
		if m := &p.memo; m.format == p.lastFmt && m.at == at && m.sameDate(line[at:]) {
			if t, ok := m.timeOfDay(line[at:]); ok {
				return m.base + t, true
			}
		}
		if t, ok := p.parseAt(line, at, p.lastFmt); ok {
			return t, true
		}
	}
	if k := firstNonSpace(line); k < len(line) && line[k] == '{' {
		if t, ok := p.jsonStamp(line); ok {
			p.lastFmt = fmtNone
			return t, true
		}
	}
	end := min(len(line), stampWindow)
	for i := 0; i < end; i++ {
		if i > 0 && isAlnum(line[i-1]) {
			continue
		}
		for _, f := range candidates(line, i) {
			if t, ok := p.parseAt(line, i, f); ok {
				p.lastFmt, p.lastAt = f, i
				return t, true
			}
		}
	}
	if p.epochCol > 0 {
		if k, t, _ := epochField(line, p.epochCol, p.epochColWidth); k > 0 {
			return t, true
		}
	}
	return 0, false
}

var (
	dateFormats   = []stampFormat{fmtISO, fmtBGL}
	slashFormats  = []stampFormat{fmtISO, fmtUS}
	accessFormats = []stampFormat{fmtAccess, fmtUS}
	usFormats     = []stampFormat{fmtUS}
	dayMonthFmts  = []stampFormat{fmtDayMonth}
	dottedFormats = []stampFormat{fmtDotted}
	compactFmts   = []stampFormat{fmtCompact}
	openFormats   = []stampFormat{fmtHDFS, fmtEpoch}
	monthFormats  = []stampFormat{fmtSyslog, fmtAsctime}
	klogFormats   = []stampFormat{fmtKlog}
	monthDayFmts  = []stampFormat{fmtMonthDay}
)

// candidates are the formats a timestamp at s[i:] may have, judged by a
// byte or two, so that most positions cost no parse at all.
func candidates(s []byte, i int) []stampFormat {
	c := s[i]
	switch {
	case isDigit(c):
		switch {
		case i+4 < len(s) && s[i+4] == '-':
			return dateFormats
		case i+4 < len(s) && s[i+4] == '/':
			return slashFormats // 2006/01/02, or 3/11/2024 (US)
		case i+2 < len(s) && s[i+2] == '/':
			return accessFormats
		case i+1 < len(s) && s[i+1] == '/':
			return usFormats
		case i+3 < len(s) && (s[i+2] == '-' || s[i+2] == ' ') && isUpper(s[i+3]),
			i+2 < len(s) && s[i+1] == '-' && isUpper(s[i+2]): // 8-Feb-2016 (Erlang)
			return dayMonthFmts
		case i+5 < len(s) && s[i+2] == '.' && s[i+5] == '.':
			return dottedFormats
		case i+5 < len(s) && s[i+2] == '-' && s[i+5] == ' ':
			return monthDayFmts // 11-29 05:44:16.123 (Android's logcat)
		case i+8 < len(s) && (s[i+8] == 'T' || s[i+8] == ' ') && isDigit(s[i+7]):
			return compactFmts
		case i == 0:
			return openFormats // 081109 203615 (HDFS), or an epoch
		}
	case isUpper(c):
		switch {
		case i+3 < len(s) && s[i+3] == ' ':
			return monthFormats
		case i == 0:
			return klogFormats
		}
	}
	return nil
}

func firstNonSpace(s []byte) int {
	k := 0
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k
}

// parseAt reads a timestamp of format f at s[i:] in full, and keeps its
// date in the memo.
func (p *stampParser) parseAt(s []byte, i int, f stampFormat) (int64, bool) {
	m := &p.memo
	t, ok := p.parseFull(s[i:], f)
	if ok && hourAt[f] > 0 && len(s)-i >= 12 {
		m.remember(s[i:], f)
		m.at = i
		if !p.sameYearAllDay(s[i:], f) {
			m.format = fmtNone
		}
		// The full parse succeeded, so the memo's reading of the same
		// bytes does too, and their difference is the day's midnight;
		// but for an hour padded with a space (MariaDB's), which the
		// memo does not read: such a date is not kept.
		tod, ok := m.timeOfDay(s[i:])
		if !ok {
			m.format = fmtNone
		}
		m.base = t - tod
	}
	return t, ok
}

// remember keeps the date of a timestamp of format f at the start of s,
// which has 12 bytes or more.
func (m *dateMemo) remember(s []byte, f stampFormat) {
	n := hourAt[f]
	m.format = f
	m.mask0, m.mask1 = ^uint64(0), 1<<(8*(n-4))-1
	if n <= 8 {
		m.mask0, m.mask1 = 1<<(8*n)-1, 0
	}
	m.w0 = binary.LittleEndian.Uint64(s) & m.mask0
	m.w1 = binary.LittleEndian.Uint64(s[4:]) & m.mask1
	m.hour, m.sep = n, ':'
	switch f {
	case fmtHDFS:
		m.sep = 0
	case fmtBGL:
		m.sep = '.'
	case fmtAsctime:
		y0 := asctimeYear(s)
		copy(m.year[:], s[y0+1:])
	}
}

// sameDate reports whether the timestamp at the start of s has the memo's
// date.
func (m *dateMemo) sameDate(s []byte) bool {
	return len(s) >= 12 && (binary.LittleEndian.Uint64(s)^m.w0)&m.mask0|(binary.LittleEndian.Uint64(s[4:])^m.w1)&m.mask1 == 0
}

// timeOfDay reads the rest of a timestamp of the memo's format at the
// start of s whose date is the memo's: the seconds since midnight of the
// hour, minute and seconds, less a zone's offset, checked as the format's
// full parser checks them (so that their answers are the same).
func (m *dateMemo) timeOfDay(s []byte) (int64, bool) {
	t := s[m.hour:] // the memo's date is there: its hour is in s
	var h, min, sec int
	var ok1, ok2, ok3 bool
	end := m.hour
	if m.sep == 0 { // HDFS: hhmmss
		if len(t) < 6 {
			return 0, false
		}
		h, ok1 = d2(t, 0)
		min, ok2 = d2(t, 2)
		sec, ok3 = d2(t, 4)
		end += 6
	} else {
		if len(t) < 8 || t[2] != m.sep || t[5] != m.sep {
			return 0, false
		}
		h, ok1 = d2(t, 0)
		min, ok2 = d2(t, 3)
		sec, ok3 = d2(t, 6)
		end += 8
	}
	if !ok1 || !ok2 || !ok3 || h > 23 || min > 59 || sec > 60 {
		return 0, false
	}
	// What follows the seconds, as tail reads it.
	var off int64
	ok := true
	switch m.format {
	case fmtISO, fmtDotted:
		end = fraction(s, end)
		var found bool
		if off, found = meridiemShift(s, end, h); !found {
			off, ok = zone(s, end)
		}
	case fmtAccess:
		off, ok = zone(s, end)
	case fmtAsctime:
		ok = m.asctimeYearIs(s)
	default:
		ok = ended(s, end)
	}
	return int64(h*3600+min*60+sec) - off, ok
}

// sameYearAllDay reports whether a timestamp of format f at the start of
// s, just read, has a date whose year is the same at any time of its day:
// a format without a year takes the year before for a time more than a
// day ahead of now (yearOf), which may flip within the day.
func (p *stampParser) sameYearAllDay(s []byte, f stampFormat) bool {
	var mo, d int
	switch f {
	case fmtSyslog:
		mo = month(s[:3])
		d, _ = dayOfMonth(s, 4)
	case fmtKlog:
		mo, _ = d2(s, 1)
		d, _ = d2(s, 3)
	case fmtMonthDay:
		mo, _ = d2(s, 0)
		d, _ = d2(s, 3)
	default:
		return true
	}
	return p.yearOf(mo, d, 0, 0) == p.yearOf(mo, d, 23, 59)
}

// asctimeYearIs reports whether an asctime at the start of s, its date
// and time of day read, has the memo's year: what parseAsctime reads
// past the seconds.
func (m *dateMemo) asctimeYearIs(s []byte) bool {
	if len(s) < 24 {
		return false
	}
	y0 := asctimeYear(s)
	return y0 >= 0 && y0+5 <= len(s) && string(s[y0+1:y0+5]) == string(m.year[:]) && ended(s, y0+5)
}

// parseFull reads a timestamp of format f at the start of s.
func (p *stampParser) parseFull(s []byte, f stampFormat) (int64, bool) {
	if int(f) < len(parsers) && parsers[f] != nil {
		return parsers[f](p, s)
	}
	return 0, false
}

// parsers are the full parsers of the formats found at a place in a line.
var parsers = [...]func(*stampParser, []byte) (int64, bool){
	fmtISO:      (*stampParser).parseISO,
	fmtBGL:      (*stampParser).parseBGL,
	fmtHDFS:     (*stampParser).parseHDFS,
	fmtAccess:   (*stampParser).parseAccess,
	fmtSyslog:   (*stampParser).parseSyslog,
	fmtAsctime:  (*stampParser).parseAsctime,
	fmtKlog:     (*stampParser).parseKlog,
	fmtUS:       (*stampParser).parseUS,
	fmtDayMonth: (*stampParser).parseDayMonth,
	fmtDotted:   (*stampParser).parseDotted,
	fmtCompact:  (*stampParser).parseCompact,
	fmtEpoch:    (*stampParser).parseEpoch,
	fmtMonthDay: (*stampParser).parseMonthDay,
}

// tail reads what follows the minute of a timestamp of format f at the
// start of s: the seconds, and for ISO and access-log times the zone.
// The full parsers read their seconds with it; the memo's timeOfDay reads
// them as it does (the memo's answer must be the full parse's).
func tail(s []byte, f stampFormat) (sec int, off int64, ok bool) {
	at := 17 // where the seconds are: after hh:mm (ISO) or hh.mm (BGL)
	switch f {
	case fmtHDFS:
		at = 11
	case fmtSyslog:
		at = 13
	case fmtKlog, fmtMonthDay:
		at = 12
	case fmtAccess:
		at = 18
	}
	if f != fmtHDFS {
		sep := byte(':')
		if f == fmtBGL {
			sep = '.'
		}
		if at > len(s) || s[at-1] != sep {
			return 0, 0, false
		}
	}
	sec, ok = d2(s, at)
	if !ok || sec > 60 {
		return 0, 0, false
	}
	end := at + 2
	switch f {
	case fmtISO, fmtDotted:
		end = fraction(s, end)
		if h, _ := d2(s, 11); true {
			if off, found := meridiemShift(s, end, h); found {
				return sec, off, true
			}
		}
		off, ok = zone(s, end)
		return sec, off, ok
	case fmtAccess:
		off, ok = zone(s, end)
		return sec, off, ok
	}
	return sec, 0, ended(s, end)
}

// d1, d2 and d4 read a number of 1, 2 or 4 digits at s[i:], without a
// loop: they run on every line.
func d1(s []byte, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	a := s[i] - '0'
	return int(a), a < 10
}

func d2(s []byte, i int) (int, bool) {
	if i+1 >= len(s) {
		return 0, false
	}
	a, b := s[i]-'0', s[i+1]-'0'
	return int(a)*10 + int(b), a < 10 && b < 10
}

func d4(s []byte, i int) (int, bool) {
	hi, ok1 := d2(s, i)
	lo, ok2 := d2(s, i+2)
	return hi*100 + lo, ok1 && ok2
}

// hourMinute reads hh:mm at s[i:].
func hourMinute(s []byte, i int) (h, m int, ok bool) {
	if i+5 > len(s) || s[i+2] != ':' {
		return 0, 0, false
	}
	h, ok1 := d2(s, i)
	m, ok2 := d2(s, i+3)
	return h, m, ok1 && ok2
}

// ended reports whether s ends at i or goes on with a byte that cannot
// continue a number (so 10:00:001 is no time).
func ended(s []byte, i int) bool { return i >= len(s) || !isDigit(s[i]) }

func (p *stampParser) parseISO(s []byte) (int64, bool) {
	// 2006-01-02T15:04:05.000Z07:00
	if len(s) > 20 && s[10] == ',' && s[11] == ' ' && s[4] == '-' {
		// Airflow's web view writes a comma after the date: "2026-11-29,
		// 10:00:00 UTC".
		var b [40]byte
		n := copy(b[:], s[:10])
		n += copy(b[n:], s[11:])
		s = b[:n]
	}
	if len(s) < 19 || (s[4] != '-' && s[4] != '/') || s[7] != s[4] || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' {
		return 0, false
	}
	if s[10] == ' ' && s[11] == ' ' && isDigit(s[12]) {
		// MariaDB pads a one-digit hour with a space: "2026-11-29  5:44:20".
		var b [40]byte
		n := copy(b[:], s)
		b[11] = '0'
		return p.digitDate(b[:n], fmtISO, isoFields)
	}
	return p.digitDate(s, fmtISO, isoFields)
}

// digitFields are the offsets of the year, month, day, hour and minute of
// a format written in digits alone, and the year's digits: 4, or 2 for the
// years 2000–2099.
type digitFields struct {
	y, mo, d, h, mi int
	yearDigits      int
}

var (
	isoFields    = digitFields{0, 5, 8, 11, 14, 4}
	dottedFields = digitFields{6, 3, 0, 11, 14, 4}
	hdfsFields   = digitFields{0, 2, 4, 7, 9, 2}
)

// digitDate reads a timestamp of format f at the start of s, its fields
// at (the callers have checked the separators between them).
func (p *stampParser) digitDate(s []byte, f stampFormat, at digitFields) (int64, bool) {
	var y int
	var ok1 bool
	if at.yearDigits == 2 {
		y, ok1 = d2(s, at.y)
		y += 2000
	} else {
		y, ok1 = d4(s, at.y)
	}
	mo, ok2 := d2(s, at.mo)
	d, ok3 := d2(s, at.d)
	h, ok4 := d2(s, at.h)
	mi, ok5 := d2(s, at.mi)
	sec, off, ok6 := tail(s, f)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, off)
}

// zone reads an optional zone at s[i:]: Z, ±hh:mm, ±hhmm, ±hh, or a
// space and ±hhmm. It returns the offset east of UTC in seconds.
func zone(s []byte, i int) (int64, bool) {
	if i >= len(s) {
		return 0, true
	}
	switch s[i] {
	case 'Z':
		return 0, true
	case '+', '-':
		return offset(s, i)
	case ' ':
		if i+6 <= len(s) && (s[i+1] == '+' || s[i+1] == '-') && isDigit(s[i+4]) && isDigit(s[i+5]) {
			if off, ok := offset(s, i+1); ok {
				return off, true
			}
		}
		return 0, true
	}
	return 0, !isDigit(s[i])
}

// offset reads ±hh:mm, ±hhmm or ±hh at s[i:].
func offset(s []byte, i int) (int64, bool) {
	h, ok := d2(s, i+1)
	if !ok || h > 14 {
		return 0, false
	}
	m, j := 0, i+3
	if j < len(s) && s[j] == ':' {
		j++
	}
	if mm, ok := d2(s, j); ok {
		m, j = mm, j+2
	} else if j != i+3 {
		return 0, false
	}
	if m > 59 || !ended(s, j) {
		return 0, false
	}
	off := int64(h*3600 + m*60)
	if s[i] == '-' {
		off = -off
	}
	return off, true
}

func (p *stampParser) parseBGL(s []byte) (int64, bool) {
	// 2005-06-03-15.42.50.675872
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != '-' || s[13] != '.' {
		return 0, false
	}
	return p.digitDate(s, fmtBGL, isoFields)
}

func (p *stampParser) parseHDFS(s []byte) (int64, bool) {
	// 081109 203615: two-digit years are 2000–2099.
	if len(s) < 13 || s[6] != ' ' {
		return 0, false
	}
	return p.digitDate(s, fmtHDFS, hdfsFields)
}

func (p *stampParser) parseAccess(s []byte) (int64, bool) {
	// 10/Oct/2000:13:55:36 -0700, or with a space before the hour as
	// Django's runserver writes it ("[29/Nov/2026 05:44:16]")
	if len(s) < 20 || s[2] != '/' || s[6] != '/' || s[11] != ':' && s[11] != ' ' {
		return 0, false
	}
	d, ok1 := d2(s, 0)
	mo := month(s[3:6])
	y, ok2 := d4(s, 7)
	h, mi, ok3 := hourMinute(s, 12)
	sec, off, ok4 := tail(s, fmtAccess)
	if !(ok1 && ok2 && ok3 && ok4) || mo == 0 {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, off)
}

// parseUS reads a US date and 12-hour time: 3/11/2024 1:15:02 PM, the
// month and day of one or two digits, the hour too. Only AM or PM tells
// it from a day-first date, so a time without is none.
func (p *stampParser) parseUS(s []byte) (int64, bool) {
	mo, i, ok1 := digits12(s, 0)
	if !ok1 || i >= len(s) || s[i] != '/' {
		return 0, false
	}
	d, j, ok2 := digits12(s, i+1)
	if !ok2 || j+6 >= len(s) || s[j] != '/' || s[j+5] != ' ' {
		return 0, false
	}
	y, ok3 := d4(s, j+1)
	h, k, ok4 := digits12(s, j+6)
	if !ok3 || !ok4 || k+6 > len(s) || s[k] != ':' || s[k+3] != ':' {
		return 0, false
	}
	mi, ok5 := d2(s, k+1)
	sec, ok6 := d2(s, k+4)
	off, found := meridiemShift(s, k+6, h)
	if !(ok5 && ok6 && found) {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, off)
}

// parseDayMonth reads 11-Mar-2024 10:15:05 or 11 Mar 2024 10:15:05, or
// Erlang's 29-Nov-2026::10:00:00 (its day maybe of one digit),
// maybe with a fraction and a numeric zone; a zone name (UTC, GMT) is UTC.
func (p *stampParser) parseDayMonth(s []byte) (int64, bool) {
	k := 2 // the separator after the day
	if len(s) > 1 && !isDigit(s[1]) {
		k = 1 // a day of one digit, as Erlang writes it ("8-Feb-2016::11:58:42")
	}
	y0 := k + 5  // the year
	at := y0 + 5 // the hour, after a space, or after "::" (Erlang's reports)
	switch {
	case len(s) > at && s[at-1] == ':' && s[at] == ':':
		at++
	case len(s) > at && s[at-1] != ' ':
		return 0, false
	}
	if len(s) < at+8 || s[k+4] != s[k] || s[at+5] != ':' {
		return 0, false
	}
	d, ok1 := int(s[0]-'0'), isDigit(s[0])
	if k == 2 {
		d, ok1 = d2(s, 0)
	}
	mo := month(s[k+1 : k+4])
	y, ok2 := d4(s, y0)
	h, mi, ok3 := hourMinute(s, at)
	sec, ok4 := d2(s, at+6)
	off, ok5 := zone(s, fraction(s, at+8))
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || mo == 0 {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, off)
}

// fraction skips a fraction of the second at s[i:], after . or , as
// ISO 8601 allows, and returns where it ends.
func fraction(s []byte, i int) int {
	if i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	return i
}

// parseDotted reads a day-first dotted date, 11.03.2024 10:15:05: its
// time is where ISO's is, so it is read as ISO's.
func (p *stampParser) parseDotted(s []byte) (int64, bool) {
	if len(s) < 19 || s[2] != '.' || s[5] != '.' || s[10] != ' ' || s[13] != ':' {
		return 0, false
	}
	return p.digitDate(s, fmtDotted, dottedFields)
}

// parseCompact reads ISO 8601's basic format, 20240311T101505Z, or a
// compact date before a time with colons, 20240311 10:15:05; a fraction
// and a zone may follow.
func (p *stampParser) parseCompact(s []byte) (int64, bool) {
	at := [3]int{9, 11, 13} // hour, minute, second after T
	switch {
	case len(s) > 8 && s[8] == ' ':
		at = [3]int{9, 12, 15}
		if len(s) < 17 || s[11] != ':' || s[14] != ':' {
			return 0, false
		}
	case len(s) <= 8 || s[8] != 'T':
		return 0, false // as candidates requires: the memo's format is tried without it
	}
	y, ok1 := d4(s, 0)
	mo, ok2 := d2(s, 4)
	d, ok3 := d2(s, 6)
	h, ok4 := d2(s, at[0])
	mi, ok5 := d2(s, at[1])
	sec, ok6 := d2(s, at[2])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	off, ok := zone(s, fraction(s, at[2]+2))
	if !ok {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, off)
}

// digits12 reads a number of one or two digits at s[i:], and where it ends.
func digits12(s []byte, i int) (n, end int, ok bool) {
	a, ok := d1(s, i)
	if !ok {
		return 0, i, false
	}
	if b, ok := d1(s, i+1); ok {
		return a*10 + b, i + 2, true
	}
	return a, i + 1, true
}

// meridiemShift reads " AM" or " PM" at s[i:] after a 12-hour time of
// hour h (1 to 12), and returns the offset that makes the time a 24-hour
// one, as a zone's would be: 12 AM is 0h, 1 PM to 11 PM are 13h to 23h.
func meridiemShift(s []byte, i, h int) (off int64, found bool) {
	if i+3 > len(s) || s[i] != ' ' || s[i+2] != 'M' || s[i+1] != 'A' && s[i+1] != 'P' ||
		i+3 < len(s) && isAlnum(s[i+3]) || h < 1 || h > 12 {
		return 0, false
	}
	switch {
	case s[i+1] == 'P' && h < 12:
		return -12 * 3600, true
	case s[i+1] == 'A' && h == 12:
		return 12 * 3600, true
	}
	return 0, true
}

func (p *stampParser) parseSyslog(s []byte) (int64, bool) {
	// Jan _2 15:04:05
	if len(s) < 15 || s[3] != ' ' {
		return 0, false
	}
	mo := month(s[:3])
	d, ok1 := dayOfMonth(s, 4)
	h, mi, ok2 := hourMinute(s, 7)
	sec, _, ok3 := tail(s, fmtSyslog)
	if mo == 0 || !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return p.checked(p.yearOf(mo, d, h, mi), mo, d, h, mi, sec, 0)
}

func (p *stampParser) parseAsctime(s []byte) (int64, bool) {
	// Sun Dec 04 04:47:44 2005, or Sun Dec  4 …, or with a fraction of
	// the second as Apache 2.4 writes it (Tue Mar 05 15:03:10.123456
	// 2024): the memo checks the year after the seconds (asctimeYearIs).
	if len(s) < 24 || s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[13] != ':' || s[16] != ':' || weekday(s[:3]) < 0 {
		return 0, false
	}
	y0 := asctimeYear(s)
	if y0 < 0 {
		return 0, false
	}
	mo := month(s[4:7])
	d, ok1 := dayOfMonth(s, 8)
	h, mi, ok2 := hourMinute(s, 11)
	sec, ok3 := d2(s, 17)
	y, ok4 := d4(s, y0+1)
	if mo == 0 || !ok1 || !ok2 || !ok3 || !ok4 || !ended(s, y0+5) {
		return 0, false
	}
	return p.checked(int64(y), mo, d, h, mi, sec, 0)
}

// asctimeYear returns where the space before an asctime's year is, after
// the seconds and their fraction if any, or -1.
func asctimeYear(s []byte) int {
	y0 := 19
	if s[y0] == '.' {
		for y0++; y0 < len(s) && isDigit(s[y0]); y0++ {
		}
	}
	if y0 >= len(s) || s[y0] != ' ' {
		return -1
	}
	return y0
}

func (p *stampParser) parseKlog(s []byte) (int64, bool) {
	// I0102 15:04:05.000000
	if len(s) < 14 || bytes.IndexByte([]byte("IWEF"), s[0]) < 0 || s[5] != ' ' {
		return 0, false
	}
	mo, ok1 := d2(s, 1)
	d, ok2 := d2(s, 3)
	h, mi, ok3 := hourMinute(s, 6)
	sec, _, ok4 := tail(s, fmtKlog)
	if !(ok1 && ok2 && ok3 && ok4) {
		return 0, false
	}
	return p.checked(p.yearOf(mo, d, h, mi), mo, d, h, mi, sec, 0)
}

// parseMonthDay reads a month, a day and a time, no year, as Android's
// logcat writes them: 11-29 05:44:16.123.
func (p *stampParser) parseMonthDay(s []byte) (int64, bool) {
	if len(s) < 14 || s[2] != '-' || s[5] != ' ' {
		return 0, false
	}
	mo, ok1 := d2(s, 0)
	d, ok2 := d2(s, 3)
	h, mi, ok3 := hourMinute(s, 6)
	sec, _, ok4 := tail(s, fmtMonthDay)
	if !(ok1 && ok2 && ok3 && ok4) {
		return 0, false
	}
	return p.checked(p.yearOf(mo, d, h, mi), mo, d, h, mi, sec, 0)
}

// dayOfMonth reads a day of the month written with two digits or a space and
// one digit at s[i:].
func dayOfMonth(s []byte, i int) (int, bool) {
	if s[i] == ' ' {
		return d1(s, i+1)
	}
	return d2(s, i)
}

// month is 1–12 for an English month abbreviation (Jan, not JAN), 0
// otherwise.
func month(b []byte) int {
	if len(b) != 3 {
		return 0
	}
	switch string(b) {
	case "Jan":
		return 1
	case "Feb":
		return 2
	case "Mar":
		return 3
	case "Apr":
		return 4
	case "May":
		return 5
	case "Jun":
		return 6
	case "Jul":
		return 7
	case "Aug":
		return 8
	case "Sep":
		return 9
	case "Oct":
		return 10
	case "Nov":
		return 11
	case "Dec":
		return 12
	}
	return 0
}

func weekday(b []byte) int {
	for i, d := range [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"} {
		if string(b) == d {
			return i
		}
	}
	return -1
}

// jsonStamp reads the ts, time, timestamp or @timestamp field of a JSON
// line: a number of seconds, milliseconds, microseconds or nanoseconds
// since 1970, or an RFC 3339 string.
func (p *stampParser) jsonStamp(line []byte) (int64, bool) {
	w := line[:min(len(line), jsonWindow)]
	for _, key := range jsonTimeKeys {
		k := bytes.Index(w, key)
		if k < 0 {
			continue
		}
		i := k + len(key)
		for i < len(w) && (w[i] == ' ' || w[i] == ':') {
			i++
		}
		if i >= len(w) {
			continue
		}
		if w[i] == '"' {
			if t, ok := p.parseISO(w[i+1:]); ok {
				return t, true
			}
			if t, ok := p.epoch(w[i+1:]); ok { // journald writes its numbers as strings
				return t, true
			}
			continue
		}
		if t, ok := p.epoch(w[i:]); ok {
			return t, true
		}
	}
	return 0, false
}

var jsonTimeKeys = [][]byte{[]byte(`"ts"`), []byte(`"time"`), []byte(`"timestamp"`), []byte(`"@timestamp"`),
	[]byte(`"_SOURCE_REALTIME_TIMESTAMP"`), []byte(`"__REALTIME_TIMESTAMP"`),
	// Less common, so looked for last: Serilog's compact JSON, MongoDB's
	// {"t":{"$date":…}}, log4j2's JsonLayout, CloudTrail's, a Kubernetes
	// audit event's, python-json-logger's and others' names; a
	// Kubernetes Event's lastTimestamp and firstTimestamp, for its
	// eventTime is null unless an events.k8s.io client wrote it.
	[]byte(`"@t"`), []byte(`"$date"`), []byte(`"timeMillis"`), []byte(`"eventTime"`), []byte(`"requestReceivedTimestamp"`),
	[]byte(`"Timestamp"`), []byte(`"datetime"`), []byte(`"asctime"`), []byte(`"lastTimestamp"`), []byte(`"firstTimestamp"`)}

// epoch reads a number of seconds, milliseconds, microseconds or
// nanoseconds since 1970 (told apart by size: below 10^11 seconds, below
// 10^14 milliseconds, and so on), with an optional fraction. The time
// must fall in 1990–2099.
func (p *stampParser) epoch(s []byte) (int64, bool) {
	var v int64
	n := 0
	for n < len(s) && isDigit(s[n]) && n < 19 {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	if n == 0 || (n < len(s) && isDigit(s[n])) {
		return 0, false
	}
	switch {
	case v < 1e11:
	case v < 1e14:
		v /= 1e3
	case v < 1e17:
		v /= 1e6
	default:
		v /= 1e9
	}
	if v < unixOf(1990, 1, 1, 0, 0, 0) || v >= unixOf(2100, 1, 1, 0, 0, 0) {
		return 0, false
	}
	return v, true
}

// checked validates the fields and returns the Unix time, offset seconds
// east of UTC taken off.
func (p *stampParser) checked(y int64, mo, d, h, mi, sec int, off int64) (int64, bool) {
	if h > 23 || mi > 59 || sec > 60 {
		return 0, false
	}
	// The key of the date keeps the fields apart whatever their digits
	// (two at most for the month and day), so that an invalid date never
	// passes for the one checked before.
	date := y<<16 | int64(mo)<<8 | int64(d)
	if date != p.lastDate || p.lastDate == 0 {
		if y < 1970 || y > 2099 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) {
			return 0, false
		}
		p.lastDate, p.lastDay = date, floorDiv(unixOf(y, mo, d, 0, 0, 0), 86400)
	}
	return p.lastDay*86400 + int64(h*3600+mi*60+sec) - off, true
}

func daysIn(y int64, mo int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// unixOf is the Unix time of a UTC date and time, without time.Date's
// normalisation (the fields are valid): days from the civil date, after
// Howard Hinnant's days_from_civil.
func unixOf(y int64, mo, d, h, mi, sec int) int64 {
	if mo <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	m := int64(mo)
	if m > 2 {
		m -= 3
	} else {
		m += 9
	}
	doy := (153*m+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return days*86400 + int64(h*3600+mi*60+sec)
}
