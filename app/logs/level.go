package logs

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
// "ERROR", "[warn]", "<crit>", "Info", a single letter V D I W E F.
func levelOf(t []byte) levelKind {
	t = levelCore(t)
	if len(t) == 1 {
		switch t[0] {
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
	{levelQuiet, []string{"trace", "debug", "dbg", "verbose", "fine", "finer", "finest", "info", "information", "notice", "log"}},
	{levelWarn, []string{"warn", "warning"}},
	{levelError, []string{"error", "err", "severe"}},
	{levelFatal, []string{"fatal", "panic", "crit", "critical", "alert", "emerg", "emergency"}},
}

// levelCore strips the brackets, quotes and colon around a level word.
func levelCore(t []byte) []byte {
	for len(t) > 0 && (t[0] == '[' || t[0] == '<' || t[0] == '"' || t[0] == '\'') {
		t = t[1:]
	}
	for len(t) > 0 && (t[len(t)-1] == ']' || t[len(t)-1] == '>' || t[len(t)-1] == ':' ||
		t[len(t)-1] == '"' || t[len(t)-1] == '\'' || t[len(t)-1] == ',') {
		t = t[:len(t)-1]
	}
	return t
}

// levelSpan trims the level token s[i:j] to its word.
func levelSpan(s []byte, i, j int) (int, int) {
	core := levelCore(s[i:j])
	if len(core) == 0 {
		return i, i
	}
	k := i
	for k < j && s[k] != core[0] {
		k++
	}
	return k, k + len(core)
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
