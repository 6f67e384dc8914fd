package redact

import (
	"regexp"
	"slices"
	"strings"
)

// A Kubernetes Secret's data and stringData hold secrets under any name
// (username, tls.key, .dockerconfigjson), so every value of theirs is
// masked: in a YAML document (between ---) whose kind is Secret, and in a
// JSON object's "data" when its text names the kind Secret.

var (
	jsonSecretKind = regexp.MustCompile(`"kind"\s*:\s*"Secret"`)
	jsonDataStart  = regexp.MustCompile(`"(?:data|stringData)"\s*:\s*\{`)
	jsonDataPair   = regexp.MustCompile(`^\s*"[^"\n]*"\s*:\s*"([^"\\\n]*)"\s*,?`)
)

func isSecretKind(line string) bool {
	switch strings.TrimSpace(line) {
	case "kind: Secret", `kind: "Secret"`, "kind: 'Secret'":
		return true
	}
	return false
}

// secretManifests masks the values of the Secrets' data in s.
func (r *Redactor) secretManifests(s string) string {
	if !strings.Contains(s, "Secret") {
		return s
	}
	if jsonSecretKind.MatchString(s) {
		s = r.jsonSecretData(s)
	}
	if !strings.Contains(s, "\n") {
		return s // a kind line and a data block are lines of their own
	}
	lines := strings.Split(s, "\n")
	r.secretData(lines)
	return strings.Join(lines, "\n")
}

// jsonSecretData masks the string values of every "data" object in s.
func (r *Redactor) jsonSecretData(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range jsonDataStart.FindAllStringIndex(s, -1) {
		for i := m[1]; ; {
			p := jsonDataPair.FindStringSubmatchIndex(s[i:])
			if p == nil {
				break
			}
			if v := s[i+p[2] : i+p[3]]; i+p[2] >= last && !notSecret(v) {
				b.WriteString(s[last : i+p[2]])
				b.WriteString(r.placeholder("secret", v))
				last = i + p[3]
			}
			i += p[1]
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// secretData masks, in place, the values under data: and stringData: in
// the YAML documents of lines whose kind is Secret: a value on its key's
// line, and each line deeper than its key (a block scalar's).
func (r *Redactor) secretData(lines []string) {
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && !strings.HasPrefix(lines[i], "---") {
			continue
		}
		if doc := lines[start:i]; slices.ContainsFunc(doc, isSecretKind) {
			r.dataValues(doc)
		}
		start = i + 1
	}
}

func (r *Redactor) dataValues(doc []string) {
	mask := func(i, cs, ce int) {
		if v := doc[i][cs:ce]; !notSecret(v) && !blockScalar.MatchString(v) {
			doc[i] = doc[i][:cs] + r.placeholder("secret", v) + doc[i][ce:]
		}
	}
	for i := 0; i < len(doc); i++ {
		if t := strings.TrimSpace(doc[i]); t != "data:" && t != "stringData:" {
			continue
		}
		indent, child := blanks(doc[i]), -1
		for ; i+1 < len(doc); i++ {
			line := doc[i+1]
			if strings.TrimSpace(line) == "" {
				continue
			}
			n := blanks(line)
			if n <= indent {
				break
			}
			if child < 0 {
				child = n
			}
			cs, ce := lineContent(line)
			if n == child {
				c := strings.Index(line, ": ")
				if c < 0 {
					continue // key: alone, its value on the deeper lines
				}
				cs = c + 2 + blanks(line[c+2:])
				if cs < ce && (line[cs] == '"' || line[cs] == '\'') {
					cs, ce = valueSpan(line, cs)
				}
			}
			mask(i+1, cs, ce)
		}
	}
}

// blanks is the count of a line's leading blanks.
func blanks(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}
