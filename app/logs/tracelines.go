package logs

import "bytes"

// The lines of stack traces, language by language, that the joiner
// (entries.go) takes for the continuation of the entry above.

// goTraceLine reports a line of a Go panic or goroutine dump that is not
// indented: "[signal SIGSEGV: ...]", "goroutine 7 [running]:", a function
// line such as "main.(*Server).handle(0x0, {0x5a1b20})" or "panic({...})",
// "created by main.main in goroutine 1", the runtime's note of elided
// frames, and the go command's "exit status 2".
func goTraceLine(t []byte) bool {
	t = trimEnd(t)
	switch {
	case bytes.HasPrefix(t, []byte("[signal ")), bytes.HasPrefix(t, []byte("[recovered")),
		bytes.HasPrefix(t, []byte("created by ")), bytes.HasPrefix(t, []byte("...additional frames elided...")):
		return true
	case bytes.HasPrefix(t, []byte("exit status ")):
		n := t[len("exit status "):]
		return len(n) > 0 && bareNumber(n)
	}
	return goroutineLine(t) || goFuncLine(t)
}

// goroutineLine reports "goroutine 7 [running]:" and the like.
func goroutineLine(t []byte) bool {
	t = trimEnd(t)
	rest, ok := bytes.CutPrefix(t, []byte("goroutine "))
	if !ok {
		return false
	}
	k := bytes.IndexByte(rest, ' ')
	return k > 0 && bareNumber(rest[:k]) && bytes.HasPrefix(rest[k:], []byte(" [")) && bytes.HasSuffix(rest, []byte("]:"))
}

// goFuncLine reports a function line of a Go stack: a qualified name
// (or panic) without spaces, then its arguments in parentheses ending the
// line: "main.main()", "net/http.(*conn).serve(0xc000126000, ...)".
func goFuncLine(t []byte) bool {
	k := bytes.IndexByte(t, '(')
	if k <= 0 || !isLetter(t[0]) && t[0] != '_' || t[len(t)-1] != ')' {
		return false
	}
	name := t[:k]
	return bytes.IndexByte(name, ' ') < 0 && (bytes.IndexByte(name, '.') > 0 || string(name) == "panic")
}

// tracebackLine reports the line that opens a Python traceback.
func tracebackLine(t []byte) bool {
	return bytes.HasPrefix(t, []byte("Traceback (most recent call last):"))
}

// chainSentence reports the sentences that chain Python tracebacks. Their
// second byte rules out most lines (a syslog's "Dec 10 ...") without a
// comparison of the whole.
func chainSentence(t []byte) bool {
	return len(t) > 1 && (t[1] == 'u' && bytes.HasPrefix(t, []byte("During handling of the above exception")) ||
		t[1] == 'h' && bytes.HasPrefix(t, []byte("The above exception was the direct cause")))
}

// rubyFrame reports a Ruby backtrace line: "app/models/user.rb:10:in
// `save'" (or 'save', as Ruby 3.4 writes it).
func rubyFrame(t []byte) bool {
	k := bytes.IndexByte(t, ' ')
	if k < 0 || k+1 >= len(t) || t[k+1] != '`' && t[k+1] != '\'' {
		return false
	}
	loc, ok := bytes.CutSuffix(t[:k], []byte(":in"))
	if !ok {
		return false
	}
	colon := bytes.LastIndexByte(loc, ':')
	return colon > 0 && colon+1 < len(loc) && bareNumber(loc[colon+1:])
}

// phpFrame reports a frame of a PHP stack trace: "#0 /app/a.php(12):
// run()", "#3 {main}".
func phpFrame(t []byte) bool {
	k := bytes.IndexByte(t, ' ')
	return len(t) > 0 && t[0] == '#' && k > 1 && bareNumber(t[1:k])
}

// moreLine reports Java's "... 12 more", or logback's "... 12 common
// frames omitted". A line that has no count ("... more") is none.
func moreLine(t []byte) bool {
	rest, ok := bytes.CutPrefix(t, []byte("... "))
	if !ok {
		return false
	}
	n, tail, _ := bytes.Cut(trimEnd(rest), []byte(" "))
	return len(n) > 0 && bareNumber(n) && (string(tail) == "more" || string(tail) == "common frames omitted")
}

// dotnetTraceMark reports the lines .NET writes between the frames of a
// stack trace: "--- End of stack trace from previous location ---" (an
// await) and "--- End of inner exception stack trace ---".
func dotnetTraceMark(t []byte) bool {
	return bytes.HasPrefix(t, []byte("--- End of ")) && bytes.HasSuffix(trimEnd(t), []byte(" ---"))
}

// exceptionNameByte marks the bytes of an exception's qualified name:
// letters, digits and "_.$".
var exceptionNameByte = byteSet(alnumBytes + "_.$")

// exceptionLine reports a line naming an exception: an identifier, dotted
// when qualified is set, that ends in Error, Exception or Throwable,
// followed by ':' or nothing ("ValueError: bad", "java.io.IOException").
// Without qualified, any Python-style "Name: message" or "Name" counts.
func exceptionLine(t []byte, qualified bool) bool {
	k := 0
	dots := 0
	for k < len(t) && exceptionNameByte[t[k]] {
		if t[k] == '.' {
			dots++
		}
		k++
	}
	if k == 0 || !isLetter(t[0]) || k < len(t) && t[k] != ':' && t[k] != '\r' {
		return false
	}
	if !qualified {
		return true
	}
	name := t[:k]
	return dots > 0 && (bytes.HasSuffix(name, []byte("Exception")) || bytes.HasSuffix(name, []byte("Error")) ||
		bytes.HasSuffix(name, []byte("Throwable")))
}
