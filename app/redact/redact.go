// Package redact masks secrets in text before it leaves for a model: cloud
// access keys, private keys, credentials in URLs, bearer tokens, our own
// ppk_ keys, JWTs, connection strings and the values of properties named
// like secrets, in JSON, YAML, HCL, logfmt and plain log lines.
//
// Each distinct secret gets a stable placeholder (<REDACTED_KIND_N>): the
// same value is the same placeholder wherever it occurs in one Redactor's
// texts, so a model can still see that two lines share a password, and a
// caller that knows where a placeholder stood can put the value back
// there (Original) — and nowhere else.
package redact

import (
	"regexp"
	"strconv"
	"strings"
)

// Mask is one secret that was masked, as a page may show it: its kind and
// its placeholder, never the value.
type Mask struct {
	Kind        string `json:"kind"`
	Placeholder string `json:"placeholder"`
}

// Redactor masks the texts of one request. It is not safe for concurrent
// use.
type Redactor struct {
	byValue map[string]string // original -> placeholder
	byPH    map[string]string // placeholder -> original
	masks   []Mask
}

// New returns an empty Redactor.
func New() *Redactor {
	return &Redactor{byValue: map[string]string{}, byPH: map[string]string{}}
}

// Placeholder matches the placeholders a Redactor makes.
var Placeholder = regexp.MustCompile(`<REDACTED_[A-Z0-9_]+?_[0-9]+>`)

// Masks lists what was masked so far, in the order first seen.
func (r *Redactor) Masks() []Mask { return append([]Mask{}, r.masks...) }

// Original is the value a placeholder stands for.
func (r *Redactor) Original(placeholder string) (string, bool) {
	v, ok := r.byPH[placeholder]
	return v, ok
}

// placeholder returns value's placeholder, making one of kind if new.
func (r *Redactor) placeholder(kind, value string) string {
	if ph, ok := r.byValue[value]; ok {
		return ph
	}
	ph := "<REDACTED_" + strings.ToUpper(kind) + "_" + strconv.Itoa(len(r.masks)+1) + ">"
	r.byValue[value], r.byPH[ph] = ph, value
	r.masks = append(r.masks, Mask{Kind: kind, Placeholder: ph})
	return ph
}

// rule finds secrets by pattern: the whole match, or the submatch group
// when group > 0.
type rule struct {
	kind  string
	re    *regexp.Regexp
	group int
}

