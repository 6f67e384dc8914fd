package keyset

import (
	"strconv"
	"testing"
)

// Seen agrees with a map on every key, through the array and past it,
// with keys that share a sketch (same length and ends).
func TestSeenMatchesMap(t *testing.T) {
	for _, n := range []int{0, 1, Few - 1, Few, Few + 1, 200} {
		var s Set[string]
		var b Set[[]byte]
		want := map[string]bool{}
		for i := 0; i < 3*n; i++ {
			k := "k" + strconv.Itoa(i%(n+1)) + "x" // repeats after n+1 keys
			if i%5 == 0 {
				k = "a" + strconv.Itoa(i%7) + "a" // shares sketches with its neighbours
			}
			if got := s.Seen(k); got != want[k] {
				t.Fatalf("n=%d key %q: string set says %v, want %v", n, k, got, want[k])
			}
			if got := b.Seen([]byte(k)); got != want[k] {
				t.Fatalf("n=%d key %q: byte set says %v, want %v", n, k, got, want[k])
			}
			want[k] = true
		}
	}
	var s Set[string]
	if s.Seen("") || !s.Seen("") {
		t.Fatal("the empty key")
	}
}
