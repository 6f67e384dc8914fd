package web

import "strings"

// uaName is a User-Agent token and the name the session list shows for it.
type uaName struct{ token, name string }

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari,
// headless Chrome says HeadlessChrome.
var uaBrowsers = []uaName{
	{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"HeadlessChrome/", "Headless Chrome"},
	{"Chrome/", "Chrome"}, {"Safari/", "Safari"}, {"curl/", "curl"}, {"Go-http-client/", "Go HTTP client"},
}

var uaSystems = []uaName{
	{"Android", "Android"}, {"iPhone", "iOS"}, {"iPad", "iPadOS"}, {"CrOS", "ChromeOS"},
	{"Mac OS X", "macOS"}, {"Macintosh", "macOS"}, {"Windows", "Windows"}, {"Linux", "Linux"},
}

// browserName turns a User-Agent into the short "Firefox on Linux" the
// session list shows. It knows the common browsers and systems; anything
// else is "Unknown browser" or "unknown system", never the raw header.
func browserName(ua string) string {
	browser, system := uaFirst(ua, uaBrowsers), uaFirst(ua, uaSystems)
	if system == "" && browser != "" && !strings.Contains(ua, "(") {
		return browser // a command-line client names no system
	}
	return orDefault(browser, "Unknown browser") + " on " + orDefault(system, "unknown system")
}

// uaFirst is the name of the first of names whose token ua contains, or "".
func uaFirst(ua string, names []uaName) string {
	for _, n := range names {
		if strings.Contains(ua, n.token) {
			return n.name
		}
	}
	return ""
}
