package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
)

// copyCorpus copies a corpus session to path, dated in the past so that
// any write would show in its modification time.
func copyCorpus(t *testing.T, name, path string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdataRoot, "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// untouched records path's content hash and modification time and
// returns a check that they are the same.
func untouched(t *testing.T, path string) func() {
	t.Helper()
	state := func() (sum [32]byte, mtime time.Time, mode os.FileMode) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(b), fi.ModTime(), fi.Mode()
	}
	sum, mtime, mode := state()
	return func() {
		t.Helper()
		sum2, mtime2, mode2 := state()
		if sum2 != sum || !mtime2.Equal(mtime) || mode2 != mode {
			t.Errorf("%s was written (hash same: %v, mtime %v -> %v, mode %v -> %v)", path, sum2 == sum, mtime, mtime2, mode, mode2)
		}
	}
}

// wantRefused asserts exit status 2 and one sentence naming want.
func wantRefused(t *testing.T, args []string, want string) {
	t.Helper()
	_, errOut, code := runCLI(t, args...)
	if code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", args, code, errOut, want)
	}
	if first, _, _ := strings.Cut(errOut, "\n"); strings.Count(first, ". ") > 0 || strings.Count(errOut, "\n") != 2 {
		t.Errorf("%q: not one sentence and the usage hint: %q", args, errOut)
	}
}

const tiny = "pi-v3-earth0-tiny.jsonl"

// The output never replaces the input, whatever names it goes by.
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	check := untouched(t, in)
	if err := os.Link(in, filepath.Join(dir, "hard.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s.jsonl", filepath.Join(dir, "toinput.html")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-o", "s.jsonl", "s.jsonl"},
		{"-o", in, "s.jsonl"},
		{"-o", "./sub/../s.jsonl", "s.jsonl"},
		{"-o", "hard.html", "s.jsonl"},
		{"-o", "toinput.html", "s.jsonl"},
		{"--format", "md", "-o", "s.jsonl", in},
	} {
		if err := os.MkdirAll("sub", 0o755); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, args, "piexport never writes over its input")
	}
	check()
	if fi, err := os.Lstat("toinput.html"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link to the input was replaced: %v", err)
	}
}

// A session file named x.html (or n.md) would be its own default output.
func TestDefaultOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	copyCorpus(t, tiny, "x.html")
	copyCorpus(t, tiny, "n.md")
	checkHTML, checkMD := untouched(t, filepath.Join(dir, "x.html")), untouched(t, filepath.Join(dir, "n.md"))
	wantRefused(t, []string{"x.html"}, "the default output x.html would be written over the input x.html; name another with -o")
	wantRefused(t, []string{"--format", "md", "n.md"}, "the default output n.md would be written over the input n.md")
	wantRefused(t, []string{filepath.Join(dir, "x.html")}, "would be written over the input")
	checkHTML()
	checkMD()
	// In another directory the default name is free.
	t.Chdir(t.TempDir())
	if out, errOut, code := runCLI(t, filepath.Join(dir, "x.html")); code != 0 || strings.TrimSpace(out) != "x.html" {
		t.Errorf("x.html from elsewhere: exit %d, %q %q", code, out, errOut)
	}
	checkHTML()
}

// -o names a regular file or a new name; a directory, a named pipe or a
// device is refused and left as it is.
func TestOutputNotRegular(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	check := untouched(t, in)
	fifo := filepath.Join(dir, "fifo.html")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, []string{"-o", fifo, in}, fifo+" is a named pipe (FIFO); piexport writes only regular files, or a new name")
	if dev := charDevice(t, dir); dev != "" {
		wantRefused(t, []string{"-o", dev, in}, dev+" is a character device")
		if fi, err := os.Lstat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("the device node was replaced: %v", err)
		}
	}
	wantRefused(t, []string{"-o", sub, in}, sub+" is a directory: name a file in it")
	wantRefused(t, []string{"--format", "md", "-o", fifo, in}, "named pipe")
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v", err)
	}
	for _, e := range mustReadDir(t, dir) {
		if e.Name() != "s.jsonl" && e.Name() != "fifo.html" && e.Name() != "sub" && e.Name() != "null" {
			t.Errorf("%s was left in the directory", e.Name())
		}
	}
	check()
}

