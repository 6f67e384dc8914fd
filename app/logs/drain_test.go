package logs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// groups analyses lines and returns the template id of each.
func groups(t *testing.T, lines []string) []int {
	t.Helper()
	return analyze(t, strings.Join(lines, "\n"), Options{IncludeAssignments: true}).Assignments
}

func TestMining(t *testing.T) {
	users := func(format string, names ...string) []string {
		var out []string
		for i, n := range names {
			out = append(out, fmt.Sprintf(format, n, i+10))
		}
		return out
	}
	tests := []struct {
		name  string
		lines []string
		want  []int // expected grouping, as template ids in order of first appearance
	}{
		{
			name: "word values join one template",
			lines: users("Failed password for %s from 10.0.0.%d port 22 ssh2",
				"root", "root", "admin", "guest", "root", "oracle"),
			want: []int{1, 1, 1, 1, 1, 1},
		},
		{
			name: "capitalised states stay apart",
			lines: []string{
				"[instance: 1a] VM Paused (Lifecycle Event)",
				"[instance: 2b] VM Resumed (Lifecycle Event)",
				"[instance: 3c] VM Paused (Lifecycle Event)",
				"[instance: 4d] VM Started (Lifecycle Event)",
			},
			want: []int{1, 2, 1, 3},
		},
		{
			name: "a different second word is another template",
			lines: []string{
				"Failed password for invalid user bob from 1.2.3.4 port 22 ssh2",
				"Failed none for invalid user bob from 1.2.3.4 port 22 ssh2",
				"Failed password for invalid user amy from 1.2.3.5 port 23 ssh2",
			},
			want: []int{1, 2, 1},
		},
		{
			name: "a word where others hold a value joins them",
			lines: []string{
				"LOGIN chdir(/home/a) failed: No such file or directory",
				"LOGIN chdir(/home/b) failed: No such file or directory",
				"LOGIN chdir(pwd) failed: No such file or directory",
			},
			want: []int{1, 1, 1},
		},
		{
			name:  "many word values at several places join",
			lines: manyWords(30),
			want:  slices.Repeat([]int{1}, 30),
		},
		{
			name: "an empty bracketed value is the value left blank, not another event",
			lines: []string{
				"accepted connection from 10.0.0.5 (build01.example.org) port 51122",
				"accepted connection from 10.0.0.9 () port 40410",
				"accepted connection from 10.0.3.7 (laptop-7.corp.example.com) port 60001",
				"accepted connection from 10.0.0.11 () port 51200",
			},
			want: []int{1, 1, 1, 1},
		},
		{
			name: "protocol names stay apart, and a size restated in parentheses is the same event",
			lines: []string{
				"proxy.example.com:5070 open through proxy p.example.com:5070 HTTPS",
				"proxy.example.com:5070 open through proxy p.example.com:5070 SOCKS5",
				"proxy.example.com:5070 close, 0 bytes sent, 0 bytes received, lifetime <1 sec",
				"proxy.example.com:5070 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02",
				"proxy.example.com:5070 close, 403 bytes sent, 1671 bytes (1.63 KB) received, lifetime 00:01",
				"proxy.example.com:5070 open through proxy p.example.com:5070 HTTPS",
				"proxy.example.com:5070 close, 9 bytes sent, 2048 bytes (2.00 KB) received, lifetime 00:01",
			},
			want: []int{1, 2, 3, 3, 3, 1, 3},
		},
		{
			name: "a few frequent words at a place are constants",
			lines: append(repeatLines(4, "Block rdd_%d stored as bytes in memory (estimated size 5.2 KB)"),
				repeatLines(4, "Block rdd_%d stored as values in memory (estimated size 5.2 KB)")...),
			want: []int{1, 1, 1, 1, 2, 2, 2, 2},
		},
		{
			name: "a few words with a rare one are values",
			lines: append(append(repeatLines(4, "session %d opened for user cyrus"),
				repeatLines(4, "session %d opened for user news")...), "session 9 opened for user test"),
			want: slices.Repeat([]int{1}, 9),
		},
		{
			name: "a word and its plural are two events",
			lines: []string{
				"Replica db-2 is 1 transaction behind the primary;",
				"Replica db-3 is 14 transactions behind the primary;",
				"Replica db-4 is 1 transaction behind the primary;",
			},
			want: []int{1, 2, 1},
		},
		{
			name: "different keys are different messages",
			lines: []string{
				"[PhoneIntfMgr] getDataEnabled: subId=1 phoneId=1",
				"[PhoneIntfMgr] getDataEnabled: subId=1 retVal=true",
				"[PhoneIntfMgr] getDataEnabled: subId=2 phoneId=2",
			},
			want: []int{1, 2, 1},
		},
		{
			name: "a list ending the message is one value, whatever its length; fixed fields stay apart",
			lines: []string{
				"BLOCK* ask 10.0.0.1:50010 to delete blk_-1 blk_-2",
				"BLOCK* ask 10.0.0.2:50010 to delete blk_-3",
				"BLOCK* ask 10.0.0.3:50010 to delete blk_-4 blk_-5 blk_-6 blk_-7",
				"dropping the connection: 3 4",
				"dropping the connection: 5 6",
			},
			want: []int{1, 1, 1, 2, 2},
		},
		{
			name: "different messages stay apart",
			lines: []string{
				"Starting server on port 8080",
				"Stopping server on port 8080",
				"Starting worker pool with 4 workers",
			},
			want: []int{1, 2, 3},
		},
	}
	for _, tt := range tests {
		got := firstSeen(groups(t, tt.lines))
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: grouping %v, want %v", tt.name, got, tt.want)
		}
	}
}

