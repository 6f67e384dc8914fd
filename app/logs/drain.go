package logs

import (
	"context"
	"slices"
	"strings"
)

// Templates are mined from shapes in the manner of Drain (He et al., ICWS
// 2017): shapes are bucketed by token count and first two tokens, and a shape
// joins the most similar cluster of its bucket when enough of their literal
// tokens agree; the positions where they differ become wildcards. Unlike
// Drain, shapes are visited most frequent first (so a template grows from its
// common form rather than from whichever line came first) and the similarity
// ignores positions masked in both. Passes follow: splitConstants splits
// clusters at positions that hold capitalised constants rather than values
// (states such as RUNNING/FAILED, verbs such as Paused/Resumed), then
// mergeVariables, mergeVariants, mergeNamed and mergeLists join clusters
// that differ only where values stand (many distinct words, a single
// position one already holds a value at, numbered names, a list's length).

const (
	// simThreshold is the share of compared tokens that must agree.
	simThreshold = 0.7
	// prefixTokens is how many leading tokens a bucket shares: a template
	// seldom starts with a value that has no digits.
	prefixTokens = 2
	// maxCandidates bounds the clusters compared per shape, so that a bucket
	// of thousands of unrelated shapes stays linear.
	maxCandidates = 64
)

type cluster struct {
	toks    []string // template tokens; wildTok where members differ
	members []int32  // shape indices
	count   int      // lines
}

// maskedTok is a token masked whole; wildTok marks a template position where
// members differ. No literal token equals either: a token holds at most one
// wild byte, after its kept prefix.
const (
	maskedTok = "\xff"
	wildTok   = "\xff\xff"
)

type bucketKey struct {
	n     int
	first string
}

// mine groups the shapes into clusters.
func mine(ctx context.Context, shapes []*shape) ([]*cluster, error) {
	order := make([]int32, len(shapes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return shapes[b].count - shapes[a].count
	})
	var clusters []*cluster
	buckets := make(map[bucketKey][]int32)
	for n, si := range order {
		if n%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		sh := shapes[si]
		bk := bucketOf(sh.toks)
		best, bestSim := -1, simThreshold
		cands := buckets[bk]
		for _, ci := range cands[:min(len(cands), maxCandidates)] {
			if s := similarity(clusters[ci].toks, sh.toks); s >= bestSim && (best < 0 || s > bestSim) {
				best, bestSim = int(ci), s
			}
		}
		if best >= 0 {
			clusters[best].add(sh, si)
			continue
		}
		buckets[bk] = append(buckets[bk], int32(len(clusters)))
		clusters = append(clusters, newCluster(shapes, []int32{si}))
	}
	var out []*cluster
	for _, c := range clusters {
		out = splitConstants(shapes, c, out)
	}
	return mergeLists(shapes, mergeNamed(shapes, mergeVariants(shapes, mergeVariables(shapes, out)))), nil
}

// mergeLists merges clusters that agree up to a run of values ending
// them and differ only in that run's length: the run is a list ("BLOCK*
// ask <*> to delete blk_1 blk_2 …"), whose length varies from line to
// line of one event. The merged template ends in one value where the
// lists begin. At least two literal tokens must come before the run, so
// that short templates of values alone do not merge by accident.
func mergeLists(shapes []*shape, clusters []*cluster) []*cluster {
	type group struct {
		idx     []int
		lengths map[int]bool
		prefix  int
	}
	groups := map[string]*group{}
	var keys []string
	for ci, c := range clusters {
		k := len(c.toks)
		for k > 0 && (c.toks[k-1] == maskedTok || c.toks[k-1] == wildTok) {
			k--
		}
		if k == len(c.toks) || literals(c.toks[:k]) < 2 {
			continue
		}
		key := strings.Join(c.toks[:k], string([]byte{sep}))
		g := groups[key]
		if g == nil {
			g = &group{lengths: map[int]bool{}, prefix: k}
			groups[key] = g
			keys = append(keys, key)
		}
		g.idx = append(g.idx, ci)
		g.lengths[len(c.toks)-k] = true
	}
	merged := make([]bool, len(clusters))
	var out []*cluster
	for _, key := range keys {
		g := groups[key]
		if len(g.lengths) < 2 {
			continue
		}
		c := &cluster{toks: append(slices.Clone(clusters[g.idx[0]].toks[:g.prefix]), wildTok)}
		for _, ci := range g.idx {
			c.members = append(c.members, clusters[ci].members...)
			c.count += clusters[ci].count
			merged[ci] = true
		}
		out = append(out, c)
	}
	return andTheRest(out, clusters, merged)
}

// andTheRest is the clusters a merge made (out) followed by those it left
// (not in merged), or clusters unchanged when it made none.
func andTheRest(out, clusters []*cluster, merged []bool) []*cluster {
	if len(out) == 0 {
		return clusters
	}
	for ci, c := range clusters {
		if !merged[ci] {
			out = append(out, c)
		}
	}
	return out
}

