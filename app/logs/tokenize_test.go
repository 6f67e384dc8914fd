package logs

import (
	"strings"
	"testing"
)

// masked renders the tokens of a message as the miner sees them: masked
// values as <*> after the part kept.
func masked(line string) string {
	var z tokenizer
	s := []byte(line)
	z.tokenize(s, 0)
	parts := make([]string, len(z.toks))
	for i, t := range z.toks {
		if t.masked {
			parts[i] = line[t.start:t.start+t.keep] + "<*>"
		} else {
			parts[i] = line[t.start:t.end]
		}
	}
	return strings.Join(parts, " ")
}

func TestMasking(t *testing.T) {
	tests := []struct{ kind, in, want string }{
		{"number", "took 42 tries", "took <*> tries"},
		{"negative number", "offset -17 applied", "offset <*> applied"},
		{"hex", "fault at 0x7ffd12ab", "fault at <*>"},
		{"hex word", "digest deadbeefcafe", "digest <*>"},
		{"ipv4 and port", "from 10.0.0.1:5432 closed", "from <*> closed"},
		{"host and port, any top-level domain", "open edge.cdn.example.asia:443 via proxy", "open <*> via proxy"},
		{"ipv6", "from fe80::1ff:fe23:4567:890a closed", "from <*> closed"},
		{"uuid", "order 123e4567-e89b-12d3-a456-426614174000 shipped", "order <*> shipped"},
		{"timestamp", "expires 2024-03-18T09:14:02Z now", "expires <*> now"},
		{"date", "run on 2024-03-18 ok", "run on <*> ok"},
		// A date written over several words is one value.
		{"month and weekday", "since Mon Mar 18", "since <*>"},
		{"ctime date", "connection from 10.0.0.7 at Fri Jun 17 07:07:00 2005", "connection from <*> at <*>"},
		{"date then time", "snapshot taken 2024-03-18 09:14:02.125, next in 6h", "snapshot taken <*> next in <*>"},
		{"RFC 1123 date", "expires Tue, 19 Mar 2024 10:00:00 GMT", "expires <*>"},
		{"Java date", "built on Fri Jun 17 07:07:00 EDT 2005 by cc", "built on <*> by cc"},
		{"day and month", "backup of 17 Jun 2005 kept", "backup of <*> kept"},
		{"numbers are no date", "moved 12 files in 3 04:05 batches", "moved <*> files in <*> <*> batches"},
		{"a month alone", "report for Jun done", "report for <*> done"},
		{"duration ms", "done in 150ms", "done in <*>"},
		{"duration s", "done in 2.5s", "done in <*>"},
		{"size", "wrote 3.2MiB of 10KB", "wrote <*> of <*>"},
		{"path", "open /var/log/app.log failed", "open <*> failed"},
		{"path in call", "chdir(/home/x) failed", "<*> failed"},
		{"windows path", `read C:\data\file.txt`, "read <*>"},
		{"escaped spaces", `nodes:node-[224\ 228\ 232] up`, "nodes:<*> up"},
		{"url", "GET https://api.example.com/v1/users", "GET <*>"},
		{"email", "mail to bob@example.com sent", "mail to <*> sent"},
		{"host name", "resolving db.example.com", "resolving <*>"},
		{"key=value", "login user=bob tries=3", "login user=<*> tries=<*>"},
		{"empty value", "ruser= rhost=db1", "ruser= rhost=<*>"},
		{"key:value", "session sid:0x1f type:create", "session sid:<*> type:create"},
		{"quoted value", `set name="Bob Smith" ok`, "set name=<*> ok"},
		{"quoted word", "added filter 'safety'", "added filter <*>"},
		{"quoted phrase", `ran "rm -rf /tmp/x" now`, "ran <*> now"},
		{"logfmt message", `level=info msg="user logged in" user=bob`, `user logged in`},
		{"logfmt without message", `level=info user=bob took=12ms`, `level=<*> user=<*> took=<*>`},
		{"http request line", `"GET /a/b HTTP/1.1" 200`, `"GET <*> HTTP/1.1" <*>`},
		{"json", `{"level":"warn","msg":"disk almost full","pct":91}`, `disk almost full`},
		{"json without message", `{"level":"warn","pct":91}`, `"level": <*> "pct": <*>`},
		{"versioned name", "open through proxy via SOCKS5 and HTTP2", "open through proxy via SOCKS5 and HTTP2"},
		{"value with unit", "sent 1190 bytes (1.16 KB), lifetime <1 sec", "sent <*> lifetime <*>"},
		{"size restated", "freed 5368709120 bytes (5.00 GiB) in 3 ms", "freed <*> in <*>"},
		{"count in parentheses", "detected 35 exceptions (35591533) total", "detected <*> exceptions <*> total"},
		{"words stay", "user admin logged in", "user admin logged in"},
		{"names with a digit stay", "port 22 ssh2 sha1", "port <*> ssh2 sha1"},
		{"call names stay", "jk2_init() Found child 6725", "jk2_init() Found child <*>"},
		{"protocol versions stay", "upgraded HTTP/1.1 to TLSv1.3 on 443", "upgraded HTTP/1.1 to TLSv1.3 on <*>"},
		{"java class stays", "at org.apache.Foo.bar", "at org.apache.Foo.bar"},
	}
	for _, tt := range tests {
		if got := masked(tt.in); got != tt.want {
			t.Errorf("%s: masked(%q) = %q, want %q", tt.kind, tt.in, got, tt.want)
		}
	}
}

