package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"parapet/app/apptest"
	"parapet/app/logs"
	"parapet/app/openapi"
)

const logsPath = "/logs/v1/analyze"

// logsPost sends body with a content type and the key.
func logsPost(c *apptest.Client, path, contentType, body, key string) *apptest.Response {
	headers := []string{}
	if contentType != "" {
		headers = append(headers, "Content-Type", contentType)
	}
	if key != "" {
		headers = append(headers, bearer(key)...)
	}
	return c.Do("POST", path, body, headers...)
}

// logsJSONBody is {"text": text} with optional extra members.
func logsJSONBody(t *testing.T, text string, extra string) string {
	t.Helper()
	b, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	return `{"text":` + string(b) + extra + `}`
}

// logsData decodes a successful body, with duration_ms zeroed so two
// analyses of the same input compare equal.
func logsData(t *testing.T, name string, res *apptest.Response) map[string]any {
	t.Helper()
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d %.400s", name, res.StatusCode, res.Body)
	}
	var body map[string]any
	res.JSON(t, &body)
	if got := keysOf(body); !reflect.DeepEqual(got, []string{"data"}) {
		t.Fatalf("%s: envelope keys %v", name, got)
	}
	data := body["data"].(map[string]any)
	data["summary"].(map[string]any)["duration_ms"] = 0.0
	return data
}

// lineKeys are the keys a match or outlier has only for some lines.
var lineKeys = map[string]bool{"header": true, "level": true, "fields": true, "cut": true}

// requiredKeysOf is keysOf without the keys of lineKeys.
func requiredKeysOf(m map[string]any) []string {
	var out []string
	for _, k := range keysOf(m) {
		if !lineKeys[k] {
			out = append(out, k)
		}
	}
	return out
}

