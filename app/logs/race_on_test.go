//go:build race

package logs

// raceOn: the race detector's instrumentation changes what is allocated
// and when, so measures of memory do not hold under it.
const raceOn = true
