package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/fileguard"
)

// A catalogued file swapped for a named pipe is refused at once: opening
// it must not wait for a writer (that pinned a server thread in open(2)).
func TestCatalogFIFOSwap(t *testing.T) {
	c, dir := newCatalog(t, "pi-v3-earth0-tiny.jsonl")
	id := idByName(t, c, "pi-v3-earth0-tiny.jsonl")
	path := filepath.Join(dir, "--proj--", "pi-v3-earth0-tiny.jsonl")
	must(t, os.Remove(path))
	must(t, syscall.Mkfifo(path, 0o644))
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Load(id)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, fileguard.ErrNotRegular) || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a session file") {
			t.Errorf("Load of a named pipe: %v", err)
		}
	case <-time.After(5 * time.Second):
		// Let the stuck open return before failing.
		if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("Load of a named pipe blocked")
	}
}

// A named pipe or a device given by name is refused in one sentence; in a
// directory, one is passed over.
func TestCatalogNonRegularPaths(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(corpus, "pi-v3-earth0-tiny.jsonl"), filepath.Join(dir, "a.jsonl"))
	fifo := filepath.Join(dir, "b.jsonl")
	must(t, syscall.Mkfifo(fifo, 0o644))
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, err := New(context.Background(), []string{p}, Options{}); !errors.Is(err, fileguard.ErrNotRegular) {
			t.Errorf("New(%s): %v, want a refusal", p, err)
		}
		if _, err := Find([]string{p}); !errors.Is(err, fileguard.ErrNotRegular) {
			t.Errorf("Find(%s): %v, want a refusal", p, err)
		}
	}
	c, err := New(context.Background(), []string{dir}, Options{})
	must(t, err)
	defer c.Close()
	if list := c.List(); len(list) != 1 || list[0].Err != nil {
		t.Errorf("catalogued %+v, want a.jsonl alone", list)
	}
}
