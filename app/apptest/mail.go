package apptest

import (
	"regexp"
	"strconv"
)

// Mail is a message the application sent: without SMTP_URL, as tests run,
// the development mailer writes each one to the log.
type Mail struct {
	To, Subject, Body string
}

// mailLine is the development mailer's log line; each value is bare or
// quoted as the text handler writes it.
var mailLine = regexp.MustCompile(`msg="mail \(SMTP_URL unset, not sent\)" to=("(?:[^"\\]|\\.)*"|\S+) subject=("(?:[^"\\]|\\.)*"|\S+) body=("(?:[^"\\]|\\.)*"|\S+)`)

// Mails lists the messages this application has sent, oldest first.
func (e *Env) Mails() []Mail {
	var out []Mail
	for _, m := range mailLine.FindAllStringSubmatch(e.Logs.String(), -1) {
		out = append(out, Mail{To: logValue(m[1]), Subject: logValue(m[2]), Body: logValue(m[3])})
	}
	return out
}

func logValue(v string) string {
	if s, err := strconv.Unquote(v); err == nil {
		return s
	}
	return v
}
