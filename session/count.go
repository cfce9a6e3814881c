package session

import "strconv"

// Count says how many of something there are, singular for one:
// Count(1, "line", "lines") is "1 line", Count(3, …) "3 lines". It is
// the one way every message of piexport counts (humanize.Count, for the
// packages above this one, is it), so that none says "1 sessions".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}
