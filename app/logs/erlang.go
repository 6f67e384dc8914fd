package logs

import "bytes"

// Erlang's error_logger, as RabbitMQ before 3.7 and other OTP systems
// write it, logs an entry as a report header line, its kind and time, then
// the message on the lines under it, up to a blank line:
//
//	=ERROR REPORT==== 29-Nov-2026::10:00:05 ===
//	closing AMQP connection <0.512.0> (10.0.0.5:51234 -> 10.0.0.1:5672):
//	{handshake_timeout,frame_header}
//
// The header line is all header: read alone, every report of a kind would
// be one template. So the entry is read by its header line and the first
// message line under it, as .NET's console log is (dotnet.go), and the
// lines under it join it up to the blank line (entries.go), indented or
// not. The kind's first word is the level when it is one (INFO, WARNING,
// ERROR); CRASH, SUPERVISOR and PROGRESS reports are left to their
// keywords.

// erlangReport reports whether line is a report header line, and where its
// level word is (lvl1 == lvl0 when the kind is no level).
func erlangReport(line []byte) (lvl0, lvl1 int, ok bool) {
	if len(line) < 20 || line[0] != '=' || !isUpper(line[1]) {
		return 0, 0, false
	}
	k := bytes.Index(line, []byte("==== "))
	if k < 0 || !bytes.HasSuffix(trimEnd(line), []byte(" ===")) {
		return 0, 0, false
	}
	w := 1
	for w < k && isUpper(line[w]) {
		w++
	}
	for _, c := range line[w:k] {
		if !isUpper(c) && c != ' ' {
			return 0, 0, false
		}
	}
	if !bytes.Contains(line[k:], []byte("::")) {
		return 0, 0, false // the time is day::clock
	}
	if levelOf(line[1:w]) != levelNone {
		return 1, w, true
	}
	return 0, 0, true
}

// erlangMessage returns, when the line of input at start (ending at end)
// is a report header line, the text of it and the message line under it
// as the input holds them (the header line alone when a blank line or the
// input's end follows), and the level word's span; else nil.
func erlangMessage(input []byte, start, end int) (text []byte, lvl0, lvl1 int) {
	lvl0, lvl1, ok := erlangReport(input[start:end])
	if !ok {
		return nil, 0, 0
	}
	next := end
	if next < len(input) && input[next] == '\r' {
		next++
	}
	if next+1 >= len(input) || input[next] != '\n' {
		return input[start:end], lvl0, lvl1
	}
	msg, _ := nextLine(input, next+1)
	msg = bytes.TrimSuffix(msg, []byte{'\r'})
	if !hasNonSpace(msg) {
		return input[start:end], lvl0, lvl1
	}
	return input[start : next+1+len(msg)], lvl0, lvl1
}
