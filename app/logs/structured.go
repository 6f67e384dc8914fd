package logs

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Structured lines carry their message in a field: a JSON object per line
// ({"level":"info","msg":"user logged in","user":"bob"}) or logfmt
// (level=info msg="user logged in" user=bob, maybe after a quoted message as
// klog writes it). Such a line is templated by its message alone; its other
// fields are parameters, shown with the line (LineHeader.Fields); and its
// level field, when there is one, decides its category. A line that is not
// well formed, or has no message field, is read as plain text.

// structSpans locates the message and level values of a structured line,
// as byte offsets in the line; msg1 == msg0 when there is no message.
type structSpans struct {
	ok         bool
	msg0, msg1 int
	lvl0, lvl1 int
	msgRank    int       // rank of the message key found, lower is better (see msgRankOf)
	http       httpSpans // an HTTP access line's status and method (access.go)
	// clef: a Serilog compact JSON event ("@mt" or "@m"), which leaves
	// out its level ("@l") when it is Information.
	clef bool
	ev   eventSpans // an event's fields, for JSON without a message (events.go)
}

// Message keys, best first; level keys. Keys match without regard to case.
// textPayload is Google Cloud Logging's, short_message GELF's (Graylog),
// body OpenTelemetry's; PRIORITY is journald's (journalctl -o json), a
// syslog severity as GELF's level is (see levelOf).
var (
	msgKeys   = []string{"msg", "message", "@m", "@mt", "event", "log", "text", "textpayload", "short_message", "body"}
	levelKeys = []string{"level", "lvl", "severity", "loglevel", "log.level", "log_level", "levelname", "@l", "severitytext",
		"level_name", "severity_text", "priority"}
)

func keyRank(k []byte, keys []string) int {
	for r, w := range keys {
		if equalFold(k, w) {
			return r
		}
	}
	return -1
}

// msgRankOf is the rank of k as a message key: its rank in msgKeys, or,
// for a nested key whose last part is one ("jsonPayload.message", as
// Google Cloud Logging exports a structured entry), after every top-level
// one and klog's leading quoted message; -1 for none.
func msgRankOf(k []byte) int {
	if r := keyRank(k, msgKeys); r >= 0 {
		return r
	}
	if d := bytes.LastIndexByte(k, '.'); d > 0 {
		if r := keyRank(k[d+1:], msgKeys); r >= 0 {
			return len(msgKeys) + 1 + r
		}
	}
	return -1
}

// note records the value s[v0:v1] of key k (a string's quotes excluded
// when str is set): a message or a level. klog's leading quoted message
// is the message whatever keys follow: the kubelet's event={…} or a
// message=… of an "Event occurred" is one of its values.
func (sp *structSpans) note(k []byte, v0, v1 int, str bool) {
	if r := msgRankOf(k); r >= 0 {
		sp.clef = sp.clef || r == 2 || r == 3 // @m, @mt
		if str && (sp.msg1 == sp.msg0 || r < sp.msgRank && sp.msgRank != len(msgKeys)) && v1 > v0 {
			sp.msg0, sp.msg1, sp.msgRank = v0, v1, r
			return
		}
	}
	if sp.lvl1 == sp.lvl0 && keyRank(k, levelKeys) >= 0 && v1 > v0 && v1-v0 <= 16 {
		sp.lvl0, sp.lvl1 = v0, v1
	}
	sp.http.note(k, v0, v1)
}

// mongoLevel notes the value s[v0:v1] of a top-level "s" key as the level
// when it is one of MongoDB's severities (F, E, W, I, D1 to D5), as its
// JSON log writes them ({"t":…,"s":"E","c":"STORAGE",…,"msg":…}). Any
// other "s" is no level: the key is too short to say so alone.
func (sp *structSpans) mongoLevel(s []byte, v0, v1 int) {
	if sp.lvl1 != sp.lvl0 {
		return
	}
	v := s[v0:v1]
	if len(v) == 1 && bytes.IndexByte([]byte("FEWI"), v[0]) >= 0 || len(v) == 2 && v[0] == 'D' && v[1] >= '1' && v[1] <= '5' {
		sp.lvl0, sp.lvl1 = v0, v1
	}
}

// quiet reports a structured line whose level is Information by
// omission: a Serilog compact JSON event without "@l".
func (sp *structSpans) quiet() bool { return sp.ok && sp.clef && sp.lvl1 == sp.lvl0 }

