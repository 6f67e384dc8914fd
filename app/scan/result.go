package scan

import "strings"

// Result is the outcome of one scan, the JSON contract of the scanner API:
//
//	{"summary":{"resources":21,"findings":14,
//	            "by_severity":{"critical":7,"high":3,"medium":3,"low":1},
//	            "suppressed":1,"skipped":1},
//	 "findings":[Finding...], "suppressed":[SuppressedFinding...], "skipped":[Skipped...]}
//
// Arrays are [] (never null) when empty. Findings are ranked by severity
// (critical first), then by the order of the resources in the input, then
// by where the cause is within the resource.
type Result struct {
	// Format is the input's format: parapet, terraform_plan,
	// terraform_state, cloudformation_json or cloudformation_yaml.
	Format     string              `json:"format"`
	Summary    Summary             `json:"summary"`
	Findings   []Finding           `json:"findings"`
	Suppressed []SuppressedFinding `json:"suppressed"`
	Skipped    []Skipped           `json:"skipped"`
	// NotChecked lists the resource types of a Terraform or CloudFormation
	// document the scanner has no rules for (our format lists them in
	// Skipped), with their addresses: nothing is dropped silently.
	NotChecked []NotChecked `json:"not_checked"`
	// ExpiredSuppressions are the envelope's suppressions past their
	// expiry: they no longer apply.
	ExpiredSuppressions []EnvelopeSuppression `json:"expired_suppressions"`
	// Baseline is set when the request carried a baseline.
	Baseline *BaselineSummary `json:"baseline,omitempty"`
	// Warnings say where the scan read a document less exactly than it
	// usually does (CloudFormation conditions past the scanner's limits),
	// so that a clean result is not taken for more than it is. Absent
	// when there is none.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is one way the scan was less exact than usual, with the
// resources it concerns.
type Warning struct {
	Message   string   `json:"message"`
	Count     int      `json:"count"`     // resources concerned
	Resources []string `json:"resources"` // at most MaxNotCheckedAddresses
}

// NotChecked is one resource type the scanner has no rules for.
type NotChecked struct {
	Type      string   `json:"type"`
	Count     int      `json:"count"`
	Addresses []string `json:"addresses"` // at most MaxNotCheckedAddresses
	Reason    string   `json:"reason"`
}

// Source says where a finding comes from: the input's format and, when a
// linked resource caused it (an ACL of a bucket, a rule of a security
// group), which one.
type Source struct {
	Format string  `json:"format"`
	Linked *Linked `json:"linked,omitempty"`
}

// Linked names a resource that configures the finding's resource.
type Linked struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type Summary struct {
	// Resources counts every element of "resources", skipped ones included,
	// so it matches what the user pasted.
	Resources  int        `json:"resources"`
	Findings   int        `json:"findings"` // not counting suppressed ones
	BySeverity BySeverity `json:"by_severity"`
	Suppressed int        `json:"suppressed"`
	Skipped    int        `json:"skipped"`
}

type BySeverity struct {
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Low      int `json:"low"`
}

// Finding is one thing wrong with one resource: one per (resource, rule,
// cause), where the cause is what Path points at.
type Finding struct {
	Rule        string      `json:"rule"`
	Severity    Severity    `json:"severity"`
	Title       string      `json:"title"`
	Message     string      `json:"message"` // what exactly is wrong, e.g. "port 22 (SSH) is open to 0.0.0.0/0"
	Remediation string      `json:"remediation"`
	Resource    ResourceRef `json:"resource"`
	Path        string      `json:"path"` // JSON path of the cause, e.g. resources[2].ingress[0]
	// References is shared with the rule catalogue: treat it as read-only.
	References []Reference `json:"references"`
	Source     Source      `json:"source"`
	// Fingerprint identifies the finding across runs: rule, resource type
	// and name, and the cause, never a line or a position.
	Fingerprint string `json:"fingerprint"`
	// Location is where to change it, for Terraform source: the
	// attribute that decides the finding, or the resource's block when
	// the attribute is missing.
	Location *Location `json:"location,omitempty"`
	// BaselineState is new or unchanged when the request had a baseline.
	BaselineState string `json:"baseline_state,omitempty"`

	// Line is the 1-based line of the cause in the input, for SARIF and the
	// page. It is not part of the JSON contract.
	Line int `json:"-"`

	offset int    // byte offset of the cause, for ranking and Line
	cause  string // what makes this finding distinct within its resource and rule
}

// Location is a range in a file of Terraform source: lines and columns
// from 1, columns in characters, the end exclusive as HCL gives it.
type Location struct {
	File        string `json:"file"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
}

// locate finds the location of a cause's path: the path itself, else the
// nearest enclosing attribute or block, else the resource's block.
func locate(locs map[string]Location, at, resource string) *Location {
	for p := at; p != ""; {
		if l, ok := locs[p]; ok {
			if p == at { // a whole rule, inline or apart: its source ranges decide
				for _, k := range sourceRangeAttrs {
					if l, ok := locs[p+"."+k]; ok {
						return &l
					}
				}
			}
			return &l
		}
		switch {
		case strings.HasSuffix(p, "]"):
			k := strings.LastIndexByte(p, '[')
			if k < 0 {
				p = ""
				break
			}
			p = p[:k]
		default:
			k := strings.LastIndexByte(p, '.')
			if k < 0 {
				p = ""
				break
			}
			p = p[:k]
		}
	}
	l := locs[resource]
	return &l
}

// sourceRangeAttrs are the attributes that open a network rule to the
// internet, across providers: a finding on a whole rule points at them.
var sourceRangeAttrs = []string{"cidr_blocks", "ipv6_cidr_blocks", "cidr_ipv4", "cidr_ipv6",
	"source_ranges", "source_address_prefix", "source_address_prefixes"}

// ResourceRef names the resource a finding is about.
type ResourceRef struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Index int    `json:"index"` // position in "resources", from 0
}

// SuppressedFinding is a finding the input's "suppress" accepted, listed
// apart and not counted in the summary's findings.
type SuppressedFinding struct {
	Finding
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"` // of an envelope suppression
}

// Skipped is a resource of a type the scanner has no rules for.
type Skipped struct {
	Index  int    `json:"index"`
	Type   string `json:"type"`
	Name   string `json:"name"`
	Reason string `json:"reason"`

	Line   int `json:"-"` // 1-based line of the resource in the input
	offset int
}

// reportBytesPerFinding is the memory a finding costs once the scan is
// over: in the result, in the JSON and SARIF encoded from it (about 480
// and 390 bytes), and in the garbage collector's lag behind them. It was
// measured on the scanner's page, which holds both encodings: 60,000
// findings from a 2 MB document took 220 MB, where the analysis pool's
// estimate from the body (app/analysis.go) is 44 MB.
const reportBytesPerFinding = 3 << 10

// ReportCost is the memory, beyond the estimate from its input, that
// answering with res may take: its findings (suppressed ones included),
// each far larger in a report than the 20 bytes of input that can cause
// it. The HTTP layer charges the analysis pool for it (pool.Charge)
// before encoding the result.
func ReportCost(res *Result) int64 {
	return int64(len(res.Findings)+len(res.Suppressed)) * reportBytesPerFinding
}
