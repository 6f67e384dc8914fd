package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"parapet/app/apptest"
	"parapet/app/logs"
	"parapet/app/openapi"
)

const comparePath = "/logs/v1/compare"

// compareBody is {"baseline": …, "current": …} with optional extra members.
func compareBody(t *testing.T, baseline, current, extra string) string {
	t.Helper()
	b, _ := json.Marshal(baseline)
	c, _ := json.Marshal(current)
	return `{"baseline":` + string(b) + `,"current":` + string(c) + extra + `}`
}

// releaseLogs is an nginx-fronted shop before and after a release: the
// checkout requests go on, the nightly export job is gone, the 502s from
// the upstream went from 2 to 36 in the same traffic, and a
// new fatal panic appears.
func releaseLogs() (baseline, current string) {
	var b, c strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "2024-05-02T10:%02d:%02d+02:00 INFO  [web] POST /checkout/%d 200 %dms\n", i/60, i%60, 40000+i, 20+i%17)
		if i%30 == 0 {
			fmt.Fprintf(&b, "2024-05-02T10:%02d:%02d+02:00 INFO  [jobs] export batch %d written to s3://exports/%d.csv\n", i/60, i%60, i, i)
		}
		if i%150 == 0 {
			fmt.Fprintf(&b, "2024-05-02T10:%02d:%02d+02:00 WARN  [proxy] upstream 10.0.3.%d returned 502, retrying\n", i/60, i%60, i%250)
		}
	}
	for i := range 300 {
		fmt.Fprintf(&c, "2024-05-09T10:%02d:%02d+02:00 INFO  [web] POST /checkout/%d 200 %dms\n", i/60, i%60, 50000+i, 20+i%13)
		if i%12 == 0 || i%25 == 1 {
			fmt.Fprintf(&c, "2024-05-09T10:%02d:%02d+02:00 WARN  [proxy] upstream 10.0.3.%d returned 502, retrying\n", i/60, i%60, i%250)
		}
		if i == 201 {
			fmt.Fprintf(&c, "2024-05-09T10:03:21+02:00 FATAL [worker] panic: runtime error: invalid memory address or nil pointer dereference\n")
		}
	}
	return b.String(), c.String()
}

func TestLogsCompareAPI(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "logs-compare@example.com")
		c := env.Client()
		baseline, current := releaseLogs()
		res := logsPost(c, comparePath, "application/json", compareBody(t, baseline, current, `,"options":{"rare_threshold":0.01}`), s.Key)
		if res.StatusCode != 200 {
			t.Fatalf("%d %.400s", res.StatusCode, res.Body)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q", cc)
		}
		scanExpectRateHeaders(t, "compare", res)
		var body struct {
			Data logs.Comparison `json:"data"`
		}
		res.JSON(t, &body)
		got := body.Data
		if len(got.New) != 1 || got.New[0].Category != logs.CategoryFatal || !strings.Contains(got.New[0].Example, "panic: runtime error") {
			t.Errorf("new: %+v", got.New)
		}
		if len(got.Gone) != 1 || !strings.Contains(got.Gone[0].Template, "export batch") || got.Gone[0].Baseline.Count != 10 {
			t.Errorf("gone: %+v", got.Gone)
		}
		if len(got.Changed) != 1 || !strings.Contains(got.Changed[0].Template, "returned <*>, retrying") || got.Changed[0].Category != logs.CategoryReliability {
			t.Fatalf("changed: %+v", got.Changed)
		}
		ch := got.Changed[0]
		if ch.Baseline.Count != 2 || ch.Current.Count != 36 || ch.Ratio == nil || *ch.Ratio < 10 {
			t.Errorf("the 502s: %+v", ch)
		}
		if got.Summary.BaselineLines != 312 || got.Summary.CurrentLines != 337 || got.Summary.Unchanged != 1 {
			t.Errorf("summary %+v", got.Summary)
		}
		// The API's answer is the engine's.
		want, err := logs.Compare(context.Background(), []byte(baseline), []byte(current), logs.Options{RareThreshold: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		want.Summary.DurationMS, got.Summary.DurationMS = 0, 0
		if !reflect.DeepEqual(*want, got) {
			t.Errorf("the API and the engine differ:\n api %+v\n engine %+v", got, *want)
		}
	})
}

