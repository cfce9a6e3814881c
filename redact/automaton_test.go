package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAutomaton compares the automaton with strings.Index on random
// words and texts, case ignored.
func TestAutomaton(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abAB-c"[r.IntN(6)]
		}
		return string(b)
	}
	for range 200 {
		var words []string
		for range 1 + r.IntN(8) {
			words = append(words, word(1+r.IntN(4)))
		}
		text := word(r.IntN(60))
		a := newAutomaton(words)
		var got, want [][2]int
		a.scan(text, func(w, end int) { got = append(got, [2]int{w, end}) })
		lowerText := strings.ToLower(text)
		for wi, w := range words {
			lw := strings.ToLower(w)
			for i := 0; i+len(lw) <= len(lowerText); i++ {
				if lowerText[i:i+len(lw)] == lw {
					want = append(want, [2]int{wi, i + len(lw)})
				}
			}
		}
		cmp := func(a, b [2]int) int {
			if a[1] != b[1] {
				return a[1] - b[1]
			}
			return a[0] - b[0]
		}
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("words %q in %q: got %v, want %v", words, text, got, want)
		}
	}
}
