package logs

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHeaderMemoChangesNothing finds the header of every line twice: with
// the memo of the lines before (as the analysis does) and with a fresh
// finder, and wants the same header, level and header words. The memo must
// only save work: lines that repeat the tokens of the line before at the
// same places, brackets closed later or earlier than before, separators
// glued to a token.
func TestHeaderMemoChangesNothing(t *testing.T) {
	inputs := [][]byte{[]byte(Sample()), []byte(`2024-01-02 03:04:05 INFO [main] a.b.C: started
2024-01-02 03:04:05 INFO [main]: a.b.C: started
2024-01-02 03:04:05 INFO [main] a.b.C: started
[abc def x] INFO msg
[abc def x INFO msg
[abc def x] INFO msg
[abc]: INFO msg
[abc] INFO msg
[abc]x INFO msg
a|b|c| INFO |d
a|b|c|INFO|d
a | b | INFO | d
Jun 14 15:16:01 host kernel: [12.1] oops
Jun 14 15:16:01 host kernel:[12.1] oops
Jun 14 15:16:01 host kernel: [12.1] oops
INFO
INFO: x
INFO
2024-01-02 03:04:05 [main x INFO foo bar baz qux quux corge
2024-01-02 03:04:05 [main x INFO foo bar baz qux] quux corge
2024-01-02 03:04:05 INFO  
2024-01-02 03:04:05 INFO  a.b.C: msg
Jun 14 15:16:01 host  
Jun 14 15:16:01 host  app[12]: msg
`)}
	for _, sys := range gaSystems {
		if raw, err := os.ReadFile(filepath.Join(loghubPath, sys.name, sys.name+"_2k.log")); err == nil {
			inputs = append(inputs, raw)
		}
	}
	for _, in := range inputs {
		var memo header
		for _, line := range bytes.Split(in, []byte{'\n'}) {
			if !hasNonSpace(line) {
				continue
			}
			var fresh header
			got, want := memo.end(line), fresh.end(line)
			span := func(h *header) [][2]int32 {
				var ws [][2]int32
				for _, w := range h.words {
					ws = append(ws, [2]int32{w.start, w.end})
				}
				return ws
			}
			if got != want || memo.lvl0 != fresh.lvl0 || memo.lvl1 != fresh.lvl1 || memo.firstTime != fresh.firstTime ||
				!slices.Equal(span(&memo), span(&fresh)) {
				t.Errorf("%q: header %d level %d-%d words %v with the memo; %d %d-%d %v without",
					line, got, memo.lvl0, memo.lvl1, span(&memo), want, fresh.lvl0, fresh.lvl1, span(&fresh))
			}
		}
	}
}