// A current log of all-different lines lists the first new templates
// and counts the rest.
func TestLogsCompareAPITruncated(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-compare-truncated@example.com")
	res := logsPost(env.Client(), comparePath, "application/json", compareBody(t, "INFO hello", distinctLines(logs.MaxCompareListed+12), ""), s.Key)
	if res.StatusCode != 200 {
		t.Fatalf("%d %.400s", res.StatusCode, res.Body)
	}
	var body struct {
		Data logs.Comparison `json:"data"`
	}
	res.JSON(t, &body)
	c := body.Data
	if len(c.New) != logs.MaxCompareListed || c.Summary.New != logs.MaxCompareListed+12 || c.Truncated == nil || c.Truncated.New != 12 {
		t.Errorf("%d new listed of %d, truncated %+v; want %d of %d, 12 left out", len(c.New), c.Summary.New, c.Truncated, logs.MaxCompareListed, logs.MaxCompareListed+12)
	}
}

func TestLogsCompareAPIErrors(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-compare-errors@example.com")
	c := env.Client()
	post := func(ct, body string) *apptest.Response { return logsPost(c, comparePath, ct, body, s.Key) }
	for _, tc := range []struct {
		name     string
		res      *apptest.Response
		status   int
		code     string
		contains string
	}{
		{"no key", logsPost(c, comparePath, "application/json", compareBody(t, "a", "b", ""), ""), 401, "missing_api_key", ""},
		{"text/plain", post("text/plain", "ERROR a"), 415, "unsupported_media_type", "application/json"},
		{"bad JSON", post("application/json", `{"baseline":`), 400, "invalid_request", ""},
		{"unknown field", post("application/json", `{"baseline":"a","current":"b","text":"c"}`), 400, "invalid_request", "text"},
		{"no baseline", post("application/json", `{"current":"ERROR a"}`), 400, "invalid_request", "baseline is required"},
		{"no current", post("application/json", `{"baseline":"ERROR a"}`), 400, "invalid_request", "current is required"},
		{"blank current", post("application/json", compareBody(t, "INFO a", " \n\n", "")), 400, "invalid_request", "current: no log lines"},
		{"bad option", post("application/json", compareBody(t, "a", "b", `,"options":{"rare_threshold":0}`)), 400, "invalid_request", "rare_threshold"},
		{"baseline over 5 MiB", post("application/json", compareBody(t, strings.Repeat("x", logs.MaxCompareSideBytes), "b", "")), 413, "payload_too_large", "baseline is too large: at most 5242880 bytes (5 MiB) per side"},
		{"current over 100,000 lines", post("application/json", compareBody(t, "a", strings.Repeat("b\n", logs.MaxCompareSideLines+1), "")), 413, "payload_too_large", "current has too many lines: at most 100000 per side"},
		{"body over its bound", post("application/json", compareBody(t, strings.Repeat("\x01", 4<<20), "b", "")), 413, "payload_too_large", "10 MiB"},
	} {
		e := scanExpectError(t, tc.name, tc.res, tc.status, tc.code)
		if !strings.Contains(e.Error.Message, tc.contains) {
			t.Errorf("%s: message %q, want it to say %q", tc.name, e.Error.Message, tc.contains)
		}
	}
	// Exactly at the limits is fine: 5 MiB with the last newline, and
	// 100,000 lines a side.
	atBytes := strings.Repeat("y", logs.MaxCompareSideBytes-1) + "\n"
	if res := post("application/json", compareBody(t, atBytes, "INFO b\n", "")); res.StatusCode != 200 {
		t.Errorf("a side of exactly 5 MiB: %d %.300s", res.StatusCode, res.Body)
	}
	atLines := strings.Repeat("a\n", logs.MaxCompareSideLines)
	if res := post("application/json", compareBody(t, atLines, atLines, "")); res.StatusCode != 200 {
		t.Errorf("100,000 lines a side: %d %.300s", res.StatusCode, res.Body)
	}
}

