package archive

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// TestShardsAgreeWithJS: the archive's page (assets/search.js) hashes a
// word and picks its shard as the index was written (wordHash, shardOf),
// for every word of the corpus, hostile words and random ones, among
// 1 to 4,096 shards. (catalog/js_test.go checks that the page makes the
// same words.)
func TestShardsAgreeWithJS(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "prefs.js", "times.js", "index.js", "fold.js", "search.js")
	seen := map[string]bool{}
	var words []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	for _, f := range files {
		s, err := session.Load(f)
		if err != nil {
			continue // an empty file, a header alone
		}
		for _, e := range s.Entries {
			if _, text := catalog.EntryText(e); text != "" {
				for _, w := range catalog.Words(text) {
					add(w)
				}
			}
		}
	}
	if len(words) < 10000 {
		t.Fatalf("%d words in the corpus", len(words))
	}
	for _, w := range []string{"", "a", "é", "ß", "日本語", "한국어", "🎉", "\ue000", "١٢٣", "\x00", strings.Repeat("é", 32), strings.Repeat("x", 64)} {
		add(w)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			r := rune(rng.IntN(0x30000))
			if rng.IntN(2) == 0 {
				r = rune('a' + rng.IntN(26))
			}
			b.WriteRune(r) // a surrogate is written as U+FFFD, in both
		}
		add(b.String())
	}
	type hashed struct {
		Hash   uint32 `json:"h"`
		Shards []int  `json:"s"`
	}
	got := browsertest.Eval[[]hashed](tb, fmt.Sprintf(`%s.map(w => ({h: archiveSearch.hash(w),
		s: [1, 2, 4, 8, 16, 64, 256, 1024, 4096].map(n => archiveSearch.shardOf(w, n))}))`, browsertest.JSON(t, words)))
	bad := 0
	for i, w := range words {
		want := hashed{Hash: wordHash(w)}
		for _, n := range []int{1, 2, 4, 8, 16, 64, 256, 1024, 4096} {
			want.Shards = append(want.Shards, shardOf(w, n))
		}
		if fmt.Sprint(got[i]) != fmt.Sprint(want) {
			if bad++; bad <= 10 {
				t.Errorf("word %+q: search.js hashes it to %+v, the index to %+v", w, got[i], want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d of %d words in all", bad, len(words))
	}
	t.Logf("%d words", len(words))
}
