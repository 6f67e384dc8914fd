package api_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"parapet/app/apptest"
)

func scanTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../scan/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// scanData is the part of a JSON result these tests read.
type scanData struct {
	Data struct {
		Format   string `json:"format"`
		Findings []struct {
			Rule     string `json:"rule"`
			Resource struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"resource"`
			Source struct {
				Format string `json:"format"`
				Linked *struct {
					Name string `json:"name"`
				} `json:"linked"`
			} `json:"source"`
			Fingerprint   string `json:"fingerprint"`
			BaselineState string `json:"baseline_state"`
		} `json:"findings"`
		Suppressed []struct {
			Rule     string `json:"rule"`
			Resource struct {
				Name string `json:"name"`
			} `json:"resource"`
			Reason string `json:"reason"`
		} `json:"suppressed"`
		NotChecked []struct {
			Type  string `json:"type"`
			Count int    `json:"count"`
		} `json:"not_checked"`
		ExpiredSuppressions []struct {
			Rule string `json:"rule"`
		} `json:"expired_suppressions"`
		Baseline *struct {
			New, Unchanged int
		} `json:"baseline"`
	} `json:"data"`
	Gate *struct {
		FailOn   string `json:"fail_on"`
		Failed   bool   `json:"failed"`
		Findings int    `json:"findings"`
	} `json:"gate"`
}

func scanOK(t *testing.T, name string, res *apptest.Response, status int) scanData {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("%s: %d %.400s", name, res.StatusCode, res.Body)
	}
	var d scanData
	res.JSON(t, &d)
	return d
}

func TestScanAPIFormats(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan-formats@example.com")
		c := env.Client()
		key := bearer(s.Key)
		yamlType := append([]string{"Content-Type", "application/yaml"}, key...)

		// A Terraform plan: findings on addresses, linked resources named.
		plan := scanTestdata(t, "plan.json")
		d := scanOK(t, "plan", c.PostJSON(scanPath, plan, key...), 200)
		if d.Data.Format != "terraform_plan" || len(d.Data.Findings) != 10 {
			t.Fatalf("plan: format %q, %d findings", d.Data.Format, len(d.Data.Findings))
		}
		linked := false
		for _, f := range d.Data.Findings {
			if f.Rule == "SG_ADMIN_PORT_OPEN" && f.Resource.Name == "module.net.aws_security_group.bastion" && f.Source.Linked != nil &&
				f.Source.Linked.Name == "module.net.aws_security_group_rule.bastion_rdp[0]" {
				linked = true
			}
		}
		if !linked {
			t.Errorf("the RDP rule's finding is not on the bastion group: %+v", d.Data.Findings)
		}
		if len(d.Data.NotChecked) != 1 || d.Data.NotChecked[0].Type != "aws_lambda_function" {
			t.Errorf("not checked %+v", d.Data.NotChecked)
		}

		// A YAML template, as application/yaml and as text/yaml; its
		// Metadata suppression applies.
		tmpl := scanTestdata(t, "template.yaml")
		for _, ct := range []string{"application/yaml", "text/yaml", "application/x-yaml; charset=UTF-8"} {
			d = scanOK(t, ct, c.Do("POST", scanPath, tmpl, append([]string{"Content-Type", ct}, key...)...), 200)
			if d.Data.Format != "cloudformation_yaml" || len(d.Data.Findings) != 6 || len(d.Data.Suppressed) != 1 || d.Data.Suppressed[0].Resource.Name != "SiteBucket" {
				t.Errorf("%s: %+v", ct, d.Data)
			}
		}
		e := scanExpectError(t, "bad yaml", c.Do("POST", scanPath, "Resources:\n  X: [unclosed\n", yamlType...), 400, "invalid_request")
		if !strings.HasPrefix(e.Error.Message, "malformed YAML at line ") {
			t.Errorf("bad yaml message %q", e.Error.Message)
		}
		e = scanExpectError(t, "alias bomb", c.Do("POST", scanPath, "Resources: {}\nA: &a x\nL: ["+strings.Repeat("*a, ", 1001)+"*a]\n", yamlType...), 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "aliases") {
			t.Errorf("alias limit message %q", e.Error.Message)
		}

		// Charsets: UTF-8 is fine, anything else is 415; a UTF-16 file with
		// its byte-order mark, sent as it is, is read.
		scanExpectError(t, "latin-1", c.Do("POST", scanPath, plan, append([]string{"Content-Type", "application/json; charset=iso-8859-1"}, key...)...), 415, "unsupported_media_type")
		units := utf16.Encode([]rune(plan))
		le := []byte{0xFF, 0xFE}
		for _, u := range units {
			le = append(le, byte(u), byte(u>>8))
		}
		d = scanOK(t, "utf-16", c.PostJSON(scanPath, string(le), key...), 200)
		if d.Data.Format != "terraform_plan" || len(d.Data.Findings) != 10 {
			t.Errorf("utf-16 plan: %q %d findings", d.Data.Format, len(d.Data.Findings))
		}
		d = scanOK(t, "utf-8 bom", c.Do("POST", scanPath, "\uFEFF"+tmpl, yamlType...), 200)
		if len(d.Data.Findings) != 6 {
			t.Errorf("template with a BOM: %d findings", len(d.Data.Findings))
		}

		// Envelope suppressions: one applies, an expired one does not.
		envelope, _ := json.Marshal(map[string]any{
			"document": json.RawMessage(plan),
			"suppressions": []map[string]string{
				{"rule": "IAM_FULL_ADMIN", "resource": "aws_iam_policy.*", "reason": "break-glass", "expires": "2999-01-01"},
				{"rule": "DB_PUBLIC", "resource": "module.db.*", "reason": "migration", "expires": "2020-01-01"},
			},
		})
		d = scanOK(t, "envelope", c.PostJSON(scanPath, string(envelope), key...), 200)
		if len(d.Data.Suppressed) != 1 || d.Data.Suppressed[0].Rule != "IAM_FULL_ADMIN" || len(d.Data.ExpiredSuppressions) != 1 ||
			d.Data.ExpiredSuppressions[0].Rule != "DB_PUBLIC" || len(d.Data.Findings) != 9 {
			t.Errorf("envelope: %+v", d.Data)
		}
		e = scanExpectError(t, "bad suppression", c.PostJSON(scanPath, `{"document":{"resources":[]},"suppressions":[{"rule":"NOPE","resource":"x","reason":"r"}]}`, key...), 400, "invalid_request")
		if len(e.Error.Details) != 1 || e.Error.Details[0].Path != "suppressions[0].rule" {
			t.Errorf("bad suppression details %+v", e.Error.Details)
		}
	})
}

// TestScanAPIBaselineGate is the CI loop: scan, keep the SARIF, re-scan
// with it as baseline and fail_on=new.
func TestScanAPIBaselineGate(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "scan-gate@example.com")
		c := env.Client()
		key := bearer(s.Key)
		plan := scanTestdata(t, "plan.json")

		first := c.PostJSON(scanPath+"?format=sarif&artifact=infra/plan.json", plan, key...)
		if first.StatusCode != 200 {
			t.Fatalf("first scan: %d", first.StatusCode)
		}
		withBaseline := func(doc string) string {
			b, _ := json.Marshal(map[string]any{"document": json.RawMessage(doc), "baseline": json.RawMessage(first.Body)})
			return string(b)
		}

		// Unchanged: every finding unchanged, the gate passes.
		res := c.PostJSON(scanPath+"?fail_on=new", withBaseline(plan), key...)
		d := scanOK(t, "unchanged", res, 200)
		if res.Header.Get("X-Parapet-Gate") != "passed" || d.Gate == nil || d.Gate.Failed || d.Gate.FailOn != "new" ||
			d.Data.Baseline == nil || d.Data.Baseline.New != 0 || d.Data.Baseline.Unchanged != 10 {
			t.Errorf("unchanged: gate %+v baseline %+v", d.Gate, d.Data.Baseline)
		}
		for _, f := range d.Data.Findings {
			if f.BaselineState != "unchanged" {
				t.Errorf("%s %s is %q", f.Rule, f.Resource.Name, f.BaselineState)
			}
		}
		// fail_on=any still fails on the old findings.
		if res := c.PostJSON(scanPath+"?fail_on=any", withBaseline(plan), key...); res.StatusCode != 422 {
			t.Errorf("fail_on=any: %d", res.StatusCode)
		}

		// One more open security group: exactly one new, the gate fails
		// with 422 and the same body, as JSON and as SARIF.
		opened := strings.Replace(plan, `"child_modules": [`, `"child_modules": [
        {"address": "module.debug", "resources": [
          {"address": "module.debug.aws_security_group.debug", "mode": "managed", "type": "aws_security_group", "name": "debug",
           "values": {"name": "debug", "ingress": [{"cidr_blocks": ["0.0.0.0/0"], "from_port": 6379, "to_port": 6379, "protocol": "tcp"}]}}]},`, 1)
		res = c.PostJSON(scanPath+"?fail_on=new", withBaseline(opened), key...)
		d = scanOK(t, "opened", res, 422)
		if res.Header.Get("X-Parapet-Gate") != "failed" || d.Gate == nil || !d.Gate.Failed || d.Gate.Findings != 1 {
			t.Errorf("opened: gate %+v, header %q", d.Gate, res.Header.Get("X-Parapet-Gate"))
		}
		var news []string
		for _, f := range d.Data.Findings {
			if f.BaselineState == "new" {
				news = append(news, f.Rule+" "+f.Resource.Name)
			}
		}
		if strings.Join(news, ",") != "SG_DATA_PORT_OPEN module.debug.aws_security_group.debug" {
			t.Errorf("new findings %v", news)
		}
		res = c.PostJSON(scanPath+"?fail_on=new&format=sarif", withBaseline(opened), key...)
		var log struct {
			Runs []struct {
				Results []struct {
					BaselineState string `json:"baselineState"`
				} `json:"results"`
			} `json:"runs"`
		}
		res.JSON(t, &log)
		states := map[string]int{}
		for _, r := range log.Runs[0].Results {
			states[r.BaselineState]++
		}
		if res.StatusCode != 422 || res.Header.Get("Content-Type") != "application/sarif+json" || states["new"] != 1 || states["unchanged"] != 10 {
			t.Errorf("SARIF gate: %d %q %v", res.StatusCode, res.Header.Get("Content-Type"), states)
		}
		scanExpectError(t, "bad fail_on", c.PostJSON(scanPath+"?fail_on=all", plan, key...), 400, "invalid_request")
	})
}
