//go:build unix

package serve

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestFullCacheStillServes (issue 21, item 8): when the page cache
// cannot take a page (its disk is full) the page is served all the same,
// not kept, with one warning; once the cache can take pages again they
// are kept. A full disk is played by a limit on the size of the files
// the process writes, past which a write fails as on a full disk; the
// limit is set in a process of its own (this test binary run again),
// since it would stop the test's own files too.
func TestFullCacheStillServes(t *testing.T) {
	exe, err := os.Executable()
	must(t, err)
	cmd := exec.Command(exe, "-test.run=^TestFullCacheAsFullDisk$", "-test.v")
	cmd.Env = append(os.Environ(), "PIEXPORT_TEST_FULL_DISK=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestFullCacheAsFullDisk") {
		t.Errorf("with the cache's disk full: %v\n%s", err, out)
	}
}

// TestFullCacheAsFullDisk is TestFullCacheStillServes's process with a
// full disk.
func TestFullCacheAsFullDisk(t *testing.T) {
	if os.Getenv("PIEXPORT_TEST_FULL_DISK") == "" {
		t.Skip("run by TestFullCacheStillServes, in a process of its own")
	}
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	cache := t.TempDir()
	s, hs, log := testServer(t, dir, cache, true, Options{}) // the catalog in memory: only pages are written
	var id string
	for _, i := range s.cat.List() {
		if i.Err == nil {
			id = i.ID
		}
	}
	var was syscall.Rlimit
	must(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was))
	full := was
	full.Cur = 16 << 10 // the page is several times larger
	must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &full))
	for view := range 2 {
		code, body := fetch(t, hs.URL+"/s/"+id)
		if code != 200 || !strings.Contains(body, `"6eea0e7d"`) || !strings.Contains(body, "</html>") {
			t.Errorf("view %d with the cache full: %d, %d bytes, not the whole page", view, code, len(body))
		}
	}
	must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was))
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
