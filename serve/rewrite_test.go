package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/testtool"
)

// A session file rewritten to the same size with its modification time
// set back served the old page: the cache was keyed on size and time. The
// page served is the new one, while the server runs and after a restart
// on the same cache.
func TestSameSizeRewriteServed(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	path := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	cache := t.TempDir()
	srv := start(t, Options{Paths: []string{dir}, CacheDir: cache})
	id := ids(t, srv)["Health endpoint"]
	if _, page := get(t, srv.url+"s/"+id); !strings.Contains(page, "registered") {
		t.Fatal("the page lacks the word the test replaces")
	}

	rewrite := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(path)
		must(t, err)
		testtool.SameSizeRewrite(t, path, bytes.ReplaceAll(b, []byte(from), []byte(to)))
	}
	served := func(want string) bool {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if _, page := get(t, srv.url+"s/"+id); strings.Contains(page, want) {
				return true
			}
		}
		return false
	}

	rewrite("registered", "marsupial7")
	if !served("marsupial7") {
		t.Error("while serving: a same-size rewrite kept the old page")
	}

	srv.cancel()
	<-srv.done
	srv.done <- nil
	rewrite("marsupial7", "wombat4321")
	srv = start(t, Options{Paths: []string{dir}, CacheDir: cache})
	if !served("wombat4321") {
		t.Error("after a restart: a same-size rewrite kept the old page")
	}
}
