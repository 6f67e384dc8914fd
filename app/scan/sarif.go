package scan

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// ToolName and Version identify the scanner in SARIF output. Bump Version
// when rules change what they report, so consumers can tell runs apart.
const (
	ToolName = "Parapet Config Scanner"
	Version  = "0.1.0"
)

// fingerprintKey names our fingerprint in SARIF's partialFingerprints.
const fingerprintKey = "parapetFinding/v1"

// SARIFOptions fill in what the engine cannot know.
type SARIFOptions struct {
	// ArtifactURI names the scanned document in results' locations;
	// "resources.json" when empty.
	ArtifactURI string
	// InformationURI is the absolute URL of the scanner's page, shown by
	// SARIF viewers; omitted when empty (the engine does not know the host).
	InformationURI string
}

// SARIF renders a Result as a SARIF 2.1.0 log, as GitHub code scanning and
// other SARIF viewers read it: one run whose driver lists the whole rule
// catalogue (so ruleIndex is stable), one result per finding, suppressed
// findings with an external suppression and their reason, and skipped
// resources as warning notifications of the invocation.
//
// It fails only for a Result that names a rule not in the catalogue, which
// Scan never produces.
func SARIF(res *Result, opts SARIFOptions) ([]byte, error) {
	uri := opts.ArtifactURI
	if uri == "" {
		uri = defaultArtifact[res.Format]
	}
	if uri == "" {
		uri = "resources.json"
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: ToolName, InformationURI: opts.InformationURI,
			Version: Version, SemanticVersion: Version, Rules: sarifRules(),
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     make([]sarifResult, 0, len(res.Findings)+len(res.Suppressed)),
	}
	for _, f := range res.Findings {
		r, err := sarifResultOf(&f, uri)
		if err != nil {
			return nil, err
		}
		run.Results = append(run.Results, r)
	}
	for _, s := range res.Suppressed {
		r, err := sarifResultOf(&s.Finding, uri)
		if err != nil {
			return nil, err
		}
		r.Suppressions = []sarifSuppression{{Kind: "external", Justification: s.Reason}}
		run.Results = append(run.Results, r)
	}
	if res.Baseline != nil {
		// Gone since the baseline: SARIF's absent results, of kind pass so
		// that no viewer shows them as open problems.
		for _, a := range res.Baseline.Absent {
			id, ok := ruleByID(a.Rule)
			if !ok {
				continue // a baseline from a version with other rules
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: a.Rule, RuleIndex: int(id), Kind: "pass", Level: "none", BaselineState: "absent",
				Message:             sarifText{Text: "no longer found: " + a.Message},
				Locations:           []sarifLocation{location(uri, 0, a.Resource.Name, a.Resource.Name)},
				PartialFingerprints: map[string]string{fingerprintKey: a.Fingerprint},
			})
		}
	}
	notes := &run.Invocations[0].ToolExecutionNotifications
	for _, n := range res.NotChecked {
		*notes = append(*notes, sarifNotification{Level: "note",
			Message: sarifText{Text: fmt.Sprintf("%d resource(s) of type %s not checked: %s", n.Count, n.Type, n.Reason)}})
	}
	for _, w := range res.Warnings {
		*notes = append(*notes, sarifNotification{Level: "warning",
			Message: sarifText{Text: fmt.Sprintf("%s (%d resource(s): %s)", w.Message, w.Count, strings.Join(w.Resources, ", "))}})
	}
	for _, x := range res.ExpiredSuppressions {
		*notes = append(*notes, sarifNotification{Level: "warning",
			Message: sarifText{Text: fmt.Sprintf("suppression of %s on %q expired on %s and no longer applies", x.Rule, x.Resource, x.Expires)}})
	}
	for _, s := range res.Skipped {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, sarifNotification{
			Level:     "warning",
			Message:   sarifText{Text: fmt.Sprintf("resource %q skipped: %s", s.Name, s.Reason)},
			Locations: []sarifLocation{location(uri, s.Line, s.Name, resourcePath(s.Index))},
		})
	}
	return json.Marshal(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// sarifLevel maps severities to SARIF levels: GitHub shows "error" as an
// alert to fix, "warning" and "note" as lesser ones.
func sarifLevel(s Severity) string {
	switch s {
	case Critical, High:
		return "error"
	case Medium:
		return "warning"
	}
	return "note"
}

// securitySeverity is the score GitHub code scanning reads from rule
// properties: above 9.0 is critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low.
func securitySeverity(s Severity) string {
	switch s {
	case Critical:
		return "9.5"
	case High:
		return "8.0"
	case Medium:
		return "5.5"
	}
	return "3.0"
}

func sarifRules() []sarifRule {
	rules := make([]sarifRule, len(catalogue))
	for k, r := range catalogue {
		help := r.Remediation + helpReferences(r.References)
		for _, c := range [...]struct {
			name string
			id   cloud
		}{{"Google Cloud", cloudGCP}, {"Azure", cloudAzure}} {
			t := &cloudTexts[c.id][k]
			help += "\n\n" + c.name + ": " + t.Remediation + helpReferences(t.References)
		}
		rules[k] = sarifRule{
			ID:                   r.ID,
			Name:                 pascalCase(r.ID),
			ShortDescription:     sarifText{Text: r.Title},
			FullDescription:      sarifText{Text: r.Description},
			Help:                 sarifText{Text: help},
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)},
			Properties: sarifRuleProperties{
				SecuritySeverity: securitySeverity(r.Severity),
				Tags:             []string{"security"},
			},
		}
	}
	return rules
}

