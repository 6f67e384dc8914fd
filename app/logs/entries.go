package logs

import (
	"bytes"
	"unicode/utf8"
)

// A log entry may span several lines: a stack trace under the line that
// logged it, a Python traceback, a message continued on indented lines. By
// default (Options.SplitContinuations false) such continuation lines join
// the entry above, which is then analysed as one: it is templated by its
// first line, numbered by its first line, and its text holds all its lines.
// A line continues the entry above when it is
//   - indented (unless the input is indented as a whole: see entryRules);
//   - a Java frame or trailer: "at a.b.C(C.java:1)", "Caused by: ...",
//     "Suppressed: ...", "... 12 more", and logback's "Wrapped by: ..."
//     (the causes printed root first) and "... 12 common frames omitted";
//   - .NET's marks between the frames of a stack trace, "--- End of stack
//     trace from previous location ---" and "--- End of inner exception
//     stack trace ---";
//   - part of a Python traceback: "Traceback (most recent call last):", its
//     indented frames, the chaining sentences, and its last line, the
//     exception ("ValueError: bad value");
//   - an exception line with a qualified class name ("java.io.IOException:
//     closed", "org.a.FooError");
//   - part of a Go panic or goroutine dump, under a line that opens with
//     "panic: ", "fatal error: " or "goroutine N [...]:": the signal line,
//     the goroutine headers, the function lines ("main.main()") and their
//     indented file lines, "created by ...", and "exit status N";
//   - a Ruby backtrace line ("app/models/user.rb:10:in `save'");
//   - a PHP "Stack trace:" and the numbered frames under it
//     ("#0 /var/www/app.php(12): run()", "#1 {main}"), or Laravel's
//     "[stacktrace]" and its frames, and its "[previous exception] ..."
//     that chains the exception before;
//   - closing brackets alone ("}", "});"), which end an object printed
//     over several lines (Node.js's errors, pretty-printed JSON), maybe
//     after the quote that ends a string (Laravel's context ends with
//     "\"}" after the trace it holds);
//   - a line of an Erlang report, under its "=ERROR REPORT==== time ==="
//     line up to a blank line (erlang.go);
//   - part of a Rust panic, under "thread 'main' panicked at ...": the
//     message line after it (when it ends with ':'), "stack backtrace:",
//     the indented frames and the "note: ..." lines;
//   - in an input whose lines open with a timestamp, a line opening without
//     one (and without any header of its own), unless it stands alone: a
//     JSON object, a logfmt record with a level, a line that opens a Go or
//     Rust panic, a shell's note that a process died ("Segmentation
//     fault (core dumped)"), or journalctl's "-- Boot … --". Those are records of another writer sharing
//     the file (a second logger, the runtime, the shell), not the rest of
//     the message above.
//
// An entry holds at most MaxEntryLines lines and MaxEntryBytes bytes; a
// longer run of continuation lines starts a new entry.

// Limits of one multi-line entry.
const (
	MaxEntryLines = 500
	MaxEntryBytes = 256 << 10
)

// entryRules is what continuation detection learnt of the input from its
// first lines.
type entryRules struct {
	// indentedInput: the lines are indented as a whole (every line, or
	// most of them and those opening with a timestamp once indented), so
	// indentation says nothing. Most lines of a Java log with deep stack
	// traces, or of .NET's console log (a header line, then the message
	// indented), are indented too, but as continuations.
	indentedInput bool
	timeHeader    bool // nearly every line opens with a timestamp
	csvQuotes     bool // rows of comma-separated values, whose quoted fields may hold lines (csvcolumns.go)
}

// nextLine returns the line of input at start, without its '\n', and
// where the next one starts.
func nextLine(input []byte, start int) ([]byte, int) {
	end := bytes.IndexByte(input[start:], '\n')
	if end < 0 {
		return input[start:], len(input) + 1
	}
	return input[start : start+end], start + end + 1
}

