package logs

// Cisco's IOS, NX-OS and ASA write a message's facility, severity and
// mnemonic after the syslog header: "%LINK-3-UPDOWN:", "%ASA-4-106023:",
// "%SEC_LOGIN-5-LOGIN_SUCCESS:". The digit is a syslog severity, 0
// emergency to 7 debug, and the line's level; the tag is header.

// ciscoTag returns the offset of the severity digit in t, a header token,
// when t is such a tag: '%', upper-case segments joined by '-', one of
// them a single digit 0 to 7 between two others, and a colon; else 0.
func ciscoTag(t []byte) int {
	n := len(t)
	if n < 7 || t[0] != '%' || t[n-1] != ':' {
		return 0
	}
	sev, start := 0, 1
	for i := 1; i < n; i++ {
		c := t[i]
		if c != '-' && c != ':' {
			if !isUpper(c) && !isDigit(c) && c != '_' {
				return 0
			}
			continue
		}
		if i == start {
			return 0 // an empty segment
		}
		if i == start+1 && t[start] >= '0' && t[start] <= '7' && start > 1 && c == '-' && sev == 0 {
			sev = start
		}
		start = i + 1
	}
	return sev
}