// engineData is what the engine makes of input, as the API's data.
func engineData(t *testing.T, input string, opts logs.Options) map[string]any {
	t.Helper()
	res, err := logs.Analyze(context.Background(), []byte(input), opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var data map[string]any
	_ = json.Unmarshal(b, &data)
	data["summary"].(map[string]any)["duration_ms"] = 0.0
	return data
}

func TestLogsAPI(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		s := env.Seed(t, "logs@example.com")
		c := env.Client()
		sample := logs.Sample()

		// The sample as text/plain: the engine's result in the envelope,
		// with exactly the documented keys.
		res := logsPost(c, logsPath, "text/plain", sample, s.Key)
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("content type %q", ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q, want no-store", cc)
		}
		scanExpectRateHeaders(t, "sample", res)
		plain := logsData(t, "text/plain", res)
		// The sample carries timestamps: it has a timeline.
		if got := keysOf(plain); !reflect.DeepEqual(got, []string{"matches", "outliers", "summary", "templates", "timeline"}) {
			t.Errorf("data keys %v", got)
		}
		summary := plain["summary"].(map[string]any)
		if got := keysOf(summary); !reflect.DeepEqual(got, []string{"blank_lines", "by_category", "cut_lines", "duration_ms", "entries", "lines", "matched", "outliers", "rare_cutoff", "templates"}) {
			t.Errorf("summary keys %v", got)
		}
		if got := keysOf(summary["by_category"].(map[string]any)); !reflect.DeepEqual(got, []string{"error", "fatal", "reliability"}) {
			t.Errorf("by_category keys %v", got)
		}
		matches := plain["matches"].([]any)
		if len(matches) == 0 || float64(len(matches)) != summary["matched"] {
			t.Fatalf("%d matches, summary says %v", len(matches), summary["matched"])
		}
		cats := map[string]bool{}
		for i, m := range matches {
			m := m.(map[string]any)
			if got := requiredKeysOf(m); !reflect.DeepEqual(got, []string{"category", "end", "keyword", "line", "start", "template_id", "text"}) {
				t.Errorf("match %d keys %v", i, got)
			}
			text, start, end := m["text"].(string), int(m["start"].(float64)), int(m["end"].(float64))
			if start < 0 || end <= start || end > len(text) || !strings.EqualFold(lettersOf(text[start:end]), lettersOf(m["keyword"].(string))) {
				t.Errorf("match %d: keyword %q at [%d:%d] of %q", i, m["keyword"], start, end, text)
			}
			cats[m["category"].(string)] = true
		}
		if !cats["fatal"] || !cats["error"] || !cats["reliability"] {
			t.Errorf("the sample's matches cover %v, want all three categories", cats)
		}
		outliers := plain["outliers"].([]any)
		if len(outliers) == 0 || float64(len(outliers)) != summary["outliers"] {
			t.Fatalf("%d outliers, summary says %v", len(outliers), summary["outliers"])
		}
		if got := requiredKeysOf(outliers[0].(map[string]any)); !reflect.DeepEqual(got, []string{"count", "line", "template", "template_id", "text"}) {
			t.Errorf("outlier keys %v", got)
		}
		templates := plain["templates"].([]any)
		if len(templates) == 0 || float64(len(templates)) != summary["templates"] {
			t.Fatalf("%d templates, summary says %v", len(templates), summary["templates"])
		}
		if got := keysOf(templates[0].(map[string]any)); !reflect.DeepEqual(got, []string{"count", "id", "template"}) {
			t.Errorf("template keys %v", got)
		}
		if want := engineData(t, sample, logs.Options{}); !reflect.DeepEqual(plain, want) {
			t.Error("the API's data is not the engine's result")
		}

		// The same log as JSON, and with a charset: the same result.
		if got := logsData(t, "json", logsPost(c, logsPath, "application/json", logsJSONBody(t, sample, ""), s.Key)); !reflect.DeepEqual(got, plain) {
			t.Error("a JSON body does not give the text/plain result")
		}
		if got := logsData(t, "json options null", logsPost(c, logsPath, "application/json; charset=utf-8", logsJSONBody(t, sample, `,"options":{}`), s.Key)); !reflect.DeepEqual(got, plain) {
			t.Error("JSON with empty options does not give the default result")
		}
		for _, ct := range []string{"text/plain; charset=utf-8", "Text/Plain; charset=ISO-8859-1"} {
			if got := logsData(t, ct, logsPost(c, logsPath, ct, sample, s.Key)); !reflect.DeepEqual(got, plain) {
				t.Errorf("%s does not give the text/plain result", ct)
			}
		}
		// CRLF line endings are the same log.
		if got := logsData(t, "crlf", logsPost(c, logsPath, "text/plain", strings.ReplaceAll(sample, "\n", "\r\n"), s.Key)); !reflect.DeepEqual(got, plain) {
			t.Error("CRLF line endings change the result")
		}

		// A custom rare threshold.
		custom := logsData(t, "rare_threshold", logsPost(c, logsPath, "application/json", logsJSONBody(t, sample, `,"options":{"rare_threshold":0.05}`), s.Key))
		if want := engineData(t, sample, logs.Options{RareThreshold: 0.05}); !reflect.DeepEqual(custom, want) {
			t.Error("rare_threshold is not passed to the engine")
		}
		if cs := custom["summary"].(map[string]any); cs["rare_cutoff"] == summary["rare_cutoff"] || cs["outliers"].(float64) <= summary["outliers"].(float64) {
			t.Errorf("rare_threshold 0.05: cutoff %v, %v outliers; default %v, %v", cs["rare_cutoff"], cs["outliers"], summary["rare_cutoff"], summary["outliers"])
		}

		// ?include=assignments: one template id per analysed entry, in
		// order, consistent with the templates' counts; absent otherwise.
		for name, res := range map[string]*apptest.Response{
			"text/plain": logsPost(c, logsPath+"?include=assignments", "text/plain", sample, s.Key),
			"json":       logsPost(c, logsPath+"?include=assignments", "application/json", logsJSONBody(t, sample, ""), s.Key),
		} {
			data := logsData(t, "assignments "+name, res)
			as, ok := data["assignments"].([]any)
			if !ok || float64(len(as)) != summary["entries"] {
				t.Fatalf("%s: %d assignments for %v entries", name, len(as), summary["entries"])
			}
			counts := map[float64]float64{}
			for _, a := range as {
				counts[a.(float64)]++
			}
			for _, tp := range data["templates"].([]any) {
				tp := tp.(map[string]any)
				if counts[tp["id"].(float64)] != tp["count"] {
					t.Errorf("%s: template %v has count %v, %v lines assigned", name, tp["id"], tp["count"], counts[tp["id"].(float64)])
				}
			}
			// Which entry each match is, the engine's tests check.
			if want := engineData(t, sample, logs.Options{IncludeAssignments: true}); !reflect.DeepEqual(data["assignments"], want["assignments"]) {
				t.Errorf("%s: assignments are not the engine's", name)
			}
			delete(data, "assignments")
			if !reflect.DeepEqual(data, plain) {
				t.Errorf("%s: include=assignments changes the rest of the result", name)
			}
		}
		if _, ok := plain["assignments"]; ok {
			t.Error("assignments without include=assignments")
		}
		if got := logsData(t, "include list", logsPost(c, logsPath+"?include=assignments,", "text/plain", sample, s.Key)); got["assignments"] == nil {
			t.Error("include=assignments, (a list) has no assignments")
		}
		e := scanExpectError(t, "unknown include", logsPost(c, logsPath+"?include=matches", "text/plain", sample, s.Key), 400, "invalid_request")
		if !strings.Contains(e.Error.Message, "assignments") {
			t.Errorf("unknown include message %q", e.Error.Message)
		}

		// The new options reach the engine: masks, named placeholders,
		// continuation joining, and ?include=params.
		for _, tc := range []struct {
			name, query, extra string
			opts               logs.Options
		}{
			{"masks", "", `,"options":{"masks":[{"name":"order","regex":"order [0-9]+"}],"named_placeholders":true}`,
				logs.Options{Masks: []logs.Mask{{Name: "order", Regex: "order [0-9]+"}}, NamedPlaceholders: true}},
			{"no joining", "", `,"options":{"join_continuations":false}`, logs.Options{SplitContinuations: true}},
			{"joining", "", `,"options":{"join_continuations":true}`, logs.Options{}},
			{"params", "?include=params", "", logs.Options{IncludeParams: true}},
			{"patterns", "?include=patterns,params", "", logs.Options{IncludePatterns: true, IncludeParams: true}},
		} {
			got := logsData(t, tc.name, logsPost(c, logsPath+tc.query, "application/json", logsJSONBody(t, sample, tc.extra), s.Key))
			if want := engineData(t, sample, tc.opts); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the API's data is not the engine's with %+v", tc.name, tc.opts)
			}
		}
		split := logsData(t, "split", logsPost(c, logsPath, "application/json", logsJSONBody(t, sample, `,"options":{"join_continuations":false}`), s.Key))
		if ss := split["summary"].(map[string]any); ss["entries"] != ss["lines"] || summary["entries"] == summary["lines"] {
			t.Errorf("join_continuations false: %v entries of %v lines; by default %v of %v", ss["entries"], ss["lines"], summary["entries"], summary["lines"])
		}
		params := logsData(t, "params", logsPost(c, logsPath+"?include=params", "text/plain", sample, s.Key))
		withParams := 0
		for _, tp := range params["templates"].([]any) {
			ps, ok := tp.(map[string]any)["params"].([]any)
			if !ok {
				continue
			}
			withParams++
			p := ps[0].(map[string]any)
			vals := p["values"].([]any)
			if _, ok := p["position"].(float64); !ok || len(vals) == 0 || len(vals) > 10 {
				t.Fatalf("params %v", p)
			}
			v := vals[0].(map[string]any)
			if _, ok := v["value"].(string); !ok || v["count"].(float64) < 1 {
				t.Errorf("param value %v", v)
			}
		}
		if withParams == 0 {
			t.Error("?include=params: no template has params")
		}
		bad := scanExpectError(t, "bad mask", logsPost(c, logsPath, "application/json",
			logsJSONBody(t, sample, `,"options":{"masks":[{"name":"broken","regex":"(x"}]}`), s.Key), 400, "invalid_request")
		if !strings.Contains(bad.Error.Message, `mask "broken"`) {
			t.Errorf("bad mask message %q", bad.Error.Message)
		}
		tooMany := `,"options":{"masks":[` + strings.TrimSuffix(strings.Repeat(`{"name":"m","regex":"x"},`, 21), ",") + `]}`
		if e := scanExpectError(t, "too many masks", logsPost(c, logsPath, "application/json", logsJSONBody(t, sample, tooMany), s.Key), 400, "invalid_request"); !strings.Contains(e.Error.Message, "at most 20") {
			t.Errorf("too many masks message %q", e.Error.Message)
		}

		// A line over 16 KiB is analysed on its first 16 KiB and flagged.
		long := "2024-03-18T09:14:02Z ERROR [job] payload " + strings.Repeat("x", 20<<10) + "\n" + "2024-03-18T09:14:03Z INFO [job] done\n"
		data := logsData(t, "20 KiB line", logsPost(c, logsPath, "text/plain", long, s.Key))
		if data["summary"].(map[string]any)["cut_lines"] != 1.0 {
			t.Errorf("cut_lines %v", data["summary"].(map[string]any)["cut_lines"])
		}
		m := data["matches"].([]any)
		if len(m) != 1 || m[0].(map[string]any)["cut"] != true || len(m[0].(map[string]any)["text"].(string)) != logs.MaxLineBytes {
			t.Errorf("the 20 KiB line's match: %.200v", m)
		}

		// Nothing of the input reaches the logs, whatever the outcome.
		marker := "zz-log-marker-4711"
		logsPost(c, logsPath, "text/plain", "ERROR "+marker+"\n", s.Key)
		logsPost(c, logsPath, "application/json", `{"text": "FATAL `+marker+`", "options": {"rare_threshold": 0.5}}`, s.Key)
		logsPost(c, logsPath, "application/json", `{"text": "`+marker+`", "bogus": 1}`, s.Key)
		logsPost(c, logsPath, "application/json", `{"text": `+marker+`}`, s.Key)
		logsPost(c, logsPath, "text/plain", strings.Repeat(marker+"\n", logs.MaxLines+1), s.Key)
		if strings.Contains(env.Logs.String(), marker) {
			t.Error("the analysed input appears in the logs")
		}

		// Authentication: the key is required, and errors carry the headers.
		scanExpectError(t, "no key", logsPost(c, logsPath, "text/plain", sample, ""), 401, "missing_api_key")
		scanExpectError(t, "unknown key", logsPost(c, logsPath, "text/plain", sample, "ppk_notarealkeynotarealkeynotarealkeyxx"), 401, "invalid_api_key")
		scanExpectError(t, "basic auth", c.Do("POST", logsPath, sample, "Content-Type", "text/plain", "Authorization", "Basic dXNlcjpwYXNz"), 401, "missing_api_key")

		// Content types.
		for _, ct := range []string{"", "application/xml", "application/x-www-form-urlencoded", "text/html", "application/octet-stream"} {
			e := scanExpectError(t, "content type "+ct, logsPost(c, logsPath, ct, sample, s.Key), 415, "unsupported_media_type")
			if !strings.Contains(e.Error.Message, "text/plain") || !strings.Contains(e.Error.Message, "application/json") {
				t.Errorf("415 message %q does not say what to send", e.Error.Message)
			}
		}

		// A compressed body is refused, not analysed as binary noise.
		for _, enc := range []string{"gzip", "br"} {
			res := c.Do("POST", logsPath, "\x1f\x8b\x08\x00", append(bearer(s.Key), "Content-Type", "text/plain", "Content-Encoding", enc)...)
			if e := scanExpectError(t, "Content-Encoding "+enc, res, 415, "unsupported_media_type"); !strings.Contains(e.Error.Message, "uncompressed") {
				t.Errorf("415 message %q does not say to send the body uncompressed", e.Error.Message)
			}
		}

		// Malformed or invalid JSON bodies.
		for _, tc := range []struct{ name, body, want string }{
			{"malformed", "{\"text\": \"a\",\n \"options\": {,}}", "malformed JSON at line 2, column 14"},
			{"empty JSON body", "", "empty"},
			{"not an object", `["ERROR"]`, "the request body must be an object in JSON, not array"},
			{"unknown field", `{"text": "ERROR", "lines": 3}`, `unknown field "lines"`},
			{"unknown option", `{"text": "ERROR", "options": {"threshold": 0.1}}`, `unknown field "threshold"`},
			{"no text", `{"options": {"rare_threshold": 0.1}}`, "text is required"},
			{"null text", `{"text": null}`, "text is required"},
			{"text not a string", `{"text": 42}`, "text must be a string"},
			{"rare_threshold 0", `{"text": "ERROR", "options": {"rare_threshold": 0}}`, "rare_threshold"},
			{"rare_threshold negative", `{"text": "ERROR", "options": {"rare_threshold": -0.1}}`, "rare_threshold"},
			{"rare_threshold over 1", `{"text": "ERROR", "options": {"rare_threshold": 1.5}}`, "rare_threshold"},
			{"rare_threshold string", `{"text": "ERROR", "options": {"rare_threshold": "0.1"}}`, "options.rare_threshold must be a number"},
			{"two values", `{"text": "ERROR"} {}`, "single JSON value"},
		} {
			e := scanExpectError(t, tc.name, logsPost(c, logsPath, "application/json", tc.body, s.Key), 400, "invalid_request")
			if !strings.Contains(e.Error.Message, tc.want) {
				t.Errorf("%s: message %q does not contain %q", tc.name, e.Error.Message, tc.want)
			}
		}
		if got := logsData(t, "rare_threshold 1", logsPost(c, logsPath, "application/json", logsJSONBody(t, sample, `,"options":{"rare_threshold":1}`), s.Key)); got["summary"].(map[string]any)["outliers"] != summary["entries"] {
			t.Errorf("rare_threshold 1: every entry is an outlier, got %v", got["summary"].(map[string]any)["outliers"])
		}

		// No log lines: empty, blank, whitespace-only, in both forms.
		for name, res := range map[string]*apptest.Response{
			"empty":           logsPost(c, logsPath, "text/plain", "", s.Key),
			"blank lines":     logsPost(c, logsPath, "text/plain", "\n\n\r\n", s.Key),
			"whitespace only": logsPost(c, logsPath, "text/plain", "  \t\n   \n\t", s.Key),
			"json empty text": logsPost(c, logsPath, "application/json", `{"text": ""}`, s.Key),
			"json blank text": logsPost(c, logsPath, "application/json", `{"text": " \n \n"}`, s.Key),
		} {
			if e := scanExpectError(t, name, res, 400, "invalid_request"); e.Error.Message != "no log lines" {
				t.Errorf("%s: message %q, want \"no log lines\"", name, e.Error.Message)
			}
		}
	})
}

