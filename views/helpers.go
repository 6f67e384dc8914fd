package views

import (
	"fmt"
	"html"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"parapet/models"
)

func nextQuery(next string) string {
	if next == "" {
		return ""
	}
	return "?next=" + url.QueryEscape(next)
}

func str(p *string, none string) string {
	if p == nil || *p == "" {
		return none
	}
	return *p
}

func itoa[T ~int | ~int64](n T) string { return fmt.Sprintf("%d", n) }

// countLabel writes a count that may have stopped short: 10,000+.
func countLabel(n int64, more bool) string {
	if more {
		return Thousands(n) + "+"
	}
	return Thousands(n)
}

// Thousands writes 1234567 as 1,234,567.
func Thousands[T ~int | ~int64](n T) string {
	s := fmt.Sprintf("%d", n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

func tabAttrs(active, tab string) templ.Attributes {
	if active == tab {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

func filterClass(on bool) string {
	if on {
		return ""
	}
	return "secondary outline"
}

func pageURL(base, action string, page int) string {
	q := url.Values{}
	if action != "" {
		q.Set("action", action)
	}
	q.Set("page", itoa(page))
	return base + "?" + q.Encode()
}

func auditActor(e models.AuditEventRow) string {
	switch {
	case e.ActorEmail != nil:
		return *e.ActorEmail
	case e.ActorKeyName != nil:
		return "key " + *e.ActorKeyName
	case e.ActorKeyID != nil:
		return "key " + *e.ActorKeyID
	default:
		return "—"
	}
}

func auditOutcome(e models.AuditEventRow) string {
	if e.Status == nil {
		return ""
	}
	s := " · " + itoa(*e.Status)
	if e.ErrorCode != nil && *e.ErrorCode != "" {
		s += " " + *e.ErrorCode
	}
	if e.InputTokens != nil && e.OutputTokens != nil {
		s += " · " + itoa(*e.InputTokens) + "+" + itoa(*e.OutputTokens) + " tokens"
	}
	return s
}

func splitBackticks(s string) []string { return strings.Split(s, "`") }

func requiredText(required bool) string {
	if required {
		return ", required"
	}
	return ""
}

func dashText(s string) string {
	if s == "" {
		return ""
	}
	return " — " + s
}

func lifecycleBadge(l string) string {
	if l == models.PublicLifecycle {
		return "badge-beta"
	}
	return "badge-revoked"
}

// forwardLifecycles are the lifecycles a product may move to: its own and
// the later ones.
func forwardLifecycles(current string) []string {
	r := models.LifecycleRank(current)
	if r < 0 {
		return models.Lifecycles
	}
	return models.Lifecycles[r:]
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// soleOwner is the current member being the organization's only owner,
// who may not leave it (it would have none).
func soleOwner(d MembersData) bool {
	if d.Role != models.RoleOwner {
		return false
	}
	owners := 0
	for _, m := range d.Members {
		if m.Role == models.RoleOwner {
			owners++
		}
	}
	return owners == 1
}

// nameParts cuts a resource name at its seams: after '.', '_', '-', '/',
// ':' or ']', and before a capital that follows a lower-case letter.
func nameParts(name string) []string {
	var parts []string
	start := 0
	for i := 1; i < len(name); i++ {
		prev, c := name[i-1], name[i]
		if strings.IndexByte("._-/:]", prev) >= 0 || prev >= 'a' && prev <= 'z' && c >= 'A' && c <= 'Z' {
			parts = append(parts, name[start:i])
			start = i
		}
	}
	return append(parts, name[start:])
}

// breakableHTML is the name escaped, its parts joined by <wbr> (in Go, as
// templ would put spaces between the parts).
func breakableHTML(name string) string {
	parts := nameParts(name)
	for i, p := range parts {
		parts[i] = html.EscapeString(p)
	}
	return strings.Join(parts, "<wbr>")
}
