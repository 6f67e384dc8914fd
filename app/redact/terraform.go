package redact

import (
	"regexp"
	"strings"
)

// A Terraform variable named like a secret (variable "db_password") holds
// one in its default, whose key, "default", names nothing secret: the
// default's quoted value is masked, up to the block's closing brace (a
// line of its own, as terraform fmt writes it). An interpolation
// (${var.x}) is a reference, not a secret.
var (
	variableHeader  = regexp.MustCompile(`(?m)^[ \t]*variable[ \t]+"([A-Za-z0-9_\-]+)"[ \t]*\{[ \t]*$`)
	variableDefault = regexp.MustCompile(`(?m)^[ \t]*default[ \t]*=[ \t]*"((?:[^"\\\n]|\\.)*)"`)
	blockClose      = regexp.MustCompile(`(?m)^[ \t]*\}`)
)

// variableDefaults masks the defaults of the secret-named variables in s.
func (r *Redactor) variableDefaults(s string) string {
	if !strings.Contains(s, "variable") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range variableHeader.FindAllStringSubmatchIndex(s, -1) {
		if m[0] < last || !secretName(s[m[2]:m[3]]) {
			continue
		}
		body := s[m[1]:]
		if c := blockClose.FindStringIndex(body); c != nil {
			body = body[:c[0]]
		}
		d := variableDefault.FindStringSubmatchIndex(body)
		if d == nil {
			continue
		}
		start, end := m[1]+d[2], m[1]+d[3]
		if v := s[start:end]; notSecret(v) || strings.Contains(v, "${") || Placeholder.MatchString(v) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(r.placeholder(kindOfKey(s[m[2]:m[3]]), s[start:end]))
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
