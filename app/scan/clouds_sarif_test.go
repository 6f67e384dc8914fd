package scan

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCloudsSARIFBaseline: Google Cloud and Azure findings go through
// SARIF, fingerprints, baselines and suppressions as AWS ones do: the
// SARIF results carry the JSON fingerprints, a rescan with the SARIF as
// baseline is all unchanged (also with the resources reordered), a fixed
// container is absent, and an envelope suppression by address pattern
// covers a group's findings.
func TestCloudsSARIFBaseline(t *testing.T) {
	plan, err := os.ReadFile("testdata/clouds/azure_plan.json")
	if err != nil {
		t.Fatal(err)
	}
	first := scanAt(t, plan)
	sarif, err := SARIF(first, SARIFOptions{ArtifactURI: "infra/plan.json"})
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string `json:"id"`
						Help struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID              string            `json:"ruleId"`
				RuleIndex           int               `json:"ruleIndex"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					LogicalLocations []struct{ FullyQualifiedName string } `json:"logicalLocations"`
				}
			}
		}
	}
	if err := json.Unmarshal(sarif, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != len(first.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(first.Findings))
	}
	for k, f := range first.Findings {
		r := run.Results[k]
		if r.RuleID != f.Rule || run.Tool.Driver.Rules[r.RuleIndex].ID != f.Rule || r.Level != sarifLevel(f.Severity) ||
			r.PartialFingerprints[fingerprintKey] != f.Fingerprint || r.Locations[0].LogicalLocations[0].FullyQualifiedName != f.Resource.Name {
			t.Errorf("result %d %+v for %s %s", k, r, f.Rule, f.Resource.Name)
		}
	}
	help := run.Tool.Driver.Rules[ruleS3PublicRead].Help.Text
	if !strings.Contains(help, "Azure: Set container_access_type") || !strings.Contains(help, "CKV_AZURE_34") || !strings.Contains(help, "Google Cloud: ") {
		t.Errorf("S3_PUBLIC_READ help: %s", help)
	}

	// Reordered: the same fingerprints, all unchanged.
	var doc map[string]any
	if err := json.Unmarshal(plan, &doc); err != nil {
		t.Fatal(err)
	}
	root := doc["planned_values"].(map[string]any)["root_module"].(map[string]any)
	resources := root["resources"].([]any)
	slices.Reverse(resources)
	reordered, _ := json.Marshal(doc)
	again := scanAt(t, envelopeOf(t, reordered, nil, sarif))
	if again.Baseline == nil || again.Baseline.New != 0 || again.Baseline.Unchanged != len(first.Findings) || len(again.Baseline.Absent) != 0 {
		t.Fatalf("reordered plan: %+v", again.Baseline)
	}

	// The public container made private: its finding is absent.
	fixed := strings.Replace(string(plan), `"container_access_type": "blob"`, `"container_access_type": "private"`, 1)
	res := scanAt(t, envelopeOf(t, json.RawMessage(fixed), []EnvelopeSuppression{
		{Rule: "SG_ALL_PORTS_OPEN", Resource: "azurerm_network_security_group.*", Reason: "lab network, torn down nightly"},
	}, sarif))
	if len(res.Baseline.Absent) != 1 || res.Baseline.Absent[0].Resource.Name != "azurerm_storage_container.assets" {
		t.Fatalf("absent %+v", res.Baseline.Absent)
	}
	var suppressed []string
	for _, s := range res.Suppressed {
		suppressed = append(suppressed, s.Rule+" "+s.Resource.Name+" "+s.BaselineState)
	}
	equalStrings(t, "suppressed", suppressed, []string{
		"SG_ALL_PORTS_OPEN azurerm_network_security_group.db unchanged",
		"SG_ALL_PORTS_OPEN azurerm_network_security_group.db unchanged",
	})
}
