package logs

import (
	"strings"
	"testing"
)

// nginx's combined format and Apache's common one: the status decides. A
// 5xx is a match (502, 503 and 504 reliability, the rest error) reported
// by its status, and so is a 429 (reliability: throttled); no other line
// matches, whatever its URL, referer or user agent says ("error.css",
// "/errors/", "crash handler", "panic-button", "connection refused").
func TestAccessLogCombinedAndCommon(t *testing.T) {
	res := analyze(t, readTestdata(t, "access_combined.log"), Options{})
	checkMatches(t, res, map[int][2]string{
		4:  {"error", "500"},
		5:  {"reliability", "502"},
		6:  {"reliability", "503"},
		7:  {"reliability", "504"},
		10: {"reliability", "429"},
		11: {"error", "507"},
		14: {"error", "500"},
	})
	if m, ok := matchAt(res, 5); ok && m.Text[m.Start-2:m.End+1] != `" 502 ` {
		t.Errorf("line 5 highlights %q, want the status after the request", m.Text[m.Start:m.End])
	}
	if got := res.Summary.ByCategory; got != (CategoryCnt{Error: 3, Reliability: 4}) {
		t.Errorf("by category %+v", got)
	}
}

// A client's IPv6 address opens an access line as an IPv4 one does: its
// header is cut, it is templated with the IPv4 clients' lines, and its
// status decides ("/timeout" with a 200 is no match).
func TestAccessLogIPv6Clients(t *testing.T) {
	ok := `10.0.0.1 - - [11/Mar/2024:10:15:02 +0000] "GET /api/v1/users HTTP/1.1" 200 612 "-" "curl/8.4.0"` + "\n"
	in := strings.Repeat(ok, 8) +
		`10.0.0.9 - - [11/Mar/2024:10:15:10 +0000] "\x16\x03\x01\x02\x00\x01" 400 157 "-" "-"` + "\n" + // 9
		`2001:db8::1 - - [11/Mar/2024:10:15:11 +0000] "GET /timeout HTTP/1.1" 200 5 "-" "Mozilla/5.0"` + "\n" + // 10
		`::1 - - [11/Mar/2024:10:15:12 +0000] "GET /api/v1/users HTTP/1.1" 502 5 "-" "Mozilla/5.0"` + "\n" + // 11
		`fe80::1ff:fe23:4567:890a - - [11/Mar/2024:10:15:13 +0000] "GET /api/v1/users HTTP/1.1" 503 5 "-" "Mozilla/5.0"` + "\n" // 12
	res := analyze(t, in, Options{IncludeAssignments: true})
	if res.Summary.Entries != 12 {
		t.Errorf("%d entries, want 12: an IPv6 client's line joined the line above", res.Summary.Entries)
	}
	checkMatches(t, res, map[int][2]string{11: {"reliability", "502"}, 12: {"reliability", "503"}})
	for _, line := range []int{11, 12} {
		if m, ok := matchAt(res, line); ok && m.Header == "" {
			t.Errorf("line %d: no header cut: %+v", line, m)
		}
	}
	if a := res.Assignments; len(a) == 12 && (a[10] != a[0] || a[11] != a[0]) {
		t.Errorf("IPv6 clients' lines are not templated with the IPv4 ones: %v", a)
	}
}

func TestIPv6Address(t *testing.T) {
	for in, want := range map[string]bool{
		"2001:db8::1": true, "::1": true, "::": false, "fe80::1ff:fe23:4567:890a": true,
		"2001:0db8:85a3:0000:0000:8a2e:0370:7334": true, "::ffff:10.0.0.1": true, "FE80::1": true,
		"dead:beef": false, "10:15:02": false, "1::2::3": false, "12345::1": false, "a:b:c:d:e:f:1:2:3": false,
		"::ffff:10.0.0.1:80": false, "db8::g": false, "2001:db8::1,": false,
	} {
		if got := ipv6Address([]byte(in)); got != want {
			t.Errorf("ipv6Address(%q) = %v, want %v", in, got, want)
		}
	}
}

// HAProxy's HTTP format: the status follows the five timers, the request
// comes last; <NOSRV> and timers of -1 change nothing. Its other lines are
// read as before.
func TestAccessLogHAProxy(t *testing.T) {
	res := analyze(t, readTestdata(t, "haproxy_http.log"), Options{})
	checkMatches(t, res, map[int][2]string{
		4: {"reliability", "503"},
		5: {"reliability", "is down"}, // not an access line: "Server … is DOWN, … Connection refused"
		6: {"reliability", "504"},
		7: {"error", "500"},
	})
	if m, ok := matchAt(res, 4); ok && !strings.HasPrefix(m.Text[m.Start:], "503 217 - - SC--") {
		t.Errorf("line 4 highlights %q at %d, want the status", m.Text[m.Start:m.End], m.Start)
	}
}

