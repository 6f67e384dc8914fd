package logs

// A JSON or logfmt line with no message field (or one of values only)
// may still say what happened in a few fields: an audit or activity event
// names an action, its target and its outcome (a Kubernetes audit event's
// verb, objectRef.resource and responseStatus.code; CloudTrail's
// eventName, eventSource and errorCode; Azure's operationName and
// resultType; ECS's event.action and event.outcome; auditd's type and res,
// in logfmt). Masking every value, as for other JSON, would put all such
// events in one template; they are templated by those fields alone, each
// key with its value ("verb":"get" "resource":"pods" "code":200),
// whatever other fields each line has.

// eventRoles lists the keys, full dotted paths lowercased, and their part:
// an action, which makes the line an event, or a target or outcome.
var eventRoles = map[string]eventRole{
	"verb": eventAction, "action": eventAction, "eventname": eventAction, "operationname": eventAction,
	"event.action": eventAction, "protopayload.methodname": eventAction,
	"objectref.resource": eventTarget, "objectref.subresource": eventTarget, "eventsource": eventTarget,
	"responsestatus.code": eventOutcome, "errorcode": eventOutcome, "event.outcome": eventOutcome,
	"resulttype": eventOutcome,
	// Linux auditd's record type and result ("type=USER_LOGIN …
	// res=failed"), Docker's events' Type and Action.
	"type": eventAction, "res": eventOutcome, "success": eventOutcome,
}

type eventRole uint8

const (
	eventNone eventRole = iota
	eventAction
	eventTarget
	eventOutcome
)

// eventKeyLen marks the lengths of the keys of eventRoles: most keys are
// ruled out by their length, without a look-up.
var eventKeyLen = func() (m [32]bool) {
	for k := range eventRoles {
		m[len(k)] = true
	}
	return m
}()

// maxEventFields bounds the fields an event is templated by.
const maxEventFields = 6

// eventSpans are an event's fields, in the line's order: where the key
// starts and ends (its quotes and colon), where the value does (a string's
// quotes included).
type eventSpans struct {
	n      uint8
	action bool
	f      [maxEventFields][4]int32 // key start, key end, value start, value end
}

// noteEvent records the field of key k (the full dotted path), written at
// s[k0:k1], whose value is s[v0:v1], when it is an event's.
func (sp *structSpans) noteEvent(k []byte, k0, k1, v0, v1 int) {
	if len(k) >= len(eventKeyLen) || !eventKeyLen[len(k)] || sp.ev.n == maxEventFields {
		return
	}
	var low [32]byte
	for i, c := range k {
		if isUpper(c) {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	key := low[:len(k)]
	r := eventRoles[string(key)] // no allocation: a look-up's conversion
	if r == eventNone {
		return
	}
	if string(key) == "responsestatus.code" {
		// The HTTP status of the API call: it decides, as an access
		// line's does (5xx and 429 are matches). It overrides the
		// responseStatus' "status" ("Failure"), which names no code.
		sp.http.stat0, sp.http.stat1, sp.http.audit = int32(v0), int32(v1), true
	}
	sp.ev.action = sp.ev.action || r == eventAction
	sp.ev.f[sp.ev.n] = [4]int32{int32(k0), int32(k1), int32(v0), int32(v1)}
	sp.ev.n++
}

// allMasked reports tokens all of which are values.
func (z *tokenizer) allMasked() bool {
	for _, t := range z.toks {
		if !t.masked {
			return false
		}
	}
	return true
}

// event reports a structured line templated by its event fields: one
// with an action field and no message.
func (sp *structSpans) event() bool { return sp.ok && sp.ev.action && sp.msg1 == sp.msg0 }

// eventTokens pushes an event's fields as tokens, key and value one token,
// none masked: the values are what tells events apart, and as one token a
// field differs whole, so that events of another verb, resource or status
// stay apart (by two tokens, the miner would join them: most agree).
func (z *tokenizer) eventTokens(s []byte) {
	ev := &z.st.ev
	for _, f := range ev.f[:ev.n] {
		z.push(s, int(f[0]), int(f[3]), 0, false, allClasses)
	}
}
