package meter

import (
	"strings"
	"unicode/utf8"

	"parapet/models"
)

// A record is never lost over what its text holds: a database refuses a
// NUL or invalid UTF-8 in a text column (Postgres does), and the recorder
// skips a record the database refuses, usage and all. So every text field
// of a record is made acceptable before it is queued, whatever its source
// (an upstream's model name, a reply kept with GATEWAY_LOG_CONTENT, a
// header).

// dbText is s with invalid UTF-8 and NUL replaced by U+FFFD; s itself
// (no copy) when it has neither, as nearly every value does.
func dbText(s string) string {
	if strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

func dbTextPtr(p *string) *string {
	if p == nil {
		return nil
	}
	if s := dbText(*p); s != *p {
		return &s
	}
	return p
}

// sanitize makes every text field of rec's event acceptable to the database.
func sanitize(rec *models.UsageRecord) {
	e := rec.Event
	if e == nil {
		return
	}
	e.Action, e.Target, e.IP, e.RequestID = dbText(e.Action), dbText(e.Target), dbText(e.IP), dbText(e.RequestID)
	for _, p := range []**string{&e.OrgID, &e.ActorUserID, &e.ActorKeyID, &e.ErrorCode, &e.Model, &e.Detail, &e.UsageFlag} {
		*p = dbTextPtr(*p)
	}
	rec.Actor = dbText(rec.Actor)
}