// JSON access lines: a status key (a number or a string, nested or with a
// dotted name) in an object that names the method, in a request line or a
// method key. The status decides over a level field, as on a text access
// line; an object with a status but no method is read by its level and
// keywords.
func TestAccessLogJSON(t *testing.T) {
	res := analyze(t, readTestdata(t, "access.jsonl"), Options{})
	checkMatches(t, res, map[int][2]string{
		2:  {"error", "500"},
		3:  {"reliability", "503"}, // "status":"503"
		4:  {"reliability", "502"}, // level info, method in a nested request
		6:  {"reliability", "504"}, // http.status_code, nested
		7:  {"error", "500"},       // "http.status_code" as one key
		9:  {"error", "failed"},    // no method: not an access line
		10: {"reliability", "503"}, // Envoy's and Istio's response_code; line 11's 200 is none
		12: {"error", "500"},       // W3C's ScStatus and CsMethod, as Azure App Service writes them
	})
	if m, ok := matchAt(res, 3); ok && m.Text[m.Start-1:m.End+1] != `"503"` {
		t.Errorf("line 3 highlights %q", m.Text[m.Start:m.End])
	}
}

// logfmt access lines, as request loggers (slog, logrus) and Heroku's
// router write them: the same.
func TestAccessLogLogfmt(t *testing.T) {
	res := analyze(t, readTestdata(t, "access.logfmt"), Options{})
	checkMatches(t, res, map[int][2]string{
		2: {"error", "500"},
		3: {"reliability", "504"},
		6: {"error", "failed"},    // no method: not an access line
		7: {"reliability", "503"}, // at=error, "Request timeout": the status decides
		8: {"reliability", "502"}, // after a header
	})
}

// Lines that are not access lines keep their keywords and levels: prose
// that mentions a status, a request line without a status after it, a
// status that is not three digits from 100 to 599.
func TestAccessLogNearMisses(t *testing.T) {
	in := strings.Join([]string{
		`2024-03-05 15:00:00 ERROR upstream returned 500 for GET /api/orders`,
		`2024-03-05 15:00:01 upstream returned 503, retrying`,
		`2024-03-05 15:00:02 proxy sent "GET /api/errors HTTP/1.1" upstream`,
		`2024-03-05 15:00:03 client "GET /x HTTP/1.1" and the server crashed`,
		`2024-03-05 15:00:04 "get /errors HTTP/1.1" 200 12`,
		`2024-03-05 15:00:05 "GET /errors HTTP/1.1" 2000 12`,
		`2024-03-05 15:00:06 "GET /errors HTTP/1.1" 600 12`,
		`2024-03-05 15:00:07 GET /errors HTTP/1.1 200 12`,
		`2024-03-05 15:00:08 INFO returned 500 to the client, no error`,
	}, "\n")
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{
		1: {"error", "error"},
		2: {"reliability", "retrying"},
		3: {"error", "errors"},
		4: {"fatal", "crashed"},
		5: {"error", "errors"},
		6: {"error", "errors"},
		7: {"error", "errors"},
		8: {"error", "errors"},
	})
}

// An access line is read as at a quiet level: a traceback printed after a
// 500 is an entry of its own, not a part of the access line's.
func TestAccessLogTracebackApart(t *testing.T) {
	in := `127.0.0.1 - - [05/Mar/2024:15:00:00 +0000] "GET /pay HTTP/1.1" 500 12 "-" "curl/8.5.0"
Traceback (most recent call last):
  File "app.py", line 3, in pay
ValueError: bad card
`
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{
		1: {"error", "500"},
		2: {"error", "traceback"},
	})
	if m, _ := matchAt(res, 1); strings.Contains(m.Text, "\n") {
		t.Errorf("the access line's entry holds the traceback: %q", m.Text)
	}
}

