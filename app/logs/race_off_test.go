//go:build !race

package logs

const raceOn = false
