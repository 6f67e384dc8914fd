package logs

import "bytes"

// .NET's console log (Microsoft.Extensions.Logging's simple console
// formatter, the default of ASP.NET Core in a container) writes an entry
// as a header line, the level and the category with its event id, and
// the message indented on the lines under it:
//
//	info: Microsoft.Hosting.Lifetime[14]
//	      Now listening on: http://[::]:8080
//
// The lines join as one entry (entries.go), but the first line alone
// would be its template: every entry of a category would fall in one
// template, "Microsoft.<*>]", whatever it says. So such an entry is read
// by its header line and the message line under it, as one text.

// dotnetLevels are the console formatter's level words, each four letters
// and a colon.
var dotnetLevels = []string{"trce: ", "dbug: ", "info: ", "warn: ", "fail: ", "crit: "}

// dotnetMessage returns, when line (the input's line at start, ending at
// end) is the header line of .NET's console log, the text of it and the
// message line under it as the input holds them; else nil.
func dotnetMessage(input []byte, start, end int) []byte {
	line := input[start:end]
	if len(line) < 10 || line[4] != ':' || !oneOf(line[:6], dotnetLevels...) || !dotnetCategory(line[6:]) {
		return nil
	}
	next := end
	if next < len(input) && input[next] == '\r' {
		next++
	}
	if next+7 >= len(input) || input[next] != '\n' || !bytes.HasPrefix(input[next+1:], []byte("      ")) || isSpace(input[next+7]) {
		return nil
	}
	msg, _ := nextLine(input, next+1)
	msg = bytes.TrimSuffix(msg, []byte{'\r'})
	return input[start : next+1+len(msg)]
}

// dotnetCategory reports a category and event id, "Name.Space.Type[12]",
// and nothing after it.
func dotnetCategory(t []byte) bool {
	t = bytes.TrimRight(t, " ")
	k := bytes.IndexByte(t, '[')
	return k > 0 && isLetter(t[0]) && t[len(t)-1] == ']' && k < len(t)-2 && bareNumber(t[k+1:len(t)-1]) &&
		bytes.IndexByte(t[:k], ' ') < 0
}