// lettersOf keeps the letters of s: "timed-out" and "timed out", or
// "OutOfMemory" and "out of memory", are the same keyword.
func lettersOf(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return r
		}
		return -1
	}, s)
}

// The limits: 10 MiB, 200,000 lines, in both body forms; exactly at a
// limit is fine.
func TestLogsAPILimits(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-limits@example.com")
	c := env.Client()

	line := "2024-03-18T09:14:02Z INFO [http] GET /api/v1/orders/3518 200 3ms request_id=1600a35a " // 87 bytes
	exact := strings.Repeat(line+"\n", logs.MaxInputBytes/(len(line)+1))
	exact += strings.Repeat("x", logs.MaxInputBytes-len(exact)-1) + "\n"
	if len(exact) != logs.MaxInputBytes {
		t.Fatalf("exact is %d bytes", len(exact))
	}
	res := logsPost(c, logsPath, "text/plain", exact, s.Key)
	if res.StatusCode != 200 {
		t.Errorf("exactly 10 MiB: %d %.300s", res.StatusCode, res.Body)
	}
	over := exact + "x"
	for name, res := range map[string]*apptest.Response{
		"text/plain 10 MiB + 1": logsPost(c, logsPath, "text/plain", over, s.Key),
		"json text 10 MiB + 1":  logsPost(c, logsPath, "application/json", logsJSONBody(t, over, ""), s.Key),
		// Control characters are escaped as \u0001: 4 MiB of them is a
		// 24 MiB body, over the JSON bound although the text is not.
		"json body over its bound": logsPost(c, logsPath, "application/json", logsJSONBody(t, strings.Repeat("\x01", 4<<20), ""), s.Key),
	} {
		e := scanExpectError(t, name, res, 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, "10 MiB") {
			t.Errorf("%s: message %q does not name the limit", name, e.Error.Message)
		}
	}
	// 10 MiB of text whose escaping doubles it is still within the bound.
	quotes := strings.Repeat(strings.Repeat(`"`, 99)+"\n", logs.MaxInputBytes/100)
	quotes += strings.Repeat(`"`, logs.MaxInputBytes-len(quotes))
	if body := logsJSONBody(t, quotes, ""); len(body) < 2*logs.MaxInputBytes {
		t.Fatalf("the escaped body is %d bytes", len(body))
	} else if res := logsPost(c, logsPath, "application/json", body, s.Key); res.StatusCode != 200 {
		t.Errorf("10 MiB of text escaped to 20 MiB of JSON: %d %.300s", res.StatusCode, res.Body)
	}

	lines := strings.Repeat("a\n", logs.MaxLines)
	if res := logsPost(c, logsPath, "text/plain", lines, s.Key); res.StatusCode != 200 {
		t.Errorf("exactly 200,000 lines: %d %.300s", res.StatusCode, res.Body)
	}
	for name, res := range map[string]*apptest.Response{
		"text/plain 200,001 lines":  logsPost(c, logsPath, "text/plain", lines+"a", s.Key),
		"json 200,001 lines":        logsPost(c, logsPath, "application/json", logsJSONBody(t, lines+"a\n", ""), s.Key),
		"200,001 lines, all blank":  logsPost(c, logsPath, "text/plain", strings.Repeat("\n", logs.MaxLines+1), s.Key),
		"200,001 lines, CRLF ended": logsPost(c, logsPath, "text/plain", strings.Repeat("a\r\n", logs.MaxLines+1), s.Key),
	} {
		e := scanExpectError(t, name, res, 413, "payload_too_large")
		if !strings.Contains(e.Error.Message, strconv.Itoa(logs.MaxLines)) {
			t.Errorf("%s: message %q does not name the limit", name, e.Error.Message)
		}
	}
}

