//go:build race

package domain_test

// raceEnabled thins the exhaustive loops, which the race detector slows
// about tenfold; the plain run still covers every value.
const raceEnabled = true