// rules run in order, the most specific first, so that a JWT inside a
// bearer header is named a JWT.
var rules = []rule{
	// PEM keys and PGP private key blocks (-----BEGIN PGP PRIVATE KEY
	// BLOCK-----).
	{"private_key", regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`), 0},
	// A key cut short (a log line's limit, a truncated paste) is masked to
	// the end of its base64 body (a PGP block's armor headers, such as
	// "Version: GnuPG v2 (GNU/Linux)", included).
	{"private_key", regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:.()\-]|\\[nr])*`), 0},
	{"jwt", regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`), 0},
	{"parapet_key", regexp.MustCompile(`ppk_[0-9A-Za-z]{20,}`), 0},
	{"aws_access_key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), 0},
	{"gcp_api_key", regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`), 0},
	{"github_token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`), 0},
	{"slack_token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), 0},
	// A Slack (or Discord) incoming webhook's URL is its credential: the
	// path after /services/ is masked, the host kept.
	{"slack_webhook", regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_\-]+/[A-Za-z0-9_/\-]+)`), 1},
	{"discord_webhook", regexp.MustCompile(`discord(?:app)?\.com/api/webhooks/([0-9]+/[A-Za-z0-9_\-]+)`), 1},
	{"npm_token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,}`), 0},
	{"gitlab_token", regexp.MustCompile(`\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_\-]{20,}`), 0},
	{"api_key", regexp.MustCompile(`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,})`), 0},
	{"azure_client_secret", regexp.MustCompile(`\b[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}`), 0},
	// user:password@ in any URL or connection string (postgres://,
	// mongodb+srv://, amqp://, https://); the user may be empty, as in
	// redis://:password@host.
	{"url_password", regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@"'<>]*:([^\s@/"'<>]+)@`), 1},
	// mysql -pPASSWORD: -p is read so only after a MySQL or MariaDB
	// client on the same line (elsewhere -p is mkdir's, grep's…).
	{"password", regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlpump|mysqlsh|mysqlbinlog|mariadb|mariadb-dump|mariadb-admin)\b[^\n]*?[ \t]-p["']?([^\s"']+)`), 1},
	// Digest credentials: every parameter after the scheme (username,
	// nonce, response…) as one value.
	{"authorization", regexp.MustCompile(`(?i)\bdigest[ \t]+((?:[A-Za-z0-9_\-]+=(?:"[^"\n]*"|[^\s,"]*)(?:[ \t]*,[ \t]*)?)+)`), 1},
	{"bearer_token", regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9\-._~+/]{8,}=*)`), 1},
	{"authorization", regexp.MustCompile(`(?i)\bauthorization\\?["']?\s*[:=]\s*\\?["']?(?:[A-Za-z]+\s+)?([^\s"'\\,;]{8,})`), 1},
}

// secretKey matches a property or parameter named like a secret and the
// separator after it: the name must end in the secret word
// (MasterUserPassword, db_password, client_secret, auth_token,
// session_id), so that input_tokens or token_count are left alone. "pass"
// is a secret word only as a whole word or after _ or - (DB_PASS,
// smtp-pass, "pass"), not in bypass or compass. A command line's flag
// named so takes its value after a space too (--password value, group 1).
var secretKey = regexp.MustCompile(`(?i)(?:[A-Za-z0-9_\-]*(?:password|passwd|pwd|passphrase|secret|token|apikey|api_key|api-key|accesskey|access_key|secretkey|secret_key|privatekey|private_key|credential|credentials|signature|sig|accountkey|connectionstring|connection_string|sessionid|session_id|session-id|sessid)|\b(?:[A-Za-z0-9_\-]*[_\-])?pass)(?:\\?["'])?[ \t]*(?::|=>|=)[ \t]*` +
	`|(?:^|[ \t\n])(--?[A-Za-z0-9\-]*(?:password|passwd|passphrase|secret|token|api-key|apikey|access-key|secret-key|private-key)[ \t]+)`)

// cookieHeader matches a Cookie or Set-Cookie header (or property) and
// its separator: every cookie's value after it is masked (cookies).
var cookieHeader = regexp.MustCompile(`(?i)\b(set-)?cookie(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?`)

// awsSecretLen is the length of an AWS secret access key.
const awsSecretLen = 40

// Text masks the secrets in s and returns the masked text.
func (r *Redactor) Text(s string) string {
	for _, ru := range rules {
		s = r.apply(s, ru)
	}
	s = r.cookies(s)
	s = r.keyValues(s)
	return r.awsSecrets(s)
}

func (r *Redactor) apply(s string, ru rule) string {
	idx := ru.re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		start, end := m[2*ru.group], m[2*ru.group+1]
		if start < 0 || Placeholder.MatchString(s[start:end]) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(r.placeholder(ru.kind, s[start:end]))
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// keyValues masks the value after every secret-named key: a quoted string
// (JSON's escapes honoured, also as escaped JSON inside a log line) or a
// bare word up to a separator. References to where a secret is kept
// (!Ref, {"Ref": …}, ${…}, var.x), booleans and a log template's
// placeholders (<*>) are not secrets.
func (r *Redactor) keyValues(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range secretKey.FindAllStringSubmatchIndex(s, -1) {
		if m[0] < last {
			continue
		}
		start, end := valueSpan(s, m[1])
		if start == end || notSecret(s[start:end]) {
			continue
		}
		if m[2] >= 0 && s[m[1]] == '-' { // --password --user: the flag takes no value here
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(r.placeholder(kindOfKey(s[m[0]:m[1]]), s[start:end]))
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// cookies masks the value of every cookie in a Cookie header (name=value;
// name2=value2), and of the cookie a Set-Cookie header sets (not its
// attributes: Path, Expires, HttpOnly). A header whose value is no
// name=value pair is masked whole up to a separator.
func (r *Redactor) cookies(s string) string {
	var b strings.Builder
	last := 0
	isName := func(c byte) bool { return !strings.ContainsRune("=;,&? \t\r\n\"'\\", rune(c)) }
	isValue := func(c byte) bool { return !strings.ContainsRune("; \t\r\n\"'\\,", rune(c)) }
	mask := func(start, end int) {
		if start == end || start < last || Placeholder.MatchString(s[start:end]) {
			return
		}
		b.WriteString(s[last:start])
		b.WriteString(r.placeholder("cookie", s[start:end]))
		last = end
	}
	for _, m := range cookieHeader.FindAllStringSubmatchIndex(s, -1) {
		if m[0] < last {
			continue
		}
		i := m[1]
		for first := true; ; first = false {
			n := i
			for n < len(s) && isName(s[n]) {
				n++
			}
			if n == len(s) || s[n] != '=' { // not name=value
				if first {
					mask(i, n)
				}
				break
			}
			v, e := n+1, n+1
			if e < len(s) && s[e] == '"' { // a quoted cookie value
				if q := strings.IndexAny(s[e+1:], "\"\n"); q >= 0 && s[e+1+q] == '"' {
					v, e = e+1, e+1+q
				}
			}
			for e < len(s) && isValue(s[e]) {
				e++
			}
			mask(v, e)
			if m[2] >= 0 { // Set-Cookie: the rest are attributes
				break
			}
			if e < len(s) && s[e] == '"' && v > 0 && s[v-1] == '"' {
				e++
			}
			if e >= len(s) || s[e] != ';' {
				break
			}
			i = e + 1
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// valueSpan is the span of the value starting at i, without its quotes.
func valueSpan(s string, i int) (int, int) {
	if i >= len(s) {
		return i, i
	}
	switch {
	case strings.HasPrefix(s[i:], `\"`): // JSON escaped inside a string
		if j := strings.Index(s[i+2:], `\"`); j >= 0 {
			return i + 2, i + 2 + j
		}
		return i, i
	case s[i] == '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"', '\n':
				return i + 1, j
			}
		}
		return i + 1, len(s)
	case s[i] == '\'':
		if j := strings.IndexAny(s[i+1:], "'\n"); j >= 0 {
			return i + 1, i + 1 + j
		}
		return i + 1, len(s)
	}
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\r\n\"',;&)}]\\", rune(s[j])) {
		j++
	}
	return i, j
}

func notSecret(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "~", "none", "nil", "":
		return true
	}
	if Placeholder.MatchString(v) { // holds a secret masked already
		return true
	}
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") && !strings.ContainsAny(v, " \t") {
		return true // a log template's placeholder (<*>, <ip>): no value
	}
	for _, p := range []string{"!", "{", "[", "${", "var.", "local.", "data.", "module."} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// kindOfKey names a key-value secret by its key.
func kindOfKey(key string) string {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "pass") || strings.Contains(k, "pwd"):
		return "password"
	case strings.Contains(k, "token"):
		return "token"
	case strings.Contains(k, "sess"):
		return "session"
	case strings.Contains(k, "key"):
		return "key"
	case strings.Contains(k, "connection"):
		return "connection_string"
	case strings.Contains(k, "sig"):
		return "signature"
	case strings.Contains(k, "credential"):
		return "credential"
	}
	return "secret"
}

// awsSecrets masks what looks like an AWS secret access key: 40 base64
// characters standing alone, with upper and lower case letters and digits
// (a hex digest, all lower case, is left alone).
func (r *Redactor) awsSecrets(s string) string {
	isB64 := func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '/' || c == '+'
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isB64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isB64(s[j]) {
			j++
		}
		if j-i == awsSecretLen && mixed(s[i:j]) && (j == len(s) || s[j] != '=') {
			b.WriteString(s[last:i])
			b.WriteString(r.placeholder("aws_secret_key", s[i:j]))
			last = j
		}
		i = j
	}
	b.WriteString(s[last:])
	return b.String()
}

func mixed(s string) bool {
	var up, low, digit bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || c >= 'A' && c <= 'Z'
		low = low || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	return up && low && digit
}

// pemBegin and pemEnd mark a private key's first and last lines.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`)
)