// scanJSON reads the JSON object at s[i] (which starts with '{'), nested
// objects' keys joined with dots ("log.level"). It does not decode: it
// only finds where values are.
func scanJSON(s []byte, i int) structSpans {
	var sp structSpans
	var path []byte
	end, ok := sp.object(s, i, path)
	sp.ok = ok && !hasNonSpace(s[end:])
	return sp
}

// object scans the object at s[i] under the key path, returning its end.
func (sp *structSpans) object(s []byte, i int, path []byte) (int, bool) {
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	for i < len(s) {
		if s[i] != '"' {
			return i, false
		}
		e := endQuote(s, i)
		if e < 0 {
			return i, false
		}
		key := append(path, s[i+1:e-1]...)
		k0 := i
		i = skipSpace(s, e)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		k1 := i + 1
		i = skipSpace(s, i+1)
		if i >= len(s) {
			return i, false
		}
		switch s[i] {
		case '"':
			e := endQuote(s, i)
			if e < 0 {
				return i, false
			}
			sp.note(key, i+1, e-1, true)
			sp.noteEvent(key, k0, k1, i, e)
			if len(key) == 1 && key[0] == 's' {
				sp.mongoLevel(s, i+1, e-1)
			}
			i = e
		case '{':
			var ok bool
			if i, ok = sp.object(s, i, append(key, '.')); !ok {
				return i, false
			}
		case '[':
			var ok bool
			if i, ok = skipArray(s, i); !ok {
				return i, false
			}
		default:
			j := i
			for j < len(s) && s[j] != ',' && s[j] != '}' && !isSpace(s[j]) {
				j++
			}
			sp.note(key, i, j, false)
			sp.noteEvent(key, k0, k1, i, j)
			i = j
		}
		i = skipSpace(s, i)
		if i >= len(s) {
			return i, false
		}
		switch s[i] {
		case '}':
			return i + 1, true
		case ',':
			i = skipSpace(s, i+1)
		default:
			return i, false
		}
	}
	return i, false
}

// skipArray returns the end of the JSON array at s[i].
func skipArray(s []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			e := endQuote(s, i)
			if e < 0 {
				return i, false
			}
			i = e - 1
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return i, false
}

// logfmtStart reports a message that opens with key= or with a quoted
// string: a cheap test before scanLogfmt.
func logfmtStart(s []byte, i int) bool {
	if i < len(s) && s[i] == '"' {
		return true
	}
	if i >= len(s) || !isLetter(s[i]) {
		return false
	}
	j := i
	for j < len(s) && logfmtKeyByte[s[j]] {
		j++
	}
	return j < len(s) && s[j] == '='
}

// logfmtKeyByte marks the bytes of a logfmt key: letters, digits and "_.-@".
var logfmtKeyByte = byteSet(alnumBytes + "_.-@")

// letterBytes and alnumBytes are the ASCII letters, and those and the
// digits, for byteSet.
const (
	letterBytes = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	alnumBytes  = letterBytes + "0123456789"
)

// scanLogfmt reads s[i:] as logfmt: key=value pairs, values bare or
// double-quoted, at least two pairs and nothing else but for a quoted
// message first ("msg text" k=v, as klog writes), then maybe no pair at
// all (klog's "Started kubelet": its words are the template's, not one
// quoted value masked).
func scanLogfmt(s []byte, i int) structSpans {
	var sp structSpans
	pairs := 0
	if i < len(s) && s[i] == '"' {
		e := endQuote(s, i)
		if e < 0 {
			return sp
		}
		sp.msg0, sp.msg1 = i+1, e-1
		sp.msgRank = len(msgKeys)
		i = e
	}
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			break
		}
		k := i
		for i < len(s) && logfmtKeyByte[s[i]] {
			i++
		}
		if i == k || i >= len(s) || s[i] != '=' || !isLetter(s[k]) && s[k] != '@' {
			return structSpans{}
		}
		key := s[k:i]
		i++
		if i < len(s) && s[i] == '"' {
			e := endQuote(s, i)
			if e < 0 {
				return structSpans{}
			}
			sp.note(key, i+1, e-1, true)
			sp.noteEvent(key, k, i, i, e)
			i = e
		} else {
			j := i
			for j < len(s) && !isSpace(s[j]) {
				j++
			}
			sp.note(key, i, j, true)
			v1 := j
			if v1 > i+1 && s[v1-1] == '\'' && s[i] != '\'' {
				v1-- // the quote closing auditd's msg='… res=failed'
			}
			sp.noteEvent(key, k, i, i, v1)
			i = j
		}
		if i < len(s) && !isSpace(s[i]) {
			return structSpans{}
		}
		pairs++
	}
	sp.ok = pairs >= 2 || sp.msg1 > sp.msg0
	return sp
}