// A wildcard position holding at most fewMaxWords distinct words, each on
// at least fewMinLines lines and 1/fewMinShare of the cluster's, holds
// constants: splitConstants splits the cluster there.
const (
	fewMaxWords = 3
	fewMinLines = 3
	fewMinShare = 10
)

// minDistinct is how many distinct words a position must hold, across the
// clusters of a bucket, to be taken for a value by mergeVariables.
const minDistinct = 10

// mergeVariables merges the clusters of a bucket (same length and first
// tokens) that differ only at positions holding many distinct words: at
// least minDistinct, in at least half of the bucket's clusters. Drain's
// similarity cannot join lines whose template has several word values
// ("user alice logged in from laptop"); their variety shows that they are
// values.
func mergeVariables(shapes []*shape, clusters []*cluster) []*cluster {
	buckets := make(map[bucketKey][]int)
	for ci, c := range clusters {
		k := bucketOf(c.toks)
		buckets[k] = append(buckets[k], ci)
	}
	var out []*cluster
	merged := make([]bool, len(clusters))
	for _, g := range buckets {
		if len(g) < minDistinct {
			continue
		}
		n := len(clusters[g[0]].toks)
		variable := make([]bool, n)
		any := false
		for p := prefixTokens; p < n; p++ {
			distinct := make(map[string]struct{})
			for _, ci := range g {
				distinct[clusters[ci].toks[p]] = struct{}{}
			}
			variable[p] = len(distinct) >= minDistinct && 2*len(distinct) >= len(g)
			any = any || variable[p]
		}
		if !any {
			continue
		}
		groups := make(map[string][]int32)
		var keys []string
		for _, ci := range g {
			c := clusters[ci]
			var b strings.Builder
			for p, t := range c.toks {
				if !variable[p] {
					b.WriteString(t)
					b.WriteByte(sep)
				}
			}
			k := b.String()
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], c.members...)
			merged[ci] = true
		}
		for _, k := range keys {
			out = append(out, newCluster(shapes, groups[k]))
		}
	}
	return andTheRest(out, clusters, merged)
}

// bucketOf is the Drain bucket of a token sequence.
func bucketOf(toks []string) bucketKey {
	first := toks[:min(len(toks), prefixTokens)]
	size := len(first)
	for _, t := range first {
		size += len(t)
	}
	var b strings.Builder // one allocation, not one per token
	b.Grow(size)
	for _, t := range first {
		b.WriteString(t)
		b.WriteByte(sep)
	}
	return bucketKey{n: len(toks), first: b.String()}
}

