package scan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const (
	s3OK = `{"type":"s3_bucket","name":"b","public_read":false,"encrypted":true}`
	dup  = "appears more than once (parsers disagree on which copy counts)"
)

func sg(ingress string) string {
	return `{"type":"security_group","name":"sg","ingress":[` + ingress + `]}`
}

func TestValidationMessages(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"not an object", `[]`, []string{`the document must be a JSON object with a "resources" array, got an array`}},
		{"a number", " 42 \n", []string{`the document must be a JSON object with a "resources" array, got number 42`}},
		{"resources missing", `{"items":[]}`, []string{`resources: is required`}},
		{"resources null", `{"resources":null}`, []string{`resources: must be an array, got null`}},
		{"resources not array", `{"resources":{}}`, []string{`resources: must be an array, got an object`}},
		{"resources twice", `{"resources":[],"resources":[]}`, []string{`resources: ` + dup + " (line 1, column 17)"}},
		{"resource not object", doc(`42`), []string{`resources[0]: must be an object, got number 42`}},
		{"type and name missing", doc(`{}`), []string{`resources[0].type: is required`, `resources[0].name: is required`}},
		{"type null", doc(`{"type":null,"name":"x"}`), []string{`resources[0].type: is required`}},
		{"type not string", doc(`{"type":5,"name":"x"}`), []string{`resources[0].type: must be a string, got number 5`}},
		{"name empty", doc(`{"type":"s3_bucket","name":""}`), []string{`resources[0].name: must not be empty`}},
		{"name missing on skipped type", doc(`{"type":"lambda_function"}`), []string{`resources[0].name: is required`}},
		{"boolean as string", doc(`{"type":"s3_bucket","name":"b","public_read":"true"}`),
			[]string{`resources[0].public_read: must be a boolean, got string "true"`}},
		{"boolean as number", doc(`{"type":"s3_bucket","name":"b","encrypted":1}`),
			[]string{`resources[0].encrypted: must be a boolean, got number 1`}},
		{"boolean as object", doc(`{"type":"database","name":"d","publicly_accessible":{}}`),
			[]string{`resources[0].publicly_accessible: must be a boolean, got an object`}},
		{"long value cut", doc(`{"type":"s3_bucket","name":"b","public_read":"` + strings.Repeat("a", 50) + `"}`),
			[]string{`resources[0].public_read: must be a boolean, got string "` + strings.Repeat("a", 40) + `…"`}},
		{"duplicate field", doc(`{"type":"s3_bucket","name":"b","encrypted":true,"encrypted":false}`),
			[]string{`resources[0].encrypted: ` + dup + " (line 1, column 63)"}},
		{"ingress not array", doc(`{"type":"security_group","name":"sg","ingress":{}}`),
			[]string{`resources[0].ingress: must be an array, got an object`}},
		{"ingress entry not object", doc(sg(`"x"`)), []string{`resources[0].ingress[0]: must be an object, got string "x"`}},
		{"port missing", doc(sg(`{"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: is required for protocol tcp`}},
		{"port missing udp", doc(sg(`{"protocol":"udp","to_port":5,"cidr":"0.0.0.0/0"}`)),
			[]string{`resources[0].ingress[0].port: is required for protocol udp`}},
		{"port as string", doc(sg(`{"port":"22","cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: must be an integer, got string "22"`}},
		{"port fraction", doc(sg(`{"port":22.5,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: must be an integer, got number 22.5`}},
		{"port exponent", doc(sg(`{"port":2e1,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: must be an integer, got number 2e1`}},
		{"port too big", doc(sg(`{"port":70000,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: 70000 is not a port number (0-65535)`}},
		{"port huge", doc(sg(`{"port":123456789012345678901234567890,"cidr":"0.0.0.0/0"}`)),
			[]string{`resources[0].ingress[0].port: 123456789012345678901234567890 is not a port number (0-65535)`}},
		{"port negative", doc(sg(`{"port":-1,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: -1 is not a port number (0-65535)`}},
		{"to_port below port", doc(sg(`{"port":30,"to_port":20,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].to_port: 20 is less than port 30`}},
		{"to_port too big", doc(sg(`{"port":30,"to_port":99999,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].to_port: 99999 is not a port number (0-65535)`}},
		{"to_port not integer", doc(sg(`{"port":30,"to_port":true,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].to_port: must be an integer, got boolean true`}},
		{"cidr invalid", doc(s3OK, s3OK, s3OK, sg(`{"port":22,"cidr":"10.0.0/8"}`)), []string{`resources[3].ingress[0].cidr: "10.0.0/8" is not a CIDR`}},
		{"cidr bare IPv4", doc(sg(`{"port":22,"cidr":"10.0.0.1"}`)),
			[]string{`resources[0].ingress[0].cidr: "10.0.0.1" is not a CIDR: it has no prefix length (write "10.0.0.1/32" for this one address)`}},
		{"cidr bare IPv6", doc(sg(`{"port":22,"cidr":"2001:db8::1"}`)),
			[]string{`resources[0].ingress[0].cidr: "2001:db8::1" is not a CIDR: it has no prefix length (write "2001:db8::1/128" for this one address)`}},
		{"cidr prefix too long", doc(sg(`{"port":22,"cidr":"10.0.0.0/33"}`)), []string{`resources[0].ingress[0].cidr: "10.0.0.0/33" is not a CIDR`}},
		{"cidr missing", doc(sg(`{"port":22}`)), []string{`resources[0].ingress[0].cidr: is required`}},
		{"cidr not string", doc(sg(`{"port":22,"cidr":10}`)), []string{`resources[0].ingress[0].cidr: must be a string, got number 10`}},
		{"protocol unknown", doc(sg(`{"protocol":"sctp","port":22,"cidr":"0.0.0.0/0"}`)),
			[]string{`resources[0].ingress[0].protocol: unknown protocol "sctp" (use tcp, udp, icmp, icmpv6, all or -1)`}},
		{"protocol as number", doc(sg(`{"protocol":-1,"cidr":"0.0.0.0/0"}`)),
			[]string{`resources[0].ingress[0].protocol: must be a string, got number -1`}},
		{"icmp port not integer", doc(sg(`{"protocol":"icmp","port":"echo","cidr":"0.0.0.0/0"}`)),
			[]string{`resources[0].ingress[0].port: must be an integer, got string "echo"`}},
		{"ingress duplicate key", doc(sg(`{"port":22,"port":23,"cidr":"0.0.0.0/0"}`)), []string{`resources[0].ingress[0].port: ` + dup + " (line 1, column 74)"}},
		{"several problems in one entry", doc(sg(`{"port":"x","cidr":"nope"}`)),
			[]string{`resources[0].ingress[0].port: must be an integer, got string "x"`, `resources[0].ingress[0].cidr: "nope" is not a CIDR`}},
		{"actions not array", doc(`{"type":"iam_policy","name":"p","actions":"*"}`),
			[]string{`resources[0].actions: must be an array of strings, got string "*"`}},
		{"action not string", doc(`{"type":"iam_policy","name":"p","actions":["s3:GetObject",5]}`),
			[]string{`resources[0].actions[1]: must be a string, got number 5`}},
		{"policy resource null", doc(`{"type":"iam_policy","name":"p","actions":["s3:GetObject"],"resources":[null]}`),
			[]string{`resources[0].resources[0]: must be a string, got null`}},
		{"suppress not array", doc(`{"type":"s3_bucket","name":"b","suppress":{}}`), []string{`resources[0].suppress: must be an array, got an object`}},
		{"suppress entry not object", doc(`{"type":"s3_bucket","name":"b","suppress":["S3_PUBLIC_READ"]}`),
			[]string{`resources[0].suppress[0]: must be an object, got string "S3_PUBLIC_READ"`}},
		{"suppress without reason", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"S3_PUBLIC_READ"}]}`),
			[]string{`resources[0].suppress[0].reason: is required: say why the finding is accepted`}},
		{"suppress blank reason", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"S3_PUBLIC_READ","reason":"  "}]}`),
			[]string{`resources[0].suppress[0].reason: must not be empty: say why the finding is accepted`}},
		{"suppress reason not string", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"S3_PUBLIC_READ","reason":true}]}`),
			[]string{`resources[0].suppress[0].reason: must be a string, got boolean true`}},
		{"suppress without rule", doc(`{"type":"s3_bucket","name":"b","suppress":[{"reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: is required`}},
		{"suppress unknown rule", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"S3_PUBLIC","reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: unknown rule "S3_PUBLIC"; rules for s3_bucket: S3_PUBLIC_READ, S3_UNENCRYPTED`}},
		{"suppress rule wrong case", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"s3_public_read","reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: unknown rule "s3_public_read" (did you mean "S3_PUBLIC_READ"?)`}},
		{"suppress rule of another type", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"DB_PUBLIC","reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: rule DB_PUBLIC does not apply to s3_bucket resources; rules for s3_bucket: S3_PUBLIC_READ, S3_UNENCRYPTED`}},
		{"suppress unknown rule on skipped type", doc(`{"type":"lambda_function","name":"f","suppress":[{"rule":"X","reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: unknown rule "X"; known rules: S3_PUBLIC_READ, S3_UNENCRYPTED, SG_ALL_PORTS_OPEN, SG_ADMIN_PORT_OPEN, SG_DATA_PORT_OPEN, SG_PORT_OPEN, IAM_FULL_ADMIN, IAM_WILDCARD_ACTION, IAM_SERVICE_WILDCARD, IAM_WILDCARD_RESOURCE, DB_PUBLIC, DB_UNENCRYPTED`}},
		{"suppress duplicate key", doc(`{"type":"s3_bucket","name":"b","suppress":[{"rule":"S3_PUBLIC_READ","rule":"S3_UNENCRYPTED","reason":"ok"}]}`),
			[]string{`resources[0].suppress[0].rule: ` + dup + " (line 1, column 83)"}},
		{"problems in document order", doc(`{"name":"a"}`, `{"type":"s3_bucket","name":"b","public_read":1}`),
			[]string{`resources[0].type: is required`, `resources[1].public_read: must be a boolean, got number 1`}},
		{"escaped key is the same key", doc(`{"type":"s3_bucket","name":"b","encrypted":true,"encr\u0079pted":false}`),
			[]string{`resources[0].encrypted: ` + dup + " (line 1, column 63)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			equalStrings(t, "problems", problemsOf(t, tt.input), tt.want)
		})
	}
}

func TestValidInputsThatLookOdd(t *testing.T) {
	for _, input := range []string{
		doc(),
		// Unknown fields, at any depth, and case variants of known fields.
		doc(`{"type":"s3_bucket","name":"b","Encrypted":"no","tags":{"a":[1,{"b":null}]},"arn":"arn:aws:s3:::b"}`),
		// Fields of other types are ignored, whatever they hold.
		doc(`{"type":"s3_bucket","name":"b","ingress":"garbage","actions":7,"publicly_accessible":"x"}`),
		// null is "not given".
		doc(`{"type":"database","name":"d","publicly_accessible":null,"encrypted":null,"suppress":null}`),
		doc(`{"type":"security_group","name":"sg","ingress":null}`, `{"type":"iam_policy","name":"p","actions":null,"resources":null}`),
		// icmp and all: port fields are not ports, so not range-checked.
		doc(sg(`{"protocol":"icmp","port":-1,"to_port":-1,"cidr":"0.0.0.0/0"},{"protocol":"ALL","port":-1,"cidr":"::/0"},{"protocol":"icmpv6","cidr":"::/0"}`)),
		// Host bits set and IPv4-mapped addresses are still CIDRs.
		doc(sg(`{"port":22,"cidr":"10.1.2.3/8"},{"port":22,"cidr":"::ffff:10.0.0.0/104"}`)),
		// Unsupported type: skipped, its other fields unread.
		doc(`{"type":"lambda_function","name":"f","ingress":"x"}`),
	} {
		if _, err := Scan([]byte(input)); err != nil {
			t.Errorf("Scan(%s): %v", input, err)
		}
	}
}

func TestValidationErrorKeepsAtMost100Problems(t *testing.T) {
	resources := make([]string, 150)
	for k := range resources {
		resources[k] = `{}`
	}
	_, err := Scan([]byte(doc(resources...)))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %v", err)
	}
	if len(ve.Problems) != MaxProblems || ve.Omitted != 200 {
		t.Errorf("kept %d problems, omitted %d; want %d and 200", len(ve.Problems), ve.Omitted, MaxProblems)
	}
	if want := "resources[0].type: is required (and 299 more problems)"; ve.Error() != want {
		t.Errorf("Error() = %q, want %q", ve.Error(), want)
	}
}

func TestValidationErrorMessage(t *testing.T) {
	for n, want := range []string{
		1: `resources[0].type: is required`,
		2: `resources[0].type: is required (and 1 more problem)`,
	} {
		if n == 0 {
			continue
		}
		ve := &ValidationError{}
		for k := 0; k < n; k++ {
			ve.Problems = append(ve.Problems, Problem{Path: fmt.Sprintf("resources[%d].type", k), Message: "is required"})
		}
		if ve.Error() != want {
			t.Errorf("Error() = %q, want %q", ve.Error(), want)
		}
	}
	root := &ValidationError{Problems: []Problem{{Message: "the document must be a JSON object"}}}
	if root.Error() != "the document must be a JSON object" {
		t.Errorf("root problem: %q", root.Error())
	}
}

func TestSkippedResources(t *testing.T) {
	res := mustScan(t, doc(s3OK, `{"type":"lambda_function","name":"thumbnail-resizer"}`, `{"type":"S3_Bucket","name":"typo"}`))
	want := []Skipped{
		{Index: 1, Type: "lambda_function", Name: "thumbnail-resizer",
			Reason: `unsupported resource type "lambda_function"; the scanner checks s3_bucket, security_group, iam_policy and database`},
		{Index: 2, Type: "S3_Bucket", Name: "typo", Reason: `unsupported resource type "S3_Bucket" (did you mean "s3_bucket"?)`},
	}
	if len(res.Skipped) != len(want) {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	for k := range want {
		got := res.Skipped[k]
		if got.Index != want[k].Index || got.Type != want[k].Type || got.Name != want[k].Name || got.Reason != want[k].Reason || got.Line != 1 {
			t.Errorf("skipped[%d] = %+v, want %+v", k, got, want[k])
		}
	}
	if res.Summary.Resources != 3 || res.Summary.Skipped != 2 {
		t.Errorf("summary %+v", res.Summary)
	}
}