// cutLine is a line as the engine analyses it: its first MaxLineBytes
// bytes, ending where a character starts; cut says whether it was longer.
func cutLine(line []byte) (text []byte, cut bool) {
	if len(line) <= MaxLineBytes {
		return line, false
	}
	k := MaxLineBytes
	for k > 0 && !utf8.RuneStart(line[k]) {
		k--
	}
	return line[:k], true
}

// detectEntryRules samples the first lines of input.
func detectEntryRules(input []byte) entryRules {
	lines, indented, timed, timedIndented := 0, 0, 0, 0
	for start := 0; start < len(input) && lines < colSample; {
		var line []byte
		line, start = nextLine(input, start)
		if !hasNonSpace(line) {
			continue
		}
		lines++
		switch {
		case line[0] == ' ' || line[0] == '\t':
			indented++
			if opensWithTime(line[skipSpace(line, 0):]) {
				timedIndented++
			}
		case opensWithTime(line):
			timed++
		}
	}
	return entryRules{
		indentedInput: indented == lines || 2*indented > lines && 2*timedIndented > indented,
		timeHeader:    lines >= 4 && float64(timed) >= colShare*float64(lines-indented),
	}
}

// opensWithTime reports a line whose first token is a date, time or
// number, bracketed or not, a month or weekday name, or a glog prefix.
func opensWithTime(s []byte) bool {
	if len(s) > 4 && isUpper(s[0]) && s[1] == ',' && s[2] == ' ' && s[3] == '[' {
		s = s[3:] // Ruby's Logger: "E, [2024-03-05T10:00:00.123 #12] ERROR -- : msg"
	}
	i := 0
	if len(s) > 0 && s[0] == '[' {
		i = 1
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != ']' {
		j++
	}
	t := s[i:j]
	return len(t) > 0 && (timeField(t) || glogPrefix(t))
}

// joiner decides, line by line, whether a line continues the entry above.
type joiner struct {
	rules entryRules
	trace traceKind // the stack trace being read, if any
}

// traceKind is the kind of stack trace whose lines are being read: they
// continue the entry above until a line that is none of them.
type traceKind uint8

const (
	traceNone        traceKind = iota
	tracePython                // inside a Python traceback
	traceGo                    // a Go panic or goroutine dump
	tracePHP                   // after a PHP "Stack trace:"
	traceRust                  // a Rust panic
	traceRustMessage           // after "panicked at file:line:col:", whose next line is the message
	traceReport                // an Erlang report (erlang.go): up to a blank line
	traceQuoted                // a comma-separated row's quoted field: up to its closing quote
)

// continues reports whether line continues the entry above (there is
// one), or that it does when it has no header, does not open with a
// timestamp and does not stand alone (needHeader): the caller finds the
// header, which it needs anyway for a line that opens an entry, as most
// lines do, and only a line without one is looked at further.
// A traceback does not continue an entry at a quiet level (such as INFO):
// it was printed beside the log, not by that entry.
func (j *joiner) continues(line []byte, quiet bool) (cont, needHeader bool) {
	c := line[0]
	indented := c == ' ' || c == '\t'
	switch {
	case j.trace == traceReport:
		return true, false
	case j.trace == traceQuoted:
		if oddQuotes(line) {
			j.trace = traceNone
		}
		return true, false
	case indented:
		return j.trace != traceNone || !j.rules.indentedInput, false
	case c == 'T' && tracebackLine(line):
		j.trace = tracePython
		return !quiet, false
	case (c == 'D' || c == 'T') && chainSentence(line):
		j.trace = tracePython
		return true, false
	}
	switch j.trace {
	case tracePython: // its last line, the exception, ends it
		j.trace = traceNone
		return exceptionLine(line, false), false
	case traceGo:
		if goTraceLine(line) {
			return true, false
		}
	case tracePHP:
		if phpFrame(line) {
			return true, false
		}
	case traceRustMessage:
		j.trace = traceRust
		return true, false
	case traceRust:
		if bytes.HasPrefix(line, []byte("stack backtrace:")) || bytes.HasPrefix(line, []byte("note: ")) {
			return true, false
		}
	}
	j.trace = traceNone
	switch {
	case !frameStart[c]: // none of the tests below can hold: most timestamps open with a digit
	case c == 'a' && bytes.HasPrefix(line, []byte("at ")) && bytes.IndexByte(line, '(') > 0,
		c == 'C' && bytes.HasPrefix(line, []byte("Caused by: ")),
		c == 'W' && bytes.HasPrefix(line, []byte("Wrapped by: ")),
		c == 'S' && bytes.HasPrefix(line, []byte("Suppressed: ")),
		c == '.' && moreLine(line),
		c == '-' && dotnetTraceMark(line),
		isLetter(c) && exceptionLine(line, true),
		(isLetter(c) || c == '/' || c == '.') && rubyFrame(line):
		return true, false
	case c == 'S' && bytes.HasPrefix(line, []byte("Stack trace:")),
		c == '[' && bytes.HasPrefix(line, []byte("[stacktrace]")):
		j.trace = tracePHP
		return true, false
	case c == '[' && bytes.HasPrefix(line, []byte("[previous exception] ")),
		(c == '}' || c == ']' || c == ')' || c == '"') && closers(line):
		return true, false
	case isUpper(c) && j.rules.timeHeader && errorHead(line):
		// The head of a JavaScript error's stack ("TypeError: Cannot
		// read properties of undefined"), printed under the entry that
		// logs it, as a Python traceback is, and like it an entry of
		// its own under a quiet one (it was printed beside the log):
		// its "Error:" was read as a header's level, so that the error
		// was counted twice, and under an INFO line it was a quiet
		// entry's continuation, whose error was not counted at all.
		return !quiet, false
	}
	return false, j.rules.timeHeader
}

// errorHead reports a line that opens with an unqualified error's name,
// ending in Error or Exception, then ": " or nothing: "Error: connect
// ECONNREFUSED", "TypeError: x is not a function", "AxiosError".
func errorHead(t []byte) bool {
	k := 0
	for k < len(t) && (isAlnum(t[k]) || t[k] == '_') {
		k++
	}
	name := t[:k]
	if !bytes.HasSuffix(name, []byte("Error")) && !bytes.HasSuffix(name, []byte("Exception")) {
		return false
	}
	rest := trimEnd(t[k:])
	return len(rest) == 0 || len(rest) > 2 && rest[0] == ':' && rest[1] == ' '
}

// plain reports a line continues would answer "no, unless its header
// says so" for without a test: out of a trace, one that opens with neither
// a blank nor a byte of frameStart (a digit, as most timestamps do).
func (j *joiner) plain(line []byte) bool {
	return j.trace == traceNone && plainStart[line[0]]
}

// plainStart marks the bytes that are neither blanks nor frameStart's.
var plainStart = func() (set [256]bool) {
	for c := range set {
		set[c] = !frameStart[c] && c != ' ' && c != '\t'
	}
	return set
}()

// closers reports a line of closing brackets alone ("}", "});", "],"),
// maybe after a quote ("\"}"): the end of an object printed over several
// lines, as Node.js prints an error's properties, or a pretty-printed JSON
// value, or of a string inside it that held lines.
func closers(line []byte) bool {
	t := bytes.TrimPrefix(bytes.TrimRight(line, " \r,;"), []byte{'"'})
	if len(t) == 0 {
		return false
	}
	for _, c := range t {
		if c != '}' && c != ']' && c != ')' {
			return false
		}
	}
	return true
}

// standsAlone reports a line without a timestamp that is a record of its
// own: in a timestamped log it was written by another writer, not as the
// rest of the entry above (see the rules above).
func standsAlone(line []byte) bool {
	t := trimEnd(line)
	switch c := t[0]; {
	case c == '{':
		return t[len(t)-1] == '}'
	case c == 'p' || c == 'f' || c == 'g' || c == 't':
		return opensTrace(t) != traceNone
	case c == 'S' || c == 'A' || c == 'K' || c == 'B' || c == 'I' || c == 'F':
		return processDeath(t)
	case c == '-':
		// journalctl's notes between records: "-- Boot 3b1c… --",
		// "-- No entries --".
		return len(t) > 6 && t[1] == '-' && t[2] == ' ' && bytes.HasSuffix(t, []byte(" --"))
	}
	return logfmtRecord(t)
}

// trimEnd is line without the spaces and carriage returns that end it:
// bytes.TrimRight(line, " \r"), without building a set of the two bytes
// for every line.
func trimEnd(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == ' ' || line[n-1] == '\r') {
		n--
	}
	return line[:n]
}

