package serve

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/archive"
	"github.com/piexport/piexport/catalog"
)

// A page is rendered once per state of its session: a second view, and a
// view after a restart, read it from the cache. A damaged cached page is
// never shown: it is made again.
func TestPageCache(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cache := t.TempDir()
	srv := start(t, Options{Paths: []string{dir}, CacheDir: cache})
	id := ids(t, srv)["Health endpoint"]

	// A page rendered is written to the cache anew (a temporary file
	// renamed): a page read from the cache keeps its file.
	_, first := get(t, srv.url+"s/"+id)
	pages := pageFiles(t, cache)
	if len(pages) != 1 {
		t.Fatalf("page cache holds %q, want one page", pages)
	}
	rendered := stat(t, pages[0])
	_, second := get(t, srv.url+"s/"+id)
	if !os.SameFile(rendered, stat(t, pages[0])) {
		t.Error("a second view rendered the page again")
	}
	if first != second || !strings.Contains(first, `"6eea0e7d"`) {
		t.Error("the cached page differs from the rendered one")
	}

	srv.cancel()
	<-srv.done
	srv.done <- nil
	srv = start(t, Options{Paths: []string{dir}, CacheDir: cache})
	if _, after := get(t, srv.url+"s/"+id); after != first {
		t.Error("the page after a restart differs")
	}
	if !os.SameFile(rendered, stat(t, pages[0])) {
		t.Error("a view after a restart rendered the page again")
	}

	// Flip bytes in the middle of the stored page.
	b, err := os.ReadFile(pages[0])
	must(t, err)
	copy(b[len(b)/2:], "<script>alert(1)</script>")
	must(t, os.WriteFile(pages[0], b, 0o600))
	if _, after := get(t, srv.url+"s/"+id); after != first {
		t.Error("a damaged cached page was served")
	}
	if again, err := os.ReadFile(pages[0]); err != nil || bytes.Equal(again, b) {
		t.Errorf("the damaged page is still in the cache (%v)", err)
	}
	if !strings.Contains(srv.log.String(), "damaged") {
		t.Errorf("the log does not say the page was damaged:\n%s", srv.log)
	}
}

func pageFiles(t *testing.T, cache string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(cache, "pages"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	return out
}

func stat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	must(t, err)
	return fi
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every file under dir with its size and time.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, p+" "+fi.Mode().String()+" "+fi.ModTime().Format(time.RFC3339Nano))
		if !d.IsDir() {
			out[len(out)-1] += fmt.Sprintf(" %d", fi.Size())
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// The server writes nothing but its cache: not the sessions' directory,
// not the home or temporary directory.
func TestWritesOnlyCache(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-a.jsonl")
	cache := filepath.Join(t.TempDir(), "cache")
	sessions := snapshot(t, dir)
	srv := start(t, Options{Paths: []string{dir}, CacheDir: cache})
	for title, id := range ids(t, srv) {
		if res, _ := get(t, srv.url+"s/"+id); res.StatusCode != 200 {
			t.Errorf("%s: %s", title, res.Status)
		}
	}
	get(t, srv.url+"search?q=endpoint")
	get(t, srv.url+"search?q=%22default+mux%22+after:2020")
	srv.cancel()
	<-srv.done
	srv.done <- nil
	if got := snapshot(t, dir); !slices.Equal(got, sessions) {
		t.Errorf("the sessions' directory changed:\n%s\nwas\n%s", strings.Join(got, "\n"), strings.Join(sessions, "\n"))
	}
	for _, d := range []string{home, tmp} {
		if got := snapshot(t, d); len(got) != 1 {
			t.Errorf("the server wrote to %s: %q", d, got)
		}
	}
	if len(pageFiles(t, cache)) != 2 {
		t.Errorf("the cache holds %d pages, want 2", len(pageFiles(t, cache)))
	}
	var leftovers []string
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			leftovers = append(leftovers, p)
		}
		return err
	})
	if len(leftovers) > 0 {
		t.Errorf("temporary files left in the cache: %q", leftovers)
	}
}