func manyWords(n int) []string {
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " +
		"november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("Shipping order to %s via %s from %s",
			words[i%len(words)], words[(i*7+3)%len(words)], words[(i*11+5)%len(words)]))
	}
	return out
}

// repeatLines formats n lines, numbered from 1.
func repeatLines(n int, format string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i+1)
	}
	return out
}

// firstSeen renumbers ids by first appearance, so groupings compare.
func firstSeen(ids []int) []int {
	seen := map[int]int{}
	out := make([]int, len(ids))
	for i, id := range ids {
		if _, ok := seen[id]; !ok {
			seen[id] = len(seen) + 1
		}
		out[i] = seen[id]
	}
	return out
}

func TestTemplateDisplay(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"Deleting block blk_-1608 file /data/1", "Deleting block blk_2207 file /data/2"},
			"Deleting block blk_<*> file /data/<*>"},
		{[]string{"Accepted password for root port 22 ssh2", "Accepted password for root port 23 ssh2"},
			"Accepted password for root port <*> ssh2"},
		{[]string{"login user=bob tty=ssh", "login user=amy tty=ssh"}, "login user=<*> tty=ssh"},
		{[]string{"took 150ms", "took 2.5s"}, "took <*>"},
		// A blank value among values shows as the value it stands for.
		{[]string{"client 10.0.0.9 () connected", "client 172.16.4.5 (build01.example.org) connected"},
			"client <*> (<*>) connected"},
		// Typed values are masked even when constant in the sample.
		{[]string{"Accepted password for root from 10.0.0.1 port 22 ssh2", "Accepted password for root from 10.0.0.1 port 22 ssh2"},
			"Accepted password for root from <*> port <*> ssh2"},
		{[]string{"workerEnv.init() ok /etc/httpd/conf/workers2.properties"}, "workerEnv.init() ok <*>"},
		{[]string{"jk2_init() Found child 6725 in scoreboard slot 10"}, "jk2_init() Found child <*> in scoreboard slot <*>"},
		{[]string{"session 0x1f closed (uid=0) at 2024-03-18T09:14:02Z"}, "session <*> closed (uid=<*>) at <*>"},
		{[]string{"request d3b07384-d9a0-4c9f-8f6e-1a2b3c4d5e6f from bob@example.com took 12ms"}, "request <*> from <*> took <*>"},
		{[]string{"upload of 3 MiB to https://s3.example.com/b/k failed"}, "upload of <*> MiB to <*> failed"},
		// No bracket is shown whose partner <*> hides.
		{[]string{"connect to db.internal:5432 from [::1]:40000"}, "connect to <*> from <*>"},
		{[]string{"connect from unknown[10.0.0.5]", "connect from mx.example.com[10.0.0.6]"}, "connect from <*>"},
		{[]string{"(111)connection refused: AH00957", "(111)connection refused: AH00957"}, "<*> refused: AH00957"},
		// But Apache's "(111)Connection" is an error number and its word (see errnoWord).
		{[]string{"(111)Connection refused: AH00957", "(111)Connection refused: AH00957"}, "(111)Connection refused: AH00957"},
		{[]string{"point (a, 2)", "point (a, 3)"}, "point (a, <*>)"},
		{[]string{"GET /users/1234/orders returned"}, "GET <*> returned"},
		{[]string{"Resolved node-7 to /default-rack"}, "Resolved <*> to /default-rack"},
		// A value that opens another is no constant: "/api" is a name
		// alone, one of many paths beside "/api/v2".
		{[]string{`request: "GET /api HTTP/1.1", host: "a"`, `request: "GET /api/v2 HTTP/1.1", host: "a"`},
			`request: "GET /api<*> HTTP/1.1", host: "<*>"`},
		// A capital and one digit names a level or a class.
		{[]string{"Corrected ECC error in L2 cache, bank 3", "Corrected ECC error in L2 cache, bank 5"},
			"Corrected ECC error in L2 cache, bank <*>"},
		// "n/a" stands where a value is missing: a value.
		{[]string{"Backup finished: snapshot:n/a reason:quota", "Backup finished: snapshot:n/a reason:quota"},
			"Backup finished: snapshot:<*> reason:quota"},
		// A path of several segments is a place, a value even when constant.
		{[]string{"autoindex: directory listing denied for /usr/share/nginx/html/", "autoindex: directory listing denied for /usr/share/nginx/html/"},
			"autoindex: directory listing denied for <*>"},
		// A literal stands where a value stands: true, false, null are values.
		{[]string{"cache warm: enabled=true evicted=null", "cache warm: enabled=true evicted=null"},
			"cache warm: enabled=<*> evicted=<*>"},
		// Values beyond ASCII share no part of a character: "ñ" and "Ü"
		// open with the same byte.
		{[]string{"batch ñ00 done", "batch Ü00 done"}, "batch <*> done"},
		{[]string{"order Ö-1 by user=Jürgen3 ok", "order Ö-2 by user=Jörg4 ok"}, "order Ö-<*> by user=<*> ok"},
		// A decimal number and a UUID are shown whole, not by what their
		// values share ("<*>.5", "<*>-2222-…"); a dotted address keeps the
		// subnet its values share.
		{[]string{"total 10.5 s", "total 11.5 s"}, "total <*> s"},
		{[]string{"load (0.25)", "load (1.25)"}, "load (<*>)"},
		{[]string{"took 1.5s", "took 2.5s"}, "took <*>"},
		{[]string{"request 4a1b2c3d-1111-2222-3333-444455556666 done", "request 5b1b2c3d-9999-2222-3333-444455556666 done"},
			"request <*> done"},
		{[]string{"pod web_default(4a1b2c3d-1111-2222-3333-444455556666) ok", "pod web_default(5b1b2c3d-1111-2222-3333-444455556666) ok"},
			"pod web_default(<*>) ok"},
		{[]string{"from 10.0.0.5 ok", "from 10.0.0.6 ok"}, "from 10.0.0.<*> ok"},
		// No value is cut inside its word: "384.0 B," and "2.1 KB," share
		// "," only, not "B,".
		{[]string{"Block broadcast_0 stored as values in memory (estimated size 384.0 B, free 317.5 KB)",
			"Block broadcast_1 stored as values in memory (estimated size 2.1 KB, free 315.4 KB)"},
			"Block broadcast_<*> stored as values in memory (estimated size <*>, free <*> KB)"},
		// Times are shown whole, not by the seconds or the month they share.
		{[]string{"job ran at 10:15:32 done", "job ran at 11:20:32 done"}, "job ran at <*> done"},
		{[]string{"lease until 2026-09-22T04:55:32Z ok", "lease until 2026-09-23T01:15:32Z ok"}, "lease until <*> ok"},
		// A width in bits names an architecture, a type or an encoding,
		// after a name too: "gpg:amd64" is no key and value.
		{[]string{"configure gpg:amd64 2.2.40-1.1 <none>", "configure gpg:amd64 2.2.40-1.1 <none>"},
			"configure gpg:amd64 <*> <none>"},
		{[]string{"pulled image for arm64, digest sha256 verified in 3 s", "pulled image for arm64, digest sha256 verified in 5 s"},
			"pulled image for arm64, digest sha256 verified in <*> s"},
		{[]string{"kernel for (amd64) loaded", "kernel for (amd64) loaded"}, "kernel for (amd64) loaded"},
		// A key's value is a value, a name with a digit or not.
		{[]string{"joined host:node1 ok", "joined host:node1 ok"}, "joined host:<*> ok"},
		// An acronym and a part with digits is a name; an id after a
		// hyphen is a value.
		{[]string{"BIOS-e820: 0000000000000000 - 000000000009f800 (usable)", "BIOS-e820: 000000000009f800 - 00000000000a0000 (usable)"},
			"BIOS-e820: <*> - <*> (usable)"},
		{[]string{"patched CVE-2021-44228 today", "patched CVE-2021-45046 today"}, "patched CVE-2021-<*> today"},
		// A versioned name and a word is a name: the kernel's driver.
		{[]string{"EXT4-fs (sda1): re-mounted. Opts: errors=remount-ro", "EXT4-fs (sdb2): re-mounted. Opts: errors=remount-ro"},
			"EXT4-fs (<*>): re-mounted. Opts: errors=remount-ro"},
		// Dotted configuration keys are no host names, whatever their
		// last word; a host under a country's domain is.
		{[]string{"mapred.task.id is deprecated. Instead, use mapreduce.task.attempt.id",
			"mapred.task.id is deprecated. Instead, use mapreduce.task.attempt.id"},
			"mapred.task.id is deprecated. Instead, use mapreduce.task.attempt.id"},
		{[]string{"session.timeout.ms = 10000", "session.timeout.ms = 45000"}, "session.timeout.ms = <*>"},
		{[]string{"relay to mail.example.de refused", "relay to mx.example.co.uk refused"}, "relay to <*> refused"},
		// Code's own names are words, digits or not: a call, a name
		// scoped with "::".
		{[]string{"IO80211AWDLPeerManager::setAwdlSuspendedMode() Suspending AWDL, enterQuietMode(true)",
			"IO80211AWDLPeerManager::setAwdlSuspendedMode() Suspending AWDL, enterQuietMode(true)"},
			"IO80211AWDLPeerManager::setAwdlSuspendedMode() Suspending AWDL, enterQuietMode(true)"},
		{[]string{"ARPT: 620701.011328: AirPort_Brcm43xx::syncPowerState: WWEN[enabled]",
			"ARPT: 620702.011328: AirPort_Brcm43xx::syncPowerState: WWEN[enabled]"},
			"ARPT: <*>: AirPort_Brcm43xx::syncPowerState: WWEN[enabled]"},
		// A quoted string is a value, whatever it holds.
		{[]string{`retrying with "HTTP2" and "a::b" now`, `retrying with "HTTP2" and "a::b" now`}, `retrying with "<*>" and "<*>" now`},
		// A bracketed value before its unit keeps its bracket, seen once
		// as many times (Tomcat's startup line).
		{[]string{"Server startup in [1234] milliseconds"}, "Server startup in [<*>] milliseconds"},
		// A value's own closing bracket is the value's, not left behind.
		{[]string{"task taskID[2019352994] dealloc", "task taskID[2019352994] dealloc"}, "task <*> dealloc"},
		// A quoted request line keeps the punctuation after its quote.
		{[]string{`upstream timed out, request: "GET /api/v1/users HTTP/1.1", host: "example.com"`,
			`upstream timed out, request: "GET /api/v1/orders HTTP/1.1", host: "example.com"`},
			`upstream timed out, request: "GET /api/v1/<*> HTTP/1.1", host: "<*>"`},
		{[]string{"using v1.2.3 now", "using v1.2.4 now"}, "using v1.2.<*> now"},
	}
	for _, tt := range tests {
		res := analyze(t, strings.Join(tt.lines, "\n"), Options{})
		if len(res.Templates) != 1 || res.Templates[0].Template != tt.want {
			t.Errorf("%q: templates %+v, want one %q", tt.lines, res.Templates, tt.want)
		}
	}
}