// processDeath reports what a shell prints when a child dies of a signal:
// "Segmentation fault (core dumped)", "Killed", "Aborted", ...
func processDeath(t []byte) bool {
	t = bytes.TrimSuffix(t, []byte(" (core dumped)"))
	return oneOf(t, "segmentation fault", "aborted", "killed", "bus error", "illegal instruction", "floating point exception")
}

// logfmtRecord reports a logfmt line with a level: key=value pairs, the
// first at the start, one of them level= or lvl=.
func logfmtRecord(t []byte) bool {
	k := 0
	for k < len(t) && recordKeyByte[t[k]] {
		k++
	}
	if k == 0 || k == len(t) || t[k] != '=' {
		return false
	}
	return bytes.HasPrefix(t, []byte("level=")) || bytes.HasPrefix(t, []byte("lvl=")) ||
		bytes.Contains(t, []byte(" level=")) || bytes.Contains(t, []byte(" lvl="))
}

// frameStart marks the bytes that open a line continues tests for below
// the traces' own: letters and "./[]})\"-".
var frameStart = byteSet(letterBytes + "./[]})\"-")

// recordKeyByte marks the bytes of logfmtRecord's first key: letters,
// digits and "_.".
var recordKeyByte = byteSet(alnumBytes + "_.")

// opens notes a line that opens an entry: a trace may start there. Only
// lines opening with 'T' or 'D' can start a Python one (see continues),
// only 'p', 'f' or 'g' a Go panic or goroutine dump, only 't' a Rust
// panic, and only '=' an Erlang report.
func (j *joiner) opens(line []byte) {
	j.trace = traceNone
	if traceOpener[line[0]] || j.rules.csvQuotes { // inlined: most lines open with none of them
		j.opensAt(line)
	}
}