// distinctLines is n lines, each its own template: their first words
// differ, and have no digit to mask.
func distinctLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%c%c%c happened\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	return b.String()
}

// An input of all-different lines lists the most frequent templates and
// the first outliers, and counts the rest; the summary stays exact.
func TestLogsAPITruncated(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-truncated@example.com")
	n := logs.MaxResultTemplates + 234
	data := logsData(t, "distinct lines", logsPost(env.Client(), logsPath, "text/plain", distinctLines(n), s.Key))
	sum := data["summary"].(map[string]any)
	if sum["templates"] != float64(n) || sum["outliers"] != float64(n) {
		t.Errorf("summary counts %v templates and %v outliers, want %d", sum["templates"], sum["outliers"], n)
	}
	if got := len(data["templates"].([]any)); got != logs.MaxResultTemplates {
		t.Errorf("%d templates listed, want %d", got, logs.MaxResultTemplates)
	}
	if got := len(data["outliers"].([]any)); got != logs.MaxResultOutliers {
		t.Errorf("%d outliers listed, want %d", got, logs.MaxResultOutliers)
	}
	tr, _ := data["truncated"].(map[string]any)
	if tr["templates"] != float64(234) || tr["outliers"] != float64(234) {
		t.Errorf("truncated %v, want 234 templates and 234 outliers", data["truncated"])
	}
	small := logsData(t, "sample", logsPost(env.Client(), logsPath, "text/plain", logs.Sample(), s.Key))
	if _, ok := small["truncated"]; ok {
		t.Errorf("the sample's result is truncated: %v", small["truncated"])
	}
}