// A word that names what a line is about (a package, a unit, a queue) is
// a value when many of them fill one place, even where the prefix buckets
// keep each apart: one action is one template, whatever the names.
func TestManyNamesAtOnePlaceAreOneTemplate(t *testing.T) {
	names := []string{"gpg", "curl", "dirmngr", "gpgsm", "git", "openssl", "perl", "less", "dbus", "systemd", "tzdata", "gnupg"}
	lines := func(format string) []string {
		var out []string
		for i, n := range names {
			out = append(out, fmt.Sprintf(format, n, i+1))
		}
		return out
	}
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		// dpkg: one literal word, then the package and its versions.
		{"dpkg upgrades", append(lines("upgrade %s:amd64 2.%d 2.%[2]d+b1"), "upgrade libssl3:amd64 3.0.1 3.0.2"),
			"upgrade <*>:amd64 <*> <*>"},
		// An architecture that reads as a value after the name: a key and
		// its value, but a different key on every line.
		{"multiarch packages", append(lines("configure %s:i386 1.%d-1 <none>"), "configure libc6:i386 2.36-9 <none>"),
			"configure <*>:i386 <*> <none>"},
		{"systemd units", append(lines("Started %s.service - unit %d."), "Started 2fa.service - unit 0."),
			"Started <*>.service - unit <*>."},
	}
	for _, tt := range tests {
		res := analyze(t, strings.Join(tt.lines, "\n"), Options{})
		var got []string // count and text, to show a split
		for _, tp := range res.Templates {
			got = append(got, fmt.Sprintf("%d %s", tp.Count, tp.Template))
		}
		if len(res.Templates) != 1 || res.Templates[0].Template != tt.want {
			t.Errorf("%s: templates %q, want one %q", tt.name, got, tt.want)
		}
	}
}

