package logs

import "strings"

// keyValues tells whether a key of key=value and key:value tokens ("user=")
// is seen with more than one value anywhere in the input. A template whose
// lines all hold one plain word after a key shows that word ("tty=ssh") only
// when the key never holds another: "user=root" in one template while other
// lines hold "user=git" or "user=ftp" is a user name that happens to be
// constant in that template, a value. Built on first use, from the shapes
// (not the lines), so a log without such a template pays nothing.
type keyValues struct {
	shapes []*shape
	varied map[string]bool // key -> seen with two or more values
}

// varies reports whether key holds more than one value in the input.
func (kv *keyValues) varies(key string) bool {
	if kv.varied == nil {
		kv.build()
	}
	return kv.varied[key]
}

func (kv *keyValues) build() {
	kv.varied = map[string]bool{}
	first := map[string]string{} // key -> the one value seen so far
	for _, sh := range kv.shapes {
		for p, t := range sh.toks {
			k := strings.IndexByte(t, wild)
			if k <= 0 || t[k:] == wildTok || strings.HasPrefix(t[k:], maskMarkerString) {
				continue // a literal, a whole value, or a custom mask's
			}
			key, v := t[:k], sh.vals[p]
			switch seen, ok := first[key]; {
			case int(sh.lcp[p])+int(sh.lcs[p]) < len(v): // differs within the shape
				kv.varied[key] = true
			case !ok:
				first[key] = v
			case seen != v:
				kv.varied[key] = true
			}
		}
	}
}
