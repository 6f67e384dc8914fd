package apptest

import (
	"testing"
	"time"
)

// pollEvery is how often Eventually asks again.
const pollEvery = 20 * time.Millisecond

// Eventually asks cond until it holds or within has passed, and says
// whether it held: for what a test waits on (a cache expiring, another
// instance catching up), instead of sleeping for a guessed time.
func Eventually(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}

// WaitFor is Eventually that fails the test, naming what did not happen.
func WaitFor(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Eventually(within, cond) {
		t.Fatalf("%s: not within %s", what, within)
	}
}
