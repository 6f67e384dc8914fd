// Package keyset tells whether a key of a JSON object (or YAML mapping)
// was seen before in the same object: the one implementation behind the
// HTTP layer's JSON check (httpx) and the scanner engine's reader (scan),
// which both refuse a key given twice. It is a leaf and imports nothing of
// ours.
package keyset

// Few is how many keys a Set keeps in an array before it keeps them in a
// map: most objects have a handful of keys, for which an array costs less
// than hashing, but an object of many thousand keys must not cost their
// square.
const Few = 16

// Key is the text of a key: a string, or bytes (the HTTP check's keys are
// slices of the body, never copied).
type Key interface{ ~string | ~[]byte }

// Set holds the keys of one object read so far; its zero value is empty.
// A key is compared with the others only when its sketch (a bit chosen by
// its length and its ends) is already taken: keys of one object rarely
// share it, so a key costs a few instructions, not a compare with every
// key before it. The keys are kept as given: bytes must not change while
// the Set is in use.
type Set[K Key] struct {
	sketch uint64
	few    [Few]K
	n      int
	set    map[string]struct{}
}

// Seen tells whether key was seen before, and remembers it.
func (s *Set[K]) Seen(key K) bool {
	if s.set != nil {
		if _, dup := s.set[string(key)]; dup {
			return true
		}
		s.set[string(key)] = struct{}{}
		return false
	}
	bit := uint64(1) << (sketch(key) % 64)
	if s.sketch&bit != 0 {
		for _, f := range s.few[:s.n] {
			if string(f) == string(key) {
				return true
			}
		}
	}
	s.sketch |= bit
	if s.n < Few {
		s.few[s.n] = key
		s.n++
		return false
	}
	s.set = make(map[string]struct{}, 2*Few)
	for _, f := range s.few {
		s.set[string(f)] = struct{}{}
	}
	s.set[string(key)] = struct{}{}
	return false
}

// sketch mixes a key's length with its first and last bytes.
func sketch[K Key](key K) uint {
	if len(key) == 0 {
		return 0
	}
	return uint(len(key)) + 7*uint(key[0]) + 13*uint(key[len(key)-1])
}
