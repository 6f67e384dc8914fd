package logs

import "bytes"

// A recognised level decides a line's category, whatever words its message
// holds: an INFO line saying "error is fine" is no error, an ERROR line is
// one even without a keyword. The level comes from the header's level
// column, or from the level field of a JSON or logfmt line.
type levelKind uint8

const (
	levelNone  levelKind = iota // no level recognised: keywords decide
	levelQuiet                  // trace, debug, info, notice: never a match
	levelWarn                   // a match only with a keyword, then reliability
	levelError                  // an error
	levelFatal                  // fatal
)

// levelOf classifies a level word, in any case, bracketed or not:
// "ERROR", "[warn]", "<crit>", "Info", a single letter V D I W E F, a
// syslog priority "<27>", or, in a structured field, pino's 10 to 60, a
// syslog severity 0 to 7 and MongoDB's debug levels D1 to D5.
func levelOf(t []byte) levelKind {
	if k, ok := priorityLevel(t); ok {
		return k
	}
	if len(t) == 1 {
		if k, ok := redisLevel(t[0]); ok { // a header sets no other lone mark as its level
			return k
		}
	}
	t = levelCore(t)
	t = numberedLevel(t)
	if len(t) == 1 {
		switch t[0] {
		case '0', '1', '2': // a syslog severity, in a structured field only (GELF's level, journald's PRIORITY)
			return levelFatal
		case '3':
			return levelError
		case '4':
			return levelWarn
		case '5', '6', '7':
			return levelQuiet
		case 'V', 'D', 'I', 'v', 'd', 'i':
			return levelQuiet
		case 'W', 'w':
			return levelWarn
		case 'E', 'e':
			return levelError
		case 'F', 'f':
			return levelFatal
		}
		return levelNone
	}
	switch {
	case len(t) == 2 && (t[0] == 'D' || t[0] == 'd') && t[1] >= '1' && t[1] <= '5': // MongoDB's
		return levelQuiet
	case oneOf(t, "10", "20", "30"): // pino and bunyan: trace, debug, info
		return levelQuiet
	case oneOf(t, "40"):
		return levelWarn
	case oneOf(t, "50"):
		return levelError
	case oneOf(t, "60"):
		return levelFatal
	case oneOf(t, "informational"): // syslog's, in a structured field; never a header column (levelWords)
		return levelQuiet
	case oneOf(t, "trce", "dbug"): // .NET's console log's (dotnet.go); never a header column either
		return levelQuiet
	case oneOf(t, "fail"):
		return levelError
	case oneOf(t, groupLevels...): // MySQL's [Note] and [System]: a header column only in brackets
		return levelQuiet
	}
	for _, n := range levelNames {
		if oneOf(t, n.words...) {
			return n.kind
		}
	}
	return levelNone
}

// levelNames are the level words by what they mean: levelOf reads them,
// and a header's level column is found by them (levelWords).
var levelNames = []struct {
	kind  levelKind
	words []string
}{
	// The three-letter words are Serilog's and zerolog's (VRB DBG INF WRN
	// ERR FTL, TRC PNC).
	{levelQuiet, []string{"trace", "trc", "debug", "dbg", "verbose", "vrb", "fine", "finer", "finest", "info", "inf",
		"information", "notice", "log"}},
	{levelWarn, []string{"warn", "wrn", "warning"}},
	// zap's dpanic panics in development only; in production it is an
	// error that should not have happened, logged as such.
	{levelError, []string{"error", "err", "severe", "dpanic"}},
	{levelFatal, []string{"fatal", "ftl", "panic", "pnc", "crit", "critical", "alert", "emerg", "emergency"}},
}

// groupLevels are levels only in brackets: MySQL writes "[Note]" and
// "[System]" where others write "[INFO]", but a bare "System" or "Note"
// after a time is more often a component or the message's first word.
var groupLevels = []string{"note", "system"}