// An access line written with a level (uvicorn, Werkzeug) is still read
// by its status: such servers log every request at one level.
func TestAccessLogWithLevel(t *testing.T) {
	in := `INFO:     127.0.0.1:52345 - "GET /pay HTTP/1.1" 500 Internal Server Error
INFO:     127.0.0.1:52346 - "GET /errors/timeout HTTP/1.1" 200 OK
WARNING:  127.0.0.1:52347 - "GET /api/failed-jobs HTTP/1.1" 404 Not Found
`
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{1: {"error", "500"}})
	if m, ok := matchAt(res, 1); ok && m.Level != "INFO" {
		t.Errorf("line 1 level %q, want INFO as written", m.Level)
	}
}

// The access lines of other servers and platforms: AWS's load balancers
// (the balancer's status first, after three timings), ASP.NET Core's
// "Request finished" (on the line under .NET's console header too), Go
// frameworks' tables between bars (gin, fiber) and Heroku's router after
// its header. The status decides, 429 included; a level does not.
func TestAccessLogOtherFormats(t *testing.T) {
	in := strings.Join([]string{
		`http 2024-03-05T15:00:00.186641Z app/my-lb/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://example.com:80/errors HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/t/73e2 "Root=1-58337262" "-" "-" 0 2024-03-05T15:00:00.000000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"`,
		`https 2024-03-05T15:00:01.186641Z app/my-lb/50dc6c495c0c9188 192.168.131.39:2817 - -1 -1 -1 502 - 34 366 "GET https://example.com:443/ HTTP/1.1" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/t/73e2 "Root=1-58337281" "example.com" "-" 1 2024-03-05T15:00:01.000000Z "forward" "-" "-" "-" "-" "-" "-"`,
		`2024-03-05T15:00:02.945958Z my-elb 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 429 429 0 29 "GET http://example.com:80/ HTTP/1.1" "curl/7.38.0" - -`,
		`info: Microsoft.AspNetCore.Hosting.Diagnostics[2]`,
		`      Request finished HTTP/1.1 GET http://localhost:5000/api/orders - 500 0 - 12.3456ms`,
		`info: Microsoft.AspNetCore.Hosting.Diagnostics[2] Request finished HTTP/1.1 GET http://localhost:5000/api/errors - - - 200 - text/html;+charset=utf-8 54.0812ms`,
		`[15:00:03 INF] Request finished HTTP/2 POST https://localhost:7001/api/orders application/json 123 - 503 - application/json;+charset=utf-8 12.1ms`,
		`2024-03-05 15:00:04.123 +00:00 [INF] Request finished in 12.3456ms 500 application/json; charset=utf-8`,
		`[GIN] 2024/03/05 - 15:00:05 | 500 |    12.234ms |       127.0.0.1 | POST     "/api/pay"`,
		`[GIN] 2024/03/05 - 15:00:06 | 200 |     1.234ms |       127.0.0.1 | GET      "/api/errors"`,
		`15:00:07 | 429 |  1.2ms |  127.0.0.1 | GET  | /api/crash | -`,
		`2024-03-05T15:00:08.123456+00:00 heroku[router]: at=error code=H12 desc="Request timeout" method=GET path="/" host=shop.herokuapp.com dyno=web.1 connect=0ms service=30000ms status=503 bytes=0 protocol=https`,
		`2024-03-05T15:00:09.123456+00:00 heroku[router]: at=info method=GET path="/errors" host=shop.herokuapp.com dyno=web.1 connect=0ms service=3ms status=200 bytes=10 protocol=https`,
	}, "\n")
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{
		2:  {"reliability", "502"},
		3:  {"reliability", "429"},
		4:  {"error", "500"},
		7:  {"reliability", "503"},
		8:  {"error", "500"},
		9:  {"error", "500"},
		11: {"reliability", "429"},
		12: {"reliability", "503"},
	})
	for _, m := range res.Matches {
		if atoi3(m.Text[m.Start:]) < 0 || m.End-m.Start != 3 {
			t.Errorf("line %d highlights %q, want its status", m.Line, m.Text[m.Start:m.End])
		}
	}
	if m, _ := matchAt(res, 4); !strings.Contains(m.Text, "Request finished") {
		t.Errorf("line 4: %q, want the request line joined", m.Text)
	}
}

