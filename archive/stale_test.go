package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fileguard"
)

// TestStaleSearchBuildsRemoved (issue 21, item 14): the bucket
// directories of a build killed with SIGKILL (.search-build-NNN) are
// removed by the next build, under the lock; a link of that name is not
// followed, and a build one of whose inputs lies in such a directory is
// refused rather than removing it.
func TestStaleSearchBuildsRemoved(t *testing.T) {
	dir := t.TempDir()
	files := sources(t, dir, "pi-v3-earth0-tiny.jsonl")
	out := filepath.Join(dir, "site")
	must(t, os.MkdirAll(out, 0o755))
	// What a killed build leaves: buckets half written.
	for _, name := range []string{".search-build-123", ".search-build-4567"} {
		must(t, os.MkdirAll(filepath.Join(out, name), 0o700))
		must(t, os.WriteFile(filepath.Join(out, name, "0"), []byte("\x05hello\x01\x02"), 0o600))
	}
	// A link of that name to a directory elsewhere: only the link may go.
	elsewhere := filepath.Join(dir, "keep")
	must(t, os.MkdirAll(elsewhere, 0o755))
	must(t, os.WriteFile(filepath.Join(elsewhere, "precious"), []byte("x"), 0o644))
	must(t, os.Symlink(elsewhere, filepath.Join(out, ".search-build-99")))

	if _, err := Build(context.Background(), out, files, Options{}); err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadDir(out)
	must(t, err)
	for _, d := range list {
		if strings.HasPrefix(d.Name(), ".search-build-") && d.IsDir() {
			t.Errorf("%s was left in the archive", d.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "precious")); err != nil {
		t.Errorf("a link's target was removed: %v", err)
	}

	// A session file inside one: refused, and kept.
	stale := filepath.Join(out, ".search-build-777")
	must(t, os.MkdirAll(stale, 0o700))
	in := filepath.Join(stale, "s.jsonl")
	b, err := os.ReadFile(files[0])
	must(t, err)
	must(t, os.WriteFile(in, b, 0o644))
	_, err = Build(context.Background(), out, []string{in}, Options{})
	var ie *fileguard.InputError
	if !errors.As(err, &ie) {
		t.Errorf("an input inside a stale search directory: %v, want an InputError", err)
	}
	if _, err := os.Stat(in); err != nil {
		t.Errorf("the input was removed: %v", err)
	}
}
