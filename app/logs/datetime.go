package logs

import "strings"

// A date or time written over several words of a message ("at Fri Jun 17
// 07:07:00 2005", "since 2024-03-18 09:14:02") is one value, as a line's
// own time stamp is: each word alone would be masked, and the template
// would read "at <*> <*> <*> <*> <*>", which says less and splits one event
// in as many templates as the date has forms. Parts are told by their form
// only (a month or weekday name, a number of one, two or four digits, a
// time of day, an ISO date, a time zone's abbreviation after a time), never by the digits' values, as everything the
// tokenizer decides (see tokcache.go).

type datePart uint8

const (
	notDate datePart = iota
	dateWeekday
	dateMonth
	dateDay  // one or two digits
	dateYear // four digits
	dateTime // h:mm, hh:mm:ss, hh:mm:ss.fff
	dateISO  // yyyy-mm-dd
	dateZone // UTC, GMT, EDT: after a time
)

var weekdayNames = newWordSet(weekdays...)

// datePartOf names the part of a date t is, without its trailing comma.
func datePartOf(t []byte) datePart {
	if n := len(t); n > 0 && t[n-1] == ',' {
		t = t[:n-1]
	}
	switch {
	case len(t) == 0:
		return notDate
	case isUpper(t[0]):
		if isMonth(t) {
			return dateMonth
		}
		if len(t) >= 3 && weekdayNames.has(t) && titleOrUpper(t) {
			return dateWeekday
		}
		if len(t) >= 3 && dateNames.has(t) && titleOrUpper(t) && isUpper(t[1]) { // all capitals
			return dateZone
		}
	case allOf(t, cDigit):
		switch len(t) {
		case 1, 2:
			return dateDay
		case 4:
			return dateYear
		}
	case timeOfDay(t):
		return dateTime
	case len(t) == 10 && allOf(t[:4], cDigit) && t[4] == '-' && allOf(t[5:7], cDigit) && t[7] == '-' && allOf(t[8:], cDigit):
		return dateISO
	}
	return notDate
}

// timeOfDay: h:mm or hh:mm:ss, with a fraction of a second after a dot or
// comma.
func timeOfDay(t []byte) bool {
	i := 0
	for i < len(t) && i < 2 && isDigit(t[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	fields := 0
	for i < len(t) && t[i] == ':' {
		if fields == 2 || i+3 > len(t) || !isDigit(t[i+1]) || !isDigit(t[i+2]) {
			return false
		}
		i += 3
		fields++
	}
	if fields == 0 {
		return false
	}
	if i == len(t) {
		return true
	}
	return (t[i] == '.' || t[i] == ',') && i+1 < len(t) && allOf(t[i+1:], cDigit)
}

// dateFollows reports whether part cur continues a date whose last part is
// prev; anchored says the date so far holds a name or an ISO date (a bare
// number only starts one when a month follows it: "17 Jun 2005").
func dateFollows(prev, cur datePart, anchored bool) bool {
	if !anchored {
		return prev == dateDay && cur == dateMonth
	}
	switch prev {
	case dateWeekday:
		return cur == dateMonth || cur == dateDay
	case dateMonth:
		return cur == dateDay || cur == dateYear
	case dateDay:
		return cur == dateMonth || cur == dateTime || cur == dateYear
	case dateTime:
		return cur == dateYear || cur == dateZone
	case dateZone:
		return cur == dateYear
	case dateYear:
		return cur == dateTime
	case dateISO:
		return cur == dateTime
	}
	return false
}

// joinsDate joins the masked word s[i:j] to the masked value before it when
// both are parts of one date, and reports whether it did.
func (z *tokenizer) joinsDate(s []byte, i, j int) bool {
	n := len(z.toks)
	if n == 0 {
		return false
	}
	v := &z.toks[n-1]
	if !v.masked || v.keep != 0 || hasNonSpace(s[v.end:i]) {
		return false
	}
	cur := datePartOf(s[i:j])
	if cur == notDate {
		return false
	}
	// The value before: its words' parts, the last one and whether a name
	// or an ISO date is among them.
	prev, anchored := notDate, false
	for k := int(v.start); k < int(v.end); {
		e := k
		for e < int(v.end) && !isSpace(s[e]) {
			e++
		}
		prev = datePartOf(s[k:e])
		if prev == notDate {
			return false
		}
		anchored = anchored || prev == dateWeekday || prev == dateMonth || prev == dateISO
		k = skipSpace(s[:v.end], e)
	}
	if !dateFollows(prev, cur, anchored) {
		return false
	}
	v.end = int32(j)
	return true
}

// manyWordDate reports a value that joinsDate made of several words: every
// word a part of a date (a value joined to its unit, "1190 bytes", is not).
func manyWordDate(v string) bool {
	words := strings.Fields(v)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if datePartOf([]byte(w)) == notDate {
			return false
		}
	}
	return true
}
