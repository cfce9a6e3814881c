package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/testtool"
)

// testServer is a server over dir's sessions, its pages cached in cache
// ("" for none), answering through httptest; read says whether the
// catalog reads the sessions before the server starts.
func testServer(t *testing.T, dir, cache string, read bool, opt Options) (*server, *httptest.Server, *syncBuffer) {
	t.Helper()
	copt := catalog.Options{Mask: opt.Mask}
	cat, err := catalog.Open(context.Background(), []string{dir}, copt)
	must(t, err)
	t.Cleanup(func() { cat.Close() })
	if read {
		_, err = cat.Update(context.Background())
		must(t, err)
	}
	var pages *catalog.Pages
	if cache != "" {
		pages, err = catalog.OpenPages(cache, catalog.PagesBytes)
		must(t, err)
	}
	log := &syncBuffer{}
	s := newServer(cat, pages, opt, &logger{w: log}, "")
	hs := httptest.NewServer(s.handler())
	t.Cleanup(hs.Close)
	return s, hs, log
}

// fetch GETs url and returns the status and the body.
func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Error(err)
	}
	return res.StatusCode, string(b)
}

// TestWaitingViewsGetThePage (issue 21, item 7): views that wait for
// another's rendering of a page that then is not in the cache (its
// session changed meanwhile, the cache could not keep it) still get the
// page: every 200 carries it.
func TestWaitingViewsGetThePage(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	s, hs, _ := testServer(t, dir, t.TempDir(), true, Options{})
	var id string
	for _, i := range s.cat.List() {
		if i.Err == nil {
			id = i.ID
		}
	}
	info, err := s.cat.Current(context.Background(), id)
	must(t, err)
	key := s.pageKey(info.Hash, s.links(id))
	joined := make(chan string, 64)
	s.flights.joined = func(key string) { joined <- key }
	// A rendering under way that will keep nothing.
	fl, first := s.flights.start(key)
	if !first {
		t.Fatal("a flight was under way already")
	}
	const views = 8
	var wg sync.WaitGroup
	bodies := make([]string, views)
	codes := make([]int, views)
	for i := range views {
		wg.Go(func() { codes[i], bodies[i] = fetch(t, hs.URL+"/s/"+id) })
	}
	for range views { // every view waits for the rendering
		if k := <-joined; k != key {
			t.Fatalf("a view waited for %q, want %q", k, key)
		}
	}
	s.flights.end(key, fl)
	wg.Wait()
	for i := range views {
		if codes[i] != 200 || !strings.Contains(bodies[i], `"6eea0e7d"`) {
			t.Errorf("view %d: %d with %d bytes, not the page", i, codes[i], len(bodies[i]))
		}
	}
}

// TestPagesWhileTheSessionGrows is the reproduction of item 7: a session
// appended to every few tens of milliseconds while several readers load
// its page; every answer is the page.
func TestPagesWhileTheSessionGrows(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	s, hs, _ := testServer(t, dir, t.TempDir(), true, Options{})
	var id, path string
	for _, i := range s.cat.List() {
		if i.Err == nil {
			id, path = i.ID, i.Path
		}
	}
	stop := make(chan struct{})
	var grower sync.WaitGroup
	grower.Go(func() {
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-time.After(30 * time.Millisecond):
			}
			appendTo(t, path, `{"type":"custom","customType":"tick","data":{"n":1}}`+"\n")
		}
	})
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := 0
	for range 6 {
		wg.Go(func() {
			for range 8 {
				code, body := fetch(t, hs.URL+"/s/"+id)
				if code == 200 && !strings.Contains(body, "</html>") {
					mu.Lock()
					bad++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	grower.Wait()
	if bad > 0 {
		t.Errorf("%d of 48 answers were 200 without the page", bad)
	}
}

// TestRedactingServerShowsNoPaths (issue 21, items 5 and 11): a server
// that masks shows the paths of the files it has not read yet, and of
// those it cannot read, masked; its project: filter does not confirm a
// masked word; a search made before every session is read says its
// results may be incomplete; and it keeps no page on disk.
func TestRedactingServerShowsNoPaths(t *testing.T) {
	const word = "Globexcorp"
	mask := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, word, "[REDACTED:literal#1]"), strings.ToLower(word), "[REDACTED:literal#1]")
	}
	dir := t.TempDir()
	proj := filepath.Join(dir, "--home-dev-"+word+"--")
	src := filepath.Join(corpus, "pi-v3-sdk-branches-labels.jsonl")
	b, err := os.ReadFile(src)
	must(t, err)
	writeFile(t, filepath.Join(proj, word+"-notes.jsonl"), b)
	writeFile(t, filepath.Join(proj, "broken.jsonl"), []byte("not json\n"))
	opt := Options{Mask: testtool.EachMasker{Name: "mask", TextWith: mask}}
	_, hs, _ := testServer(t, dir, "", false, opt)

	// Nothing read yet: the index lists the files by their names.
	_, index := fetch(t, hs.URL+"/")
	if strings.Contains(strings.ToLower(index), strings.ToLower(word)) {
		t.Errorf("the index names the masked word while the sessions are read:\n%s", index)
	}
	_, found := fetch(t, hs.URL+"/search?q=health")
	if !strings.Contains(found, "The newest sessions are not read yet: their matches are missing.") {
		t.Errorf("a search before the sessions are read does not say its results may be incomplete")
	}
	_, hs2, _ := testServer(t, dir, "", true, opt)
	_, index = fetch(t, hs2.URL+"/")
	if strings.Contains(strings.ToLower(index), strings.ToLower(word)) || !strings.Contains(index, "broken.jsonl") {
		t.Errorf("the index names the masked word, or lists no unreadable file:\n%s", index)
	}
	if _, found := fetch(t, hs2.URL+"/search?q=health+project:"+strings.ToLower(word)); strings.Contains(found, `class="hit-list"`) {
		t.Errorf("project:%s finds the session whose folder holds the masked word", word)
	}
	if _, found := fetch(t, hs2.URL+"/search?q=health"); !strings.Contains(found, `class="hit-list"`) || strings.Contains(found, `id="reading"`) {
		t.Errorf("a search once every session is read: no hits, or still incomplete")
	}

	// Run with a cache directory: the catalog is kept there, the pages
	// are not.
	cache := t.TempDir()
	opt.CacheDir = cache
	srv := start(t, opt)
	_, index = get(t, srv.url)
	m := sessionLink.FindStringSubmatch(index)
	if m == nil {
		t.Fatalf("no session in the index")
	}
	if _, page := get(t, srv.url+"s/"+m[1]); !strings.Contains(page, "</html>") {
		t.Fatalf("no page")
	}
	if pages := pageFiles(t, cache); len(pages) != 0 {
		t.Errorf("a masking server kept pages on disk: %q", pages)
	}
}
