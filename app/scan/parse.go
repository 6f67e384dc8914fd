package scan

// parser reads the whole document in one pass: syntax, limits and the
// structure of the resource list, collecting every validation problem.
// Each valid resource of a supported type is handed to visit while no
// problem has been found yet (after a problem the document is rejected
// anyway, so checking further resources would be wasted work).
type parser struct {
	reader
	sub      reader // re-reads the arrays of one resource's fields
	strBuf   []byte // decoded strings of stringAt
	spans    [4]span
	visit    func(*resource)
	res      resource // reused for every resource
	total    int      // elements of "resources"
	foreign  family8  // the format a top-level key other than resources says, if any
	skipped  []Skipped
	reasons  map[string]string // skip reason by unsupported type: exports repeat types
	problems []Problem
	omitted  int
}

// span is where a field's value is in the input; end is 0 when absent.
// plain is set for a string whose raw bytes, between the quotes, are its
// value (no escapes, valid UTF-8).
type span struct {
	start, end int
	plain      bool
}

func (s span) present() bool { return s.end > 0 }

// The fields of a resource the scanner reads. Anything else is ignored:
// real exports carry many more fields.
const (
	fieldType = iota
	fieldName
	fieldPublicRead
	fieldEncrypted
	fieldPubliclyAccessible
	fieldIngress
	fieldActions
	fieldResources
	fieldSuppress
	numFields
)

var fieldNames = [numFields]string{
	"type", "name", "public_read", "encrypted", "publicly_accessible",
	"ingress", "actions", "resources", "suppress",
}

// fieldOf matches keys exactly: unlike encoding/json's struct decoding we
// don't fold case, so "Encrypted" is an unknown field, not "encrypted".
func fieldOf(key []byte) int {
	switch string(key) {
	case "type":
		return fieldType
	case "name":
		return fieldName
	case "public_read":
		return fieldPublicRead
	case "encrypted":
		return fieldEncrypted
	case "publicly_accessible":
		return fieldPubliclyAccessible
	case "ingress":
		return fieldIngress
	case "actions":
		return fieldActions
	case "resources":
		return fieldResources
	case "suppress":
		return fieldSuppress
	}
	return -1
}

// duplicateKey is the message for a key given twice. JSON allows it, but
// parsers disagree on which copy wins, and a scanner that reads a different
// copy than the deploy tool would check the wrong value.
const duplicateKey = "appears more than once (parsers disagree on which copy counts)"

// parse reads data, calling visit for each valid resource of a supported
// type. It returns the number of resources and the skipped ones, or a
// *SyntaxError, *LimitError or *ValidationError.
func parse(data []byte, visit func(*resource)) (total int, skipped []Skipped, err error) {
	p := &parser{reader: reader{data: data}, sub: reader{data: data}, visit: visit}
	defer catchAbort(&err)
	p.document()
	if p.foreign != famOwn {
		return 0, nil, &foreignFormat{p.foreign}
	}
	if len(p.problems) > 0 {
		return 0, nil, &ValidationError{Problems: p.problems, Omitted: p.omitted}
	}
	return p.total, p.skipped, nil
}

func (p *parser) problem(path, message string) {
	if len(p.problems) < MaxProblems {
		p.problems = append(p.problems, Problem{Path: path, Message: message})
	} else {
		p.omitted++
	}
}

func (p *parser) clean() bool { return len(p.problems) == 0 }

func (p *parser) document() {
	p.ws()
	start := p.pos
	if p.valueStart() != '{' {
		p.skip()
		value := p.data[start:p.pos]
		p.endOfInput()
		p.problem("", `the document must be a JSON object with a "resources" array, got `+describe(value))
		return
	}
	p.enter()
	seen := false
	for first := true; ; first = false {
		key, ok := p.objectKey(first)
		if !ok {
			break
		}
		switch {
		case string(key) != "resources":
			if f, _, decides := familyOfKey(string(key)); decides && p.foreign == famOwn {
				p.foreign = f // the first such key decides, as in detectJSON
			}
			p.skip()
		case seen:
			at := p.keyStart
			p.skip()
			p.problem("resources", duplicateKeyAt(p.data, at))
		default:
			seen = true
			p.resources()
		}
	}
	p.endOfInput()
	if !seen {
		p.problem("resources", "is required")
	}
}

func (p *parser) resources() {
	p.ws()
	start := p.pos
	if p.valueStart() != '[' {
		p.skip()
		p.problem("resources", "must be an array, got "+describe(p.data[start:p.pos]))
		return
	}
	p.enter()
	for first := true; p.arrayNext(first); first = false {
		if p.total == MaxResources {
			panic(abort{tooManyResources()})
		}
		p.resource(p.total)
		p.total++
	}
}

// resource reads element i of "resources": it notes where each known field's
// value is, then validates them once the whole object (and so its type) is
// known, whatever the order of its keys.
func (p *parser) resource(i int) {
	p.ws()
	start := p.pos
	if p.valueStart() != '{' {
		p.skip()
		p.problem(resourcePath(i), "must be an object, got "+describe(p.data[start:p.pos]))
		return
	}
	var fields [numFields]span
	p.enter()
	for first := true; ; first = false {
		key, ok := p.objectKey(first)
		if !ok {
			break
		}
		f := fieldOf(key)
		at := p.keyStart
		v := p.value()
		switch {
		case f < 0:
		case fields[f].present():
			p.problem(fieldPath(i, fieldNames[f]), duplicateKeyAt(p.data, at))
		default:
			fields[f] = v
		}
	}
	p.validate(i, start, &fields)
}
