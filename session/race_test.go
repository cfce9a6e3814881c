//go:build race

package session

// raceDetector is true when the tests run under -race. Its sync.Pool
// drops a quarter of what is put back, at random, so a count of bytes
// allocated says nothing there; the run without -race checks it.
const raceDetector = true