// Every documented response of POST /logs/v1/compare matches what the
// server returns, the examples match their schemas, and the request
// example compares to the response example.
func TestLogsCompareOpenAPI(t *testing.T) {
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	sc := schemaCheck{schemas: doc.Components.Schemas}
	op, ok := doc.Paths[comparePath]["post"]
	if !ok {
		t.Fatalf("%s is not documented", comparePath)
	}
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-compare-openapi@example.com")
	post := func(contentType, body string) func() *apptest.Response {
		return func() *apptest.Response { return logsPost(env.Client(), comparePath, contentType, body, s.Key) }
	}
	var reqMT struct {
		Schema  json.RawMessage `json:"schema"`
		Example json.RawMessage `json:"example"`
	}
	if op.RequestBody == nil || json.Unmarshal(op.RequestBody.Content["application/json"], &reqMT) != nil || len(reqMT.Example) == 0 {
		t.Fatal("no request body example")
	}
	var reqEx any
	_ = json.Unmarshal(reqMT.Example, &reqEx)
	for _, e := range sc.validate("request example", reqMT.Schema, reqEx) {
		t.Error(e)
	}
	cases := map[string][]func() *apptest.Response{
		"200": {post("application/json", string(reqMT.Example)), post("application/json", compareBody(t, "INFO hello", distinctLines(logs.MaxCompareListed+1), ""))},
		"400": {post("application/json", `{"current":"a"}`), post("application/json", `{"baseline":"\n","current":"a"}`)},
		"401": {func() *apptest.Response { return logsPost(env.Client(), comparePath, "application/json", "{}", "") }},
		"403": {func() *apptest.Response {
			return logsPost(env.Client(), comparePath, "application/json", string(reqMT.Example), scopedKey(t, env, s.OrgID, "scan"))
		}},
		"413": {post("application/json", compareBody(t, "a", strings.Repeat("b\n", logs.MaxCompareSideLines+1), ""))},
		"415": {post("text/plain", "a")},
		"429": {func() *apptest.Response {
			key, _ := env.SeedKey(t, s.OrgID, "exhaust")
			c := env.Client()
			for range 60 {
				logsPost(c, comparePath, "application/json", "{}", key)
			}
			return logsPost(c, comparePath, "application/json", "{}", key)
		}},
	}
	for code, r := range op.Responses {
		// 503, the deadline, cannot be provoked within the limits over
		// HTTP; TestAnalyzeLogsDeadline covers the mapping both share.
		if cases[code] == nil && code != "503" {
			t.Errorf("documented response %s has no test case", code)
		}
		mt, ok := doc.Resolve(r).Content["application/json"]
		if !ok {
			t.Errorf("%s: no application/json content", code)
			continue
		}
		if len(mt.Example) > 0 {
			var ex any
			_ = json.Unmarshal(mt.Example, &ex)
			for _, e := range sc.validate("example", mt.Schema, ex) {
				t.Errorf("%s: the example does not match its schema: %s", code, e)
			}
		}
		for i, run := range cases[code] {
			res := run()
			name := fmt.Sprintf("%s #%d", code, i)
			if strconv.Itoa(res.StatusCode) != code {
				t.Errorf("%s: status %d: %.300s", name, res.StatusCode, res.Body)
				continue
			}
			scanExpectRateHeaders(t, name, res)
			var body any
			if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
				t.Fatalf("%s: not JSON: %.300s", name, res.Body)
			}
			for _, e := range sc.validate("body", mt.Schema, body) {
				t.Errorf("%s: %s", name, e)
			}
			if code == "200" && i == 0 { // the documented example
				var want any
				_ = json.Unmarshal(mt.Example, &want)
				body.(map[string]any)["data"].(map[string]any)["summary"].(map[string]any)["duration_ms"] = 0.0
				want.(map[string]any)["data"].(map[string]any)["summary"].(map[string]any)["duration_ms"] = 0.0
				if !reflect.DeepEqual(body, want) {
					t.Errorf("the request example does not compare to the response example:\n got %s", res.Body)
				}
			}
		}
	}
}