func TestHeaderEnd(t *testing.T) {
	tests := []struct{ format, line, msg string }{
		{"log4j", "2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.MRAppMaster: Created MRAppMaster", "Created MRAppMaster"},
		{"log4j thread with spaces", "2015-10-18 18:01:47,978 WARN [IPC Server handler 4 on 6227] org.a.B: Slow", "Slow"},
		{"hdfs", "081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 terminating", "PacketResponder 1 terminating"},
		{"zookeeper", "2015-07-29 17:41:44,747 - INFO  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:Leader@774] - Notification time out: 3200", "Notification time out: 3200"},
		{"python", "2024-01-02 03:04:05,123 - app.db - ERROR - query failed", "query failed"},
		{"syslog", "Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster", "Invalid user webmaster"},
		{"syslog without pid", "Jun 14 15:16:01 combo kernel: Linux version 2.6.5", "Linux version 2.6.5"},
		{"apache", "[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6", "mod_jk child workerEnv in error state 6"},
		{"bgl", "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected", "instruction cache parity error corrected"},
		{"glog", "I0401 12:00:00.123456    1234 main.go:42] Starting controller", "Starting controller"},
		{"android", "03-17 16:13:38.811  1702  2395 D WindowManager: startAnimation begin", "startAnimation begin"},
		{"zap console", "2023-04-01T12:00:00.123Z\tinfo\tserver/main.go:42\tstarting server", "starting server"},
		{"pipes", "20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579", "onStandStepChanged 3579"},
		{"bracket time and program", "[10.30 16:49:06] chrome.exe - proxy.example.com:5070 open through proxy", "proxy.example.com:5070 open through proxy"},
		{"program with a field", "[10.30 16:49:06] svchost.exe *64 - proxy.example.com:5070 close", "proxy.example.com:5070 close"},
		{"no header", "Connection closed by 10.0.0.1", "Connection closed by 10.0.0.1"},
		{"count after the level", "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO 3 floating point alignment exceptions", "3 floating point alignment exceptions"},
		{"lower-case word after the level", "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS APP FATAL ciod: LOGIN chdir(/p/gb1) failed", "ciod: LOGIN chdir(/p/gb1) failed"},
		{"group with spaces opens the message", "[Sun Dec 04 04:47:44 2005] [error] [client 10.0.0.1] Directory index forbidden", "[client 10.0.0.1] Directory index forbidden"},
		{"padded component column", "2016-09-28 04:30:31, Info                  CBS    SQM: Requesting upload of all unsent reports.", "SQM: Requesting upload of all unsent reports."},
		{"camel-case logger", "17/06/09 20:10:40 INFO SparkContext: Running Spark version 2.1.0", "Running Spark version 2.1.0"},
		{"go log, no anchor: the leading time", "2009/11/10 23:00:00 Starting server: port 80", "Starting server: port 80"},
		{"nginx", `93.180.71.3 - alice [17/May/2015:08:05:32 +0000] "GET /downloads/product_1 HTTP/1.1" 304 0`, `"GET /downloads/product_1 HTTP/1.1" 304 0`},
		{"postgres", "2024-03-18 09:14:07.120 UTC [4242] LOG:  database system is ready", "database system is ready"},
		{"postgres detail", "2024-03-18 09:14:09.774 UTC [4251] DETAIL:  Key (id)=(88122) already exists.", "DETAIL:  Key (id)=(88122) already exists."},
		{"syslog on the wire", "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - 'su root' failed", "'su root' failed"}, // RFC 5424: the header runs to the structured data
		{"spark", "24/01/02 10:00:02 ERROR Executor: Exception in task 4.0", "Exception in task 4.0"},
	}
	for _, tt := range tests {
		line := []byte(tt.line)
		got := strings.TrimLeft(string(line[new(header).end(line):]), " \t")
		if got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.format, got, tt.msg)
		}
	}
}

// Apache's error log glues the APR's error number to the first word of
// its text: "(111)Connection" is the message's word, not a value.
func TestErrnoWord(t *testing.T) {
	in := `[Sun Nov 29 12:00:10.010000 2026] [proxy:error] [pid 2345:tid 140] (111)Connection refused: AH00957: HTTP: attempt to connect to 127.0.0.1:8080 (localhost) failed
[Sun Nov 29 12:00:11.010000 2026] [proxy:error] [pid 2345:tid 141] (111)Connection refused: AH00957: HTTP: attempt to connect to 127.0.0.1:8081 (localhost) failed
[Sun Nov 29 12:00:12.010000 2026] [core:error] [pid 2345:tid 142] (70007)The timeout specified has expired: AH00574: ap_content_length_filter: apr_bucket_read() failed
[Sun Nov 29 12:00:13.010000 2026] [core:notice] [pid 2345:tid 143] AH00094: Command line: '/usr/sbin/apache2'
`
	res := analyze(t, in, Options{})
	want := map[string]bool{
		"(111)Connection refused: AH00957: HTTP: attempt to connect to 127.0.0.1:<*> (localhost) failed":        true,
		"(70007)The timeout specified has expired: AH00574: ap_content_length_filter: apr_bucket_read() failed": true,
	}
	for _, tm := range res.Templates {
		delete(want, tm.Template)
	}
	if len(want) > 0 {
		var got []string
		for _, tm := range res.Templates {
			got = append(got, tm.Template)
		}
		t.Errorf("templates %q lack %v", got, want)
	}
	for _, w := range []string{"(2)No", "(13)Permission", "(104)Connection:"} {
		if !errnoWord([]byte(w)) {
			t.Errorf("%s: no error word", w)
		}
	}
	for _, w := range []string{"(111)", "(1a)Foo", "(12)connection", "(3)Foo2", "(1234567)Foo"} {
		if errnoWord([]byte(w)) {
			t.Errorf("%s: an error word", w)
		}
	}
}
