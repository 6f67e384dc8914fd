package logs

// Redis (2.6 and later) opens its lines with "pid:role" (role X sentinel,
// C child, S replica, M master), then the time and one mark that is its
// level: "." debug, "-" verbose, "*" notice, "#" warning. The mark is read
// as the level only after such a prefix: elsewhere "-" or "*" after a time
// is a mere separator, and reading it as a quiet level would hide the
// keywords of the message.
func redisRole(s []byte) bool {
	i := 0
	for i < len(s) && i < 10 && isDigit(s[i]) {
		i++
	}
	if i == 0 || i+2 >= len(s) || s[i] != ':' || s[i+2] != ' ' {
		return false
	}
	switch s[i+1] {
	case 'X', 'C', 'S', 'M':
		return true
	}
	return false
}

// redisLevel is the kind of a Redis level mark. "#" is Redis's highest
// level, under which it logs its errors ("# Background saving error") as
// well as its warnings and some plain news ("# Server initialized"): the
// keywords decide there, as without a level. The other three are quiet.
func redisLevel(c byte) (levelKind, bool) {
	switch c {
	case '.', '-', '*':
		return levelQuiet, true
	case '#':
		return levelNone, true
	}
	return levelNone, false
}
