package redact

import "strings"

// listItems are the spans of the items of the list that starts at i ([a,
// "b"], JSON's, HCL's or a YAML flow sequence, over lines or not), and
// where it ends. A list holding a list or an object, whose own keys are
// looked at, is none, nor one followed by more of a word ([Pw]99).
func listItems(s string, i int) (items [][2]int, end int, ok bool) {
	if i >= len(s) || s[i] != '[' {
		return nil, 0, false
	}
	skipBlanks := func(j int) int {
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		return j
	}
	j := skipBlanks(i + 1)
	for j < len(s) && s[j] != ']' {
		if s[j] == '[' || s[j] == '{' {
			return nil, 0, false
		}
		start, e := valueSpan(s, j)
		items = append(items, [2]int{start, e})
		switch {
		case strings.HasPrefix(s[e:], `\"`):
			e += 2
		case e < len(s) && start > j && (s[e] == '"' || s[e] == '\''):
			e++
		}
		if j = skipBlanks(e); j < len(s) && s[j] == ',' {
			j = skipBlanks(j + 1)
		} else if j >= len(s) || s[j] != ']' {
			return nil, 0, false
		}
	}
	if j >= len(s) || j+1 < len(s) && strings.IndexByte(" \t\r\n,;})]\\", s[j+1]) < 0 || placeholderWord(s[i:j+1]) {
		return nil, 0, false // also another tool's [REDACTED]
	}
	return items, j + 1, true
}

// seqItem is the span of the scalar a YAML sequence's item line holds
// (- a, - "b"), without its quotes and comment; not ok for a line that is
// no item, or whose item is a mapping, a list or a block (- name: x, - [a],
// - |).
func seqItem(line string) (int, int, bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	if i+1 >= len(line) || line[i] != '-' || line[i+1] != ' ' && line[i+1] != '\t' {
		return 0, 0, false
	}
	i += 1 + len(line[i+1:]) - len(strings.TrimLeft(line[i+1:], " \t"))
	if i == len(line) || strings.IndexByte("[{-#|>&*!\r", line[i]) >= 0 {
		return 0, 0, false
	}
	if line[i] == '"' || line[i] == '\'' {
		start, end := valueSpan(line, i)
		return start, end, true
	}
	end := len(line)
	if c := strings.Index(line[i:], " #"); c >= 0 {
		end = i + c
	}
	item := strings.TrimRight(line[i:end], " \t\r")
	if strings.Contains(item, ": ") || strings.HasSuffix(item, ":") {
		return 0, 0, false
	}
	return i, i + len(item), true
}
