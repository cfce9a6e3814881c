package session

import "math"

// Figures in a session file are JSON numbers: floats, of any size. Tokens
// are kept as int64, and a count beyond its range, or a sum of counts,
// must saturate at the ends, not wrap: Go's float-to-int conversion of
// 1e30 gives -9223372036854775808 on amd64, and sums of huge counts wrap
// to negative, which pages then showed as "$-92233720368547758.-8".

// toInt64 converts a JSON number to int64, saturating at the ends of its
// range; NaN, which JSON cannot hold, is 0.
func toInt64(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// toInt is toInt64 for an int.
func toInt(f float64) int {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt:
		return math.MaxInt
	case f <= math.MinInt:
		return math.MinInt
	}
	return int(f)
}

// addInt64 is a + b, saturating at the ends of int64's range.
func addInt64(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// addFloat is a + b, kept finite: an overflow gives the largest float of
// its sign (a cost of $1e308 twice is absurd, but must still print, and
// encode as JSON, which has no infinity).
func addFloat(a, b float64) float64 {
	s := a + b
	switch {
	case math.IsInf(s, 1):
		return math.MaxFloat64
	case math.IsInf(s, -1):
		return -math.MaxFloat64
	case math.IsNaN(s):
		return 0
	}
	return s
}
