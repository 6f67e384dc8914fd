package logs

import (
	"fmt"
	"strings"
	"testing"
)

// auditEvent is a Kubernetes audit event as the API server writes it, one
// JSON object per line.
func auditEvent(n int, verb, resource, name string, code int, user string) string {
	obj := fmt.Sprintf(`{"resource":%q,"namespace":"default","apiVersion":"v1"}`, resource)
	if name != "" {
		obj = fmt.Sprintf(`{"resource":%q,"namespace":"default","name":%q,"apiVersion":"v1"}`, resource, name)
	}
	status := fmt.Sprintf(`{"metadata":{},"code":%d}`, code)
	if code >= 400 { // the API server adds a Status' fields to a failed call's
		status = fmt.Sprintf(`{"metadata":{},"status":"Failure","reason":"Forbidden","code":%d}`, code)
	}
	return fmt.Sprintf(`{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"5e8a%04d-2c1d-4f5e-9a8b-%012d",`+
		`"stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/%s/%s","verb":%q,"user":{"username":%q,"groups":["system:authenticated"]},`+
		`"sourceIPs":["10.0.0.%d"],"userAgent":"kubectl/v1.29.1","objectRef":%s,"responseStatus":%s,`+
		`"requestReceivedTimestamp":"2026-11-29T05:44:%02d.123456Z","stageTimestamp":"2026-11-29T05:44:%02d.130001Z"}`,
		n, n, resource, name, verb, user, n%250, obj, status, n%60, n%60)
}

// Kubernetes audit events have no message field: they are templated by
// their verb, resource and status, whatever else each holds (a user, a
// name, a uid), and the status code decides as an access line's does: a
// 403's "Failure" is no error of the cluster's.
func TestAuditEventsByVerbResourceStatus(t *testing.T) {
	var lines []string
	for i := range 12 {
		user := []string{"alice@example.com", "system:node:node-1", "system:serviceaccount:kube-system:replicaset-controller"}[i%3]
		lines = append(lines,
			auditEvent(6*i+1, "list", "pods", "", 200, user),
			auditEvent(6*i+2, "get", "pods", fmt.Sprintf("web-%d", i), 200, user),
			auditEvent(6*i+3, "get", "secrets", "db-pass", 403, user),
			auditEvent(6*i+4, "patch", "deployments", "web", 200, user),
			auditEvent(6*i+5, "delete", "pods", fmt.Sprintf("web-%d", i), 404, user))
	}
	lines = append(lines, auditEvent(99, "get", "pods", "web-3", 500, "system:node:node-1"))
	res := analyze(t, strings.Join(lines, "\n"), Options{})
	want := map[string]int{
		`"verb":"list" "resource":"pods" "code":200`:         12,
		`"verb":"get" "resource":"pods" "code":200`:          12,
		`"verb":"get" "resource":"secrets" "code":403`:       12,
		`"verb":"patch" "resource":"deployments" "code":200`: 12,
		`"verb":"delete" "resource":"pods" "code":404`:       12,
		`"verb":"get" "resource":"pods" "code":500`:          1,
	}
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("templates\n got %v\nwant %v", got, want)
	}
	checkMatches(t, res, map[int][2]string{61: {"error", "500"}})
	// Its "level" is how much of the call is recorded, no severity.
	if m, _ := matchAt(res, 61); m.Level != "" {
		t.Errorf("line 61 shows level %q", m.Level)
	}
}

// Other events without a message: CloudTrail's eventName, eventSource and
// errorCode; a JSON line with neither a message nor an action keeps its
// keys for its template.
func TestEventFieldsTemplate(t *testing.T) {
	in := strings.Join([]string{
		`{"eventVersion":"1.08","userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::123456789012:user/alice"},"eventTime":"2026-11-29T05:44:16Z","eventSource":"s3.amazonaws.com","eventName":"GetObject","awsRegion":"us-east-1","sourceIPAddress":"10.0.0.1"}`,
		`{"eventVersion":"1.08","userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::123456789012:user/bob"},"eventTime":"2026-11-29T05:44:17Z","eventSource":"s3.amazonaws.com","eventName":"GetObject","awsRegion":"us-east-1","sourceIPAddress":"10.0.0.2","errorCode":"AccessDenied","errorMessage":"Access Denied"}`,
		`{"eventVersion":"1.08","userIdentity":{"type":"IAMUser","arn":"arn:aws:iam::123456789012:user/alice"},"eventTime":"2026-11-29T05:44:18Z","eventSource":"ec2.amazonaws.com","eventName":"RunInstances","awsRegion":"us-east-1"}`,
		`{"ts":"2026-11-29T05:44:19Z","queue":"mail","depth":12}`,
	}, "\n")
	res := analyze(t, in, Options{})
	for _, want := range []string{
		`"eventSource":"s3.amazonaws.com" "eventName":"GetObject"`,
		`"eventSource":"s3.amazonaws.com" "eventName":"GetObject" "errorCode":"AccessDenied"`,
		`"eventSource":"ec2.amazonaws.com" "eventName":"RunInstances"`,
		`"ts": "<*>" "queue": "<*>" "depth": <*>`,
	} {
		found := false
		for _, tm := range res.Templates {
			found = found || tm.Template == want
		}
		if !found {
			t.Errorf("no template %s", want)
		}
	}
	checkMatches(t, res, map[int][2]string{2: {"error", "denied"}})
}

// Linux auditd writes logfmt whose msg is only the record's time and
// serial, "audit(…):": its records are templated by their type and result
// instead of all in one template.
func TestAuditdRecords(t *testing.T) {
	in := strings.Join([]string{
		`type=SYSCALL msg=audit(1732859056.123:456): arch=c000003e syscall=59 success=yes exit=0 a0=55d5 items=2 ppid=1000 pid=1001 auid=1000 uid=0 comm="sudo" exe="/usr/bin/sudo" key="priv"`,
		`type=SYSCALL msg=audit(1732859056.223:457): arch=c000003e syscall=59 success=yes exit=0 a0=55d7 items=2 ppid=1000 pid=1002 auid=1000 uid=0 comm="su" exe="/usr/bin/su" key="priv"`,
		`type=USER_LOGIN msg=audit(1732859057.123:458): pid=2231 uid=0 auid=1000 ses=3 msg='op=login acct="alice" exe="/usr/sbin/sshd" hostname=? addr=10.0.0.5 terminal=ssh res=failed'`,
		`type=USER_LOGIN msg=audit(1732859058.123:459): pid=2232 uid=0 auid=1000 ses=4 msg='op=login acct="bob" exe="/usr/sbin/sshd" hostname=? addr=10.0.0.6 terminal=ssh res=success'`,
		`type=CRED_DISP msg=audit(1732859059.123:460): pid=2233 uid=0 auid=1000 ses=4 msg='op=PAM:setcred acct="root" exe="/usr/bin/sudo" hostname=? addr=? terminal=/dev/pts/0 res=success'`,
	}, "\n")
	res := analyze(t, in, Options{})
	want := map[string]int{
		"type=SYSCALL success=yes":    2,
		"type=USER_LOGIN res=failed":  1,
		"type=USER_LOGIN res=success": 1,
		"type=CRED_DISP res=success":  1,
	}
	got := map[string]int{}
	for _, tm := range res.Templates {
		got[tm.Template] = tm.Count
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("templates\n got %v\nwant %v", got, want)
	}
	checkMatches(t, res, map[int][2]string{3: {"error", "failed"}})
}