// helpReferences lists references after a rule's help text.
func helpReferences(refs []Reference) string {
	if len(refs) == 0 {
		return ""
	}
	words := make([]string, len(refs))
	for j, ref := range refs {
		words[j] = ref.Source + " " + ref.ID
	}
	return "\n\nReferences: " + strings.Join(words, "; ") + "."
}

// pascalCase turns a rule id into a SARIF rule name: S3_PUBLIC_READ ->
// S3PublicRead.
func pascalCase(id string) string {
	var b strings.Builder
	for _, word := range strings.Split(id, "_") {
		b.WriteString(word[:1])
		b.WriteString(strings.ToLower(word[1:]))
	}
	return b.String()
}

func sarifResultOf(f *Finding, uri string) (sarifResult, error) {
	id, ok := ruleByID(f.Rule)
	if !ok {
		return sarifResult{}, fmt.Errorf("scan: SARIF: finding names unknown rule %q", f.Rule)
	}
	fp := f.Fingerprint
	if fp == "" { // a Result not made by Scan
		fp = fingerprint(f)
	}
	loc := location(uri, f.Line, f.Resource.Name, fqn(f))
	if l := f.Location; l != nil && l.File != "" { // Terraform source: the file and range to change
		loc.PhysicalLocation.ArtifactLocation.URI = (&url.URL{Path: l.File}).String()
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: l.StartLine, StartColumn: l.StartColumn, EndLine: l.EndLine, EndColumn: l.EndColumn}
	}
	return sarifResult{
		RuleID:              f.Rule,
		RuleIndex:           int(id),
		Level:               sarifLevel(f.Severity),
		Message:             sarifText{Text: f.Message},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{fingerprintKey: fp},
		BaselineState:       f.BaselineState,
	}, nil
}

// defaultArtifact names the scanned file when the caller does not.
var defaultArtifact = map[string]string{
	FormatParapet: "resources.json", FormatTerraformPlan: "plan.json", FormatTerraformState: "state.json",
	FormatCloudFormationJSON: "template.json", FormatCloudFormationYAML: "template.yaml", FormatTerraformHCL: "main.tf",
}

// fqn is a finding's logical location: the JSON path of the resource in
// our format, the address or logical id in the others.
func fqn(f *Finding) string {
	if f.Source.Format == FormatParapet || f.Source.Format == "" {
		return resourcePath(f.Resource.Index)
	}
	return f.Resource.Name
}

func location(uri string, line int, name, fqn string) sarifLocation {
	loc := sarifLocation{
		PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uri}},
		LogicalLocations: []sarifLogicalLocation{{Name: name, FullyQualifiedName: fqn, Kind: "resource"}},
	}
	if line > 0 { // unknown for a Result that did not come from Scan
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: line}
	}
	return loc
}

// The subset of the SARIF 2.1.0 object model we emit.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri,omitempty"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifText           `json:"shortDescription"`
	FullDescription      sarifText           `json:"fullDescription"`
	Help                 sarifText           `json:"help"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProperties struct {
	SecuritySeverity string   `json:"security-severity"`
	Tags             []string `json:"tags"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Kind                string             `json:"kind,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}