// mergeVariants merges clusters of equal length that differ in exactly one
// position when one of them holds a value there (a masked token or a
// wildcard) and the rest has at least two literal tokens: the others' words
// at that position are then values too, even when the prefix buckets or the
// similarity kept them apart ("LOGIN chdir(pwd) failed" and "LOGIN
// chdir(/home/x) failed"). Capitalised words stay apart. So do partly
// masked tokens (a different key, "uid=<*>" and "pid=<*>") and templates
// of one literal token, unless at least minDistinct clusters join the same
// value there: then the words are a value's many values ("upgrade gpg:<*>
// <*> <*>", "upgrade curl:<*> <*> <*>", … beside "upgrade <*> <*> <*>").
func mergeVariants(shapes []*shape, clusters []*cluster) []*cluster {
	// A slot is a template with one position left out, by hash; only slots
	// where some cluster holds a value are kept.
	type slot struct {
		n, p int
		h    uint64
	}
	slotsOf := func(c *cluster, visit func(slot)) {
		n := len(c.toks)
		suf := make([]uint64, n+1) // hash of toks[i:]
		for i := n - 1; i >= 0; i-- {
			suf[i] = mixHash(suf[i+1], c.toks[i])
		}
		var pre uint64 // hash of toks[:p]
		for p, t := range c.toks {
			visit(slot{n, p, pre*0x9e3779b97f4a7c15 ^ suf[p+1]})
			pre = mixHash(pre, t)
		}
	}
	anchors := make(map[slot]int) // slot -> a cluster holding a value there
	// A lower-case name with a number ("eth0:", "(sda1):", "worker-3")
	// or a dotted one ("nginx.service:") where otherwise equal templates
	// hold another such name names one of many devices, workers or units,
	// a value, which the prefix buckets keep apart when it leads the
	// line: such clusters join, if enough other tokens are literal (see
	// numberedForm).
	type numberedSlot struct {
		k    slot
		form string
	}
	numbered := make(map[numberedSlot]int) // -> the first cluster with that name there
	for ci, c := range clusters {
		lits := literals(c.toks)
		if lits < 1 {
			continue // no shared context to call it one template
		}
		slotsOf(c, func(k slot) {
			t := c.toks[k.p]
			if t == maskedTok || t == wildTok {
				if _, ok := anchors[k]; !ok {
					anchors[k] = ci
				}
			} else if f, ok := numberedForm(t); ok && lits >= namedLiterals {
				if _, ok := numbered[numberedSlot{k, f}]; !ok {
					numbered[numberedSlot{k, f}] = ci
				}
			}
		})
	}
	if len(anchors) == 0 && len(numbered) == 0 {
		return clusters
	}
	parent := make([]int, len(clusters))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// A join is sure when the anchor has two literal tokens and the word
	// is no key; otherwise it holds once minDistinct such joins share its
	// slot.
	type join struct {
		ci, a int
		k     slot
		sure  bool
	}
	var joins []join
	weak := make(map[slot]int) // slot -> joins not sure
	for ci, c := range clusters {
		slotsOf(c, func(k slot) {
			t := c.toks[k.p]
			if f, ok := numberedForm(t); ok {
				if a, ok := numbered[numberedSlot{k, f}]; ok && a != ci && literals(c.toks) >= namedLiterals && sameExcept(c.toks, clusters[a].toks, k.p) {
					joins = append(joins, join{ci, a, k, true})
					return
				}
			}
			a, ok := anchors[k]
			if !ok || a == ci || constantWord(t) || !sameExcept(c.toks, clusters[a].toks, k.p) {
				return
			}
			sure := !partlyMasked(t) && literals(clusters[a].toks) >= 2
			if _, ok := numberedForm(t); ok && literals(clusters[a].toks)+1 >= namedLiterals {
				sure = true // "bsddb1 opened" beside "bsddb15 opened", whose number is masked
			}
			if !sure {
				weak[k]++
			}
			joins = append(joins, join{ci, a, k, sure})
		})
	}
	merged := false
	for _, j := range joins {
		if !j.sure && weak[j.k] < minDistinct {
			continue
		}
		if x, y := find(j.ci), find(j.a); x != y {
			parent[x] = y
			merged = true
		}
	}
	if !merged {
		return clusters
	}
	members := make(map[int][]int32)
	var roots []int
	for ci, c := range clusters {
		r := find(ci)
		if _, ok := members[r]; !ok {
			roots = append(roots, r)
		}
		members[r] = append(members[r], c.members...)
	}
	out := make([]*cluster, 0, len(roots))
	for _, r := range roots {
		if len(members[r]) == len(clusters[r].members) {
			out = append(out, clusters[r]) // nothing merged into it
			continue
		}
		out = append(out, newCluster(shapes, members[r]))
	}
	return out
}

// numberedForm returns the form of a lower-case name that is one of
// many things: with digits ("eth0:", "(sda1):", "nvme0n1"), or dotted with
// a lower-case extension, a systemd unit's kind or a file's type
// ("nginx.service:", "app.py"). The form is the punctuation around the
// name and its extension, the rest left out ("#:", "(#):", "#.service:");
// ok is false when t is neither.
//
// Such a name is taken for a value where a template holds namedLiterals
// literal tokens or more, the name's own included: one word beside it
// ("closing bsddb1", "nginx.service: Succeeded.") says what happens to
// which of many, as in longer messages.
func numberedForm(t string) (form string, ok bool) {
	i, j := 0, len(t)
	for i < j && strings.IndexByte("([<'\"", t[i]) >= 0 {
		i++
	}
	for j > i && strings.IndexByte(")]>'\",:;", t[j-1]) >= 0 {
		j--
	}
	if i == j || !isLower(t[i]) || strings.IndexByte(t, wild) >= 0 {
		return "", false
	}
	name := t[i:j]
	if strings.ContainsAny(name, "\":=") {
		return "", false // a key and its value ("code":200, as events.go keeps it): no name
	}
	if d := strings.LastIndexByte(name, '.'); d > 0 && d < len(name)-1 && allLower([]byte(name[d+1:])) {
		return t[:i] + "#" + t[i+d:], true
	}
	name = strings.TrimRight(name, ".") // a sentence's full stop
	if !strings.ContainsAny(name, "0123456789") {
		return "", false
	}
	return t[:i] + "#" + t[i+len(name):], true
}

const namedLiterals = 2

// partlyMasked reports a token with a literal key and a masked value ("uid=\xff").
func partlyMasked(t string) bool {
	return t != wildTok && strings.IndexByte(t, wild) > 0
}

// mixHash extends hash h with token t (FNV-1a, then a multiplicative mix).
func mixHash(h uint64, t string) uint64 {
	h ^= 0xcbf29ce484222325
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 0x100000001b3
	}
	return h*0x9e3779b97f4a7c15 + uint64(len(t))
}

// literals counts the tokens of a template that hold no value.
func literals(toks []string) int {
	n := 0
	for _, t := range toks {
		if strings.IndexByte(t, wild) < 0 {
			n++
		}
	}
	return n
}

