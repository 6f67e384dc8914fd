package scan

import (
	"fmt"
	"strconv"
)

// A key given twice in an object is an error in every format, as in our
// own (duplicateKey): JSON allows it, but parsers disagree on which copy
// wins, and a scanner that reads another copy than the deploy tool checks
// the wrong value. The API's JSON check refuses such bodies before the
// engine sees them, but not a body sent as YAML, nor a document inside an
// envelope's string, so the engine's reader refuses them itself.

// keysBeforeSet is how many keys objectKeys keeps in an array before it
// keeps them in a map: most objects have a handful of keys, for which an
// array costs less than hashing, but a template of many thousand resources
// must not cost their square.
const keysBeforeSet = 16

// objectKeys are the keys of one object read so far. A key is compared
// with the others only when its sketch (a bit chosen by its length and
// ends) is already taken: keys of one object rarely share it, so a key
// costs a few instructions, not a compare with every key before it.
type objectKeys struct {
	sketch uint64
	few    [keysBeforeSet]string
	n      int
	set    map[string]struct{}
}

// seen tells whether key was seen before, and remembers it.
func (k *objectKeys) seen(key string) bool {
	if k.set != nil {
		if _, dup := k.set[key]; dup {
			return true
		}
		k.set[key] = struct{}{}
		return false
	}
	bit := uint64(1) << (keySketch(key) % 64)
	if k.sketch&bit != 0 {
		for _, f := range k.few[:k.n] {
			if f == key {
				return true
			}
		}
	}
	k.sketch |= bit
	if k.n < keysBeforeSet {
		k.few[k.n] = key
		k.n++
		return false
	}
	k.set = make(map[string]struct{}, 2*keysBeforeSet)
	for _, f := range k.few {
		k.set[f] = struct{}{}
	}
	k.set[key] = struct{}{}
	return false
}

// keySketch mixes a key's length with its first and last bytes.
func keySketch(key string) uint {
	if key == "" {
		return 0
	}
	return uint(len(key)) + 7*uint(key[0]) + 13*uint(key[len(key)-1])
}

// skipObjectUnique is skip for an object, refusing a repeated key: kept
// apart so that skip, which a plan's unread parts go through, does not
// pay for objectKeys.
func (r *reader) skipObjectUnique() {
	r.enter()
	var keys objectKeys
	for first := true; ; first = false {
		key, ok := r.objectKey(first)
		if !ok {
			return
		}
		if keys.seen(string(key)) {
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
