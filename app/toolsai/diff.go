package toolsai

import (
	"fmt"
	"strings"
)

// diffContext is the unchanged lines shown around a change.
const diffContext = 3

// maxDiffLines bounds the changed middle that Diff aligns line by line
// (quadratic); a larger one is shown as removed and added whole.
const maxDiffLines = 2000

// Diff is the unified diff from a to b ("a/document", "b/document"), ""
// when they are equal.
func Diff(a, b string) string { return diffNamed("document", a, b) }

// diffNamed is the unified diff of the file name from a to b.
func diffNamed(name, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	ops := align(x[pre:len(x)-suf], y[pre:len(y)-suf])
	// Every line as an edit: ' ', '-' or '+'.
	var all []edit
	for _, l := range x[:pre] {
		all = append(all, edit{' ', l})
	}
	all = append(all, ops...)
	for _, l := range x[len(x)-suf:] {
		all = append(all, edit{' ', l})
	}
	var out strings.Builder
	out.WriteString("--- a/" + name + "\n+++ b/" + name + "\n")
	for i := 0; i < len(all); {
		if all[i].op == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for j := i; j < len(all); j++ { // the hunk ends after diffContext unchanged lines past its last change
			if all[j].op != ' ' {
				end = j
			} else if j-end > 2*diffContext {
				break
			}
		}
		end = min(end+diffContext+1, len(all))
		oldStart, newStart := 1, 1
		for _, l := range all[:start] {
			if l.op != '+' {
				oldStart++
			}
			if l.op != '-' {
				newStart++
			}
		}
		var oldN, newN int
		var body strings.Builder
		for _, l := range all[start:end] {
			if l.op != '+' {
				oldN++
			}
			if l.op != '-' {
				newN++
			}
			body.WriteByte(l.op)
			body.WriteString(l.text)
			body.WriteByte('\n')
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldN), hunkRange(newStart, newN))
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

type edit struct {
	op   byte
	text string
}

// align is a shortest edit of x into y by their longest common
// subsequence.
func align(x, y []string) []edit {
	var ops []edit
	if len(x) > maxDiffLines || len(y) > maxDiffLines {
		for _, l := range x {
			ops = append(ops, edit{'-', l})
		}
		for _, l := range y {
			ops = append(ops, edit{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, edit{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, edit{'-', x[i]})
			i++
		default:
			ops = append(ops, edit{'+', y[j]})
			j++
		}
	}
	return ops
}
