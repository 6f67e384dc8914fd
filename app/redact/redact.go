// Package redact masks secrets in text before it leaves for a model: cloud
// access keys, private keys (PEM and PGP), credentials in URLs, bearer,
// Digest and cookie headers, our own ppk_ keys, JWTs, service tokens,
// webhook URLs, connection strings, secret command-line flags and the
// values of properties named like secrets (heredocs and block scalars
// line by line), in JSON, YAML, HCL, logfmt and plain log lines.
//
// Each distinct secret gets a stable placeholder (<REDACTED_KIND_N>): the
// same value is the same placeholder wherever it occurs in one Redactor's
// texts, so a model can still see that two lines share a password, and a
// caller that knows where a placeholder stood can put the value back
// there (Original) — and nowhere else.
package redact

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
// when group > 0. A text holding none of its hints (written in lower
// case, looked for in any case) is not searched (every rule has some): a
// pattern is slow to look for in a long text, most of whose lines hold no
// secret.
type rule struct {
	kind  string
	re    *regexp.Regexp
	group int
	hints []string
}

// rules run in order, the most specific first, so that a JWT inside a
// bearer header is named a JWT.
var rules = []rule{
	// PEM keys and PGP private key blocks (-----BEGIN PGP PRIVATE KEY
	// BLOCK-----).
	{"private_key", regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----`), 0, []string{"private key"}},
	// A key cut short (a log line's limit, a truncated paste) is masked to
	// the end of its base64 body (a PGP block's armor headers, such as
	// "Version: GnuPG v2 (GNU/Linux)", included).
	{"private_key", regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:.()\-]|\\[nr])*`), 0, []string{"private key"}},
	{"jwt", regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`), 0, []string{"eyj"}},
	{"parapet_key", regexp.MustCompile(`ppk_[0-9A-Za-z]{20,}`), 0, []string{"ppk_"}},
	{"aws_access_key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), 0, []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aipa", "anpa", "anva", "aroa", "apka", "asca"}},
	{"gcp_api_key", regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`), 0, []string{"aiza"}},
	{"github_token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`), 0, []string{"gh", "github_pat_"}},
	// Slack's bot, user, app-level (xapp-) and refresh (xoxe-) tokens.
	{"slack_token", regexp.MustCompile(`\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`), 0, []string{"xox", "xapp-"}},
	// A Slack (or Discord) incoming webhook's URL is its credential: the
	// path after /services/ is masked, the host kept.
	{"slack_webhook", regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_\-]+/[A-Za-z0-9_/\-]+)`), 1, []string{"hooks.slack.com/"}},
	{"discord_webhook", regexp.MustCompile(`discord(?:app)?\.com/api/webhooks/([0-9]+/[A-Za-z0-9_\-]+)`), 1, []string{"/api/webhooks/"}},
	{"npm_token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,}`), 0, []string{"npm_"}},
	{"huggingface_token", regexp.MustCompile(`\bhf_[A-Za-z0-9]{34,}`), 0, []string{"hf_"}},
	// A Docker config's "auth" is base64 of user:password.
	{"docker_auth", regexp.MustCompile(`\\?"auth\\?"[ \t]*:[ \t]*\\?"([A-Za-z0-9+/]{8,}={0,2})\\?"`), 1, []string{`auth`}},
	{"gitlab_token", regexp.MustCompile(`\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_\-]{20,}`), 0, []string{"gl"}},
	{"api_key", regexp.MustCompile(`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})`), 0, []string{"sk-", "k_live_", "k_test_", "whsec_"}},
	{"azure_client_secret", regexp.MustCompile(`\b[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}`), 0, []string{"q~"}},
	// user:password@ in any URL or connection string (postgres://,
	// mongodb+srv://, amqp://, https://); the user may be empty, as in
	// redis://:password@host. The password runs to the last @ before the
	// host: one written raw with an @ in it (p@ss) is masked whole, not
	// up to its first @, which left the rest before the host.
	{"url_password", regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@"'<>]*:([^\s/"'<>]+)@`), 1, []string{"://"}},
	// mysql -pPASSWORD: -p is read so only after a MySQL or MariaDB
	// client on the same line (elsewhere -p is mkdir's, grep's…).
	{"password", regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlpump|mysqlsh|mysqlbinlog|mariadb|mariadb-dump|mariadb-admin)\b[^\n]*?[ \t]-p["']?([^\s"']+)`), 1, []string{"mysql", "mariadb"}},
	// XML configuration: an element named like a secret
	// (<password>x</password>, <db:apiKey>) and .NET's appSettings (<add
	// key="ApiKey" value="x"/>).
	{"password", regexp.MustCompile(`(?i)<[A-Za-z0-9_:.\-]*(?:password|passwd|pwd|passphrase)>([^<\n]+)</`), 1, []string{"</"}},
	{"secret", regexp.MustCompile(`(?i)<[A-Za-z0-9_:.\-]*(?:secret|token|api_?key|access_?key|private_?key|credentials?)>([^<\n]+)</`), 1, []string{"</"}},
	{"secret", regexp.MustCompile(`(?i)\bkey="[^"]*(?:password|pwd|secret|token|api_?key|connectionstring)"[ \t]+value="([^"]+)"`), 1, []string{"key=\""}},
	// SQL's CREATE USER x IDENTIFIED BY 'password' (MySQL, Oracle).
	{"password", regexp.MustCompile(`(?i)\bidentified[ \t]+by[ \t]+(?:password[ \t]+)?['"]([^'"\n]+)['"]`), 1, []string{"identified"}},
	// curl -u user:password and docker login -p password: the flags are
	// read so only after their command on the same line.
	{"password", regexp.MustCompile(`\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t=]*["']?[^\s:"']*:([^\s"']+)`), 1, []string{"curl"}},
	{"password", regexp.MustCompile(`\bdocker[ \t]+login\b[^\n]*?[ \t]-p[ \t]+["']?([^\s"']+)`), 1, []string{"docker"}},
	// A .netrc's entry, on one line or over several: machine host login
	// user password secret (its login is required: "machine" is a word of
	// prose too).
	{"password", regexp.MustCompile(`\bmachine[ \t]+\S+\s+login[ \t]+\S+(?:\s+account[ \t]+\S+)?\s+password[ \t]+(\S+)`), 1, []string{"machine"}},
	// Digest credentials: every parameter after the scheme (username,
	// nonce, response…) as one value.
	{"authorization", regexp.MustCompile(`(?i)\bdigest[ \t]+((?:[A-Za-z0-9_\-]+=(?:"[^"\n]*"|[^\s,"]*)(?:[ \t]*,[ \t]*)?)+)`), 1, []string{"digest"}},
	{"bearer_token", regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9\-._~+/]{8,}=*)`), 1, []string{"bearer", "basic"}},
	{"authorization", regexp.MustCompile(`(?i)\bauthorization\\?["']?\s*[:=]\s*\\?["']?(?:[A-Za-z]+\s+)?([^\s"'\\,;]{8,})`), 1, []string{"authorization"}},
}

// secretWords end the names of properties and parameters that hold a
// secret (MasterUserPassword, db_password, client_secret, auth_token,
// session_id), so that input_tokens, token_count or partition_key are
// left alone. shortWords are secret words only as a whole word or after
// _, - or a lower case letter (DB_PASS, smtp-pass, "pass", userPin,
// otp), not in bypass, compass or spin; "key" only after one of
// keyOwners (secretName).
var (
	secretWords = []string{
		"password", "passwd", "pwd", "passphrase", "passcode", "secret", "token", "apikey", "api_key", "api-key",
		"accesskey", "access_key", "secretkey", "secret_key", "privatekey", "private_key", "credential",
		"credentials", "signature", "sig", "accountkey", "connectionstring", "connection_string",
		"sessionid", "session_id", "session-id", "sessid",
	}
	shortWords = []string{"pass", "pin", "otp", "totp", "hotp"}
)

// keyOwners name the keys that are secrets in "<owner>key", "<owner>_key"
// or "<owner>-key" (signing_key, MasterKey, Azure's
// Ocp-Apim-Subscription-Key and x-functions-key, Laravel's APP_KEY, New
// Relic's LICENSE_KEY).
var keyOwners = []string{"auth", "master", "encryption", "signing", "hmac", "shared", "client", "subscription", "functions", "app", "license"}

// secretName reports whether a property's name ends in a secret word, or
// is .npmrc's _auth (base64 of user:password; basic_auth is a switch).
func secretName(name string) bool {
	if strings.EqualFold(name, "_auth") {
		return true
	}
	if slices.ContainsFunc(secretWords, func(w string) bool { return hasSuffixFold(name, w) }) {
		return true
	}
	for _, w := range shortWords {
		if hasSuffixFold(name, w) {
			if i := len(name) - len(w); i == 0 || !isAlnum(name[i-1]) || isLower(name[i-1]) && !isLower(name[i]) {
				return true
			}
		}
	}
	if !hasSuffixFold(name, "key") {
		return false
	}
	owner := strings.TrimRight(name[:len(name)-3], "_-")
	return len(owner) >= len(name)-4 && slices.ContainsFunc(keyOwners, func(w string) bool { return hasSuffixFold(owner, w) })
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// secretFlag matches a command line's flag named like a secret and the
// blanks before its value (--password value, --api-key value); after a
// blank or at a line's start (keyMatches). With = it is a secret's key
// (secretKeyBefore).
var secretFlag = regexp.MustCompile(`--?(?i:[A-Za-z0-9\-]*(?:password|passwd|passphrase|secret|token|api-key|apikey|access-key|secret-key|private-key))[ \t]+`)

// keyMatch is a secret's key and separator, s[start:end]; flag for a
// command line's flag, prose for a sentence's "password is", plural for
// a name ending in a secret word and s (passwords, api_keys), whose value
// is a secret only as a list.
type keyMatch struct {
	start, end          int
	flag, prose, plural bool
}

// secretKeyBefore reports whether the separator (: = =>) at p follows a
// property named like a secret (or its plural), its name perhaps quoted
// (also as escaped JSON) and followed by blanks, and where the name
// starts. Found from the separators back, not by a pattern: a pattern for
// a name that ends in a word tries each position, most of masking's time.
func secretKeyBefore(s string, p int) (start int, plural, ok bool) {
	i := p
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	if i > 0 && (s[i-1] == '"' || s[i-1] == '\'') {
		i--
		if i > 0 && s[i-1] == '\\' {
			i--
		}
	}
	start = i
	for start > 0 && isKeyByte(s[start-1]) {
		start--
	}
	name := s[start:i]
	if inARN(s, start) {
		return start, false, false // arn:aws:secretsmanager:…:secret:db-pw: a name, no key
	}
	if secretName(name) {
		return start, false, true
	}
	return start, true, len(name) > 1 && (name[len(name)-1]|0x20) == 's' && secretName(name[:len(name)-1])
}

// inARN reports whether the name at start is a part of an AWS ARN (after
// arn: and another part).
func inARN(s string, start int) bool {
	if start == 0 || s[start-1] != ':' {
		return false
	}
	t := strings.LastIndexAny(s[:start], " \t\n\"'=,[(") + 1
	return strings.HasPrefix(s[t:], "arn:")
}

// proseVerb is the length of the "is " or "was " (or "is: ") that s
// starts with, as in "the password is 'hunter2'", else 0. A quoted value
// needs none: PASSWORD 'x' (SQL), the token "x" expired.
func proseVerb(s string) int {
	for _, v := range []string{"is ", "was ", "is: ", "was: "} {
		if strings.HasPrefix(s, v) {
			return len(v) - 1
		}
	}
	return 0
}

// keyMatches are the secret keys and flags of s, in order.
func keyMatches(s string) []keyMatch {
	var ks []keyMatch
	for p := 0; p < len(s); p++ {
		end, prose := p+1, false
		switch {
		case s[p] == '=' && end < len(s) && s[end] == '>':
			end++
		case s[p] == ':' || s[p] == '=':
		case (s[p] == ' ' || s[p] == '\t') && p > 0 && s[p-1] != ' ' && s[p-1] != '\t':
			for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
				end++
			}
			if end == len(s) || s[end] != '"' && s[end] != '\'' {
				if n := proseVerb(s[end:]); n > 0 {
					end += n
				} else {
					continue
				}
			} else if s[p-1] == '"' || s[p-1] == '\'' || hasSuffixFold(s[:p], "secret") {
				continue // HCL's resource "random_password" "db", Kubernetes' secret "db-creds" not found: names
			}
			prose = true
		default:
			continue
		}
		if start, plural, ok := secretKeyBefore(s, p); ok && (len(ks) == 0 || start >= ks[len(ks)-1].end) {
			for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
				end++
			}
			ks = append(ks, keyMatch{start: start, end: end, prose: prose, plural: plural})
			p = end - 1
		}
	}
	if !strings.Contains(s, "-") {
		return ks
	}
	n := len(ks)
	for _, m := range secretFlag.FindAllStringIndex(s, -1) {
		if m[0] == 0 || strings.IndexByte(" \t\n", s[m[0]-1]) >= 0 {
			ks = append(ks, keyMatch{start: m[0], end: m[1], flag: true})
		}
	}
	if len(ks) > n {
		slices.SortStableFunc(ks, func(a, b keyMatch) int { return a.start - b.start })
	}
	return ks
}

// hints tells which words a text holds, in any case: its lower case is
// searched, made once for all the rules, whose hints are many (a scan of
// the text each was most of masking's time). A text with a byte beyond
// ASCII holds every word: the patterns' case folding knows letters such
// as K, the Kelvin sign, and ſ.
type hints struct {
	lower string
	all   bool
}

func hintsOf(s string) hints {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return hints{all: true}
		}
	}
	return hints{lower: strings.ToLower(s)}
}

// has reports whether the text holds one of words, given in lower case.
func (h hints) has(words ...string) bool {
	return h.all || slices.ContainsFunc(words, func(w string) bool { return strings.Contains(h.lower, w) })
}

// keyWords are parts of which every secret word of secretWords and
// secretFlag holds one ("apikey" holds "key", "passwd" "pass"): a text
// without one holds no secret key, and is not scanned for one.
var keyWords = []string{"pass", "pwd", "secret", "token", "key", "credential", "sig", "connection", "sess", "pin", "otp", "_auth"}

// isKeyByte reports whether c may be in a property's name.
func isKeyByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// encodedPair is a name=value pair written percent-encoded, as a URL
// inside another's query carries it (next=%2Fcb%3Ftoken%3DeyJ…,
// ?api_key%3Dabc): its = is %3D, its name follows an encoded ? or & (or
// no name character), and its value runs to the next & or encoded &.
var encodedPair = regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_\-%]|%[0-9a-f]{2})([A-Za-z_][A-Za-z0-9_\-]*)%3D((?:[^\s&"'<>%]|%(?:[013-9a-f][0-9a-f]|2[0-57-9a-f]))+)`)

