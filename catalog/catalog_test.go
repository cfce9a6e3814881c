package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

const corpus = "../testdata/corpus"

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "sessions")
	outside := filepath.Join(dir, "outside")
	write(t, filepath.Join(root, "--a--", "2.jsonl"), "x")
	write(t, filepath.Join(root, "--a--", "1.jsonl"), "x")
	write(t, filepath.Join(root, "--b--", "deep", "3.jsonl"), "x")
	write(t, filepath.Join(root, "--b--", "notes.txt"), "x")
	write(t, filepath.Join(outside, "secret.jsonl"), "x")
	write(t, filepath.Join(dir, "given.log"), "x")
	// Links out of the root, to a file and to a directory: neither is
	// followed. A link inside the root is found by its real name only.
	must(t, os.Symlink(filepath.Join(outside, "secret.jsonl"), filepath.Join(root, "--a--", "link.jsonl")))
	must(t, os.Symlink(outside, filepath.Join(root, "--c--")))
	must(t, os.Symlink(filepath.Join(root, "--a--", "1.jsonl"), filepath.Join(root, "--b--", "same.jsonl")))

	got, err := Find([]string{root, filepath.Join(dir, "given.log"), filepath.Join(root, "--a--", "1.jsonl"), root})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "given.log"),
		filepath.Join(root, "--a--", "1.jsonl"),
		filepath.Join(root, "--a--", "2.jsonl"),
		filepath.Join(root, "--b--", "deep", "3.jsonl"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("Find =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if _, err := Find([]string{filepath.Join(dir, "missing")}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Find(missing) error = %v, want one naming the path", err)
	}
}