// A symbolic link as -o is written through: the file it leads to is
// replaced atomically and the link stays a link.
func TestOutputSymlink(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	check := untouched(t, in)
	pub := filepath.Join(dir, "public")
	if err := os.Mkdir(pub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(pub, "page.html")
	if err := os.WriteFile(target, []byte("old page"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink("public/page.html", link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.html")
	if err := os.Symlink("link.html", chain); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "new.html")
	if err := os.Symlink("public/new-page.html", dangling); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{link, chain, dangling} {
		stdout, errOut, code := runCLI(t, "-o", out, in)
		if code != 0 || strings.TrimSpace(stdout) != out {
			t.Fatalf("-o %s: exit %d, %q %q", out, code, stdout, errOut)
		}
		if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("-o %s: the link was replaced by a file", out)
		}
	}
	for _, f := range []string{target, filepath.Join(pub, "new-page.html")} {
		if b, _ := os.ReadFile(f); !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
			t.Errorf("%s was not written through the link: %.20q", f, b)
		}
	}
	if entries, _ := os.ReadDir(pub); len(entries) != 2 {
		t.Errorf("%d files in the link's directory, want 2 (no temporary file left)", len(entries))
	}
	check()
}

// An archive run never writes or removes one of its inputs, and -o
// cannot be one.
func TestArchiveOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := filepath.Join(dir, "a.jsonl")
	copyCorpus(t, tiny, a)
	copyCorpus(t, "pi-v3-sdk-branches-labels.jsonl", "site/index.html")
	copyCorpus(t, tiny, "site/foo.html")
	copyCorpus(t, tiny, "site/site--foo.html") // the page name of site/foo.html
	checks := []func(){untouched(t, a), untouched(t, "site/index.html"), untouched(t, "site/foo.html"), untouched(t, "site/site--foo.html")}

	wantRefused(t, []string{"-o", "site", a, "site/index.html"}, "site/index.html is an input of this run")
	wantRefused(t, []string{"-o", "site", "site/foo.html", "site/site--foo.html"}, "site/site--foo.html is an input of this run")
	wantRefused(t, []string{"-o", "a.jsonl", "site/foo.html", "a.jsonl"}, "a.jsonl is an input of this run")
	wantRefused(t, []string{"-o", "site/foo.html", "a.jsonl", "site/index.html"}, "site/foo.html is a regular file; an archive of several sessions is written into a directory")
	for _, check := range checks {
		check()
	}
	if _, err := os.Stat("site/" + ".piexport-manifest.json"); err == nil {
		t.Error("a refused archive run wrote its manifest")
	}
}

// An input inside the archive's search directory was removed with an
// old segment of the index (exit 0): it is refused, and so is a link that
// leads there.
func TestArchiveInputInSearchDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	copyCorpus(t, tiny, "a.jsonl")
	copyCorpus(t, "pi-v3-sdk-branches-labels.jsonl", "b.jsonl")
	if _, errOut, code := runCLI(t, "-o", "site", "a.jsonl", "b.jsonl"); code != 0 {
		t.Fatalf("the first build: exit %d: %s", code, errOut)
	}
	gens, err := filepath.Glob("site/search/g[0-9]*")
	if err != nil || len(gens) != 1 {
		t.Fatalf("search segments: %v %v", gens, err)
	}
	in := filepath.Join(gens[0], "t5.js")
	copyCorpus(t, tiny, in)
	if err := os.Symlink(filepath.Join(dir, in), "link.jsonl"); err != nil {
		t.Fatal(err)
	}
	check := untouched(t, in)
	wantRefused(t, []string{"-o", "site", "a.jsonl", "b.jsonl", in}, "the input "+in+" is inside site/search, which this run rewrites")
	wantRefused(t, []string{"-o", "site", "a.jsonl", "link.jsonl"}, "the input link.jsonl is inside site/search")
	check()
	// A link kept in the search directory would be removed with it, even
	// one that leads out.
	copyCorpus(t, tiny, "c.jsonl")
	if err := os.Symlink(filepath.Join(dir, "c.jsonl"), "site/search/c.jsonl"); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, []string{"-o", "site", "a.jsonl", "site/search/c.jsonl"}, "the input site/search/c.jsonl is inside site/search")
}

