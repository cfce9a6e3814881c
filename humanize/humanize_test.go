package humanize

import (
	"math"
	"strings"
	"testing"
	"unicode"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1.0k"}, {1250, "1.3k"}, {1249, "1.2k"}, {9949, "9.9k"}, {9999, "10k"},
		{10_000, "10k"}, {45_499, "45k"}, {999_499, "999k"}, {999_500, "1.0M"}, {1_000_000, "1.0M"}, {9_960_000, "10M"}, {12_500_000, "13M"},
		{9_949_999, "9.9M"}, {9_950_000, "10M"}, {12_499_999, "12M"},
		{999_499_999, "999M"}, {999_500_000, "1.0B"}, {5_205_122_999, "5.2B"}, {9_949_999_999, "9.9B"}, {9_950_000_000, "10B"}, {123_456_789_012, "123B"},
		// Huge counts (a usage of 1e30 saturates at the int64 maximum)
		// read right instead of "-223372036854775.-7k".
		{math.MaxInt64, "9223372037B"}, {math.MaxInt64 / 10 * 9, "8301034833B"}, {-5, "-5"}, {math.MinInt64, "-9223372036854775808"},
	} {
		if got := Tokens(tc.n); got != tc.want {
			t.Errorf("Tokens(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestCost(t *testing.T) {
	for _, tc := range []struct {
		c    float64
		want string
	}{
		{0, "$0"}, {-1, "$0"}, {math.NaN(), "$0"}, {0.00004, "$0.0000"}, {0.0123, "$0.0123"},
		{0.01236, "$0.0124"}, {0.99, "$0.9900"}, {1, "$1.00"}, {1.2345, "$1.23"}, {12.999, "$13.00"},
		// Huge costs never wrap to "$-92233720368547758.-8".
		{999_999_999_999.99, "$999999999999.99"}, {1e12, "$1.00e+12"}, {92233720368547758.08, "$9.22e+16"},
		{1e308, "$1.00e+308"}, {math.MaxFloat64, "$1.80e+308"}, {math.Inf(1), "$1.80e+308"},
	} {
		if got := Cost(tc.c); got != tc.want {
			t.Errorf("Cost(%v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine("a\n\tb   c", 10); got != "a b c" {
		t.Errorf("%q", got)
	}
	if got := OneLine(strings.Repeat("é", 20), 5); got != "éééé…" || !unicode.IsLetter([]rune(got)[0]) {
		t.Errorf("%q", got)
	}
}

func TestCostShort(t *testing.T) {
	for _, tc := range []struct {
		c    float64
		want string
	}{
		{0, "$0"}, {0.0123, "$0.0123"}, {12.345, "$12.35"}, {999.99, "$999.99"}, {999.996, "$1.0k"},
		{1234, "$1.2k"}, {9949, "$9.9k"}, {9950, "$10k"}, {45_499, "$45k"}, {999_499, "$999k"},
		{999_500, "$1.0M"}, {3_400_000, "$3.4M"}, {math.NaN(), "$0"},
	} {
		if got := CostShort(tc.c); got != tc.want {
			t.Errorf("CostShort(%v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1 KB"}, {1536, "2 KB"}, {1024*1024 - 513, "1023 KB"}, {3 << 20, "3.0 MB"}} {
		if got := Bytes(tc.n); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestTokenCountAndEachOf(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{TokenCount(1), "1 token"},
		{TokenCount(0), "0 tokens"},
		{TokenCount(3_400_000), "3.4M tokens"},
		{EachOf(1, "turn", "turns"), "the one turn"},
		{EachOf(3, "turn", "turns"), "each of the 3 turns"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestModel(t *testing.T) {
	for key, want := range map[string]string{
		"anthropic/claude-sonnet-4-5":     "anthropic/claude-sonnet-4-5",
		"openrouter/anthropic/claude-3.7": "openrouter/anthropic/claude-3.7",
		"/":                               "(unknown model)",
		"ollama/":                         "ollama/(unknown model)",
		"/gpt-5":                          "gpt-5",
		"Tools/summaries":                 "Tools/summaries",
		"no-provider":                     "no-provider",
	} {
		if got := Model(key); got != want {
			t.Errorf("Model(%q) = %q, want %q", key, got, want)
		}
	}
}