// A session file named brings the transcripts of its omp sub-agents
// (and theirs) from the folder beside it, as its directory would; a
// folder that is a link out of there is not followed.
func TestFindSubAgentsOfNamedFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	write(t, filepath.Join(dir, "p.jsonl"), "x")
	write(t, filepath.Join(dir, "p", "A.jsonl"), "x")
	write(t, filepath.Join(dir, "p", "A", "B.jsonl"), "x")
	write(t, filepath.Join(dir, "p", "notes.txt"), "x")
	write(t, filepath.Join(dir, "q.jsonl"), "x")
	write(t, filepath.Join(outside, "secret.jsonl"), "x")
	must(t, os.Symlink(outside, filepath.Join(dir, "q")))

	for _, named := range [][]string{
		{filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")},
		{filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "p", "A.jsonl"), filepath.Join(dir, "q.jsonl")},
	} {
		got, err := Find(named)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			filepath.Join(dir, "p.jsonl"),
			filepath.Join(dir, "p", "A.jsonl"),
			filepath.Join(dir, "p", "A", "B.jsonl"),
			filepath.Join(dir, "q.jsonl"),
		}
		if !slices.Equal(got, want) {
			t.Errorf("Find(%v) =\n%s\nwant\n%s", named, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// search is Catalog.Search for a test: a search that fails fails the
// test, so that "no hits" means no hits.
func search(t testing.TB, c *Catalog, q string, limit int) Results {
	t.Helper()
	r, err := c.Search(context.Background(), q, limit)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	return r
}

// newCatalog copies corpus files into a fresh directory and catalogs it.
func newCatalog(t *testing.T, names ...string) (*Catalog, string) {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		copyFile(t, filepath.Join(corpus, n), filepath.Join(dir, "--proj--", n))
	}
	c, err := New(context.Background(), []string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, dir
}

func idByName(t *testing.T, c *Catalog, name string) string {
	t.Helper()
	for _, i := range c.List() {
		if filepath.Base(i.Path) == name {
			return i.ID
		}
	}
	t.Fatalf("%s is not in the catalog", name)
	return ""
}

func TestCatalogLoadCaches(t *testing.T) {
	c, dir := newCatalog(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	id := idByName(t, c, "pi-v3-sdk-branches-labels.jsonl")
	info, _ := c.Info(id)
	if info.Summary.Title != "Health endpoint" || info.Cwd != "/home/dev/projects/webapp" || info.Summary.Leaves != 3 {
		t.Errorf("Info = title %q cwd %q leaves %d", info.Summary.Title, info.Cwd, info.Summary.Leaves)
	}

	s1, _, err := c.Load(id)
	must(t, err)
	s2, _, err := c.Load(id)
	must(t, err)
	if s1 != s2 {
		t.Error("a second Load of an unchanged file loaded it again")
	}

	// A change of the file is seen by the next Load, which also updates
	// the summary and the search index.
	path := filepath.Join(dir, "--proj--", "pi-v3-sdk-branches-labels.jsonl")
	appendLine(t, path, `{"type":"message","id":"zz000001","parentId":"e6a3e24e","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"quokkas are marsupials"}}`)
	s3, info3, err := c.Load(id)
	must(t, err)
	if s3 == s1 || s3.Entry("zz000001") == nil {
		t.Fatal("Load after a change returned the old session")
	}
	if info3.Summary.Entries != info.Summary.Entries+1 {
		t.Errorf("entries after the change = %d, want %d", info3.Summary.Entries, info.Summary.Entries+1)
	}
	if got, _ := c.Info(id); got.Version() != info3.Version() {
		t.Error("Info was not updated by the reload")
	}
	if r := search(t, c, "quokkas", 10); len(r.Hits) != 1 || r.Hits[0].EntryID != "zz000001" {
		t.Errorf("Search after the change = %+v, want the new entry", r)
	}
}

func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(line + "\n")
	must(t, err)
	must(t, f.Close())
	// Some file systems keep coarse times; make the change visible.
	fi, err := os.Stat(path)
	must(t, err)
	must(t, os.Chtimes(path, fi.ModTime(), fi.ModTime().Add(time.Second)))
}

func TestCatalogConcurrentLoad(t *testing.T) {
	c, _ := newCatalog(t, "pi-v3-earth0-a.jsonl")
	id := idByName(t, c, "pi-v3-earth0-a.jsonl")
	var wg sync.WaitGroup
	got := make([]*session.Session, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _, err := c.Load(id)
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		}()
	}
	wg.Wait()
	for _, s := range got[1:] {
		if s != got[0] {
			t.Fatal("concurrent Loads of one file returned different sessions: it was loaded more than once")
		}
	}
}

func TestCatalogLRUBound(t *testing.T) {
	dir := t.TempDir()
	paths, err := sessiongen.Sessions(dir, 5, 1)
	must(t, err)
	c, err := New(context.Background(), []string{dir}, Options{MaxLoaded: 2})
	must(t, err)
	defer c.Close()
	for _, i := range c.List() {
		if _, _, err := c.Load(i.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.lru.len(); n != 2 {
		t.Errorf("sessions kept = %d, want 2", n)
	}
	if len(c.List()) != len(paths) {
		t.Errorf("summaries = %d, want %d", len(c.List()), len(paths))
	}
}

func TestCatalogRefresh(t *testing.T) {
	c, dir := newCatalog(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	changed, err := c.Refresh(context.Background())
	must(t, err)
	if changed {
		t.Error("Refresh with nothing changed reported a change")
	}
	must(t, os.Remove(filepath.Join(dir, "--proj--", "pi-v3-earth0-tiny.jsonl")))
	copyFile(t, filepath.Join(corpus, "pi-v3-sdk-compaction-custom.jsonl"), filepath.Join(dir, "--other--", "new.jsonl"))
	write(t, filepath.Join(dir, "--other--", "bad.jsonl"), "")
	changed, err = c.Refresh(context.Background())
	must(t, err)
	if !changed {
		t.Error("Refresh did not report the changes")
	}
	var names []string
	for _, i := range c.List() {
		names = append(names, filepath.Base(i.Path))
		if filepath.Base(i.Path) == "bad.jsonl" {
			if i.Err == nil || !strings.Contains(i.Err.Error(), "bad.jsonl") || !strings.Contains(i.Err.Error(), "not a pi session") {
				t.Errorf("bad file error = %v, want one naming it", i.Err)
			}
		}
	}
	want := []string{"bad.jsonl", "new.jsonl", "pi-v3-sdk-branches-labels.jsonl"}
	if !slices.Equal(names, want) {
		t.Errorf("after Refresh: %q, want %q", names, want)
	}
}

// A directory that disappears takes its sessions with it; the others stay.
func TestCatalogRootGone(t *testing.T) {
	a, b := t.TempDir(), filepath.Join(t.TempDir(), "b")
	copyFile(t, filepath.Join(corpus, "pi-v3-earth0-tiny.jsonl"), filepath.Join(a, "x.jsonl"))
	copyFile(t, filepath.Join(corpus, "pi-v3-earth0-tiny.jsonl"), filepath.Join(b, "y.jsonl"))
	c, err := New(context.Background(), []string{a, b}, Options{})
	must(t, err)
	defer c.Close()
	must(t, os.RemoveAll(b))
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l := c.List(); len(l) != 1 || filepath.Base(l[0].Path) != "x.jsonl" {
		t.Errorf("after removing a root: %+v", l)
	}
	if _, err := New(context.Background(), []string{b}, Options{}); err == nil {
		t.Error("New with a missing path succeeded")
	}
}

// A file of a catalogued directory replaced by a link out of it must not
// be read through the link.
func TestCatalogSymlinkSwap(t *testing.T) {
	c, dir := newCatalog(t, "pi-v3-earth0-tiny.jsonl")
	id := idByName(t, c, "pi-v3-earth0-tiny.jsonl")
	secret := filepath.Join(t.TempDir(), "secret.jsonl")
	copyFile(t, filepath.Join(corpus, "pi-v3-sdk-branches-labels.jsonl"), secret)
	path := filepath.Join(dir, "--proj--", "pi-v3-earth0-tiny.jsonl")
	must(t, os.Remove(path))
	must(t, os.Symlink(secret, path))
	if s, _, err := c.Load(id); err == nil {
		t.Fatalf("Load through a link out of the root succeeded (%d entries)", len(s.Entries))
	}
}

func TestCatalogFS(t *testing.T) {
	c, err := New(context.Background(), nil, Options{FS: piexport.Examples()})
	must(t, err)
	list := c.List()
	if len(list) != 3 {
		t.Fatalf("examples: %d sessions, want 3", len(list))
	}
	for _, i := range list {
		if i.Err != nil {
			t.Errorf("%s: %v", i.Path, i.Err)
		}
		if _, _, err := c.Load(i.ID); err != nil {
			t.Error(err)
		}
	}
}

// A known phrase of a real session finds its entry.
func TestCatalogSearchCorpus(t *testing.T) {
	c, _ := newCatalog(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-a.jsonl")
	id := idByName(t, c, "pi-v3-sdk-branches-labels.jsonl")
	for _, tc := range []struct{ q, entry string }{
		{"registered on the default mux", "6eea0e7d"}, // assistant text, words
		{`"the default MUX after"`, "6eea0e7d"},       // a phrase, case folded
		{"go test ./...", "b9c7df23"},                 // a tool's command
		{"cmd/api/main.go", "cf95108a"},               // a path
		{"health endpoint", "e6a3e24e"},               // the session's name
	} {
		r := search(t, c, tc.q, 50)
		found := false
		for _, h := range r.Hits {
			if h.Key == id && h.EntryID == tc.entry {
				found = true
			}
		}
		if !found {
			t.Errorf("Search(%q) = %+v, want entry %s", tc.q, r.Hits, tc.entry)
		}
	}
}
