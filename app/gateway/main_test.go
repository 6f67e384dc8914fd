package gateway

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestMain fails the run when goroutines outlive the tests: a stream whose
// upstream request, watchdog or connection is not released leaks one per
// call in production.
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	// Fuzzing starts a signal-handling goroutine of its own.
	if fuzzing := flag.Lookup("test.fuzz"); code == 0 && (fuzzing == nil || fuzzing.Value.String() == "") {
		if n := settleGoroutines(before); n > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			fmt.Fprintf(os.Stderr, "goroutine leak: %d before the tests, %d after\n%s\n", before, n, buf)
			code = 1
		}
	}
	os.Exit(code)
}

// settleGoroutines waits up to 5s for connection and timer goroutines to
// wind down and returns the last count.
func settleGoroutines(target int) int {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); n > target && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		<-tick.C
	}
	return n
}
