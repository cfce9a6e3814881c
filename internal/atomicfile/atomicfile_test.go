package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/piexport/piexport/internal/fileguard"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the old file and no temporary file.
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half a pa")
		return errors.New("interrupted")
	})
	if err == nil {
		t.Fatal("the writer's error was lost")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %q after a failed write", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || info.Mode().Perm() != 0o644 {
		t.Errorf("got %q, mode %v", b, info.Mode())
	}
}

// Only a regular file is replaced: a rename would put a file in the place
// of a named pipe, a device or a symbolic link.
func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("elsewhere", link); err != nil {
		t.Fatal(err)
	}
	paths := []string{fifo, link, dir}
	if dev := charDevice(t, dir); dev != "" {
		paths = append(paths, dev)
	}
	for _, path := range paths {
		before, _ := os.Lstat(path)
		err := WriteFile(path, []byte("x"))
		var refused *fileguard.NotRegularError
		if !errors.As(err, &refused) {
			t.Errorf("%s: %v, want a refusal", path, err)
		}
		if after, _ := os.Lstat(path); after.Mode() != before.Mode() {
			t.Errorf("%s was replaced", path)
		}
	}
}

// charDevice makes a character device node (the null device's numbers)
// in dir, so that a test of what piexport refuses to write never puts the
// system's /dev/null at risk. Making one needs root; without, it returns
// "" and the case is left out.
func charDevice(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no device node to test with (%v); that case is left out", err)
		return ""
	}
	return p
}

// A target whose name is as long as file systems allow still gets a
// temporary name they accept.
func TestWriteLongName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		strings.Repeat("a", 250) + ".html",
		strings.Repeat("é", 125) + ".md", // 253 bytes, cut inside a character
	} {
		path := filepath.Join(dir, name)
		if err := WriteFile(path, []byte("page")); err != nil {
			t.Fatalf("a %d-byte name: %v", len(name), err)
		}
		if b, _ := os.ReadFile(path); string(b) != "page" {
			t.Errorf("a %d-byte name: got %q", len(name), b)
		}
	}
	if stem := tempStem(strings.Repeat("é", 125)); len(stem) > maxTempStem || !utf8.ValidString(stem) {
		t.Errorf("tempStem cut to %d bytes, valid UTF-8: %v", len(stem), utf8.ValidString(stem))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in the directory, want the 2 pages", len(entries))
	}
}

// TestWritePrivate: the file is its owner's alone, also while it is
// written.
func TestWritePrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "record.json")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := WritePrivate(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("the file holds %q with mode %v, want \"new\" and 0600", b, info.Mode().Perm())
	}
}
