package catalog

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

// The hits a person expects first, on sessions written for it: an entry
// about the words comes before entries that mention them in passing, and
// a rare word of the query weighs more than a common one.
func TestRankingExpected(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 5, 4, 9, 0, 0, 0, time.Local)
	filler := strings.Repeat("the report lists the figures of the week and what changed since then ", 12)
	sessionFile(t, filepath.Join(dir, "--a--", "cache.jsonl"), "/w/a", day,
		"user:why does the cache worker deadlock when the queue is full",
		"assistant:The deadlock: the cache worker holds the queue lock while it waits for the cache, "+
			"and the cache waits for the queue. A deadlock like this goes once the worker drops the lock first.",
		"user:"+filler+" there was a deadlock once "+filler,
		"assistant:the queue is full again, see the figures")
	sessionFile(t, filepath.Join(dir, "--b--", "docs.jsonl"), "/w/b", day.AddDate(0, 0, 1),
		"user:write the release notes for the payment module",
		"assistant:"+filler+" payment "+filler,
		"user:the invoice total is wrong after a refund",
		"assistant:The refund path subtracts the invoice total twice; the invoice keeps the refund and the total, so the fix is in the refund.",
		`tool:go test ./billing
--- FAIL: TestRefundTotal (0.00s)
    refund_test.go:31: total = 40, want 60
FAIL`)
	c, _ := newCatalogOf(t, dir)
	for _, tc := range []struct {
		q     string
		first []string // the best hits, best first
	}{
		{"deadlock", []string{"cache/e2"}},
		{"cache deadlock", []string{"cache/e2", "cache/e1"}},
		{`"cache worker"`, []string{"cache/e1", "cache/e2"}}, // once in each: the shorter first
		{"refund", []string{"docs/e4"}},
		{"invoice total", []string{"docs/e4", "docs/e3"}},
		{"refund total", []string{"docs/e4"}},
		{"TestRefundTotal", []string{"docs/e5"}},
		{"payment", []string{"docs/e1"}},
		{"the queue", []string{"cache/e2"}},
		{"refu*", []string{"docs/e4"}},
	} {
		got := search(t, c, tc.q, 10)
		var ids []string
		for _, h := range got.Hits {
			i, _ := c.Info(h.Key)
			ids = append(ids, strings.TrimSuffix(filepath.Base(i.Path), ".jsonl")+"/"+h.EntryID)
		}
		if len(ids) < len(tc.first) || !slices.Equal(ids[:len(tc.first)], tc.first) {
			t.Errorf("Search(%q) ranks %q first, want %q", tc.q, ids, tc.first)
		}
	}
}