// The analyzer has its own per-key budget: exhausting it gives 429 with
// Retry-After and leaves the key's /v1 and scanner budgets alone.
func TestLogsAPIRateLimit(t *testing.T) {
	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-limit@example.com")
	c := env.Client()
	for i := 0; i < 60; i++ {
		res := logsPost(c, logsPath, "text/plain", "ERROR once\n", s.Key)
		if res.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i+1, res.StatusCode, res.Body)
		}
		if got := res.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(59-i) {
			t.Errorf("request %d: X-RateLimit-Remaining %q", i+1, got)
		}
	}
	res := logsPost(c, logsPath, "text/plain", "ERROR once\n", s.Key)
	scanExpectError(t, "61st", res, 429, "rate_limited")
	if res.Header.Get("Retry-After") == "" || res.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("429 headers: Retry-After %q Remaining %q", res.Header.Get("Retry-After"), res.Header.Get("X-RateLimit-Remaining"))
	}
	if res := c.Get("/v1/products", bearer(s.Key)...); res.StatusCode != 200 {
		t.Errorf("/v1 after the logs budget is spent: %d", res.StatusCode)
	}
	if res := c.PostJSON(scanPath, `{"resources":[]}`, bearer(s.Key)...); res.StatusCode != 200 {
		t.Errorf("the scanner after the logs budget is spent: %d", res.StatusCode)
	}
}

