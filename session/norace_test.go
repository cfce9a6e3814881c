//go:build !race

package session

// raceDetector: see race_test.go.
const raceDetector = false
