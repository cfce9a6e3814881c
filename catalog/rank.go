package catalog

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"math"
	"slices"
	"strings"
)

// Matches are ranked by BM25 as FTS5's bm25() computes it, with the same
// parameters, but from figures kept at indexing time (termstats.go)
// instead of ones worked out at search time: an entry's words and the
// frequencies of its repeated words are read with its row, the shard's
// entries and words from the counts table, and a word's document
// frequency from the terms table, or, for a word too rare to be there,
// counted from its short list of entries. FTS5 only finds the newest
// matching entries, which costs the same for a common word as for a rare
// one; bm25() would walk every entry that holds each word, a cost that
// grows with the history.
//
// What differs from bm25(): the document frequency of a common word is
// counted over a sample, and not lowered when a file is read again
// (IDF, the weight it sets, moves little with it); a phrase's frequency
// in an entry is that of its least frequent word (FTS5 counts the
// phrase); and words are told apart by a 24-bit hash. TestRankingQuality
// checks that the best hits stay those bm25() ranks first.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// probeCap bounds the entries counted to find a word's document
	// frequency at search time; a word that has more is a common one,
	// which the terms table counts.
	probeCap = 2000
)

// idf is the weight of a word held by df of n entries, as bm25() has it.
func idf(n, df float64) float64 {
	v := math.Log((n - df + 0.5) / (df + 0.5))
	if v <= 0 || math.IsNaN(v) {
		return 1e-6
	}
	return v
}

// rankTerm is a query term as ranking sees it.
type rankTerm struct {
	// words are the hashes of the term's words: all of them occur in a
	// matching entry, and its frequency there is the lowest of theirs.
	words []uint32
	// alts, for a prefix, are the hashes of the words it stands for: at
	// least one occurs, and the frequency is the sum of theirs.
	alts []uint32
	idf  float64
}

func rankTermOf(t queryTerm) rankTerm {
	var r rankTerm
	words := t.words
	if t.prefix {
		words = words[:len(words)-1]
		for _, w := range t.expanded {
			r.alts = append(r.alts, termHash(w))
		}
	}
	for _, w := range words {
		r.words = append(r.words, termHash(w))
	}
	r.idf = 1
	return r
}

// tf is how often the term occurs in an entry whose tfBlob is b.
func (t *rankTerm) tf(b []byte) float64 {
	switch {
	case len(t.alts) > 0 && len(t.words) == 0:
		// A prefix: the frequencies of the words it stands for, summed
		// (those that occur once are not listed: at least one occurs).
		sum := 0
		for _, h := range t.alts {
			if f := tfOf(b, h); f > 1 {
				sum += f
			}
		}
		return float64(max(sum, 1))
	case len(t.words) == 1 && len(t.alts) == 0:
		return float64(tfOf(b, t.words[0]))
	}
	// A phrase occurs as often as its rarest word at most, and mostly
	// once: a phrase of common words ("go test") would otherwise rank the
	// entries that repeat its words apart.
	return 1
}

// score is an entry's BM25 score for terms: higher is better (bm25()
// returns it negated).
func score(terms []rankTerm, words int, tf []byte, avgdl float64) float64 {
	norm := bm25K1 * (1 - bm25B + bm25B*float64(words)/max(avgdl, 1))
	s := 0.0
	for i := range terms {
		f := terms[i].tf(tf)
		s += terms[i].idf * f * (bm25K1 + 1) / (f + norm)
	}
	return s
}

// shardCounts returns a shard's entries with text and their words.
func (st *store) shardCounts(ctx context.Context) (entries, words int64, err error) {
	err = st.r.QueryRowContext(ctx, `SELECT entries, words FROM counts`).Scan(&entries, &words)
	return entries, words, err
}

// docFreq returns how many entries of the shard hold t, as ranking
// estimates it.
func (st *store) docFreq(ctx context.Context, t queryTerm) (float64, error) {
	if t.prefix && len(t.expanded) > 0 && len(t.words) == 1 {
		sum := 0.0
		for _, w := range t.expanded {
			df, err := st.wordFreq(ctx, w)
			if err != nil {
				return 0, err
			}
			sum += df
		}
		return sum, nil
	}
	if len(t.words) == 1 && !t.prefix {
		return st.wordFreq(ctx, t.words[0])
	}
	// A phrase, or a prefix: counted, up to probeCap; past it, the
	// phrase's least frequent word bounds it.
	n, err := st.probe(ctx, t.expr())
	if err != nil || n < probeCap {
		return n, err
	}
	least := math.Inf(1)
	for _, w := range t.words {
		if t.prefix && w == t.words[len(t.words)-1] {
			continue
		}
		df, err := st.wordFreq(ctx, w)
		if err != nil {
			return 0, err
		}
		least = min(least, df)
	}
	if math.IsInf(least, 1) {
		least = n
	}
	return max(n, least), nil
}

// wordFreq returns how many entries of the shard hold the word w: the
// terms table's estimate, else a count.
func (st *store) wordFreq(ctx context.Context, w string) (float64, error) {
	var df int64
	err := st.r.QueryRowContext(ctx, `SELECT df FROM terms WHERE term = ?`, w).Scan(&df)
	if err == nil {
		return float64(df), nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	n, err := st.probe(ctx, `"`+w+`"`)
	return n, err
}

// probe counts the entries that match expr, up to probeCap.
func (st *store) probe(ctx context.Context, expr string) (float64, error) {
	var n int64
	err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)`, expr, probeCap).Scan(&n)
	return float64(n), err
}

// maxExpansions bounds the words a prefix stands for: the commonest that
// start with it.
const maxExpansions = 32

// maxRareExpansions bounds the words read from FTS5's own list for a
// prefix that no common word starts with.
const maxRareExpansions = 512

// expand fills in the words that t's prefix stands for: the commonest
// that start with it, from the terms table; or, when no common word does,
// from FTS5's list of its words, which counts the entries of each as it
// goes (cheap for rare words). FTS5's own prefix search would merge the
// lists of every word the prefix starts, common ones in full. It reports
// whether words were left out.
func (c *Catalog) expand(ctx context.Context, t *queryTerm) (bool, error) {
	p := t.words[len(t.words)-1]
	// The words that start with p sort below p with its last byte
	// raised by one (a byte of UTF-8 is never 0xff).
	hi := p[:len(p)-1] + string([]byte{p[len(p)-1] + 1})
	dfs := map[string]int64{}
	for _, q := range []string{
		`SELECT term, df FROM terms WHERE term >= ?1 AND term < ?2 ORDER BY df DESC LIMIT ?3`,
		`SELECT term, doc FROM vocab WHERE term >= ?1 AND term < ?2 LIMIT ?3`,
	} {
		for i := range shards {
			st, err := c.store(i)
			if err != nil {
				return false, err
			}
			if err := st.termsFrom(ctx, q, p, hi, dfs); err != nil {
				return false, c.checkStore(i, err)
			}
		}
		if len(dfs) > 0 {
			break
		}
	}
	words := make([]string, 0, len(dfs))
	for w := range dfs {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		if c := cmp.Compare(dfs[b], dfs[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	t.expanded = words[:min(len(words), maxExpansions)]
	return len(words) > maxExpansions, nil
}

// termsFrom adds the words and counts query q gives for the range [lo,
// hi) to dfs.
func (st *store) termsFrom(ctx context.Context, q, lo, hi string, dfs map[string]int64) error {
	rows, err := st.r.QueryContext(ctx, q, lo, hi, maxRareExpansions)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var w string
		var df int64
		if err := rows.Scan(&w, &df); err != nil {
			return err
		}
		dfs[w] += df
	}
	return rows.Err()
}