// scanStructured reads the message s[i:] as JSON or logfmt, if it is.
func scanStructured(s []byte, i int) structSpans {
	switch {
	case i >= len(s):
	case s[i] == '{':
		if jsonObject(s, i) {
			return scanJSON(s, i)
		}
	case logfmtStart(s, i):
		return scanLogfmt(s, i)
	}
	return structSpans{}
}

// structuredFields returns the fields of a structured message, all but
// the message itself, values as text; nil for a plain one.
func structuredFields(msg string) map[string]string {
	m := []byte(msg)
	i := skipSpace(m, 0)
	sp := scanStructured(m, i)
	if !sp.ok || sp.msg1 == sp.msg0 {
		return nil
	}
	fields := make(map[string]string)
	if m[i] == '{' {
		var obj map[string]any
		if json.Unmarshal(m[i:], &obj) != nil {
			return nil
		}
		flatten(fields, "", obj)
	} else {
		logfmtPairs(msg[i:], func(k, v string) {
			fields[k] = v
		})
	}
	switch r := sp.msgRank; {
	case r < len(msgKeys):
		deleteFold(fields, msgKeys[r])
	case r > len(msgKeys): // nested; not klog's leading quoted message
		deleteNested(fields, msgKeys[r-len(msgKeys)-1], msg[sp.msg0:sp.msg1])
	}
	return fields
}

// deleteNested deletes the nested key whose last part is key and whose
// value, quoted, is quoted.
func deleteNested(m map[string]string, key, quoted string) {
	for k, v := range m {
		if d := strings.LastIndexByte(k, '.'); d >= 0 && strings.EqualFold(k[d+1:], key) {
			if u, err := strconv.Unquote(`"` + quoted + `"`); err == nil && u == v || quoted == v {
				delete(m, k)
				return
			}
		}
	}
}

func deleteFold(m map[string]string, key string) {
	for k := range m {
		if strings.EqualFold(k, key) {
			delete(m, k)
		}
	}
}

// flatten adds the values of obj to fields, nested keys joined by dots.
func flatten(fields map[string]string, prefix string, obj map[string]any) {
	for k, v := range obj {
		switch v := v.(type) {
		case map[string]any:
			flatten(fields, prefix+k+".", v)
		case string:
			fields[prefix+k] = v
		case nil:
			fields[prefix+k] = "null"
		default:
			b, _ := json.Marshal(v)
			fields[prefix+k] = string(b)
		}
	}
}

// logfmtPairs calls f with each key and value of a well-formed logfmt
// message, quoted values unquoted; a leading quoted message is skipped.
func logfmtPairs(s string, f func(k, v string)) {
	b := []byte(s)
	i := 0
	if len(b) > 0 && b[0] == '"' {
		i = endQuote(b, 0)
	}
	for i >= 0 && i < len(b) {
		i = skipSpace(b, i)
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return
		}
		k := s[i : i+eq]
		i += eq + 1
		if i < len(b) && b[i] == '"' {
			e := endQuote(b, i)
			v, err := strconv.Unquote(s[i:e])
			if err != nil {
				v = s[i+1 : e-1]
			}
			f(k, v)
			i = e
			continue
		}
		j := i
		for j < len(b) && !isSpace(b[j]) {
			j++
		}
		f(k, s[i:j])
		i = j
	}
}

// escapedCore is a value's core without the escaped quotes around it,
// which trimPunct leaves as `\"pull\` (msg="failed to \"pull\" image").
func escapedCore(core []byte) []byte {
	if len(core) > 3 && core[0] == '\\' && core[1] == '"' && core[len(core)-1] == '\\' {
		return trimPunct(core[2 : len(core)-1])
	}
	return core
}

// unescapeQuotes undoes the escapes of a JSON or logfmt string in a
// template mined from such messages: \" and \\ (and JSON's \/) read as the
// message does, as the same message logged as plain text is templated.
// Other escapes (\n, \t, \u0041) stay as written: they would break the
// template's one line or are rare.
func unescapeQuotes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\/`, s[i+1]) >= 0 {
			i++
		}
		b = append(b, s[i])
	}
	return string(b)
}
