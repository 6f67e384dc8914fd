package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"testing"
)

// The layouts (layout.go) and what is kept with them (a level word's kind,
// the header's keyword hit) only save work: random logs of header-like
// pieces, their lines repeated with other digits, get the same result with
// them as without.
func TestLayoutsChangeNoResult(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	pieces := []string{"2024-03-05 ", "10:00:0", "1 ", "INFO ", "WARN ", "ERROR ", "error ", "[main] ", "[a b] ",
		"x.y.Z: ", "- ", "| ", "<3>", "<4>", "Mar  5 ", "host ", "app[12]: ", "failed ", "timeout ", "msg ",
		"1234567", "abcdefgh", " ", "I0305 ", "E0305 ", "file.go:12] ", "level=info ", `GET /x HTTP/1.1" 500 `, `"`, "30 ", "40 ",
		"Mar 05 14:00:01 node1 kubelet[812]: ", "W0305 14:00:01.000000 812 file.go:12] ", "app.failure.Handler: "}
	opts := Options{IncludeAssignments: true, IncludeParams: true}
	for trial := range 100 {
		var lines [][]byte
		for range 30 {
			var l []byte
			for n := r.Intn(8); n >= 0; n-- {
				l = append(l, pieces[r.Intn(len(pieces))]...)
			}
			lines = append(lines, l)
		}
		var in []byte
		for range 300 {
			l := bytes.Clone(lines[r.Intn(len(lines))])
			for i, c := range l {
				if isDigit(c) && r.Intn(2) == 0 {
					l[i] = byte('0' + r.Intn(10))
				}
			}
			in = append(append(in, l...), '\n')
		}
		total := bytes.Count(in, []byte{'\n'}) + 1
		with, err := newAnalyzer(opts, in, total, nil, nil).run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		a := newAnalyzer(opts, in, total, nil, nil)
		a.head.layouts.off = true
		without, err := a.run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if x, y := mustJSON(t, with), mustJSON(t, without); !bytes.Equal(x, y) {
			t.Fatalf("trial %d: the layouts changed the result of\n%s", trial, in)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