// accessStatus line by line: the formats, and near misses.
func TestAccessStatus(t *testing.T) {
	for _, c := range []struct {
		line string
		code int // 0: not an access line
	}{
		{`1.2.3.4 - - [05/Mar/2024:15:00:00 +0100] "GET / HTTP/1.1" 200 12 "-" "-"`, 200},
		{`1.2.3.4 - - [05/Mar/2024:15:00:00 +0100] "GET / HTTP/2" 503 12`, 503},
		{`1.2.3.4 - - [05/Mar/2024:15:00:00 +0100] "OPTIONS * HTTP/1.0" 500`, 500},
		{`"GET / HTTP/1.1" 502` + "\t12", 502},
		{`[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28"`, 204}, // Envoy
		{`INFO:     127.0.0.1:52345 - "GET / HTTP/1.1" 500 Internal Server Error`, 500},                      // uvicorn
		{`lb haproxy[1]: 1.2.3.4:5 [05/Mar/2024:10:01:01.000] fe be/<NOSRV> 0/-1/-1/-1/0 503 217 - - SC-- 1/1/0/0/0 0/0 "GET / HTTP/1.1"`, 503},
		{`lb haproxy[1]: 1.2.3.4:5 [05/Mar/2024:10:01:01.000] fe be/s1 0/0/1/0 503 217 - - ---- 1/1/0/0/0 0/0 "GET / HTTP/1.1"`, 0}, // four timers
		{`lb haproxy[1]: 1.2.3.4:5 [05/Mar/2024:10:01:01.000] fe be/s1 0/0/1/0/1 -1 217 - - CD-- 1/1/0/0/0 0/0 "GET / HTTP/1.1"`, 0},
		{`"GET / HTTP/1.1" 5030 12`, 0},
		{`"GET / HTTP/1.1" 099 12`, 0},
		{`"GET / HTTP/1.1" - 12`, 0},
		{`"GET / HTTP/1.1"503 12`, 0},
		{`"FETCH / HTTP/1.1" 503 12`, 0},
		{`"GET  HTTP/1.1" 503 12`, 0},
		{`"GET / HTTP/x" 503 12`, 0},
		{`GET / HTTP/1.1 503 12`, 0},
		{`x"GET / HTTP/1.1" 503 12`, 503},
		{`said "hi" then "GET / HTTP/1.1" 504 12`, 504},
		{`"GET /a\"b HTTP/1.1" 503 12`, 0},
		{`no request line at all, status 503`, 0},
		{`{"request":"GET / HTTP/1.1","status":503}`, 503},
		{`{"request":"GET / HTTP/1.1","status": "404" }`, 404},
		{`{"method":"GET","status":{"code":503}}`, 0},
		{`{"method":"get","status":503}`, 0},
		{`{"request":"GET / HTTP/1.1","status":5030}`, 0},
		{`{"request":"GET / HTTP/1.1","status":"50"}`, 0},
		{`{"request":"GET / HTTP/1.1 extra","status":503}`, 0},
		{`{"msg":"a \"GET / HTTP/1.1\" b","status":503}`, 0},
		{`{"status":"ok","method":"GET","http":{"status_code":502}}`, 502},
		{`{"status":503}`, 0},
		{`at=error code=H12 desc="Request timeout" method=GET path="/" status=503 bytes=0`, 503},
		{`level=info msg="order status" method=get status=500`, 0},
		{`level=info request="GET / HTTP/1.1" status=500`, 500},
		{`level=info request="GET / HTTP/1.1" status_code=5xx status=500`, 0},
		{`h2 2024-03-05T15:00:00.1Z app/lb/50dc 1.2.3.4:5 10.0.0.66:9000 0.000 0.002 0.000 500 500 5 257 "GET https://x/ HTTP/2.0" "curl/7.46.0"`, 500},
		{`2024-03-05T15:00:00.1Z lb 1.2.3.4:5 - -1 -1 -1 504 0 0 0 "GET http://x:80/ HTTP/1.1" "-"`, 504},
		{`x 0.000 0.002 0.000 500 500 5 "GET / HTTP/1.1"`, 0},    // one byte count
		{`x 0.000 0.002 fast 500 500 5 257 "GET / HTTP/1.1"`, 0}, // not three timings
		{`Request finished HTTP/1.1 GET http://localhost:5000/ - 404 0 - 1.2ms`, 404},
		{`Microsoft.AspNetCore.Hosting.Diagnostics[2] Request finished HTTP/1.1 DELETE https://h/x?a=1 - - - 503 - - 1.2ms`, 503},
		{`Request finished in 1.2ms 502 text/plain`, 502},
		{`Request finished HTTP/1.1 GET /relative - 500 0 - 1.2ms`, 0},
		{`Request finished with 500 errors`, 0},
	} {
		s := statusOf(c.line)
		if c.code == 0 {
			if s.ok() {
				t.Errorf("%s: status %d at %d, want no access line", c.line, s.code, s.at)
			}
			continue
		}
		if !s.ok() || s.code != c.code || atoi3(c.line[s.at:]) != c.code {
			t.Errorf("%s: %+v, want %d", c.line, s, c.code)
		}
	}
}

