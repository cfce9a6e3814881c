//go:build race

package catalog

// raceDetector is true when the tests run under -race (see
// TestRankingQuality).
const raceDetector = true
