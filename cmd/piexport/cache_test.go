package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnopenableCacheIsNoFailure: a cache directory that cannot be made
// (a file stands in its place) costs the usage report and an archive
// their cache, with a warning, not their run.
func TestUnopenableCacheIsNoFailure(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(cache, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "s.jsonl")
	b, err := os.ReadFile("../../testdata/corpus/pi-v3-earth0-tiny.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, b, 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "--usage", "--json", "--cache-dir", cache, src)
	if code != 0 || !strings.Contains(stdout, `"sessions": 1`) || !strings.Contains(stderr, "kept in memory instead") {
		t.Errorf("--usage: exit %d, %q, %q", code, stdout, stderr)
	}
	site := filepath.Join(t.TempDir(), "site")
	_, stderr, code = runCLI(t, "-o", site, "--cache-dir", cache, filepath.Dir(src))
	if _, err := os.Stat(filepath.Join(site, "index.html")); code != 0 || err != nil || !strings.Contains(stderr, "pages are made without it") {
		t.Errorf("an archive: exit %d, %v, %q", code, err, stderr)
	}
}