// sameExcept reports whether a and b agree everywhere but at position p.
func sameExcept(a, b []string, p int) bool {
	for i := range a {
		if i != p && a[i] != b[i] {
			return false
		}
	}
	return true
}

// similarity is the share of agreeing tokens among the positions where the
// template or the shape has a literal token. It gives up, returning 0, once
// too many tokens disagree for the share to reach simThreshold, or at a
// difference that makes another event: two keys, a plural.
func similarity(tmpl, toks []string) float64 {
	lit, eq := 0, 0
	limit := int((1-simThreshold)*float64(len(toks))) + 1 // more differences than this fail
	for i, t := range toks {
		a := tmpl[i]
		if t == maskedTok && (a == maskedTok || a == wildTok) {
			continue
		}
		lit++
		if a == t {
			eq++
		} else if lit-eq > limit || partlyMasked(a) && partlyMasked(t) || pluralPair(a, t) {
			return 0
		}
	}
	if lit == 0 {
		return 1
	}
	return float64(eq) / float64(lit)
}

// pluralPair reports a word and its plural ("failure;" and "failures;"):
// the message's own wording for a count, which makes another event as
// labelled logs count them, not a value that varies. Values (user names,
// states) do not differ by a final 's' alone.
func pluralPair(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b) != len(a)+1 {
		return false
	}
	i := commonPrefix(a, b)
	return i > 1 && b[i] == 's' && isLower(b[i-1]) && a[i:] == b[i+1:] && !hasLetter(a[i:])
}

// hasLetter reports an ASCII letter in t.
func hasLetter(t string) bool {
	for i := 0; i < len(t); i++ {
		if isLetter(t[i]) {
			return true
		}
	}
	return false
}

// splitConstants splits c at the first wildcard position whose values are
// all capitalised words, or a few frequent words (see fewWordsAt), then
// splits the parts again.
func splitConstants(shapes []*shape, c *cluster, out []*cluster) []*cluster {
	if len(c.members) < 2 {
		return append(out, c)
	}
	for p, t := range c.toks {
		if t != wildTok || !constantsAt(shapes, c.members, p) && !fewWordsAt(shapes, c, p) {
			continue
		}
		groups := make(map[string][]int32)
		var keys []string
		for _, si := range c.members {
			v := shapes[si].toks[p]
			if _, ok := groups[v]; !ok {
				keys = append(keys, v)
			}
			groups[v] = append(groups[v], si)
		}
		for _, k := range keys {
			out = splitConstants(shapes, newCluster(shapes, groups[k]), out)
		}
		return out
	}
	return append(out, c)
}

// constantsAt reports whether every member holds a capitalised word at p.
func constantsAt(shapes []*shape, members []int32, p int) bool {
	for _, si := range members {
		if !constantWord(shapes[si].toks[p]) {
			return false
		}
	}
	return true
}

// fewWordsAt reports whether the members hold at p a few distinct words,
// each on many lines: a choice among constants ("stored as bytes", "stored
// as values") rather than a value. Values such as user names come in more
// variety, or with some of them rare ("for user cyrus", "news", once "test").
func fewWordsAt(shapes []*shape, c *cluster, p int) bool {
	lines := map[string]int{}
	for _, si := range c.members {
		t := shapes[si].toks[p]
		for i := 0; i < len(t); i++ {
			if !isLetter(t[i]) {
				return false
			}
		}
		lines[t] += shapes[si].count
		if len(lines) > fewMaxWords {
			return false
		}
	}
	for _, n := range lines {
		if n < fewMinLines || n*fewMinShare < c.count {
			return false
		}
	}
	return true
}

// constantWord reports a capitalised word (Paused, RUNNING, FAIL_TASK_CLEANUP)
// or a versioned name (SOCKS5): such words name states, events and
// protocols, while values (user and host names) are usually lower case.
func constantWord(t string) bool {
	w := trimPunct([]byte(t))
	if len(w) < 2 || !isUpper(w[0]) {
		return false
	}
	for _, c := range w {
		if !isLetter(c) && c != '_' && c != '-' {
			return versionedName(w)
		}
	}
	return true
}

// newCluster builds a cluster of members, with wildcards where they differ.
func newCluster(shapes []*shape, members []int32) *cluster {
	c := &cluster{toks: slices.Clone(shapes[members[0]].toks), members: members[:0]}
	for _, si := range members {
		c.add(shapes[si], si)
	}
	return c
}

// add makes shape sh, index si, a member, with wildcards where it differs.
func (c *cluster) add(sh *shape, si int32) {
	for i, t := range sh.toks {
		if c.toks[i] != t {
			c.toks[i] = wildTok
		}
	}
	c.members = append(c.members, si)
	c.count += sh.count
}
