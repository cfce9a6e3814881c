// Package humanize writes a session's figures and text the way people
// read them, in any output format: token counts (1.2k), costs ($0.0123),
// durations (1h 12m), usage lines, text folded onto one line. Pages and
// Markdown show the same figures the same way because they share it.
//
// It knows nothing of HTML or Markdown: what it returns is plain text,
// which each output escapes.
package humanize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/session"
)

// Tokens shows a token count compactly: 950, 1.2k, 45k, 1.3M, 5.2B (a
// whole history's).
// assets/figures.js has the same function, with the same integer rounding, so
// the figures the script recomputes read like the ones written here.
//
// Any int64 reads right: the bands are chosen by comparing n, and only
// small n are multiplied, so nothing overflows (a count of 2^63-1 read
// "-223372036854775.-7k").
func Tokens(n int64) string {
	// Each band hands over to the next when rounding would reach it, so
	// 9,999 reads "10k" and 999,999 reads "1.0M".
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 9_950:
		return tenths((n*10+500)/1000) + "k"
	case n < 999_500:
		return strconv.FormatInt((n+500)/1000, 10) + "k"
	case n < 9_950_000:
		return tenths((n*10+500_000)/1_000_000) + "M"
	}
	m := n / 1_000_000
	if n%1_000_000 >= 500_000 {
		m++
	}
	if m < 1000 {
		return strconv.FormatInt(m, 10) + "M"
	}
	if n < 9_950_000_000 {
		t := n / 100_000_000
		if n%100_000_000 >= 50_000_000 {
			t++
		}
		return tenths(t) + "B"
	}
	b := n / 1_000_000_000
	if n%1_000_000_000 >= 500_000_000 {
		b++
	}
	return strconv.FormatInt(b, 10) + "B"
}

func tenths(t int64) string {
	return strconv.FormatInt(t/10, 10) + "." + strconv.FormatInt(t%10, 10)
}

// Cost shows dollars with four decimals below one dollar and two
// above; the script rounds the same way (floor(x*10^d + 0.5)). From
// maxPlainCost on, where cents would no longer fit an int64 (or a
// JavaScript number exactly), it shows three figures and an exponent,
// "$1.80e+308", as the script's toExponential(2) does: never a wrapped
// "$-92233720368547758.-8".
func Cost(c float64) string {
	if c <= 0 || math.IsNaN(c) {
		return "$0"
	}
	if c >= maxPlainCost {
		return "$" + strconv.FormatFloat(min(c, math.MaxFloat64), 'e', 2, 64)
	}
	d, scale := 4, 1e4
	if c >= 1 {
		d, scale = 2, 1e2
	}
	n := int64(math.Floor(c*scale + 0.5))
	p := int64(math.Pow10(d))
	return fmt.Sprintf("$%d.%0*d", n/p, d, n%p)
}

// maxPlainCost is where Cost turns to an exponent: a trillion dollars.
const maxPlainCost = 1e12

// Duration shows a duration to the second below a minute, then in the two
// largest units: 45s, 12m 5s, 1h 12m, 3d 4h.
func Duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
}

// Usage names the token counts and cost of u that are not zero, the
// input and output counts always; in and out are their words.
func Usage(u session.Usage, in, out string) []string {
	parts := []string{Tokens(u.Input) + " " + in, Tokens(u.Output) + " " + out}
	if u.CacheRead > 0 {
		parts = append(parts, Tokens(u.CacheRead)+" cache read")
	}
	if u.CacheWrite > 0 {
		parts = append(parts, Tokens(u.CacheWrite)+" cache write")
	}
	if u.Cost > 0 {
		parts = append(parts, Cost(u.Cost))
	}
	return parts
}

// OneLine folds s onto one line of at most max characters, cut at a word
// with … (see session.Shorten).
func OneLine(s string, max int) string {
	return session.Shorten(strings.Join(strings.Fields(s), " "), max)
}

// Count says how many of something there are, singular for one:
// Count(1, "line", "lines") is "1 line", Count(3, …) "3 lines". Every
// message counts with it (session.Count, below which nothing counts).
func Count(n int, one, many string) string { return session.Count(n, one, many) }

// Model names, for people, the model of a usage key ("provider/model",
// session.Entry.UsageRecord's): a message that named no provider and no
// model (key "/") is "(unknown model)", not "/".
func Model(key string) string {
	provider, model, ok := strings.Cut(key, "/")
	switch {
	case !ok:
		return key
	case provider == "" && model == "":
		return "(unknown model)"
	case model == "":
		return provider + "/(unknown model)"
	case provider == "":
		return model
	}
	return key
}

// Sessions counts sessions and, apart from them, sub-agents' transcripts
// (omp's), as every list and report of many sessions says them: "12
// sessions", "12 sessions and 3 sub-agents".
func Sessions(sessions, subAgents int) string {
	s := Count(sessions, "session", "sessions")
	if subAgents > 0 {
		s += " and " + Count(subAgents, "sub-agent", "sub-agents")
	}
	return s
}

// CouldNotRead says that n session files could not be read, as every
// list and log of many sessions says it beside Sessions: "1 file could
// not be read".
func CouldNotRead(n int) string {
	return Count(n, "file", "files") + " could not be read"
}

// TokenCount is Tokens with its noun: "1 token", "3.4M tokens".
func TokenCount(n int64) string {
	if n == 1 {
		return "1 token"
	}
	return Tokens(n) + " tokens"
}

// EachOf names every one of n things as a sentence does: "each of the 3
// turns", but "the one turn".
func EachOf(n int, one, many string) string {
	if n == 1 {
		return "the one " + one
	}
	return "each of the " + Count(n, one, many)
}

// CostShort shows a cost as a chart's label does: as Cost below $1,000,
// then in thousands and millions: $1.2k, $45k, $1.3M.
func CostShort(c float64) string {
	if c < 999.995 || math.IsNaN(c) {
		return Cost(c)
	}
	for _, u := range []struct {
		scale float64
		unit  string
	}{{1e3, "k"}, {1e6, "M"}, {1e9, "B"}} {
		v := c / u.scale
		if v < 9.95 {
			return "$" + strconv.FormatFloat(v, 'f', 1, 64) + u.unit
		}
		if v < 999.5 || u.unit == "B" {
			return "$" + strconv.FormatFloat(v, 'f', 0, 64) + u.unit
		}
	}
	return "" // not reached
}

// Bytes shows a size in bytes: 950 bytes, 12 KB, 3.4 MB (units of 1,024).
func Bytes(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1024*1024:
		return strconv.FormatInt((n+512)/1024, 10) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
}

// ISOTime writes t for a machine: RFC 3339 in UTC, as <time datetime>
// takes it.
func ISOTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// UTCTime writes t for a reader who has no script to show it in their
// own time zone: "2026-03-01 14:05 UTC".
func UTCTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// TemplateFuncs are the figures and times every page template may show,
// under the names the templates use (the session page, the index and the
// insights they share).
func TemplateFuncs() map[string]any {
	return map[string]any{
		"tokens":  Tokens,
		"count":   Count,
		"cost":    Cost,
		"isoTime": ISOTime,
		"utcTime": UTCTime,
	}
}