// Two servers and an archive run share one cache at once: each shows
// every session as it is, and what one rendered the others may read.
func TestSharedCacheServers(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-a.jsonl", "pi-v3-sdk-compaction-custom.jsonl")
	cache := t.TempDir()
	opt := Options{Paths: []string{dir}, CacheDir: cache}
	a, b := start(t, opt), start(t, opt)
	pages, err := catalog.OpenPages(cache, catalog.PagesBytes)
	must(t, err)
	files, err := catalog.Find([]string{dir})
	must(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := archive.Build(context.Background(), filepath.Join(t.TempDir(), "archive"), files, archive.Options{Pages: pages})
		done <- err
	}()
	for _, srv := range []*running{a, b} {
		m := ids(t, srv)
		if len(m) != 3 {
			t.Errorf("a server lists %v, want 3 sessions", m)
		}
		for title, id := range m {
			res, page := get(t, srv.url+"s/"+id)
			if res.StatusCode != 200 || !strings.Contains(page, "<title>"+title+"</title>") {
				t.Errorf("%s: %s, the page of %q is not the session's", srv.url, res.Status, title)
			}
		}
		if _, found := get(t, srv.url+"search?q=registered+on+the+default+mux"); !strings.Contains(found, "#6eea0e7d") {
			t.Errorf("%s: search does not find the entry", srv.url)
		}
	}
	if err := <-done; err != nil {
		t.Errorf("the archive run: %v", err)
	}
	for _, srv := range []*running{a, b} {
		for _, line := range strings.Split(srv.log.String(), "\n") {
			if strings.Contains(line, "warning") && !strings.Contains(line, "broken.jsonl") {
				t.Errorf("a server warned: %s", line)
			}
		}
	}
}

// TestUnopenableCacheFallsBackToMemory: a cache directory that cannot be
// made or opened (here a file stands where it should be) does not stop
// the server: it keeps its catalog and pages in memory, and says so.
func TestUnopenableCacheFallsBackToMemory(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cache := filepath.Join(t.TempDir(), "cache")
	must(t, os.WriteFile(cache, []byte("not a directory"), 0o600))
	srv := start(t, Options{Paths: []string{dir}, CacheDir: cache})
	id := ids(t, srv)["Health endpoint"]
	if res, page := get(t, srv.url+"s/"+id); res.StatusCode != 200 || !strings.Contains(page, `"6eea0e7d"`) {
		t.Errorf("a page with the cache unopenable: %d", res.StatusCode)
	}
	log := srv.log.String()
	if !strings.Contains(log, "the catalog is kept in memory instead") || !strings.Contains(log, "pages are kept in memory instead") {
		t.Errorf("the log does not say the cache is kept in memory:\n%s", log)
	}
	if b, err := os.ReadFile(cache); err != nil || string(b) != "not a directory" {
		t.Errorf("the file in the cache's place was changed: %q, %v", b, err)
	}
}

// TestErrorStatuses: errors become statuses in one place. What is not
// there answers 404; anything else 500, with a page in the index's style
// that names the problem, logged (a file that could not be looked at
// answered 404 "moved or deleted").
func TestErrorStatuses(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	s, hs, log := testServer(t, dir, "", true, Options{})
	byName := map[string]string{}
	for _, i := range s.cat.List() {
		byName[filepath.Base(i.Path)] = i.ID
	}
	loop := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	must(t, os.Remove(loop))
	must(t, os.Symlink(filepath.Base(loop), loop)) // a link to itself
	must(t, os.Remove(filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-earth0-tiny.jsonl")))
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/s/0123456789ab", 404, "No session or page has this address"},
		{"/s/" + byName["pi-v3-earth0-tiny.jsonl"], 404, "No session or page has this address"},
		{"/s/" + byName["pi-v3-sdk-branches-labels.jsonl"], 500, "too many levels of symbolic links"},
	} {
		code, body := fetch(t, hs.URL+tc.path)
		if code != tc.code || !strings.Contains(body, tc.want) || !strings.Contains(body, `href="/"`) {
			t.Errorf("GET %s: %d, want %d with %q and a link to the index:\n%s", tc.path, code, tc.code, tc.want, body)
		}
	}
	if !strings.Contains(log.String(), "error: ") || !strings.Contains(log.String(), "too many levels of symbolic links") {
		t.Errorf("the 500 is not logged:\n%s", log)
	}
}