// TestRankingQuality compares the catalog's ranking with FTS5's bm25()
// over the same entries, on 200 generated sessions and the corpus: most
// of the ten best hits of each query must be bm25()'s ten best too.
func TestRankingQuality(t *testing.T) {
	if raceDetector {
		// A search's goroutines are the same on the corpus's few files;
		// 200 sessions ranked against a reference took 93 s under -race.
		t.Skip("ranking is checked by the run without -race")
	}
	dir := t.TempDir()
	if _, err := sessiongen.Sessions(filepath.Join(dir, "gen"), 200, 5); err != nil {
		t.Fatal(err)
	}
	corpus, err := filepath.Glob("../testdata/corpus/*.jsonl")
	must(t, err)
	for _, f := range corpus {
		copyFile(t, f, filepath.Join(dir, "corpus", filepath.Base(f)))
	}
	c, _ := newCatalogOf(t, dir)
	// The whole history is ranked, however busy the machine is.
	c.walk.budget = time.Hour

	// The reference: one FTS5 table of every entry's words, in memory,
	// keyed as the catalog keys them, ranked by bm25() over the same
	// newest matches.
	ref, err := sql.Open("sqlite", "file:/rankref?vfs=memdb")
	must(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	_, err = ref.Exec(`CREATE VIRTUAL TABLE fts USING fts5(text, content='', contentless_delete=1, tokenize='ascii')`)
	must(t, err)
	names := map[int64]string{} // rowid → key/entry id
	for _, st := range c.st {
		rows, err := st.r.Query(`SELECT e.rid, f.path, e.id, e.line, e.part FROM entries e JOIN files f USING (fid) WHERE e.kind != ''`)
		must(t, err)
		type ent struct {
			rid        int64
			path, id   string
			line, part int
		}
		var ents []ent
		for rows.Next() {
			var e ent
			must(t, rows.Scan(&e.rid, &e.path, &e.id, &e.line, &e.part))
			ents = append(ents, e)
		}
		must(t, rows.Err())
		loaded := map[string]*session.Session{}
		for _, e := range ents {
			s := loaded[e.path]
			if s == nil {
				s, err = session.Load(e.path)
				must(t, err)
				loaded[e.path] = s
			}
			var text string
			for _, se := range s.Entries {
				if se.Line == e.line && se.Part == e.part {
					_, raw := EntryText(se)
					text = string(appendIndexText(nil, raw))
				}
			}
			_, err := ref.Exec(`INSERT INTO fts(rowid, text) VALUES(?, ?)`, e.rid, text)
			must(t, err)
			name := idOf(e.path) + "/" + e.id
			names[e.rid] = name
		}
	}

	queries := []string{
		"error", "test", "cache", "retry", "handler", "config", "schema", "token",
		"error handler", "test cache", "retry queue", "server client", "session token",
		"import path", "user account", "the", "is", "on",
		`"go test"`, `"the cache"`, `"error handler"`, `"on the server"`,
		"hand*", "ser*", "te*", "migrat*",
		"cache -test", "handler project:api",
	}
	var sum float64
	for _, q := range queries {
		got := search(t, c, q, 10)
		pq := parseQuery(q)
		for i := range pq.terms {
			if pq.terms[i].prefix {
				c.expand(context.Background(), &pq.terms[i])
			}
		}
		// The reference ranks the same candidates: the catalog's newest
		// matches, which the filters (project:) narrow.
		var cands []int64
		files, _ := c.searchable(pq)
		for i := range shards {
			cs, _, _, err := c.candidates(context.Background(), i, pq.expr(), 0, 1<<63-1, files, time.Now().Add(time.Hour))
			must(t, err)
			for _, k := range cs {
				cands = append(cands, k.rid)
			}
		}
		slices.Sort(cands)
		slices.Reverse(cands)
		cands = cands[:min(len(cands), maxCandidates)]
		in := map[int64]bool{}
		for _, r := range cands {
			in[r] = true
		}
		// A prefix is one phrase for bm25(), as FTS5 reads it.
		native := parseQuery(q)
		rows, err := ref.Query(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts), rowid DESC`, native.expr())
		must(t, err)
		var want []string
		for rows.Next() {
			var rid int64
			must(t, rows.Scan(&rid))
			if in[rid] && len(want) < 10 {
				want = append(want, names[rid])
			}
		}
		must(t, rows.Err())
		var have []string
		for _, h := range got.Hits {
			have = append(have, h.Key+"/"+h.EntryID)
		}
		common := 0
		for _, h := range have {
			if slices.Contains(want, h) {
				common++
			}
		}
		overlap := 1.0
		if len(want) > 0 {
			overlap = float64(common) / float64(len(want))
		}
		sum += overlap
		t.Logf("%-22s %d candidates, %d of bm25's best %d among ours", q, len(cands), common, len(want))
		// A phrase of common words and a short prefix agree least: bm25()
		// counts a phrase's occurrences, and the occurrences of every word
		// a prefix starts, where the tfBlob lists only words found more
		// than once ("te*" stands for "test", "text", "team"… and an
		// entry with each once counts 1 here, 3 for bm25()).
		if overlap < 0.2 {
			t.Errorf("Search(%q): %d of bm25()'s ten best among the ten best (%q; bm25: %q)", q, common, have, want)
		}
		if len(have) != len(want) {
			t.Errorf("Search(%q): %d hits, bm25() %d", q, len(have), len(want))
		}
	}
	mean := sum / float64(len(queries))
	t.Logf("on average %.0f%% of bm25()'s ten best hits are among the catalog's", mean*100)
	if mean < 0.85 {
		t.Errorf("on average %.0f%% of bm25()'s ten best hits are among the catalog's, want 85%% or more", mean*100)
	}
}