// Standard output or error appended to the input is refused too.
func TestStreamIsInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	check := untouched(t, in)
	f, err := os.OpenFile(in, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, args := range [][]string{{"-o", "-", in}, {"--format", "tree", in}, {"-o", filepath.Join(dir, "x.html"), in}} {
		var errOut bytes.Buffer
		err := run(context.Background(), args, f, &errOut)
		if code := exitCode(err, &errOut); code != 2 || !strings.Contains(errOut.String(), "standard output is the input "+in) {
			t.Errorf("%q with stdout on the input: exit %d, %q", args, code, errOut.String())
		}
		var out bytes.Buffer
		err = run(context.Background(), args, &out, f)
		if code := exitCode(err, &out); code != 2 {
			t.Errorf("%q with stderr on the input: exit %d", args, code)
		}
	}
	check()
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

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// A second archive run into a directory another is writing says it is
// busy, in one sentence, with exit status 1.
func TestArchiveBusy(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	copyCorpus(t, tiny, a)
	copyCorpus(t, "pi-v3-sdk-branches-labels.jsonl", b)
	site := filepath.Join(dir, "site")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	// What a run writing the archive holds (see archive.acquireLock).
	lock, err := os.OpenFile(filepath.Join(site, ".piexport-lock"), os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "-o", site, a, b)
	if code != 1 || errOut != "piexport: "+site+": another piexport run is writing this archive; try again when it is done\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(site, "index.html")); err == nil {
		t.Error("the busy run wrote the index")
	}
}

// A session file name of 232 bytes or more made a temporary name past 255
// bytes for its default output.
func TestLongFileName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, n := range []int{232, 249} {
		name := strings.Repeat("s", n-len(".jsonl")) + ".jsonl"
		in := filepath.Join(dir, "in", name)
		copyCorpus(t, tiny, in)
		want := strings.TrimSuffix(name, ".jsonl") + ".html"
		out, errOut, code := runCLI(t, in)
		if code != 0 || strings.TrimSpace(out) != want {
			t.Fatalf("a %d-byte name: exit %d, %q", n, code, errOut)
		}
		if _, err := os.Stat(want); err != nil {
			t.Error(err)
		}
	}
}

// A session file given by the name of the archive's lock file was removed
// when the build ended (exit 0); one named like a killed build's
// temporary file would be removed when it starts. Both are refused.
func TestArchiveInputIsHousekeeping(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	copyCorpus(t, tiny, "a.jsonl")
	lock := filepath.Join("site", ".piexport-lock")
	temp := filepath.Join("site", ".old.html.123"+".piexport-tmp")
	copyCorpus(t, tiny, lock)
	copyCorpus(t, tiny, temp) // dated 2020: stale
	checks := []func(){untouched(t, lock), untouched(t, temp)}
	wantRefused(t, []string{"-o", "site", "a.jsonl", lock}, lock+" is an input of this run")
	wantRefused(t, []string{"-o", "site", temp, "a.jsonl"}, temp+" is an input of this run")
	for _, check := range checks {
		check()
	}
}

// -o /dev/null renders the page in full and keeps nothing, as a
// benchmark asks; the null device stays the null device.
func TestOutputDevNull(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	for _, format := range []string{"html", "md", "tree", "tree-json"} {
		out, errOut, code := runCLI(t, "--format", format, "-o", "/dev/null", corpus+tiny)
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", format, code, out, errOut)
		}
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v (%v)", fi.Mode(), err)
	}
}

// A sub-agent's page, exported alone, names the session it works for by
// that file on this machine when it is beside it, else by the file's
// name: never by the path of the machine it was written on.
func TestSubAgentParentNamed(t *testing.T) {
	abs, err := filepath.Abs(corpus + "omp18-task-subagents/Lexer.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "Lexer.jsonl")
	copyCorpus(t, "omp18-task-subagents/Lexer.jsonl", alone)
	home, _ := os.UserHomeDir()
	for in, want := range map[string]string{
		abs:   `<dt>Sub-agent of</dt><dd><code>` + session.ShortenHome(filepath.Dir(abs)+".jsonl", home) + `</code></dd>`,
		alone: `<dt>Sub-agent of</dt><dd><code>omp18-task-subagents.jsonl</code></dd>`,
	} {
		out := filepath.Join(t.TempDir(), "p.html")
		if _, errOut, code := runCLI(t, "-o", out, in); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, _ := os.ReadFile(out)
		if !strings.Contains(string(b), want) || strings.Contains(string(b), "/tmp/pi15") {
			t.Errorf("%s: the page lacks %s", in, want)
		}
	}
}
