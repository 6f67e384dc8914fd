package logs

import "strings"

// A name made of a word and a number, as interfaces, disks and nodes are
// named (eth0, ens3, wlan0, sda1, node12), says what it names by its
// word and which one by its number. A template shows the word and masks
// the number: "eth<*>: link up", not "<*>: link up"; names of different
// words ("eth0" and "wlan0") share none and show as "<*>".

// numberedName returns the end of the word of a value v that is, within
// its punctuation, a word of at least two lower-case letters then a
// number: one to four digits ("eth0:", "(sda1)"), or digits and letters
// that open and end with a digit, as a bus position ("enp0s3", "nvme0n1");
// 0 for any other value. A quoted value is a value whole ("HTTP2" in
// quotes), and capitals make a name of its own ("HTTP2", "Win32"), not a
// kind and a number; so does a word after the number ("md5sum").
func numberedName(v string) int {
	if v == "" || v[0] == '"' || v[0] == '\'' {
		return 0
	}
	core := trimPunct([]byte(v))
	if len(core) < 3 {
		return 0
	}
	open := strings.Index(v, string(core))
	w := 0
	for w < len(core) && isLetter(core[w]) {
		w++
	}
	d := len(core) - w
	if w < 2 || d < 1 || d > 8 || !isDigit(core[w]) || !isDigit(core[len(core)-1]) || !position(core[w:]) {
		return 0
	}
	if !allLower(core[:w]) {
		return 0
	}
	return open + w
}

// position reports a number of at most four digits, or lower-case
// letters and digits ("0s3", "0n1p3").
func position(t []byte) bool {
	digits := 0
	for _, c := range t {
		switch {
		case isDigit(c):
			digits++
		case !isLower(c):
			return false
		}
	}
	return digits < len(t) || digits <= 4
}

// sharedNameWord returns the text up to the word that every value at
// position p of the members shares as a numbered name ("eth" of "eth0:"
// and "eth1:"), or "": each shape's first value is one, and all its
// values share its word (lcp).
func sharedNameWord(shapes []*shape, members []int32, p int) string {
	word := ""
	for i, si := range members {
		tv := shapes[si].vals[p]
		w := numberedName(tv.val)
		if w == 0 || int(tv.lcp) < w || i > 0 && tv.val[:w] != word {
			return ""
		}
		word = tv.val[:w]
	}
	return word
}

// nameEnd is the punctuation after the number of the numbered name v
// whose word ends at w: ":" of "eth0:", ")" of "(nvme0n1)".
func nameEnd(v string, w int) string {
	for w < len(v) && (isDigit(v[w]) || isLower(v[w])) {
		w++
	}
	return v[w:]
}

// mergeNamed joins clusters that are equal but for two or more places
// where each holds a numbered name or a value ("worker3 started on core2",
// "worker7 started on core1", "worker12 started on core5", whose first
// number is masked): one event about one of many things of each kind,
// which Drain keeps apart (the names lead the line, and two of four words
// differ) and mergeVariants too (it joins at one place). At least one
// other token must be literal, and one name a numbered one.
func mergeNamed(shapes []*shape, clusters []*cluster) []*cluster {
	groups := make(map[string][]int)
	var keys []string
	var key strings.Builder
	for ci, c := range clusters {
		named, values, lits := 0, 0, 0
		for _, t := range c.toks {
			switch _, ok := numberedForm(t); {
			case ok:
				named++
			case t == maskedTok || t == wildTok:
				values++
			case strings.IndexByte(t, wild) < 0:
				lits++
			}
		}
		if named == 0 || named+values < 2 || lits < namedLiterals-1 {
			continue // most clusters: no key built
		}
		key.Reset()
		for _, t := range c.toks {
			if f, ok := numberedForm(t); ok {
				key.WriteString("\x00" + f)
			} else if t == maskedTok || t == wildTok {
				key.WriteString("\x00#")
			} else {
				key.WriteString(t)
			}
			key.WriteByte(sep)
		}
		k := key.String()
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], ci)
	}
	joined := make([]bool, len(clusters))
	var out []*cluster
	for _, k := range keys {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		var members []int32
		for _, ci := range g {
			members = append(members, clusters[ci].members...)
			joined[ci] = true
		}
		out = append(out, newCluster(shapes, members))
	}
	return andTheRest(out, clusters, joined)
}
