package testtool

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFind finds an executable file in PATH or by its path, and not a
// file that cannot run, nor a directory.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"tool": 0o755, "data": 0o644} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(dir, "none")+string(filepath.ListSeparator)+dir)
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"missing", "tool"}, filepath.Join(dir, "tool")},
		{[]string{filepath.Join(dir, "tool")}, filepath.Join(dir, "tool")},
		{[]string{"data", "adir", filepath.Join(dir, "nope")}, ""},
	} {
		if got := Find(tc.names...); got != tc.want {
			t.Errorf("Find(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// TestLine: the one line a package prints says how many tests were
// skipped, for want of what, and how to run them.
func TestLine(t *testing.T) {
	n := &Need{What: "browser test", Whats: "browser tests", Program: "Chromium", Install: "install it (apt-get install chromium)"}
	if l := n.Line("piexport/page"); l != "" {
		t.Errorf("nothing skipped, yet %q", l)
	}
	n.Left()
	if l, want := n.Line("piexport/page"), "piexport/page: 1 browser test skipped for want of Chromium: install it (apt-get install chromium), then run go test again."; l != want {
		t.Errorf("%q, want %q", l, want)
	}
}
