package logs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Accuracy at scale, on logs made here rather than the six samples: a
// proxy's connection log of 21,000 lines, whose sizes of 1 KiB and more are
// restated in parentheses ("1190 bytes (1.16 KB)", the same event as
// "403 bytes"), whose program names vary and some of whose hosts
// look like header fields. Each line is generated with its event's
// template (variables as <*>, as the corrected labels write them), so the
// four measures can be computed as for the Loghub samples.

// labelledLog is a generated log with, per line, its event's template.
type labelledLog struct {
	text      string
	templates []string
}

func proxyLog(lines int) labelledLog {
	r := rand.New(rand.NewPCG(7, 11))
	progs := []string{"chrome.exe", "firefox.exe", "Dropbox.exe", "svchost.exe", "WeChat.exe", "QQ.exe",
		"git-remote-https.exe", "Skype.exe", "outlook.exe", "OneDrive.exe", "code.exe", "java.exe"}
	hosts := []string{"proxy.cse.cuhk.edu.hk:5070", "www.google.com:443", "clients1.google.com:443", "182.254.114.110:80",
		"mail.qq.com:443", "api.dropboxapi.com:443", "10.0.12.7:8080", "update.microsoft.com:80"}
	kb := func(n int) string { return fmt.Sprintf("%.2f KB", float64(n)/1024) }
	mb := func(n int) string { return fmt.Sprintf("%.2f MB", float64(n)/1048576) }
	life := func() string {
		return []string{"<1 sec", "00:01", "00:02", "01:13", "02:40:11"}[r.IntN(5)]
	}
	var b strings.Builder
	l := labelledLog{}
	for range lines {
		fmt.Fprintf(&b, "[10.30 %02d:%02d:%02d] %s - %s ", r.IntN(24), r.IntN(60), r.IntN(60), progs[r.IntN(len(progs))], hosts[r.IntN(len(hosts))])
		var tmpl string
		switch x := r.IntN(100); {
		case x < 30:
			fmt.Fprintf(&b, "open through proxy proxy.cse.cuhk.edu.hk:5070 HTTPS")
			tmpl = "<*> open through proxy <*> HTTPS"
		case x < 38:
			fmt.Fprintf(&b, "open through proxy proxy.cse.cuhk.edu.hk:5070 SOCKS5")
			tmpl = "<*> open through proxy <*> SOCKS5"
		case x < 60:
			fmt.Fprintf(&b, "close, %d bytes sent, %d bytes received, lifetime %s", r.IntN(1000), r.IntN(1000), life())
			tmpl = "<*> close, <*> sent, <*> received, lifetime <*>"
		case x < 70:
			n := 1024 + r.IntN(100_000)
			fmt.Fprintf(&b, "close, %d bytes (%s) sent, %d bytes received, lifetime %s", n, kb(n), r.IntN(1000), life())
			tmpl = "<*> close, <*> sent, <*> received, lifetime <*>"
		case x < 80:
			n := 1024 + r.IntN(100_000)
			fmt.Fprintf(&b, "close, %d bytes sent, %d bytes (%s) received, lifetime %s", r.IntN(1000), n, kb(n), life())
			tmpl = "<*> close, <*> sent, <*> received, lifetime <*>"
		case x < 88:
			n, m := 1024+r.IntN(100_000), 1<<20+r.IntN(50<<20)
			fmt.Fprintf(&b, "close, %d bytes (%s) sent, %d bytes (%s) received, lifetime %s", n, kb(n), m, mb(m), life())
			tmpl = "<*> close, <*> sent, <*> received, lifetime <*>"
		case x < 94:
			fmt.Fprintf(&b, "error : Could not connect through proxy proxy.cse.cuhk.edu.hk:5070 - Proxy server cannot establish a connection with the target, status code %d", []int{403, 404, 503}[r.IntN(3)])
			tmpl = "<*> error : Could not connect through proxy <*> - Proxy server cannot establish a connection with the target, status code <*>"
		case x < 98:
			fmt.Fprintf(&b, "error : A connection request was canceled before the completion.")
			tmpl = "<*> error : A connection request was canceled before the completion."
		default:
			fmt.Fprintf(&b, "open directly")
			tmpl = "<*> open directly"
		}
		b.WriteByte('\n')
		l.templates = append(l.templates, tmpl)
	}
	l.text = b.String()
	return l
}