// numberedLevel is a level word without the digit of the numbered debug
// and trace levels: PostgreSQL's DEBUG1 to DEBUG5, Apache's trace1 to
// trace8. Other words are returned as they are.
func numberedLevel(t []byte) []byte {
	if n := len(t); n == 6 && isDigit(t[5]) && oneOf(t[:5], "debug", "trace") {
		return t[:5]
	}
	return t
}

// priorityLevel reads a syslog priority "<PRI>" (RFC 3164 and 5424, the
// kernel's printk): its severity is PRI mod 8, 0 emerg to 7 debug.
func priorityLevel(t []byte) (levelKind, bool) {
	n := len(t)
	if n < 3 || n > 5 || t[0] != '<' || t[n-1] != '>' || !bareNumber(t[1:n-1]) {
		return levelNone, false
	}
	pri := 0
	for _, c := range t[1 : n-1] {
		pri = pri*10 + int(c-'0')
	}
	switch pri % 8 {
	case 0, 1, 2: // emerg, alert, crit
		return levelFatal, true
	case 3: // err
		return levelError, true
	case 4: // warning
		return levelWarn, true
	}
	return levelQuiet, true // notice, info, debug
}

// levelBounds returns where the level word of the token t starts and
// ends: without the brackets, quotes and colon around it, and without what
// goes before the last ' ', ':' or '.' inside ("[10:00:00 INF]",
// "[proxy:error]", "production.INFO:", "…:[12]:LOG:").
func levelBounds(t []byte) (int, int) {
	i, j := 0, len(t)
	for i < j && (t[i] == '[' || t[i] == '<' || t[i] == '"' || t[i] == '\'') {
		i++
	}
	for j > i && (t[j-1] == ']' || t[j-1] == '>' || t[j-1] == ':' ||
		t[j-1] == '"' || t[j-1] == '\'' || t[j-1] == ',' || t[j-1] == ' ') { // "[INFO ]": a padded level
		j--
	}
	for k := j - 1; k >= i; k-- {
		if c := t[k]; c == ' ' || c == ':' || c == '.' {
			i = k + 1
			break
		}
	}
	if p := bytes.IndexByte(t[i:j], '/'); p > 0 {
		j = i + p // Celery's "INFO/MainProcess": the level before its process
	}
	return i, j
}

// levelCore strips the brackets, quotes and colon around a level word,
// and what goes before it in the same token (see levelBounds).
func levelCore(t []byte) []byte {
	i, j := levelBounds(t)
	return t[i:j]
}

// levelSpan trims the level token s[i:j] to its word.
func levelSpan(s []byte, i, j int) (int, int) {
	a, b := levelBounds(s[i:j])
	return i + a, i + b
}

// byLevel applies the level of a line to its best keyword hit: the
// category the match takes, or "" for no match. A quiet level drops the
// hit, a warning keeps it as reliability, an error or fatal level makes a
// match of its own when the keyword is not of that category.
func byLevel(lvl levelKind, hit keywordHit) (Category, bool) {
	switch lvl {
	case levelQuiet:
		return "", false
	case levelWarn:
		return CategoryReliability, hit.kw >= 0
	case levelError:
		return CategoryError, true
	case levelFatal:
		return CategoryFatal, true
	}
	if hit.kw < 0 {
		return "", false
	}
	return keywordTable[hit.kw].Category, true
}

// levelMemo remembers the kind of the last few level words: a log uses a
// handful, and levelOf compares with many words.
type levelMemo struct {
	ways [4]struct {
		text [16]byte
		n    uint8
		kind levelKind
	}
	next int
}

func (m *levelMemo) of(t []byte) levelKind {
	if len(t) > 16 {
		return levelOf(t)
	}
	for k := range m.ways {
		if w := &m.ways[k]; int(w.n) == len(t) && string(w.text[:w.n]) == string(t) {
			return w.kind
		}
	}
	w := &m.ways[m.next]
	m.next = (m.next + 1) % len(m.ways)
	w.n = uint8(copy(w.text[:], t))
	w.kind = levelOf(t)
	return w.kind
}
