//go:build unix

package serve

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A full disk is played by a limit on the size of the files the process
// writes, past which a write fails as on a full disk. The limit is set
// in a process of its own (this test binary run again, with
// PIEXPORT_TEST_FULL_DISK set), since it would stop the test's own files
// too.

// inProcessOfItsOwn runs the test named test in a process of its own,
// and fails unless it passes there.
func inProcessOfItsOwn(t *testing.T, test string) {
	t.Helper()
	exe, err := os.Executable()
	must(t, err)
	cmd := exec.Command(exe, "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), "PIEXPORT_TEST_FULL_DISK=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Errorf("with the cache's disk full: %v\n%s", err, out)
	}
}

// fullDiskOnly skips a test unless inProcessOfItsOwn runs it.
func fullDiskOnly(t *testing.T) {
	if os.Getenv("PIEXPORT_TEST_FULL_DISK") == "" {
		t.Skip("run by another test, in a process of its own")
	}
}

// fillDisk makes every write past the first 16 KB of a file fail, as on
// a full disk, until the returned function is called.
func fillDisk(t *testing.T) (free func()) {
	t.Helper()
	var was syscall.Rlimit
	must(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was))
	full := was
	full.Cur = 16 << 10 // a cached page and a cache database are larger
	must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &full))
	return func() { must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was)) }
}

// TestFullCacheStillServes (issue 21, item 8): when the page cache
// cannot take a page (its disk is full) the page is served all the same,
// not kept, with one warning; once the cache can take pages again they
// are kept.
func TestFullCacheStillServes(t *testing.T) {
	inProcessOfItsOwn(t, "TestFullCacheAsFullDisk")
}

// TestFullCacheAsFullDisk is TestFullCacheStillServes's process with a
// full disk.
func TestFullCacheAsFullDisk(t *testing.T) {
	fullDiskOnly(t)
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cache := t.TempDir()
	s, hs, log := testServer(t, dir, cache, true, Options{}) // the catalog in memory: only pages are written
	var id string
	for _, i := range s.cat.List() {
		if i.Err == nil {
			id = i.ID
		}
	}
	free := fillDisk(t)
	for view := range 2 {
		code, body := fetch(t, hs.URL+"/s/"+id)
		if code != 200 || !strings.Contains(body, `"6eea0e7d"`) || !strings.Contains(body, "</html>") {
			t.Errorf("view %d with the cache full: %d, %d bytes, not the whole page", view, code, len(body))
		}
	}
	free()
	if n := strings.Count(log.String(), "pages are served without being kept"); n != 1 {
		t.Errorf("%d warnings, want one:\n%s", n, log)
	}
	if pages := pageFiles(t, cache); len(pages) != 0 {
		t.Errorf("pages kept while the cache was full: %q", pages)
	}
	if code, _ := fetch(t, hs.URL+"/s/"+id); code != 200 {
		t.Errorf("a view once the cache has room: %d", code)
	}
	if pages := pageFiles(t, cache); len(pages) != 1 {
		t.Errorf("the cache holds %q once it has room, want the page", pages)
	}
}

// TestFullCacheShowsWhatWasAppended: a session that grows while the
// cache's disk is full is shown as its file is now, at every view (it
// answered 404 "moved or deleted" while the index listed it: the
// catalog's failure to store the new lines was taken for a missing
// file). The log says once that the cache cannot be written; once it can,
// the catalog catches up (search finds the new lines) and says so.
func TestFullCacheShowsWhatWasAppended(t *testing.T) {
	inProcessOfItsOwn(t, "TestFullCacheAppendAsFullDisk")
}

// TestFullCacheAppendAsFullDisk is TestFullCacheShowsWhatWasAppended's
// process with a full disk.
func TestFullCacheAppendAsFullDisk(t *testing.T) {
	fullDiskOnly(t)
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cache := t.TempDir()
	srv := start(t, Options{Paths: []string{dir}, CacheDir: cache})
	id := ids(t, srv)["Health endpoint"]
	if res, _ := get(t, srv.url+"s/"+id); res.StatusCode != 200 {
		t.Fatalf("a view before the disk is full: %d", res.StatusCode)
	}
	file := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	line := `{"type":"message","id":"live0001","parentId":"e6a3e24e","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"a new question"}}` + "\n"

	free := fillDisk(t)
	appendTo(t, file, line)
	for view := range 3 {
		res, page := get(t, srv.url+"s/"+id)
		if res.StatusCode != 200 || !strings.Contains(page, `id="e:live0001"`) || !strings.Contains(page, "</html>") {
			t.Errorf("view %d with the cache full: %d, not the page with the new entry", view, res.StatusCode)
		}
		time.Sleep(2 * refreshEvery) // the catalog looks, and fails to write
	}
	if _, index := get(t, srv.url); !strings.Contains(index, `href="s/`+id+`"`) {
		t.Error("the index does not list the session")
	}
	free()
	log := srv.log.String()
	if n := strings.Count(log, "cannot be written"); n != 1 {
		t.Errorf("the log says %d times that the cache cannot be written, want once:\n%s", n, log)
	}
	if strings.Contains(log, "error:") {
		t.Errorf("the log has errors:\n%s", log)
	}

	// With room again, the catalog stores what it missed.
	for deadline := time.Now().Add(20 * time.Second); ; {
		_, found := get(t, srv.url+"search?q=%22a+new+question%22")
		if strings.Contains(found, "#live0001") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("search does not find the new entry once the cache has room:\n%s", srv.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(srv.log.String(), "can be written again") {
		t.Errorf("the log does not say the cache can be written again:\n%s", srv.log)
	}
	if res, _ := get(t, srv.url+"s/"+id); res.StatusCode != 200 {
		t.Errorf("a view once the cache has room: %d", res.StatusCode)
	}
}
