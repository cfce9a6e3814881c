package testtool

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
)

// SameSizeRewrite writes data over the file at path, whose content it
// must be as long as, and gives the file back its modification time: an
// edit that only the file's change time tells apart. It returns once the
// change time has moved, writing again until it has: a file system may
// keep times to the second or two, and a test that slept a few
// milliseconds would then see no change at all.
func SameSizeRewrite(t testing.TB, path string, data []byte) {
	t.Helper()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if before.Size() != int64(len(data)) {
		t.Fatalf("SameSizeRewrite: %s over a file of %d", session.Count(len(data), "byte", "bytes"), before.Size())
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		t.Fatal("SameSizeRewrite: the new content is the old")
	}
	was, known := changeTime(before)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if !known {
			// Without a change time to read, wait out the coarsest
			// clock a file system keeps (FAT's two seconds).
			time.Sleep(2 * time.Second)
		}
		if err := os.WriteFile(path, data, before.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, before.ModTime(), before.ModTime()); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if now, _ := changeTime(after); !known || now != was {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the change time of %s did not move in 10 s of rewrites", path)
		}
	}
}
