// Package testtool finds the programs some tests need (Chromium for the
// browser tests, cmark-gfm for the Markdown ones), fails those tests on CI
// when a program is missing, and elsewhere skips them and says so once per
// package: what was left out, and how to run it.
package testtool

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/piexport/piexport/session"
)

// Find returns the path of the first of names that is an executable file
// (a path, or a name looked up in PATH), "" for none.
func Find(names ...string) string {
	for _, name := range names {
		for _, p := range places(name) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	return ""
}

// places lists where name may be: itself, when it is a path, else each
// directory of PATH.
func places(name string) []string {
	if strings.ContainsRune(name, filepath.Separator) {
		return []string{name}
	}
	var out []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir != "" {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out
}

// watch makes go test's cache notice when a program is installed where
// names would be found: it changes into each of those directories, and
// back. go test rechecks, before it replays a package's cached results,
// the directories the tests changed into, wherever they are, by their
// stat (a directory's modification time changes when a file is added to
// it); it rechecks the files the tests stat or open only inside the
// module, so a stat of /usr/bin/chromium would not do.
func watch(names []string) {
	wd, err := os.Getwd()
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, name := range names {
		for _, p := range places(name) {
			dir := filepath.Dir(p)
			if abs, err := filepath.Abs(dir); err == nil && !seen[abs] {
				seen[abs] = true
				if os.Chdir(abs) == nil {
					os.Chdir(wd)
				}
			}
		}
	}
}

// Need is a program some tests of a package need.
type Need struct {
	// What and Whats name the tests, one and many ("browser test",
	// "browser tests"), Program the program ("Chromium") and Install
	// how to get it.
	What, Whats, Program, Install string
	// Env, when set in the environment, names the program's path;
	// else it is the first of Names found (see Find).
	Env   string
	Names []string

	once    sync.Once
	path    string
	skipped atomic.Int64
}

// Path is the program's path, "" when it is not installed. It is looked
// up once, by the first test that asks, and when the program is missing,
// go test's cache is made to watch where it would be installed (see
// watch: go test logs what a test does only once its tests run, not
// before, in TestMain). The test that asks first must not run in
// parallel with others: watch changes the working directory.
func (n *Need) Path() string {
	n.once.Do(func() {
		names := n.Names
		if n.Env != "" {
			if p := os.Getenv(n.Env); p != "" {
				names = []string{p}
			}
		}
		if n.path = Find(names...); n.path == "" {
			watch(names)
		}
	})
	return n.path
}

// Missing fails t on CI (the CI variable set), where a missing program
// must not pass silently; elsewhere it skips t, and Report counts it.
func (n *Need) Missing(t testing.TB) {
	t.Helper()
	msg := "no " + n.Program + " found: " + n.Install
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	n.skipped.Add(1)
	t.Skip(msg)
}

// Require returns the program's path for a test that cannot go on
// without it: under -short the test is skipped (a quick run leaves out
// what needs a browser or an engine), and without the program it is
// Missing.
func (n *Need) Require(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short leaves out the " + n.Whats)
	}
	p := n.Path()
	if p == "" {
		n.Missing(t)
	}
	return p
}

// Left counts a check left out, in a test that goes on without it.
func (n *Need) Left() { n.skipped.Add(1) }

// Line is Report's line, "" when no test was skipped.
func (n *Need) Line(pkg string) string {
	k := int(n.skipped.Load())
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s skipped for want of %s: %s, then run go test again.",
		pkg, session.Count(k, n.What, n.Whats), n.Program, n.Install)
}

// Report says in one line how many tests of package pkg were skipped
// for want of each program, and how to run them. go test shows nothing
// of a package that passed but its "ok" line, unless -v: the line goes
// to the terminal go test runs in, when there is one, else to standard
// error (which -v and a failure show).
func Report(pkg string, needs ...*Need) {
	var lines []string
	for _, n := range needs {
		if l := n.Line(pkg); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return
	}
	var w io.Writer = os.Stderr
	if !testing.Verbose() {
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
	}
	fmt.Fprintln(w, strings.Join(lines, "\n"))
}

// Main runs a package's tests, and then Reports: a package's TestMain.
func Main(m *testing.M, pkg string, needs ...*Need) {
	code := m.Run()
	Report(pkg, needs...)
	os.Exit(code)
}