// statusOf is the status of a line read as a message without a header.
func statusOf(line string) accessLine {
	b := []byte(line)
	st := scanStructured(b, skipSpace(b, 0))
	return accessStatus(b, &st, 0)
}

// atoi3 reads the three digits at the start of s, -1 when they are not.
func atoi3(s string) int {
	if len(s) < 3 || !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) {
		return -1
	}
	return int(s[0]-'0')*100 + int(s[1]-'0')*10 + int(s[2]-'0')
}

// FuzzAccessStatus: on any line, a status found is three digits of the
// line, from 100 to 599, at the offset given.
func FuzzAccessStatus(f *testing.F) {
	f.Add(`1.2.3.4 - - [05/Mar/2024:15:00:00 +0100] "GET / HTTP/1.1" 200 12 "-" "-"`)
	f.Add(`{"request":"GET / HTTP/1.1","status": "404" ,"http":{"method":"GET","status_code":502}}`)
	f.Add(`lb haproxy[1]: 1.2.3.4:5 [05/Mar/2024:10:01:01.000] fe be/<NOSRV> 0/-1/-1/-1/0 503 217 - - SC-- 1/1/0/0/0 0/0 "GET / HTTP/1.1"`)
	f.Fuzz(func(t *testing.T, line string) {
		s := statusOf(line)
		if s.ok() && (s.at+3 > len(line) || atoi3(line[s.at:]) != s.code || s.code < 100 || s.code > 599) {
			t.Fatalf("%q: %+v", line, s)
		}
	})
}

// IIS writes the W3C extended format: its "#Fields:" directive names the
// sc-status column, whose value decides; a keyword in a URL is none.
func TestW3CExtendedStatus(t *testing.T) {
	in := strings.Join([]string{
		"#Software: Microsoft Internet Information Services 10.0",
		"#Version: 1.0",
		"#Date: 2026-11-29 05:44:00",
		"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
		"2026-11-29 05:44:19 10.0.0.5 GET /default.aspx - 443 - 10.0.0.1 Mozilla/5.0+(Windows+NT+10.0) - 200 0 0 15",
		"2026-11-29 05:44:20 10.0.0.5 POST /api/orders - 443 - 10.0.0.2 curl/8.0 - 500 0 0 120",
		"2026-11-29 05:44:21 10.0.0.5 GET /error.aspx aspxerrorpath=/x 443 - 10.0.0.3 curl/8.0 - 200 0 0 3",
		"2026-11-29 05:44:22 10.0.0.5 GET /api/orders - 443 - 10.0.0.4 curl/8.0 - 503 0 64 30001",
		"2026-11-29 05:44:23 10.0.0.5 GET /missing - 443 - 10.0.0.4 curl/8.0 - 404 0 2 1",
	}, "\n")
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{6: {"error", "500"}, 8: {"reliability", "503"}})
}

// Squid's native format writes the status after its result code
// ("TCP_MISS/503") and no quotes: the status decides; "/000" (an aborted
// request) is none, and does not hide a later line's of the same shape.
func TestSquidStatus(t *testing.T) {
	in := strings.Join([]string{
		"1732859062.123    120 10.0.0.1 TCP_MISS/000 0 GET http://example.com/ - HIER_NONE/- -",
		"1732859063.123    120 10.0.0.1 TCP_MISS/200 1234 GET http://example.com/error - HIER_DIRECT/93.184.216.34 text/html",
		"1732859064.123      5 10.0.0.2 TCP_DENIED/403 3456 CONNECT blocked.example.com:443 - HIER_NONE/- text/html",
		"1732859065.123  30001 10.0.0.3 TCP_MISS/504 0 GET http://slow.example.com/ - HIER_DIRECT/1.2.3.4 -",
		"1732859066.123      1 10.0.0.3 TCP_MISS/500 0 GET http://example.com/ - HIER_NONE/- -",
		// Not Squid's: no size and method after the field.
		"1732859067.123 job QUEUE_FULL/500 dropped, retry failed",
	}, "\n")
	res := analyze(t, in, Options{})
	checkMatches(t, res, map[int][2]string{4: {"reliability", "504"}, 5: {"error", "500"}, 6: {"error", "failed"}})
}
