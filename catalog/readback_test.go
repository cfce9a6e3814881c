package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// While files are unread, ReadBack is the time of the oldest file that,
// with every newer one, is read: what a search reaches back to.
func TestReadBack(t *testing.T) {
	dir := t.TempDir()
	paths, err := sessiongen.Sessions(dir, 4, 2)
	must(t, err)
	// The files were changed a day apart: paths[0] the newest.
	day := time.Date(2026, 11, 3, 14, 5, 0, 0, time.UTC)
	for i, p := range paths {
		at := day.AddDate(0, 0, -i)
		must(t, os.Chtimes(p, at, at))
	}
	ctx := context.Background()
	c, err := Open(ctx, []string{dir}, Options{CacheDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	read := func(i int) {
		t.Helper()
		for _, info := range c.List() {
			if filepath.Base(info.Path) == filepath.Base(paths[i]) {
				_, err := c.Current(ctx, info.ID)
				must(t, err)
				return
			}
		}
		t.Fatalf("%s not found", paths[i])
	}
	check := func(when string, want time.Time) {
		t.Helper()
		if got := c.ReadBack(); !got.Equal(want) {
			t.Errorf("%s: ReadBack %v, want %v", when, got, want)
		}
		if got := c.Progress().ReadBack; !got.Equal(want) {
			t.Errorf("%s: Progress().ReadBack %v, want %v", when, got, want)
		}
	}
	check("nothing read", time.Time{})
	read(2)
	check("the third newest read", time.Time{})
	read(0)
	check("the first and third read", day)
	read(1)
	check("the three newest read", day.AddDate(0, 0, -2))
	res := search(t, c, "the", 10)
	if res.Unread != 1 || !res.ReadBack.Equal(day.AddDate(0, 0, -2)) {
		t.Errorf("a search with one file unread: Unread %d, ReadBack %v", res.Unread, res.ReadBack)
	}
	_, err = c.Update(ctx)
	must(t, err)
	check("every file read", time.Time{})
	if res := search(t, c, "the", 10); res.Unread != 0 || !res.ReadBack.IsZero() {
		t.Errorf("a search with every file read: Unread %d, ReadBack %v", res.Unread, res.ReadBack)
	}
}
