//go:build race

package rest

// raceEnabled: the tests run under the race detector, which slows every
// goroutine several times over; load tests skip there and run in CI's
// lane without it (.ci/run).
const raceEnabled = true
