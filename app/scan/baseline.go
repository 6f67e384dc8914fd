package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// Fingerprints and baselines.
//
// A finding's fingerprint is the first 16 bytes, in hex, of SHA-256 over
// its rule, resource type, resource name (the Terraform address or the
// CloudFormation logical id) and cause (e.g. "tcp 22-22 0.0.0.0/0", "*",
// "public_read"): no line, position or order, so it stays the same across
// runs, reordering and unrelated changes. SARIF carries it in
// partialFingerprints as parapetFinding/v1.
//
// A baseline is an earlier result: a SARIF log or a JSON result (with or
// without the {"data": ...} envelope). Each finding and suppressed finding
// of the new result is then new or unchanged, and the baseline's findings
// that are gone are listed as absent.

func fingerprint(f *Finding) string {
	cause := f.cause
	if cause == "" {
		cause = f.Path
	}
	// Written into a buffer on the stack: a scan makes one per finding.
	var buf [256]byte
	b := append(buf[:0], f.Rule...)
	b = append(append(b, 0), f.Resource.Type...)
	b = append(append(b, 0), f.Resource.Name...)
	b = append(append(b, 0), cause...)
	sum := sha256.Sum256(b)
	var out [32]byte
	hex.Encode(out[:], sum[:16])
	return string(out[:])
}

// BaselineSummary compares a result with its baseline.
type BaselineSummary struct {
	New       int             `json:"new"`
	Unchanged int             `json:"unchanged"`
	Absent    []AbsentFinding `json:"absent"`
}

// AbsentFinding is a finding of the baseline the new result no longer has.
type AbsentFinding struct {
	Fingerprint string      `json:"fingerprint"`
	Rule        string      `json:"rule"`
	Resource    ResourceRef `json:"resource"`
	Message     string      `json:"message"`
}

type baseline struct {
	order []string
	byFP  map[string]AbsentFinding
}

func (b *baseline) add(a AbsentFinding) {
	if a.Fingerprint == "" {
		return
	}
	if _, dup := b.byFP[a.Fingerprint]; !dup {
		b.order = append(b.order, a.Fingerprint)
		b.byFP[a.Fingerprint] = a
	}
}

var errNotBaseline = errors.New("must be an earlier result of this scanner: a SARIF log or a JSON result (with findings)")

// parseBaseline reads a SARIF log or a JSON result, given as a value or as
// a string holding one.
func parseBaseline(raw []byte) (*baseline, error) {
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		text, err := decodeText([]byte(s))
		if err != nil {
			return nil, err
		}
		raw = text
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				BaselineState       string            `json:"baselineState"`
				Message             struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					LogicalLocations []struct {
						Name string `json:"name"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
		Data       *jsonResult `json:"data"`
		Findings   []Finding   `json:"findings"`
		Suppressed []Finding   `json:"suppressed"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, errNotBaseline
	}
	b := &baseline{byFP: map[string]AbsentFinding{}}
	switch {
	case doc.Runs != nil:
		for _, run := range doc.Runs {
			for _, r := range run.Results {
				if r.BaselineState == "absent" {
					continue // gone already in that run
				}
				a := AbsentFinding{Fingerprint: r.PartialFingerprints[fingerprintKey], Rule: r.RuleID, Message: r.Message.Text}
				if len(r.Locations) > 0 && len(r.Locations[0].LogicalLocations) > 0 {
					a.Resource.Name = r.Locations[0].LogicalLocations[0].Name
				}
				b.add(a)
			}
		}
	case doc.Data != nil:
		b.addAll(doc.Data.Findings, doc.Data.Suppressed)
	case doc.Findings != nil:
		b.addAll(doc.Findings, doc.Suppressed)
	default:
		return nil, errNotBaseline
	}
	return b, nil
}

type jsonResult struct {
	Findings   []Finding `json:"findings"`
	Suppressed []Finding `json:"suppressed"`
}

func (b *baseline) addAll(lists ...[]Finding) {
	for _, l := range lists {
		for _, f := range l {
			b.add(AbsentFinding{Fingerprint: f.Fingerprint, Rule: f.Rule, Resource: f.Resource, Message: f.Message})
		}
	}
}

// compare marks each finding new or unchanged and lists the absent ones.
func (b *baseline) compare(res *Result) {
	sum := &BaselineSummary{Absent: []AbsentFinding{}}
	seen := map[string]bool{}
	mark := func(f *Finding) {
		seen[f.Fingerprint] = true
		if _, ok := b.byFP[f.Fingerprint]; ok {
			f.BaselineState = "unchanged"
			sum.Unchanged++
		} else {
			f.BaselineState = "new"
			sum.New++
		}
	}
	for k := range res.Findings {
		mark(&res.Findings[k])
	}
	for k := range res.Suppressed {
		mark(&res.Suppressed[k].Finding)
	}
	for _, fp := range b.order {
		if !seen[fp] {
			sum.Absent = append(sum.Absent, b.byFP[fp])
		}
	}
	res.Baseline = sum
}
