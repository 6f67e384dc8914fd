package web

import "strings"

// browserName turns a User-Agent into the short "Firefox on Linux" the
// session list shows. It knows the common browsers and systems; anything
// else is "Unknown browser" or "unknown system", never the raw header.
func browserName(ua string) string {
	browser := "Unknown browser"
	for _, b := range []struct{ token, name string }{
		// Order matters: Edge and Opera also say Chrome, Chrome also says
		// Safari, headless Chrome says HeadlessChrome.
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"HeadlessChrome/", "Headless Chrome"},
		{"Chrome/", "Chrome"}, {"Safari/", "Safari"}, {"curl/", "curl"}, {"Go-http-client/", "Go HTTP client"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	system := "unknown system"
	for _, s := range []struct{ token, name string }{
		{"Android", "Android"}, {"iPhone", "iOS"}, {"iPad", "iPadOS"}, {"CrOS", "ChromeOS"},
		{"Mac OS X", "macOS"}, {"Macintosh", "macOS"}, {"Windows", "Windows"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, s.token) {
			system = s.name
			break
		}
	}
	if system == "unknown system" && browser != "Unknown browser" && !strings.Contains(ua, "(") {
		return browser // a command-line client names no system
	}
	return browser + " on " + system
}
