package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The envelope wraps a document with what is kept outside it:
//
//	{"document": <a plan, state, template or resource list, as a JSON value
//	              or as a string holding JSON or YAML>,
//	 "suppressions": [{"rule": "SG_ADMIN_PORT_OPEN", "resource": "module.bastion.*",
//	                   "reason": "...", "expires": "2026-03-31"}],
//	 "baseline": <an earlier SARIF log or JSON result of this scanner>}
//
// A suppression names a rule of the catalogue, a resource by its name or
// address, where * matches any run of characters and ? one character (no
// other character is special, so Terraform's brackets and quotes match as
// written), a reason, and optionally when it expires: a date (valid through
// that day, UTC) or an RFC 3339 time. An expired suppression does not apply
// and is listed in expired_suppressions. It covers every finding of its
// rule on every matching resource, like a suppression inside the document.

// EnvelopeSuppression is one suppression of the envelope.
type EnvelopeSuppression struct {
	Rule     string `json:"rule"`
	Resource string `json:"resource"`
	Reason   string `json:"reason"`
	Expires  string `json:"expires,omitempty"`
}

type envelope struct {
	now      time.Time
	active   []EnvelopeSuppression
	expired  []EnvelopeSuppression
	baseline *baseline
}

// parse reads an envelope and returns its document, as UTF-8 text.
func (env *envelope) parse(data []byte) ([]byte, error) {
	var raw struct {
		Document     json.RawMessage   `json:"document"`
		Suppressions []json.RawMessage `json:"suppressions"`
		Baseline     json.RawMessage   `json:"baseline"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var problems []Problem
	if err := dec.Decode(&raw); err != nil {
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			msg = "unknown field " + f + "; an envelope has document, suppressions and baseline"
		} else {
			msg = "not an envelope: " + strings.TrimPrefix(msg, "json: ")
		}
		return nil, &ValidationError{Problems: []Problem{{Message: msg}}}
	}
	if len(raw.Suppressions) > MaxSuppressions {
		return nil, &LimitError{Limit: "suppressions", Max: MaxSuppressions, Message: fmt.Sprintf(
			"the envelope has %d suppressions; the limit is %d", len(raw.Suppressions), MaxSuppressions)}
	}
	for i, s := range raw.Suppressions {
		env.suppression(i, s, &problems)
	}
	var doc []byte
	switch d := bytes.TrimSpace(raw.Document); {
	case len(d) == 0 || string(d) == "null":
		problems = append(problems, Problem{Path: "document", Message: "is required: the plan, state, template or resource list to scan"})
	case d[0] == '"':
		var s string
		if err := json.Unmarshal(d, &s); err != nil {
			problems = append(problems, Problem{Path: "document", Message: err.Error()})
		}
		text, err := decodeText([]byte(s))
		if err != nil {
			return nil, err
		}
		doc = text
	default:
		doc = d
	}
	if b := bytes.TrimSpace(raw.Baseline); len(b) > 0 && string(b) != "null" {
		bl, err := parseBaseline(b)
		if err != nil {
			problems = append(problems, Problem{Path: "baseline", Message: err.Error()})
		}
		env.baseline = bl
	}
	if len(problems) > 0 {
		return nil, validationError(problems)
	}
	return doc, nil
}

func (env *envelope) suppression(i int, raw json.RawMessage, problems *[]Problem) {
	path := "suppressions[" + strconv.Itoa(i) + "]"
	var s EnvelopeSuppression
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		*problems = append(*problems, Problem{Path: path, Message: "must be an object with rule, resource, reason and expires (strings): " +
			strings.TrimPrefix(err.Error(), "json: ")})
		return
	}
	ok := true
	if _, known := ruleByID(s.Rule); !known {
		*problems = append(*problems, Problem{Path: path + ".rule", Message: unknownRule(s.Rule, "")})
		ok = false
	}
	if strings.TrimSpace(s.Resource) == "" {
		*problems = append(*problems, Problem{Path: path + ".resource", Message: "is required: a resource name or address, * and ? as wildcards"})
		ok = false
	}
	if strings.TrimSpace(s.Reason) == "" {
		*problems = append(*problems, Problem{Path: path + ".reason", Message: "is required: say why the finding is accepted"})
		ok = false
	}
	var until time.Time
	if s.Expires != "" {
		var err error
		if until, err = expiry(s.Expires); err != nil {
			*problems = append(*problems, Problem{Path: path + ".expires", Message: err.Error()})
			ok = false
		}
	}
	switch {
	case !ok:
	case s.Expires != "" && !env.now.Before(until):
		env.expired = append(env.expired, s)
	default:
		env.active = append(env.active, s)
	}
}

// expiry reads a date (valid through that day, UTC) or an RFC 3339 time.
func expiry(s string) (time.Time, error) {
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		return d.Add(24 * time.Hour), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%s is not a date (2026-03-31) or an RFC 3339 time (2026-03-31T12:00:00Z)", quoteShort(s))
}

// suppressed returns the reason and expiry of the first active envelope
// suppression of rule that matches name.
func (env *envelope) suppressed(rule, name string) (reason, expires string) {
	if env == nil {
		return "", ""
	}
	for k := range env.active {
		s := &env.active[k]
		if s.Rule == rule && glob(s.Resource, name) {
			return s.Reason, s.Expires
		}
	}
	return "", ""
}

// finish adds what the envelope contributes to a result: the expired
// suppressions and the comparison with the baseline.
func (env *envelope) finish(res *Result) {
	if env.expired != nil {
		res.ExpiredSuppressions = env.expired
	}
	if env.baseline != nil {
		env.baseline.compare(res)
	}
}

// glob matches name against pattern: * is any run of characters, ? one
// character, everything else itself.
func glob(pattern, name string) bool {
	px, nx := 0, 0
	starP, starN := -1, 0
	for nx < len(name) || px < len(pattern) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				starP, starN = px, nx
				px++
				continue
			case '?':
				if nx < len(name) {
					_, size := utf8.DecodeRuneInString(name[nx:])
					px++
					nx += size
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starP >= 0 && starN < len(name) {
			_, size := utf8.DecodeRuneInString(name[starN:])
			starN += size
			px, nx = starP+1, starN
			continue
		}
		return false
	}
	return true
}
