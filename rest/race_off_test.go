//go:build !race

package rest

// raceEnabled: see race_on_test.go.
const raceEnabled = false
