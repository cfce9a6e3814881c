package catalog

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestEntryStats(t *testing.T) {
	text := "The cache: the CACHE worker and the cache's queue, naïve naive " + strings.Repeat("x", 80)
	buf, ends := indexText(nil, []int32{}, text)
	buf = slices.Grow(buf, 8)
	var wc wordCounter
	terms := map[string]int32{}
	words, tf := wc.entryStats(buf, ends, string(buf), terms)
	if want := len(indexWords(text)); words != want {
		t.Errorf("words = %d, want %d", words, want)
	}
	for w, want := range map[string]int{"the": 3, "cache": 3, "naive": 2, "worker": 1, "queue": 1, "nothere": 1} {
		if got := tfOf(tf, termHash(w)); got != want {
			t.Errorf("tf of %q = %d, want %d", w, got, want)
		}
	}
	if len(tf) != 3*4 {
		t.Errorf("tfBlob lists %d words, want the 3 repeated ones", len(tf)/4)
	}
	want := []string{"and", "cache", "naive", "queue", "s", "the", "worker", strings.Repeat("x", maxWord)}
	if got := slices.Sorted(maps.Keys(terms)); !slices.Equal(got, want) {
		t.Errorf("terms = %q, want %q", got, want)
	}
	for w, n := range terms {
		if n != 1 {
			t.Errorf("%q counted %d times in one entry", w, n)
		}
	}
	// The table is left empty for the next entry.
	words, tf = wc.entryStats(buf[:4], ends[:1], "the ", nil)
	if words != 1 || tf != nil {
		t.Errorf("the next entry: %d words, tf %v", words, tf)
	}
}

// Hashes of words of every length agree, whatever follows them.
func TestHashWord(t *testing.T) {
	for n := 1; n <= maxWord; n++ {
		w := strings.Repeat("ab", n)[:n]
		b := []byte(w + " zzzzzzzzzz")
		if hashWord(b, 0, n) != termHash(w) {
			t.Errorf("hash of a %d-byte word depends on what follows it", n)
		}
		if n > 1 && termHash(w) == termHash(w[:n-1]) {
			t.Errorf("%q and %q hash alike", w, w[:n-1])
		}
	}
}