// syslogLog is a Linux syslog of several hosts and programs: PAM's
// messages with an optional user= part, users and hosts that vary, ftpd's
// address with its name, or nothing, in parentheses, and the kernel's and daemons' odd
// lines, some rare.
func syslogLog(lines int) labelledLog {
	r := rand.New(rand.NewPCG(3, 5))
	hosts := []string{"combo", "node-2", "web01", "db-primary"}
	users := []string{"root", "cyrus", "news", "test", "guest", "admin", "oracle", "ftp", "mysql", "www-data", "backup", "nobody"}
	ip := func() string {
		return fmt.Sprintf("%d.%d.%d.%d", 1+r.IntN(223), r.IntN(256), r.IntN(256), 1+r.IntN(254))
	}
	rhost := func() string {
		if r.IntN(2) == 0 {
			return ip()
		}
		return fmt.Sprintf("%d-%d-%d-%d.dynamic.example.net", r.IntN(256), r.IntN(256), r.IntN(256), r.IntN(256))
	}
	months := []string{"Jun", "Jul"}
	var b strings.Builder
	l := labelledLog{}
	for range lines {
		fmt.Fprintf(&b, "%s %2d %02d:%02d:%02d %s ", months[r.IntN(2)], 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), hosts[r.IntN(len(hosts))])
		pid := 1000 + r.IntN(30000)
		var tmpl string
		switch x := r.IntN(1000); {
		case x < 300:
			fmt.Fprintf(&b, "sshd(pam_unix)[%d]: authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=%s", pid, rhost())
			tmpl = "authentication failure; logname= uid=<*> euid=<*> tty=NODEVssh ruser= rhost=<*>"
		case x < 450:
			fmt.Fprintf(&b, "sshd(pam_unix)[%d]: authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=%s  user=%s", pid, rhost(), users[r.IntN(len(users))])
			tmpl = "authentication failure; logname= uid=<*> euid=<*> tty=NODEVssh ruser= rhost=<*> user=<*>"
		case x < 550:
			fmt.Fprintf(&b, "sshd(pam_unix)[%d]: check pass; user unknown", pid)
			tmpl = "check pass; user unknown"
		case x < 650:
			fmt.Fprintf(&b, "su(pam_unix)[%d]: session opened for user %s by (uid=0)", pid, users[r.IntN(len(users))])
			tmpl = "session opened for user <*> by (uid=<*>)"
		case x < 750:
			fmt.Fprintf(&b, "su(pam_unix)[%d]: session closed for user %s", pid, users[r.IntN(len(users))])
			tmpl = "session closed for user <*>"
		case x < 850:
			a := ip()
			fmt.Fprintf(&b, "ftpd[%d]: connection from %s (%s) at Fri Jun 17 07:07:00 2005", pid, a, strings.ReplaceAll(a, ".", "-")+".example.net")
			tmpl = "connection from <*> (<*>) at <*>" // a date inside a message: one value
		case x < 900:
			fmt.Fprintf(&b, "ftpd[%d]: connection from %s () at Fri Jun 17 07:07:00 2005", pid, ip())
			// The name is left empty when the address did not resolve: the
			// same event, as Loghub-2.0's corrected Linux labels have it.
			tmpl = "connection from <*> (<*>) at <*>"
		case x < 950:
			fmt.Fprintf(&b, "xinetd[%d]: START: ftp pid=%d from=%s", pid, pid+1, ip())
			tmpl = "START: ftp pid=<*> from=<*>"
		case x < 970:
			fmt.Fprintf(&b, "snmpd[%d]: Received SNMP packet(s) from %s", pid, ip())
			tmpl = "Received SNMP packet(s) from <*>"
		case x < 985:
			fmt.Fprintf(&b, "logrotate: ALERT exited abnormally with [1]")
			tmpl = "ALERT exited abnormally with [<*>]"
		case x < 995:
			fmt.Fprintf(&b, "cups: cupsd shutdown succeeded")
			tmpl = "cupsd shutdown succeeded"
		default:
			fmt.Fprintf(&b, "kernel: Out of Memory: Killed process %d (%s).", pid, []string{"java", "httpd", "mysqld"}[r.IntN(3)])
			tmpl = "Out of Memory: Killed process <*> (<*>)."
		}
		b.WriteByte('\n')
		l.templates = append(l.templates, tmpl)
	}
	l.text = b.String()
	return l
}

// measure analyses the log and computes GA, PA, FGA and FTA against its
// labels, logging the templates that miss with LOGS_PA_DEBUG set.
func (l labelledLog) measure(t *testing.T) measures {
	res, err := Analyze(context.Background(), []byte(l.text), Options{IncludeAssignments: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Assignments) != len(l.templates) {
		t.Fatalf("%d entries analysed, %d labelled", len(res.Assignments), len(l.templates))
	}
	text := func(id int) string { return paForm(res.Templates[id-1].Template) }
	right := 0
	for i, id := range res.Assignments {
		if text(id) == paForm(l.templates[i]) {
			right++
		}
	}
	fga, fta := templateAccuracy(res.Assignments, l.templates, func(id int, truth string) bool { return text(id) == paForm(truth) })
	if testing.Verbose() {
		for _, tp := range res.Templates {
			t.Logf("%6d %s", tp.Count, tp.Template)
		}
	}
	return measures{
		ga:  groupingAccuracy(res.Assignments, l.templates),
		pa:  float64(right) / float64(len(l.templates)),
		fga: fga,
		fta: fta,
	}
}

func TestAccuracyAtScale(t *testing.T) {
	for _, c := range []struct {
		name  string
		log   labelledLog
		floor measures
	}{
		{"proxy, 21,000 lines", proxyLog(21_000), measures{0.99, 0.99, 0.99, 0.99}},
		{"syslog, 24,000 lines", syslogLog(24_000), measures{0.99, 0.99, 0.99, 0.99}},
	} {
		m := c.log.measure(t)
		t.Logf("%-22s GA %.3f PA %.3f FGA %.3f FTA %.3f", c.name, m.ga, m.pa, m.fga, m.fta)
		for _, b := range m.below(c.floor) {
			t.Errorf("%s: %s", c.name, b)
		}
	}
}
