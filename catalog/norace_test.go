//go:build !race

package catalog

// raceDetector: see race_test.go.
const raceDetector = false
