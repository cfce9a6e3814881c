package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTreeFormatsHonourOutput (issue 21, item 13): --format tree and
// tree-json write to -o as the page does: the file named, through a
// symbolic link, atomically, never over an input nor into anything but a
// regular file; without -o (or with -o -) to standard output.
func TestTreeFormatsHonourOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	check := untouched(t, in)
	fifo := filepath.Join(dir, "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s.jsonl", "toinput.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/target.json", "link.json"); err != nil {
		t.Fatal(err)
	}
	plain, _, code := runCLI(t, "--format", "tree", in)
	if code != 0 || !strings.Contains(plain, "•") {
		t.Fatalf("--format tree to standard output: exit %d, %q", code, plain)
	}
	for _, format := range []string{"tree", "tree-json"} {
		t.Run(format, func(t *testing.T) {
			out := format + ".out"
			stdout, stderr, code := runCLI(t, "--format", format, "-o", out, in)
			if code != 0 || strings.TrimSpace(stdout) != out {
				t.Fatalf("exit %d, stdout %q, stderr %q; want the output's name", code, stdout, stderr)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("-o was not written: %v", err)
			}
			toStdout, _, _ := runCLI(t, "--format", format, "-o", "-", in)
			if string(b) != toStdout {
				t.Errorf("the file holds %d bytes, standard output %d", len(b), len(toStdout))
			}
			if format == "tree-json" && !json.Valid(b) {
				t.Errorf("the file is not JSON")
			}
			if format == "tree" && string(b) != plain {
				t.Errorf("the file differs from the tree on standard output")
			}
			// Through a link: the link stays, its target is written.
			if _, stderr, code := runCLI(t, "--format", format, "-o", "link.json", in); code != 0 {
				t.Fatalf("-o link.json: exit %d: %s", code, stderr)
			}
			if fi, err := os.Lstat("link.json"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced")
			}
			if got, _ := os.ReadFile("sub/target.json"); !bytes.Equal(got, b) {
				t.Errorf("the link's target was not written")
			}
			wantRefused(t, []string{"--format", format, "-o", "s.jsonl", in}, "piexport never writes over its input")
			wantRefused(t, []string{"--format", format, "-o", "toinput.txt", in}, "piexport never writes over its input")
			wantRefused(t, []string{"--format", format, "-o", fifo, in}, "named pipe")
			wantRefused(t, []string{"--format", format, "-o", "sub", in}, "is a directory")
		})
	}
	// A session that cannot be read leaves no file behind.
	if _, _, code := runCLI(t, "--format", "tree", "-o", "never.txt", in, filepath.Join(dir, "nosuch.jsonl")); code == 0 {
		t.Errorf("a missing input: exit 0")
	}
	if _, err := os.Stat("never.txt"); err == nil {
		t.Errorf("a failed run wrote its output")
	}
	for _, e := range mustReadDir(t, dir) {
		if strings.Contains(e.Name(), "tmp") {
			t.Errorf("%s was left behind", e.Name())
		}
	}
	check()
}
