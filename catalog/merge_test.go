package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/internal/sessiongen"
)

// automergeOf reads FTS5's automerge setting of shard i.
func automergeOf(t *testing.T, c *Catalog, i int) int {
	t.Helper()
	st, err := c.store(i)
	must(t, err)
	var am int
	must(t, st.r.QueryRow(`SELECT v FROM fts_config WHERE k = 'automerge'`).Scan(&am))
	return am
}

// A bulk read merges the index only once it is over (Tidy), and finds
// what a usual read finds, before and after.
func TestBulkRead(t *testing.T) {
	src := t.TempDir()
	paths, err := sessiongen.Sessions(filepath.Join(t.TempDir(), "gen"), 40, 7)
	must(t, err)
	ctx := context.Background()
	open := func(bulk int64) *Catalog {
		t.Helper()
		c, err := Open(ctx, []string{src}, Options{CacheDir: t.TempDir()})
		must(t, err)
		t.Cleanup(func() { c.Close() })
		c.bulk = bulk
		return c
	}
	bulk, usual := open(1), open(1<<62)
	// Files arrive in five steps: each update writes a segment of its
	// own in each shard.
	for i, p := range paths {
		copyFile(t, p, filepath.Join(src, filepath.Base(p)))
		if (i+1)%8 != 0 {
			continue
		}
		for _, c := range []*Catalog{bulk, usual} {
			_, err := c.Refresh(ctx)
			must(t, err)
		}
	}
	queries := []string{"the", "error test", `"the request"`, "hand*", "cache -error"}
	same := func(when string) {
		t.Helper()
		for _, q := range queries {
			b, u := search(t, bulk, q, 20), search(t, usual, q, 20)
			if diff := cmp.Diff(hitKeys(u), hitKeys(b)); diff != "" {
				t.Errorf("%s, %q: a bulk read finds otherwise (-usual +bulk):\n%s", when, q, diff)
			}
			if len(u.Hits) == 0 {
				t.Errorf("%s, %q finds nothing: the test shows nothing", when, q)
			}
		}
	}
	same("before merging")
	for i := range shards {
		if am := automergeOf(t, bulk, i); am != autoMerge {
			t.Errorf("shard %d merges with automerge %d after a bulk read, want %d", i, am, autoMerge)
		}
	}
	st, err := bulk.store(0)
	must(t, err)
	if more, err := st.mergeStep(ctx); err != nil || !more {
		t.Fatalf("a bulk read left nothing to merge (%v, %v)", more, err)
	}
	must(t, bulk.Tidy(ctx))
	for i := range shards {
		st, err := bulk.store(i)
		must(t, err)
		if more, err := st.mergeStep(ctx); err != nil || more {
			t.Errorf("shard %d: something to merge after Tidy (%v, %v)", i, more, err)
		}
	}
	same("after merging")
}

// A process that stops during a bulk read leaves merging off; the next
// to open the cache turns it on again.
func TestBulkReadStopped(t *testing.T) {
	cache := t.TempDir()
	c, err := Open(context.Background(), nil, Options{CacheDir: cache})
	must(t, err)
	st, err := c.store(1)
	must(t, err)
	must(t, setMerging(context.Background(), st.w, true))
	if am := automergeOf(t, c, 1); am != 0 {
		t.Fatalf("automerge %d during a bulk read, want 0", am)
	}
	must(t, c.Close())
	if _, err := os.Stat(filepath.Join(cache, dbName("", 1))); err != nil {
		t.Fatal(err)
	}
	c, err = Open(context.Background(), nil, Options{CacheDir: cache})
	must(t, err)
	defer c.Close()
	if am := automergeOf(t, c, 1); am != autoMerge {
		t.Errorf("automerge %d after reopening, want %d", am, autoMerge)
	}
}
