package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
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
// written; at most MaxSuppressionPattern bytes), a reason, and optionally
// when it expires: a date (valid through that day, UTC) or an RFC 3339
// time. An expired suppression does not apply and is listed in
// expired_suppressions. It covers every finding of its rule on every
// matching resource, like a suppression inside the document.

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
	// byRule holds the active suppressions of each rule with their
	// compiled patterns, and decided what was found for each (rule,
	// resource name) pair: a resource's findings share its name, and
	// patterns are matched once per name, not once per finding.
	byRule  map[string][]activeSuppression
	decided map[[2]string]int // index in byRule[rule] of the first match, -1 for none
	work    int               // steps of pattern matching so far, against MaxSuppressionWork
}

// activeSuppression is an active envelope suppression and its pattern.
type activeSuppression struct {
	*EnvelopeSuppression
	pattern *globPattern
}

// MaxSuppressionPattern bounds the length of a suppression's resource
// pattern in bytes.
const MaxSuppressionPattern = 256

// MaxSuppressionWork bounds the steps of matching suppression patterns
// against the names of resources with findings, for one scan. Matching is
// linear in each name, but a thousand patterns against tens of thousands
// of resources is still billions of steps; real suppressions are decided
// by their literal text in a step or two (globPattern) and stay far below
// this, which is about a quarter of a second.
const MaxSuppressionWork = 100_000_000

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
			name, _ := strconv.Unquote(f)
			msg = unknownField(name).Message
		} else {
			msg = "not an envelope: " + strings.TrimPrefix(msg, "json: ")
		}
		return nil, &ValidationError{Problems: []Problem{{Message: msg}}}
	}
	if err := env.readSuppressions(raw.Suppressions, &problems); err != nil {
		return nil, err
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
	env.readBaseline(raw.Baseline, &problems)
	if len(problems) > 0 {
		return nil, validationError(problems)
	}
	return doc, nil
}

// load reads suppressions (a JSON array) and a baseline given apart from
// a document, as the CLI gives them.
func (env *envelope) load(suppressions, baseline []byte) error {
	var problems []Problem
	if b := bytes.TrimSpace(suppressions); len(b) > 0 {
		var list []json.RawMessage
		if err := json.Unmarshal(b, &list); err != nil {
			return &ValidationError{Problems: []Problem{{Path: "suppressions", Message: "must be a JSON array of suppressions: " + strings.TrimPrefix(err.Error(), "json: ")}}}
		}
		if err := env.readSuppressions(list, &problems); err != nil {
			return err
		}
	}
	env.readBaseline(baseline, &problems)
	if len(problems) > 0 {
		return validationError(problems)
	}
	return nil
}

// readSuppressions reads the suppressions of an envelope, JSON or YAML
// (each re-encoded as JSON), adding their problems to problems.
func (env *envelope) readSuppressions(list []json.RawMessage, problems *[]Problem) error {
	if len(list) > MaxSuppressions {
		return &LimitError{Limit: "suppressions", Max: MaxSuppressions, Message: fmt.Sprintf(
			"the envelope has %d suppressions; the limit is %d", len(list), MaxSuppressions)}
	}
	for i, s := range list {
		env.suppression(i, s, problems)
	}
	return nil
}

// readBaseline reads the baseline of an envelope, if it has one.
func (env *envelope) readBaseline(raw json.RawMessage, problems *[]Problem) {
	if b := bytes.TrimSpace(raw); len(b) > 0 && string(b) != "null" {
		bl, err := parseBaseline(b)
		if err != nil {
			*problems = append(*problems, Problem{Path: "baseline", Message: err.Error()})
		}
		env.baseline = bl
	}
}

// unknownField is the problem of an envelope key that is none of its
// three.
func unknownField(name string) Problem {
	return Problem{Message: "unknown field " + strconv.Quote(name) + "; an envelope has document, suppressions and baseline"}
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
	} else if len(s.Resource) > MaxSuppressionPattern {
		*problems = append(*problems, Problem{Path: path + ".resource", Message: fmt.Sprintf(
			"is %d bytes; a resource pattern may have at most %d (let * stand for the rest)", len(s.Resource), MaxSuppressionPattern)})
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
	if env == nil || len(env.active) == 0 {
		return "", ""
	}
	if env.byRule == nil {
		env.index()
	}
	key := [2]string{rule, name}
	k, ok := env.decided[key]
	if !ok {
		k = -1
		for i, s := range env.byRule[rule] {
			if s.pattern.match(name, &env.work) {
				k = i
				break
			}
		}
		if env.work > MaxSuppressionWork {
			panic(abort{&LimitError{Limit: "suppression_matching", Max: MaxSuppressionWork, Message: fmt.Sprintf(
				"matching the suppressions' resource patterns against the resources with findings takes more than %d steps; the limit is %d: "+
					"start or end the patterns with literal text (module.db.*), or use fewer patterns", MaxSuppressionWork, MaxSuppressionWork)}})
		}
		env.decided[key] = k
	}
	if k < 0 {
		return "", ""
	}
	s := env.byRule[rule][k]
	return s.Reason, s.Expires
}

// index groups the active suppressions by rule, in their order, and
// compiles their patterns.
func (env *envelope) index() {
	env.byRule, env.decided = map[string][]activeSuppression{}, map[[2]string]int{}
	for k := range env.active {
		s := &env.active[k]
		env.byRule[s.Rule] = append(env.byRule[s.Rule], activeSuppression{s, compileGlob(s.Resource)})
	}
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
