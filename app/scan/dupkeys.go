package scan

import (
	"fmt"
	"strconv"

	"parapet/app/keyset"
)

// A key given twice in an object is an error in every format, as in our
// own (duplicateKey): JSON allows it, but parsers disagree on which copy
// wins, and a scanner that reads another copy than the deploy tool checks
// the wrong value. The engine refuses them however the document comes
// (JSON, YAML, a string in an envelope), and names every one (up to
// MaxDuplicateKeys) with its path, line and column, so the scanner's API
// leaves them to it rather than to the HTTP layer's JSON check, which
// names only the first.

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
			r.duplicateKey(r.keyStart)
		}
		r.skip()
	}
}

// MaxDuplicateKeys is how many repeated keys a document's error lists,
// each with its path, line and column; the others are counted (Omitted).
// A document with one repeated key often has more (a block pasted twice),
// and listing them all lets a person fix them in one round trip.
const MaxDuplicateKeys = 20

// dupKeys collects the repeated keys of a document as it is read.
type dupKeys struct {
	problems []Problem
	more     int // repeated keys beyond MaxDuplicateKeys
}

// add notes a repeated key; problem is called only for the ones listed.
func (d *dupKeys) add(problem func() Problem) {
	if len(d.problems) >= MaxDuplicateKeys {
		d.more++
		return
	}
	d.problems = append(d.problems, problem())
}

// err is the document's error, nil when no key was repeated.
func (d *dupKeys) err() error {
	if len(d.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: d.problems, Omitted: d.more}
}

// duplicateKey notes the key at offset at, which its object already has,
// with its path, line and column; the read goes on, so that every
// repeated key is reported (readDocument).
func (r *reader) duplicateKey(at int) {
	r.dups.add(func() Problem {
		return Problem{Path: jsonPathAt(r.data, at), Message: duplicateKeyAt(r.data, at)}
	})
}

// duplicateKeyAt is the message for the repeated key at offset at of
// data, with its line and column.
func duplicateKeyAt(data []byte, at int) string {
	line, col := lineColumn(data, at)
	return duplicateKey + fmt.Sprintf(" (line %d, column %d)", line, col)
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