// encodedPairs masks the value of every percent-encoded pair whose name
// names a secret.
func (r *Redactor) encodedPairs(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range encodedPair.FindAllStringSubmatchIndex(s, -1) {
		name, v := s[m[2]:m[3]], s[m[4]:m[5]]
		if !secretName(name) || notSecret(v) || m[4] < last {
			continue
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(r.placeholder(kindOfKey(name), v))
		last = m[5]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// cookieHeader matches a Cookie or Set-Cookie header (or property) and
// its separator: every cookie's value after it is masked (cookies).
var cookieHeader = regexp.MustCompile(`(?i)\b(set-)?cookie(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?`)

// awsSecretLen is the length of an AWS secret access key.
const awsSecretLen = 40

// Text masks the secrets in s and returns the masked text.
func (r *Redactor) Text(s string) string {
	s, _ = r.text(s)
	return s
}

// opened is a secret's block that a text's last line opens (password: |,
// secret = <<EOT, passwords:), whose body a caller masking lines one by
// one (Lines) finds on the next lines.
type opened struct {
	block
	kind string
}

// text masks s, as Text, and reports the block its last line opens. The
// hints are s's before masking: a placeholder matches no pattern.
func (r *Redactor) text(s string) (string, *opened) {
	h := hintsOf(s)
	for _, ru := range rules {
		if h.has(ru.hints...) {
			s = r.apply(s, ru)
		}
	}
	if h.has("cookie") {
		s = r.cookies(s)
	}
	if h.has("%3d") && h.has(keyWords...) {
		s = r.encodedPairs(s)
	}
	var op *opened
	if h.has(keyWords...) {
		s, op = r.keyValues(s)
	}
	return r.awsSecrets(r.secretManifests(r.variableDefaults(s))), op
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
// (JSON's escapes honoured, also as escaped JSON inside a log line), a
// bare word up to a separator, each item of a list ([a, "b"], a YAML
// sequence's - a) or the lines of a heredoc (<<EOT) or YAML block scalar
// (|, >) each on their own. References to where a secret is kept (!Ref,
// {"Ref": …}, {{resolve:…}}, ${…}, var.x), booleans and placeholders
// (<*>, <password>) are not secrets. It reports the block s's last line
// opens.
func (r *Redactor) keyValues(s string) (string, *opened) {
	var b strings.Builder
	var op *opened
	last, skip := 0, 0
	mask := func(kind string, start, end int) {
		if !notSecret(s[start:end]) {
			b.WriteString(s[last:start])
			b.WriteString(r.placeholder(kind, s[start:end]))
			last = end
		}
	}
	for _, k := range keyMatches(s) {
		if k.start < last || k.start < skip {
			continue
		}
		kind := kindOfKey(s[k.start:k.end])
		colon := !k.flag && strings.HasSuffix(strings.TrimRight(s[k.start:k.end], " \t"), ":")
		vs, tagged := valueStart(s, k.end, colon)
		if vs < 0 {
			continue // a CloudFormation function: a reference
		}
		if bl, body, ok := blockAt(s, k.start, vs, colon); ok && (bl.seq || !k.plural) {
			end := bl.end(s, body)
			for ls := body; ls < end; {
				le := strings.IndexByte(s[ls:end], '\n')
				if le < 0 {
					le = end
				} else {
					le += ls
				}
				cs, ce := bl.value(s[ls:le])
				mask(kind, ls+cs, ls+ce)
				ls = le + 1
			}
			if skip = end; body == len(s) {
				op = &opened{bl, kind}
			}
			continue
		}
		if items, end, ok := listItems(s, vs); ok {
			for _, it := range items {
				mask(kind, it[0], it[1])
			}
			skip = end
			continue
		}
		if k.plural {
			continue // tokens=12: a count, not a list of secrets
		}
		start, end := valueSpan(s, vs)
		if start == vs && k.start > 0 && s[k.start-1] == ';' {
			end = connValueEnd(s, end)
		}
		if tagged > 0 && start > tagged && s[start-1] != '"' && s[start-1] != '\'' {
			start = tagged // !Word value: the tag too, it may be a password's start
		}
		if k.prose && (start == 0 || s[start-1] != '"' && s[start-1] != '\'') {
			end = start + len(strings.TrimRight(s[start:end], "."))
			if !proseSecret(s[start:end]) {
				continue
			}
		}
		if start == end || notSecret(s[start:end]) {
			skip = end // {{resolve:secretsmanager:MySecret:…}} holds no key
			continue
		}
		if kind == "pin" && end-start < 4 {
			continue // led_pin=17: a pin's number; a PIN has four digits or more
		}
		if k.flag && s[k.end] == '-' { // --password --user: the flag takes no value here
			continue
		}
		mask(kind, start, end)
	}
	b.WriteString(s[last:])
	return b.String(), op
}

// connValueEnd is where a connection string's bare value that valueSpan
// ended at end (a blank: Password=p@ss w0rd;) ends: at the next ; of its
// line, if no = comes first.
func connValueEnd(s string, end int) int {
	if end == len(s) || s[end] != ' ' && s[end] != '\t' {
		return end
	}
	n := strings.IndexAny(s[end:], ";=\n")
	if n < 0 || s[end+n] != ';' {
		return end
	}
	return end + len(strings.TrimRight(s[end:end+n], " \t"))
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
		if start == end || start < last || notSecret(s[start:end]) { // a template's session=<*>
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

// cfnTags are CloudFormation's functions in YAML's short form (!Ref X):
// a value starting with one refers to where a secret is kept.
var cfnTags = map[string]bool{
	"!Ref": true, "!GetAtt": true, "!Sub": true, "!Join": true, "!Select": true, "!Split": true,
	"!If": true, "!Equals": true, "!Not": true, "!And": true, "!Or": true, "!Condition": true,
	"!FindInMap": true, "!ImportValue": true, "!Base64": true, "!Cidr": true, "!GetAZs": true,
	"!Transform": true, "!Length": true, "!ToJsonString": true,
}

// valueStart is where the value after a key ending at i starts: after a
// YAML key (colon), past a tag before a value (!!str 123, !vault |), whose
// start is tagged (else 0); -1 for a CloudFormation function (!Ref, !Sub
// …). A value that merely starts with ! (password=!Summer2024) is a
// value.
func valueStart(s string, i int, colon bool) (vs, tagged int) {
	if i >= len(s) || s[i] != '!' {
		return i, 0
	}
	j := i + 1
	for j < len(s) && !strings.ContainsRune(" \t\r\n\"',;&)}]\\", rune(s[j])) {
		j++
	}
	if cfnTags[s[i:j]] {
		return -1, 0
	}
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if !colon || k == j || k == len(s) || strings.ContainsRune("\r\n#", rune(s[k])) {
		return i, 0 // no value after it: the word is the value
	}
	if strings.HasPrefix(s[i:], "!!") {
		return k, 0 // a YAML core tag (!!str, !!binary): the value follows
	}
	return k, i
}

// A heredoc (HCL's <<EOT and <<-EOT, a shell's <<'EOF') or a YAML block
// scalar (|, >, with chomping and indentation indicators and a comment)
// opens its value on the following lines.
var (
	heredoc     = regexp.MustCompile(`^<<[-~]?[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_\-]*)(["']?)[ \t]*(?:\r?\n|$)`)
	blockScalar = regexp.MustCompile(`^[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#[^\n]*|[ \t]*)(?:\n|$)`)
)

// block is the body of a heredoc (its closing marker), of a block
// scalar (the indentation its lines go beyond) or of a YAML key with
// nothing after its colon (seq: the indentation its sequence's items
// reach, or its plain scalar's lines go beyond).
type block struct {
	marker string
	indent int
	seq    bool
}

// blockAt reports whether the value at i after a key starting at key
// opens a block, and where its body starts: a key with a colon and
// nothing after it (but a comment) opens a sequence or a plain scalar if
// the next line is one's, or if it ends s.
func blockAt(s string, key, i int, colon bool) (block, int, bool) {
	if colon {
		le := strings.IndexByte(s[i:], '\n')
		if le < 0 {
			le = len(s) - i
		}
		if rest := strings.TrimSpace(s[i : i+le]); rest == "" || rest[0] == '#' {
			bl := block{indent: indentOf(s, key), seq: true}
			body := min(i+le+1, len(s))
			return bl, body, body == len(s) || bl.end(s, body) > body
		}
	}
	if i >= len(s) {
		return block{}, 0, false
	}
	switch s[i] {
	case '<':
		if m := heredoc.FindStringSubmatchIndex(s[i:]); m != nil && s[i+m[2]:i+m[3]] == s[i+m[6]:i+m[7]] {
			return block{marker: s[i+m[4] : i+m[5]]}, i + m[1], true
		}
	case '|', '>':
		if m := blockScalar.FindStringIndex(s[i:]); m != nil {
			return block{indent: indentOf(s, key)}, i + m[1], true
		}
	}
	return block{}, 0, false
}

// indentOf is the indentation of the YAML node on the line of pos: its
// leading blanks and sequence dashes ("  - - key" is 6).
func indentOf(s string, pos int) int {
	ls := strings.LastIndexByte(s[:pos], '\n') + 1
	i := ls
	for i < pos && (s[i] == ' ' || s[i] == '\t' || s[i] == '-' && i+1 < pos && (s[i+1] == ' ' || s[i+1] == '\t')) {
		i++
	}
	return i - ls
}

// in reports whether line (without its \n) is in the block's body; a
// heredoc's closing marker is not, nor a sequence's item that is not a
// scalar (- name: x, whose keys are looked at on their own), nor a
// mapping's line under a key (Ref: DbPassword).
func (bl block) in(line string) bool {
	t := strings.Trim(line, " \t\r")
	indent := len(line) - len(strings.TrimLeft(line, " \t"))
	switch {
	case bl.marker != "":
		return t != bl.marker
	case t == "":
		return true
	case bl.seq:
		_, _, ok := seqItem(line)
		return indent >= bl.indent && (ok || t[0] == '#') || indent > bl.indent && plainLine(t)
	}
	return indent > bl.indent
}

// value is the span of a body line's secret: a sequence's item, or a
// line of a block scalar, heredoc or plain scalar.
func (bl block) value(line string) (int, int) {
	if !bl.seq {
		return lineContent(line)
	}
	if cs, ce, ok := seqItem(line); ok {
		return cs, ce
	}
	if plainLine(strings.TrimSpace(line)) {
		return lineContent(line)
	}
	return 0, 0
}

// plainLine reports whether a trimmed line under a key may be its plain
// (or quoted) scalar: no item, collection, comment or key: value.
func plainLine(t string) bool {
	return t != "" && strings.IndexByte("-[{#|>&*!", t[0]) < 0 && !strings.Contains(t, ": ") && !strings.HasSuffix(t, ":")
}

// end is where the body starting at body ends: at its heredoc's closing
// marker line, at the first line a block scalar's indentation does not
// reach, or at the end of s (a heredoc cut short).
func (bl block) end(s string, body int) int {
	for ls := body; ls < len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		if !bl.in(s[ls:le]) {
			return ls
		}
		ls = le + 1
	}
	return len(s)
}

// lineContent is the span of a body line's text: without its
// indentation and \r.
func lineContent(line string) (int, int) {
	cs := len(line) - len(strings.TrimLeft(line, " \t"))
	ce := len(line)
	if ce > cs && line[ce-1] == '\r' {
		ce--
	}
	return cs, ce
}

// valueSpan is the span of the value starting at i, without its quotes.
// A bare value starting with [ or { runs over the brackets in it
// ([BracketPw]99, {{resolve:…}}).
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
	stop := " \t\r\n\"',;&)}]\\"
	if s[i] == '[' || s[i] == '{' {
		stop = " \t\r\n\"',;&)\\"
	}
	j := i
	for j < len(s) && !strings.ContainsRune(stop, rune(s[j])) {
		j++
	}
	return i, j
}

// proseSecret reports whether an unquoted word after "password is"
// reads as a secret, not as prose ("the password is incorrect", "is 8
// characters", "the secret is in kv/prod/db"): four characters or more,
// with a digit or a sign, and no path, URL, ARN or time (no / or :).
func proseSecret(v string) bool {
	if len(v) < 4 || strings.ContainsAny(v, "/:") {
		return false
	}
	return strings.ContainsFunc(v, func(c rune) bool { return !unicode.IsLetter(c) && c != '-' && c != '\'' })
}

// flowKey is a YAML flow mapping's first key: {Ref: X}, {Fn::GetAtt: …}.
var flowKey = regexp.MustCompile(`^\{[A-Za-z_][A-Za-z0-9_.:\-]*:$`)

func notSecret(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "~", "none", "nil", "":
		return true
	}
	if Placeholder.MatchString(v) { // holds a secret masked already
		return true
	}
	switch {
	case placeholderWord(v): // <*>, <password>, <YOUR_TOKEN>: no value
		return true
	case v == "{" || v == "[" || v == "{}" || v == "[]": // a JSON or YAML object or list: its own keys are looked at
		return true
	case v[0] == '[' && !strings.Contains(v, "]"): // a list's first item: [a, b]
		return true
	case flowKey.MatchString(v):
		return true
	}
	for _, p := range []string{"{{", "${", "var.", "local.", "data.", "module."} { // {{resolve:…}}, {{ .Values.x }}, interpolations, HCL references
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// placeholderWord reports whether v stands in for a value, as a log
// template's <*> and <ip>, a sample's <password> and <YOUR_API_KEY> or
// another tool's [REDACTED] do: one case of letters and separators in
// angle brackets, upper case in square ones. A value with digits or in
// mixed case (<AnglePw2024>, [BracketPw]) is a value.
func placeholderWord(v string) bool {
	if len(v) >= 3 && v[0] == '[' && v[len(v)-1] == ']' {
		return strings.Trim(v[1:len(v)-1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ_- ") == ""
	}
	if len(v) < 3 || v[0] != '<' || v[len(v)-1] != '>' {
		return false
	}
	in := v[1 : len(v)-1]
	if in == "*" || in == "..." || in == "…" {
		return true
	}
	lower, upper := true, true
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c >= 'a' && c <= 'z':
			upper = false
		case c >= 'A' && c <= 'Z':
			lower = false
		case c == '_' || c == '-' || c == ' ' || c == '.' || c == '*':
		default:
			return false
		}
	}
	return lower || upper
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
	case strings.Contains(k, "secret"):
		return "secret"
	case strings.Contains(k, "otp"):
		return "otp"
	case strings.Contains(k, "pin"):
		return "pin"
	}
	return "secret"
}

// awsSecrets masks what looks like an AWS secret access key: 40 base64
// characters standing alone, with upper and lower case letters and digits
// (a hex digest, all lower case, is left alone), and not an absolute
// path (/bgl/apps/SWL/performance/MINIBEN///2005): a / first and two
// more, as about one random key in 500 has.
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
		path := s[i] == '/' && strings.Count(s[i:j], "/") >= 3
		if j-i == awsSecretLen && mixed(s[i:j]) && !path && (j == len(s) || s[j] != '=') {
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
// is masked in each of them, its body lines becoming its placeholder; the
// body lines of a secret's heredoc or block scalar (password: |) are
// masked each on its own, as Text does (a heredoc without its closing
// marker to maxPEMLines lines).
func (r *Redactor) Lines(lines []string) []string {
	out := make([]string, len(lines))
	var open *opened // the block a line before opened
	left := 0        // lines a heredoc may still take
	for i := 0; i < len(lines); i++ {
		if open != nil {
			if open.in(lines[i]) && (open.marker == "" || left > 0) {
				left--
				cs, ce := open.value(lines[i])
				if notSecret(lines[i][cs:ce]) {
					out[i] = r.Text(lines[i])
				} else {
					out[i] = lines[i][:cs] + r.placeholder(open.kind, lines[i][cs:ce]) + lines[i][ce:]
				}
				continue
			}
			open = nil
		}
		b := pemBegin.FindStringIndex(lines[i])
		if b == nil || pemEnd.MatchString(lines[i][b[1]:]) {
			out[i], open = r.text(lines[i])
			left = maxPEMLines
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
	if slices.ContainsFunc(lines, isSecretKind) {
		r.secretData(out)
	}
	return out
}