// traceOpener marks the bytes a line that opens a trace opens with, or an
// Erlang report. (In comma-separated rows, any line may open a quoted
// field of several lines.)
var traceOpener = byteSet("TDpfgt=")

// opensAt is opens for a line whose first byte may open a trace, or a
// comma-separated row.
func (j *joiner) opensAt(line []byte) {
	switch c := line[0]; c {
	case 'T', 'D':
		// What continues would set, without the tests that follow
		// there, which set nothing for such a line.
		if c == 'T' && tracebackLine(line) || chainSentence(line) {
			j.trace = tracePython
		}
	case 'p', 'f', 'g', 't':
		j.trace = opensTrace(line)
	case '=':
		if _, _, ok := erlangReport(line); ok {
			j.trace = traceReport
		}
	}
	if j.rules.csvQuotes && oddQuotes(line) {
		j.trace = traceQuoted
	}
}

// blank notes a blank line, which ends an Erlang report. Other traces
// go on: a Python traceback's chaining sentence stands between blank
// lines.
func (j *joiner) blank() {
	if j.trace == traceReport {
		j.trace = traceNone
	}
}

// opensTrace is the kind of trace a line opens: a Go panic or goroutine
// dump ("panic: ", "fatal error: ", "goroutine N [...]:"), a Rust panic
// ("thread 'main' panicked at ..."), or none.
func opensTrace(line []byte) traceKind {
	switch {
	case bytes.HasPrefix(line, []byte("panic: ")) || bytes.HasPrefix(line, []byte("fatal error: ")) || goroutineLine(line):
		return traceGo
	case bytes.HasPrefix(line, []byte("thread '")) && bytes.Contains(line, []byte("' panicked at ")):
		if bytes.HasSuffix(trimEnd(line), []byte(":")) {
			return traceRustMessage
		}
		return traceRust
	}
	return traceNone
}
