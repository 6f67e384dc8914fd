package scan

import (
	"fmt"
	"strconv"

	"parapet/app/keyset"
)

// A key given twice in an object is an error in every format, as in our
// own (duplicateKey): JSON allows it, but parsers disagree on which copy
// wins, and a scanner that reads another copy than the deploy tool checks
// the wrong value. The API's JSON check refuses such bodies before the
// engine sees them, but not a body sent as YAML, nor a document inside an
// envelope's string, so the engine's reader refuses them itself.

// skipObjectUnique is skip for an object, refusing a repeated key: kept
// apart so that skip, which a plan's unread parts go through, does not
// pay for a keyset.
func (r *reader) skipObjectUnique() {
	r.enter()
	var keys keyset.Set[string]
	for first := true; ; first = false {
		key, ok := r.objectKey(first)
		if !ok {
			return
		}
		if keys.Seen(string(key)) {
			r.duplicateKey()
		}
		r.skip()
	}
}

// duplicateKey aborts the read at the key just read, which its object
// already has: a validation problem with the key's path, line and column.
func (r *reader) duplicateKey() {
	line, col := lineColumn(r.data, r.keyStart)
	panic(abort{validationError([]Problem{{Path: jsonPathAt(r.data, r.keyStart),
		Message: duplicateKey + fmt.Sprintf(" (line %d, column %d)", line, col)}})})
}

// jsonPathAt returns the path of the key starting at offset of a document
// read up to there ("Resources.B.Properties.AccessControl"). It reads the
// document again, only when an error needs the path, rather than every
// read keeping one.
func jsonPathAt(data []byte, offset int) (path string) {
	r := &reader{data: data, maxDepth: MaxDocumentDepth}
	defer func() {
		if e := recover(); e != nil {
			if p, ok := e.(pathFound); ok {
				path = string(p)
				return
			}
			if _, ok := e.(abort); !ok {
				panic(e)
			}
		}
	}()
	r.walkTo(offset, "")
	return ""
}

// pathFound ends walkTo with the path it was looking for.
type pathFound string

// walkTo reads a value at path prefix, panicking with pathFound when it
// meets the key at offset.
func (r *reader) walkTo(offset int, prefix string) {
	switch r.valueStart() {
	case '{':
		r.enter()
		for first := true; ; first = false {
			key, ok := r.objectKey(first)
			if !ok {
				return
			}
			p := string(key)
			if prefix != "" {
				p = prefix + "." + p
			}
			if r.keyStart == offset {
				panic(pathFound(p))
			}
			r.walkTo(offset, p)
		}
	case '[':
		r.enter()
		for i, first := 0, true; r.arrayNext(first); i, first = i+1, false {
			r.walkTo(offset, prefix+"["+strconv.Itoa(i)+"]")
		}
	default:
		r.skip()
	}
}
