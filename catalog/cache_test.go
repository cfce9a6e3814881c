package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/usage"
)

// openCache opens a catalog of paths with its cache in dir.
func openCache(t *testing.T, dir string, paths ...string) (*Catalog, []string) {
	t.Helper()
	var warnings []string
	var mu sync.Mutex
	c, err := New(context.Background(), paths, Options{CacheDir: dir, Warn: func(s string) {
		mu.Lock()
		warnings = append(warnings, s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, warnings
}

// fileDump is everything the store holds of one file, in a form that can
// be compared.
type fileDump struct {
	Summary  string
	Name     string
	First    string
	Branches int
	ReadSize int64
	Lines    int
	Sum      string
	Entries  []string
	Usage    []usage.Record
}

func dump(t *testing.T, c *Catalog, path string) fileDump {
	t.Helper()
	key, err := filepath.EvalSymlinks(path)
	must(t, err)
	st, err := c.store(shardOf(key))
	must(t, err)
	row, err := st.file(context.Background(), key)
	must(t, err)
	if row == nil {
		t.Fatalf("%s is not in the store", path)
	}
	s := row.Summary
	s.Usage.Cost = math.Round(s.Usage.Cost*1e9) / 1e9 // sums of parts round differently
	sum, _ := json.Marshal(s)
	d := fileDump{Summary: string(sum), Name: row.Name, First: row.FirstTitle, Branches: row.Branches,
		ReadSize: row.ReadSize, Lines: row.Lines, Sum: fmt.Sprintf("%x", row.Sum)}
	rows, err := st.r.Query(`SELECT line, part, id, parent, branch, kind, off, len, rid >> 20
		FROM entries WHERE fid = ? ORDER BY line, part`, row.FID)
	must(t, err)
	for rows.Next() {
		var line, part, branch, off, length, ms int64
		var id, parent, kind string
		must(t, rows.Scan(&line, &part, &id, &parent, &branch, &kind, &off, &length, &ms))
		d.Entries = append(d.Entries, fmt.Sprintf("%d.%d %s<-%s b%d %s @%d+%d t%d", line, part, id, parent, branch, kind, off, length, ms))
	}
	must(t, rows.Err())
	urows, err := st.r.Query(`SELECT day, model, messages, input, output, cache_read, cache_write, cost FROM usage WHERE fid = ? ORDER BY day, model`, row.FID)
	must(t, err)
	for urows.Next() {
		var u usage.Record
		must(t, urows.Scan(&u.Day, &u.Model, &u.Messages, &u.Input, &u.Output, &u.CacheRead, &u.CacheWrite, &u.Cost))
		u.Cost = math.Round(u.Cost*1e9) / 1e9 // sums of parts round differently
		d.Usage = append(d.Usage, u)
	}
	must(t, urows.Err())
	return d
}

func TestCachePersists(t *testing.T) {
	src, cache := t.TempDir(), t.TempDir()
	if _, err := sessiongen.Sessions(src, 6, 3); err != nil {
		t.Fatal(err)
	}
	c1, warnings := openCache(t, cache, src)
	if len(warnings) > 0 {
		t.Errorf("warnings on a new cache: %q", warnings)
	}
	first := c1.List()
	must(t, c1.Close())

	c2, err := Open(context.Background(), []string{src}, Options{CacheDir: cache})
	must(t, err)
	defer c2.Close()
	if diff := cmp.Diff(first, c2.List(), cmp.AllowUnexported(Info{})); diff != "" {
		t.Errorf("reopened catalog differs (-first +reopened):\n%s", diff)
	}
	if changed, err := c2.Update(context.Background()); err != nil || changed {
		t.Errorf("Update of an unchanged history = %v, %v; want nothing to read", changed, err)
	}

	// The cache is keyed on what it holds, not on the program: another
	// build keeps it as it is.
	if !strings.HasPrefix(dbName("", 0), fmt.Sprintf("catalog-v%d.", schemaVersion)) {
		t.Errorf("database name %q does not carry schema version %d", dbName("", 0), schemaVersion)
	}
}

// Databases of other schema versions are left to the builds that use
// them, and removed once unused for two weeks; this version's is kept.
func TestOldSchemaVersions(t *testing.T) {
	src, cache := t.TempDir(), t.TempDir()
	if _, err := sessiongen.Sessions(src, 2, 3); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-oldDBAge - time.Hour)
	files := map[string]time.Time{
		"catalog-v2.0.db":              time.Now(),
		"catalog-v2.0.db-wal":          time.Now(),
		"catalog-v1.0.db":              old,
		"catalog-v1.0.db-wal":          old,
		"catalog-v1-0a1b2c3d4e5f.1.db": old,
		"catalog-v9.1.db":              old, // a newer build's, unused as long
		"notes.db":                     old,
	}
	for name, mtime := range files {
		write(t, filepath.Join(cache, name), "not touched")
		must(t, os.Chtimes(filepath.Join(cache, name), mtime, mtime))
	}
	c, warnings := openCache(t, cache, src)
	if len(warnings) > 0 {
		t.Errorf("warnings: %q", warnings)
	}
	c.Close()
	for name := range files {
		_, err := os.Stat(filepath.Join(cache, name))
		gone := errors.Is(err, os.ErrNotExist)
		want := files[name].Equal(old) && name != "notes.db"
		if gone != want {
			t.Errorf("%s: removed %v, want %v", name, gone, want)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, dbName("", 0))); err != nil {
		t.Errorf("this version's database: %v", err)
	}
}

// splitLines returns the first n lines of b and the rest.
func splitLines(b []byte, n int) ([]byte, []byte) {
	i := 0
	for k := 0; k < n; k++ {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return b, nil
		}
		i += j + 1
	}
	return b[:i], b[i:]
}

// A file that grows is read from where it was, and what the store then
// holds is exactly what reading the whole file gives.
func TestAppendedRead(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen.jsonl")
	must(t, sessiongen.WriteFile(gen, sessiongen.Options{Seed: 4, TargetBytes: 400 << 10, Branches: true, Compactions: true, Labels: true}))
	for _, tc := range []struct {
		name string
		src  string
		cuts []int
	}{
		{"branches", filepath.Join(corpus, "pi-v3-sdk-branches-labels.jsonl"), []int{2, 5, 9}},
		{"compaction", filepath.Join(corpus, "pi-v3-sdk-compaction-custom.jsonl"), []int{3, 12}},
		{"omp", filepath.Join(corpus, "omp-v3-akasha-researcher-b.jsonl"), []int{4, 40}},
		{"usage", filepath.Join(corpus, "pi-v3-kimchi-statsuline.jsonl"), []int{3, 8}},
		{"generated", gen, []int{10, 40, 70}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(tc.src)
			must(t, err)
			dir, cache, whole := t.TempDir(), t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			head, _ := splitLines(data, tc.cuts[0])
			write(t, path, string(head))
			c, _ := openCache(t, cache, dir)
			for _, cut := range append(tc.cuts[1:], -1) {
				part := data
				if cut > 0 {
					part, _ = splitLines(data, cut)
				}
				appendBytes(t, path, part[len(head):])
				head = part
				if _, err := c.Refresh(context.Background()); err != nil {
					t.Fatal(err)
				}
				if p := c.Progress(); p.Done != 1 || p.Grown != 1 {
					t.Errorf("growing to %d bytes: the file was read whole", len(part))
				}
			}
			got := dump(t, c, path)

			write(t, filepath.Join(whole, "s.jsonl"), string(data))
			w, _ := openCache(t, t.TempDir(), whole)
			want := dump(t, w, filepath.Join(whole, "s.jsonl"))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("appended reads differ from a whole read (-whole +appended):\n%s", diff)
			}
		})
	}
}

func appendBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.Write(b)
	must(t, err)
	must(t, f.Close())
}

// A file rewritten to the same size with its time set back is seen as
// changed (its change time moved), and one whose head changed before it
// grew is read whole.
func TestRewriteSeen(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	data, err := os.ReadFile(filepath.Join(corpus, "pi-v3-sdk-branches-labels.jsonl"))
	must(t, err)
	write(t, path, string(data))
	c, _ := openCache(t, cache, dir)
	if r := search(t, c, "quokka", 10); len(r.Hits) != 0 {
		t.Fatalf("quokka found before it was written: %+v", r.Hits)
	}

	// Same size, same modification time, other words.
	changed := bytes.Replace(data, []byte("registered"), []byte("marsupial7"), 1)
	if len(changed) != len(data) {
		t.Fatal("the test's replacement changes the size")
	}
	testtool.SameSizeRewrite(t, path, changed)
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := search(t, c, "marsupial7", 10); len(r.Hits) != 1 {
		t.Errorf("after a same-size rewrite: %d hits, want 1", len(r.Hits))
	}
	if r := search(t, c, "registered", 10); len(r.Hits) != 0 && strings.Contains(r.Hits[0].Snippet, "registered on") {
		t.Errorf("the old text is still found: %+v", r.Hits)
	}

	// The head changes and the file grows: an appended read would keep
	// the old head's entries.
	grown := bytes.Replace(changed, []byte("marsupial7"), []byte("wombat4life"), 1)
	grown = append(grown, `{"type":"message","id":"zz000001","parentId":"e6a3e24e","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"koalas too"}}`+"\n"...)
	write(t, path, string(grown))
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := c.Progress(); p.Done != 1 || p.Grown != 0 {
		t.Error("a file whose head changed was read from where it was")
	}
	for q, want := range map[string]int{"wombat4life": 1, "marsupial7": 0, "koalas": 1} {
		if r := search(t, c, q, 10); len(r.Hits) != want {
			t.Errorf("Search(%q) = %d hits, want %d", q, len(r.Hits), want)
		}
	}
}