// A device or worker named with a number among the message's first
// words (the kernel's "eth0:", "XFS (sdb1):", a pool's "worker-3"), or a
// systemd unit ("nginx.service:") is one of many: lines that differ only
// there are one event, though Drain buckets them by their first words. A
// word without a number or an extension stays apart, and so does a unit
// of another kind. Names of one word and several numbers show the word
// ("eth<*>:"); names of several words show none; one name is kept.
func TestNumberedNamesAreOneTemplate(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"network devices", []string{
			"eth0: link up, 1000Mbps, full-duplex, lpa 0xC1E1",
			"eth1: link up, 100Mbps, full-duplex, lpa 0x45E1",
			"eth2: link up, 1000Mbps, full-duplex, lpa 0xC5E1",
		}, []string{"eth<*>: link up, <*>, full-duplex, lpa <*>"}},
		{"network devices of several kinds", []string{
			"eth0: link up, 1000Mbps, full-duplex, lpa 0xC1E1",
			"ens3: link up, 100Mbps, full-duplex, lpa 0x45E1",
			"wlan0: link up, 1000Mbps, full-duplex, lpa 0xC5E1",
		}, []string{"<*>: link up, <*>, full-duplex, lpa <*>"}},
		{"network devices named by their bus position", []string{
			"enp0s3: link up, 1000Mbps, full-duplex, lpa 0xC1E1",
			"enp0s8: link up, 100Mbps, full-duplex, lpa 0x45E1",
			"enp2s0: link up, 1000Mbps, full-duplex, lpa 0xC5E1",
		}, []string{"enp<*>: link up, <*>, full-duplex, lpa <*>"}},
		{"one network device: its name is kept", []string{
			"wlan0: authenticate with 00:11:22:33:44:55",
			"wlan0: authenticate with 00:11:22:33:44:66",
		}, []string{"wlan0: authenticate with <*>"}},
		{"devices of one kind in parentheses", []string{
			"NetworkManager device (eth0): state change: activated -> deactivating",
			"NetworkManager device (eth1): state change: activated -> deactivating",
		}, []string{"NetworkManager device (eth<*>): state change: activated -> deactivating"}},
		{"disks", []string{
			"sda: detected capacity change from 0 to 209715200",
			"sdb: detected capacity change from 0 to 419430400",
			"nvme0n1: detected capacity change from 0 to 1000204886016",
			"nvme1n1: detected capacity change from 0 to 500107862016",
		}, []string{"<*>: detected capacity change from <*> to <*>"}},
		{"workers", []string{
			"worker-1 picked up job 8812 from queue default",
			"worker-12 picked up job 8813 from queue default",
			"worker-3 picked up job 8814 from queue mail",
		}, []string{"worker-<*> picked up job <*> from queue <*>"}},
		{"devices in parentheses", []string{
			"XFS (sdb1): Mounting V5 Filesystem",
			"XFS (sdc1): Mounting V5 Filesystem",
			"XFS (nvme0n1p3): Mounting V5 Filesystem",
		}, []string{"XFS (<*>): Mounting V5 Filesystem"}},
		{"systemd units", []string{
			"nginx.service: Deactivated successfully.",
			"cron.service: Deactivated successfully.",
			"apt-daily.service: Deactivated successfully.",
			"logrotate.timer: Deactivated successfully.",
		}, []string{"<*>.service: Deactivated successfully.", "logrotate.timer: Deactivated successfully."}},
		{"a short message about one of many", []string{
			"closing bsddb1",
			"closing bsddb2",
			"closing bsddb3",
		}, []string{"closing bsddb<*>"}},
		{"a short message, one name's number masked", []string{
			"bsddb1 opened",
			"bsddb2 opened",
			"bsddb15 opened",
		}, []string{"bsddb<*> opened"}},
		{"two names, one number masked", []string{
			"worker3 started on core2",
			"worker12 started on core5",
			"worker7 started on core1",
		}, []string{"worker<*> started on core<*>"}},
		{"names without a number or a dot", []string{
			"nginx: Deactivated successfully.",
			"cron: Deactivated successfully.",
		}, []string{"nginx: Deactivated successfully.", "cron: Deactivated successfully."}},
		{"a word without a number", []string{
			"eth0: link up, 1000Mbps, full-duplex, lpa 0xC1E1",
			"bond0: link up, 100Mbps, full-duplex, lpa 0x45E1",
			"lo: link up, 1000Mbps, full-duplex, lpa 0xC5E1",
		}, []string{"<*>: link up, <*>, full-duplex, lpa <*>", "lo: link up, <*>, full-duplex, lpa <*>"}},
	}
	for _, tt := range tests {
		res := analyze(t, strings.Join(tt.lines, "\n"), Options{})
		var got []string
		for _, tp := range res.Templates {
			got = append(got, tp.Template)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: templates %q, want %q", tt.name, got, tt.want)
		}
	}
}
