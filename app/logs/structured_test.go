package logs

import (
	"reflect"
	"strings"
	"testing"
)

// checkMatches compares the matches' lines, categories and keywords.
func checkMatches(t *testing.T, res *Result, want map[int][2]string) {
	t.Helper()
	for _, m := range res.Matches {
		w, ok := want[m.Line]
		if !ok {
			t.Errorf("line %d: unexpected %s match %q", m.Line, m.Category, m.Keyword)
			continue
		}
		if string(m.Category) != w[0] || m.Keyword != w[1] {
			t.Errorf("line %d: %s %q, want %s %q", m.Line, m.Category, m.Keyword, w[0], w[1])
		}
		if !strings.EqualFold(m.Text[m.Start:m.End], m.Keyword) && m.Keyword != string(m.Category) {
			t.Errorf("line %d: highlight %q for keyword %q", m.Line, m.Text[m.Start:m.End], m.Keyword)
		}
		delete(want, m.Line)
	}
	for line, w := range want {
		t.Errorf("line %d: no match, want %s %q", line, w[0], w[1])
	}
}

// JSON lines: templated by their message field, the level field decides
// the category (an info line saying "error" is none), other fields are kept
// with the line; a plain line among them is read as usual.
func TestJSONLines(t *testing.T) {
	res := analyze(t, readTestdata(t, "service.jsonl"), Options{})
	if tm := templateWith(t, res, "request served"); tm.Template != "request served" || tm.Count != 3 {
		t.Errorf("request template %+v", tm)
	}
	if tm := templateWith(t, res, "charge declined"); tm.Template != "charge declined" || tm.Count != 2 {
		t.Errorf("charge template %+v", tm)
	}
	for _, tm := range res.Templates {
		if strings.Contains(tm.Template, `"level"`) || strings.Contains(tm.Template, "2024-03-18") {
			t.Errorf("template %q holds fields other than the message", tm.Template)
		}
	}
	checkMatches(t, res, map[int][2]string{
		5:  {"reliability", "timeout"},
		7:  {"error", "error"},
		8:  {"error", "error"},
		10: {"fatal", "out of memory"}, // log.level, nested
		12: {"error", "error"},         // pino's numeric level 50
		13: {"error", "error"},         // a plain line
	})
	m, _ := matchAt(res, 7)
	want := map[string]string{"time": "2024-03-18T09:14:11.450Z", "level": "error", "logger": "payments", "order": "88121", "reason": "card_declined"}
	if !reflect.DeepEqual(m.Fields, want) || m.Level != "error" {
		t.Errorf("line 7 fields %v level %q, want %v", m.Fields, m.Level, want)
	}
	if m, _ := matchAt(res, 12); m.Fields["err.type"] != "TypeError" {
		t.Errorf("line 12 fields %v, want nested keys joined by dots", m.Fields)
	}
}

// logfmt, and klog's structured form ("message" key=value ...).
func TestLogfmtLines(t *testing.T) {
	res := analyze(t, readTestdata(t, "service.logfmt"), Options{})
	if tm := templateWith(t, res, "request served"); tm.Count != 3 {
		t.Errorf("request template %+v", tm)
	}
	if tm := templateWith(t, res, "Reconciling object"); tm.Template != "Reconciling object" || tm.Count != 2 {
		t.Errorf("klog template %+v", tm)
	}
	checkMatches(t, res, map[int][2]string{
		4:  {"reliability", "timeout"},
		5:  {"error", "error"},
		6:  {"error", "error"},
		8:  {"fatal", "out of memory"},
		11: {"error", "failed"},
	})
	if m, _ := matchAt(res, 6); m.Fields["reason"] != "insufficient funds" || m.Fields["order"] != "88122" {
		t.Errorf("line 6 fields %v", m.Fields)
	}
	if m, _ := matchAt(res, 11); m.Fields["err"] != "timeout waiting for pods" || m.Header == "" {
		t.Errorf("line 11 fields %v header %q", m.Fields, m.Header)
	}
}

// Malformed structured lines are plain text.
func TestMalformedStructured(t *testing.T) {
	for _, line := range []string{`{"msg": "unterminated`, `{"msg":"x"} trailing`, `a=1 b`, `msg="x`} {
		sp := scanStructured([]byte(line), 0)
		if sp.ok {
			t.Errorf("%q read as structured: %+v", line, sp)
		}
	}
}