// The cache is only ever a cache: deleted, cut short or overwritten with
// garbage, it is made anew (with one warning when it was damaged) and
// every session is there, as it is.
func TestDamagedCache(t *testing.T) {
	src := t.TempDir()
	if _, err := sessiongen.Sessions(src, 8, 5); err != nil {
		t.Fatal(err)
	}
	ref, _ := openCache(t, t.TempDir(), src)
	want := ref.List()
	wantHits := hitKeys(search(t, ref, "error", 50))
	if len(wantHits) == 0 {
		t.Fatal("the reference finds nothing")
	}

	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, db string)
		warns  bool
	}{
		{"deleted", func(t *testing.T, db string) { must(t, removeDB(db)) }, false},
		{"emptied", func(t *testing.T, db string) { must(t, os.Truncate(db, 0)) }, false},
		{"truncated", func(t *testing.T, db string) {
			fi, err := os.Stat(db)
			must(t, err)
			must(t, os.Truncate(db, fi.Size()/2))
		}, true},
		{"garbage", func(t *testing.T, db string) {
			must(t, os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 20000), 0o600))
		}, true},
		{"garbage inside", func(t *testing.T, db string) {
			f, err := os.OpenFile(db, os.O_WRONLY, 0)
			must(t, err)
			fi, err := f.Stat()
			must(t, err)
			for off := int64(4096); off < fi.Size(); off += 4096 * 3 {
				_, err = f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), off)
				must(t, err)
			}
			must(t, f.Close())
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			c, _ := openCache(t, cache, src)
			must(t, c.Close())
			db := filepath.Join(cache, dbName("", 0))
			tc.damage(t, db)

			var warnings []string
			var mu sync.Mutex
			c, err := Open(context.Background(), []string{src}, Options{CacheDir: cache, Warn: func(s string) {
				mu.Lock()
				warnings = append(warnings, s)
				mu.Unlock()
			}})
			must(t, err)
			defer c.Close()
			_, err = c.Update(context.Background())
			must(t, err)
			// A search and a second look reach every page of the database.
			got := hitKeys(search(t, c, "error", 50))
			if _, err := c.Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, c.List(), cmp.AllowUnexported(Info{})); diff != "" {
				t.Errorf("sessions differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantHits, got); diff != "" {
				t.Errorf("hits differ (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case tc.warns && len(warnings) != 1:
				t.Errorf("warnings = %q, want one", warnings)
			case !tc.warns && len(warnings) != 0:
				t.Errorf("warnings = %q, want none", warnings)
			}
			for _, w := range warnings {
				if !strings.Contains(w, db) || !strings.Contains(w, "rebuilt") {
					t.Errorf("warning %q does not name the cache and say it is rebuilt", w)
				}
			}
		})
	}
}

func hitKeys(r Results) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.String())
	}
	return out
}

// Two catalogs (two servers) and a third reading at once, on one cache,
// while files grow: each ends with every session as it is.
func TestSharedCache(t *testing.T) {
	src, cache := t.TempDir(), t.TempDir()
	paths, err := sessiongen.Sessions(src, 12, 9)
	must(t, err)
	ctx := context.Background()
	var cats []*Catalog
	for range 3 {
		c, err := Open(ctx, []string{src}, Options{CacheDir: cache})
		must(t, err)
		defer c.Close()
		cats = append(cats, c)
	}
	line := func(i, k int) string {
		return fmt.Sprintf(`{"type":"message","id":"add%02d%03d","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"marsupial%d"}}`+"\n", i, k, k)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, c := range cats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				if _, err := c.Refresh(ctx); err != nil {
					errs <- err
				}
			}
		}()
	}
	for k := range 3 {
		for i, p := range paths[:4] {
			appendBytes(t, p, []byte(line(i, k)))
		}
		time.Sleep(30 * time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for n, c := range cats {
		if _, err := c.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		for k := range 3 {
			r := search(t, c, fmt.Sprintf("marsupial%d", k), 50)
			if len(r.Hits) != 4 {
				t.Errorf("catalog %d: marsupial%d in %d entries, want 4", n, k, len(r.Hits))
			}
		}
		for _, i := range c.List() {
			fi, err := os.Stat(i.Path)
			must(t, err)
			if !i.Indexed || i.Size != fi.Size() {
				t.Errorf("catalog %d: %s indexed %v at %d bytes, file has %d", n, i.Path, i.Indexed, i.Size, fi.Size())
			}
		}
	}
}
