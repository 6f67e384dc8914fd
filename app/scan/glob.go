package scan

import (
	"strings"
	"unicode/utf8"
)

// glob matches name against pattern: * is any run of characters, ? one
// character, everything else itself.
func glob(pattern, name string) bool {
	work := 0
	return compileGlob(pattern).match(name, &work)
}

// globPattern is a pattern compiled for matching in time linear in the
// name, whatever the pattern: the backtracking matcher it replaces took
// time proportional to the product of the two lengths ("*aaa…ab" against
// "aaa…a"), and a thousand such suppressions against twenty resources
// took 22 s.
//
// The literal text before the first wildcard and after the last is
// compared as text, which decides most real patterns ("module.db.*",
// "module.*.aws_security_group.db") at once. What is between is read as a
// small automaton whose states are the positions in it, all tracked at
// once as the bits of a globBits (shift-and): one step per character of
// the name, whatever it holds.
type globPattern struct {
	literal        bool   // no wildcard: the name must equal text
	text           string // the pattern
	prefix, suffix string // literal text before the first wildcard and after the last
	minRunes       int    // characters the middle needs: one per token but *
	starsOnly      bool   // the middle is only * and ?: its length decides
	hasStar        bool
	end            int // the state of a whole match: the number of tokens of the middle
	words          int // words of globBits in use
	star, any      globBits
	ascii          *[utf8.RuneSelf]globBits // states that read each ASCII character
	other          map[rune]*globBits       // and each other character of the middle
}

// globBits holds a state per token of a pattern of at most
// MaxSuppressionPattern tokens, plus the final state.
type globBits [MaxSuppressionPattern/64 + 1]uint64

func (b *globBits) set(i int) { b[i/64] |= 1 << (i % 64) }

// compileGlob compiles a pattern of at most MaxSuppressionPattern bytes
// (the envelope refuses longer ones; tokens past that are dropped).
func compileGlob(pattern string) *globPattern {
	g := &globPattern{text: pattern}
	first := strings.IndexAny(pattern, "*?")
	if first < 0 {
		g.literal = true
		return g
	}
	last := strings.LastIndexAny(pattern, "*?")
	g.prefix, g.suffix = pattern[:first], pattern[last+1:]
	middle := pattern[first : last+1]
	g.starsOnly = strings.Trim(middle, "*?") == ""
	if !g.starsOnly {
		g.ascii = new([utf8.RuneSelf]globBits)
	}
	i := 0 // token index
	prevStar := false
	for _, r := range middle {
		if r == '*' && prevStar || i >= MaxSuppressionPattern {
			continue // ** is *
		}
		prevStar = r == '*'
		switch {
		case r == '*':
			g.star.set(i)
			g.hasStar = true
			i++
			continue
		case r == '?':
			g.any.set(i)
		case r < utf8.RuneSelf:
			g.ascii[r].set(i)
		default:
			if g.other == nil {
				g.other = map[rune]*globBits{}
			}
			if g.other[r] == nil {
				g.other[r] = new(globBits)
			}
			g.other[r].set(i)
		}
		g.minRunes++
		i++
	}
	g.end, g.words = i, i/64+1
	return g
}

// match reports whether name matches the whole pattern, adding to *work
// the steps the automaton took (characters times words of state).
func (g *globPattern) match(name string, work *int) bool {
	if g.literal {
		return name == g.text
	}
	if len(name) < len(g.prefix)+len(g.suffix) || !strings.HasPrefix(name, g.prefix) || !strings.HasSuffix(name, g.suffix) {
		return false
	}
	middle := name[len(g.prefix) : len(name)-len(g.suffix)]
	n := utf8.RuneCountInString(middle)
	if n < g.minRunes || !g.hasStar && n != g.minRunes {
		return false
	}
	if g.starsOnly {
		return true
	}
	*work += n * g.words
	var state globBits
	state.set(0)
	var none globBits
	for k := -1; k < n; k++ {
		r := utf8.RuneError
		if k >= 0 {
			var size int
			r, size = utf8.DecodeRuneInString(middle)
			middle = middle[size:]
		}
		if !g.step(&state, r, k < 0, &none) {
			return false
		}
	}
	return state[g.end/64]&(1<<(g.end%64)) != 0
}

// step moves every state of b on the character r (a state on a token that
// reads r to the next, a state on * stays), then lets states through the
// * they are on (a * may match nothing). With first, it only does the
// latter, for the start. It reports whether any state is left.
func (g *globPattern) step(b *globBits, r rune, first bool, none *globBits) bool {
	lit := none
	switch {
	case first:
	case r < utf8.RuneSelf:
		lit = &g.ascii[r]
	case g.other[r] != nil:
		lit = g.other[r]
	}
	moveCarry, skipCarry, live := uint64(0), uint64(0), uint64(0)
	for w := 0; w < g.words; w++ {
		s := b[w]
		if !first {
			moved := s & (g.any[w] | lit[w])
			s = moved<<1 | moveCarry | s&g.star[w]
			moveCarry = moved >> 63
		}
		skip := s & g.star[w]
		s |= skip<<1 | skipCarry
		skipCarry = skip >> 63
		b[w] = s
		live |= s
	}
	return live != 0
}