// Every documented response of POST /logs/v1/analyze matches what the
// server returns (status, content type, body schema, rate-limit headers),
// the examples match their schemas, and both request examples analyse to
// the response example.
func TestLogsOpenAPI(t *testing.T) {
	doc, err := openapi.Parse()
	if err != nil {
		t.Fatal(err)
	}
	sc := schemaCheck{schemas: doc.Components.Schemas}
	op, ok := doc.Paths[logsPath]["post"]
	if !ok {
		t.Fatalf("%s is not documented", logsPath)
	}
	tagged := false
	for _, tag := range doc.Tags {
		tagged = tagged || tag.Name == "Log analyzer"
	}
	if !tagged || !slices.Equal(op.Tags, []string{"Log analyzer"}) {
		t.Errorf("tags %v; the document's tags include Log analyzer: %v", op.Tags, tagged)
	}
	for _, p := range op.Parameters {
		if strings.Contains(p.Description, "`") {
			t.Errorf("parameter %s: the reference page prints backticks in parameter descriptions as they are", p.Name)
		}
	}

	env := apptest.New(t, apptest.Databases(t)[0])
	s := env.Seed(t, "logs-openapi@example.com")
	post := func(path, contentType, body string) func() *apptest.Response {
		return func() *apptest.Response { return logsPost(env.Client(), path, contentType, body, s.Key) }
	}
	long := "ERROR " + strings.Repeat("y", 20<<10) + "\nINFO ok\n"
	cases := map[string][]func() *apptest.Response{
		"200": {
			post(logsPath, "text/plain", logs.Sample()),
			post(logsPath+"?include=assignments", "application/json", `{"text": "ERROR a\nINFO b\n\nFATAL c"}`),
			post(logsPath, "text/plain", long),
			post(logsPath, "text/plain", distinctLines(logs.MaxResultTemplates+1)), // truncated
		},
		"400": {
			post(logsPath, "application/json", `{`),
			post(logsPath, "application/json", `{"text": "x", "extra": 1}`),
			post(logsPath, "text/plain", ""),
			post(logsPath+"?include=all", "text/plain", "ERROR"),
		},
		"401": {func() *apptest.Response { return logsPost(env.Client(), logsPath, "text/plain", "ERROR", "") }},
		"403": {func() *apptest.Response {
			return logsPost(env.Client(), logsPath, "text/plain", "ERROR", scopedKey(t, env, s.OrgID, "scan"))
		}},
		"413": {post(logsPath, "text/plain", strings.Repeat(" ", logs.MaxInputBytes+1)), post(logsPath, "text/plain", strings.Repeat("\n", logs.MaxLines+1))},
		"415": {post(logsPath, "application/xml", "<log/>")},
		"429": {func() *apptest.Response {
			key, _ := env.SeedKey(t, s.OrgID, "exhaust")
			c := env.Client()
			for i := 0; i < 60; i++ {
				logsPost(c, logsPath, "text/plain", "ERROR", key)
			}
			return logsPost(c, logsPath, "text/plain", "ERROR", key)
		}},
	}
	for code := range op.Responses {
		// 503, the analysis deadline, cannot be provoked within the
		// limits over HTTP; TestAnalyzeLogsDeadline covers it.
		if cases[code] == nil && code != "503" {
			t.Errorf("documented response %s has no test case", code)
		}
	}
	for code, r := range op.Responses {
		r = doc.Resolve(r)
		mt, ok := r.Content["application/json"]
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
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: content type %q", name, ct)
			}
			scanExpectRateHeaders(t, name, res)
			var body any
			if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
				t.Fatalf("%s: not JSON: %.300s", name, res.Body)
			}
			for _, e := range sc.validate("body", mt.Schema, body) {
				t.Errorf("%s: %s", name, e)
			}
		}
	}

	// Both request examples are valid input whose analysis is the
	// response example (but for the time taken).
	if op.RequestBody == nil {
		t.Fatal("no request body documented")
	}
	var want map[string]any
	_ = json.Unmarshal(doc.Resolve(op.Responses["200"]).Content["application/json"].Example, &want)
	if want == nil {
		t.Fatal("the 200 response has no example")
	}
	want["data"].(map[string]any)["summary"].(map[string]any)["duration_ms"] = 0.0
	for _, ct := range []string{"text/plain", "application/json"} {
		var reqMT struct {
			Schema  json.RawMessage `json:"schema"`
			Example json.RawMessage `json:"example"`
		}
		if err := json.Unmarshal(op.RequestBody.Content[ct], &reqMT); err != nil || len(reqMT.Example) == 0 {
			t.Fatalf("request body %s: %v", ct, err)
		}
		var ex any
		_ = json.Unmarshal(reqMT.Example, &ex)
		for _, e := range sc.validate("request example "+ct, reqMT.Schema, ex) {
			t.Error(e)
		}
		body := string(reqMT.Example)
		if ct == "text/plain" {
			body = ex.(string)
		}
		got := map[string]any{"data": logsData(t, "request example "+ct, logsPost(env.Client(), logsPath, ct, body, s.Key))}
		if !reflect.DeepEqual(got, want) {
			b, _ := json.Marshal(got)
			t.Errorf("analysing the %s request example does not give the response example:\n got %s", ct, b)
		}
	}
}