// maxPEMLines bounds how far Lines looks for a private key's end.
const maxPEMLines = 200

// Lines masks lines that are quoted one by one (a log's lines, by their
// numbers), keeping their count: a private key spread over several lines
// is masked in each of them, its body lines becoming its placeholder.
func (r *Redactor) Lines(lines []string) []string {
	out := make([]string, len(lines))
	for i := 0; i < len(lines); i++ {
		b := pemBegin.FindStringIndex(lines[i])
		if b == nil || pemEnd.MatchString(lines[i][b[1]:]) {
			out[i] = r.Text(lines[i])
			continue
		}
		end := min(i+maxPEMLines, len(lines)-1) // a key without its end line: mask to the limit
		for j := i + 1; j <= end; j++ {
			if pemEnd.MatchString(lines[j]) {
				end = j
				break
			}
		}
		block, rest := strings.Join(lines[i:end+1], "\n")[b[0]:], ""
		if e := pemEnd.FindStringIndex(lines[end]); e != nil {
			rest = lines[end][e[1]:]
			block = block[:len(block)-len(rest)]
		}
		ph := r.placeholder("private_key", block)
		out[i] = r.Text(lines[i][:b[0]]) + ph
		for j := i + 1; j <= end; j++ {
			out[j] = ph
		}
		out[end] += r.Text(rest)
		i = end
	}
	return out
}
