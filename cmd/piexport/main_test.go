package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/internal/pgtest"
	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const corpus = "../../testdata/corpus/"

// runCLI runs piexport with args and returns its output and exit status.
// TestMain keeps the tests' cache out of the user's: archives and servers
// run by the tests keep rendered pages there.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "piexport-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("PIEXPORT_CACHE_DIR", dir)
	code := m.Run()
	pgtest.Stop()
	os.RemoveAll(dir)
	if sitesDir != "" {
		os.RemoveAll(sitesDir)
	}
	testtool.Report("piexport/cmd/piexport", append([]*testtool.Need{browsertest.Chromium, pgtest.Postgres}, docsite.Needs...)...)
	os.Exit(code)
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	code = exitCode(err, &errOut)
	return out.String(), errOut.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("../../testdata/golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/piexport -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

func TestHelp(t *testing.T) {
	out, errOut, code := runCLI(t, "--help")
	if code != 0 || errOut != "" {
		t.Fatalf("--help: exit %d, stderr %q", code, errOut)
	}
	golden(t, "help.txt", out)
}

func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "piexport ") || !strings.Contains(out, "(commit ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	// It names the version and the commit, and says when the tree had
	// changes, or that the build has no such information.
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "4879b1c1a2b3c4d5e6f7"},
		{Key: "vcs.time", Value: "2026-11-26T16:45:51Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "piexport devel (commit 4879b1c1a2b3 of 2026-11-26T16:45:51Z, with local changes)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: vcs[:3]}, "piexport v1.2.0 (commit 4879b1c1a2b3 of 2026-11-26T16:45:51Z)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "piexport devel (commit unknown: built without version control information)"},
		{nil, "piexport devel (commit unknown: built without version control information)"},
	} {
		if got := versionLine(tc.bi); got != tc.want {
			t.Errorf("versionLine = %q, want %q", got, tc.want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	emptyDir := filepath.Join(dir, "no-sessions")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"no file", nil, 2, "no session file given"},
		{"unknown flag", []string{"--bogus"}, 2, "unknown flag"},
		{"bad theme", []string{"--theme", "pink", "x.jsonl"}, 2, "--theme"},
		{"bad format", []string{"--format", "pdf", "x.jsonl"}, 2, "--format"},
		{"allow-host without serve", []string{"--allow-host", "box.example", "x.jsonl"}, 2, "--allow-host and --open go with --serve"},
		{"bad allow-host", []string{"--serve", "--allow-host", "evil.com/x"}, 2, `--allow-host takes a host name or an IP address, not "evil.com/x"`},
		{"allow-host with a port", []string{"--serve", "--allow-host", "box:80"}, 2, "--allow-host takes a host name"},
		{"missing file", []string{filepath.Join(dir, "nope.jsonl")}, 1, "no such file"},
		// A path is named as given, whatever reads it.
		{"usage of a missing path", []string{"--usage", "--no-cache", "nosuch"}, 1, "piexport: nosuch: no such file or directory\n"},
		{"serve of a missing path", []string{"--serve", "--no-cache", "--addr", "127.0.0.1:0", "nosuch"}, 1, "piexport: nosuch: no such file or directory\n"},
		// --usage over nothing it can read fails, as an archive does.
		{"usage of no session file", []string{"--usage", "--no-cache", emptyDir}, 1, "piexport: no session files (*.jsonl) under " + emptyDir},
		{"usage of nothing readable", []string{"--usage", "--no-cache", "-q", empty}, 1, "piexport: 1 of 1 session file could not be read\n"},
		{"archive of a missing path", []string{"-o", filepath.Join(dir, "site"), "nosuch", corpus}, 1, "piexport: nosuch: no such file or directory\n"},
		{"empty file", []string{empty}, 1, "empty.jsonl: not a pi session file: the file is empty"},
		{"event stream", []string{corpus + "edge-v3-jsonmode-eventstream-crew-worker.jsonl"}, 1, "event streams"},
		{"unknown leaf", []string{"-o", filepath.Join(dir, "x.html"), "--leaf", "nope", corpus + "pi-v3-earth0-tiny.jsonl"}, 2, `no entry has the id "nope"`},
		{"unknown leaf of a tree", []string{"--format", "tree", "--leaf", "nope", corpus + "pi-v3-earth0-tiny.jsonl"}, 2, `no entry has the id "nope"`},
		{"ambiguous leaf", []string{"--format", "md", "-o", filepath.Join(dir, "x.md"), "--leaf", "9", corpus + "pi-v3-sdk-branches-labels.jsonl"}, 2,
			`2 entries' ids start with "9": 95e10a05, 92b3e7cb; give more of the id`},
		{"leaf of several trees", []string{"--format", "tree", "--leaf", "9", corpus + "pi-v3-sdk-branches-labels.jsonl", corpus + "pi-v3-earth0-tiny.jsonl"}, 2, "--leaf names an entry of one session"},
		// A header and nothing else is a session with no entries.
		{"header only", []string{"-o", filepath.Join(dir, "h.html"), corpus + "pi15-header-only.jsonl"}, 0, "the session has no entries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tc.code, tc.want)
			}
			if strings.Contains(errOut, "goroutine ") || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
				t.Errorf("the error is not one clear sentence: %q", errOut)
			}
		})
	}
}

// TestTreeLeaf: both tree formats show the path to the entry --leaf
// names, by its id or the start of one, as the page does.
func TestTreeLeaf(t *testing.T) {
	file := corpus + "pi-v3-sdk-branches-labels.jsonl"
	out, errOut, code := runCLI(t, "--format", "tree", "--leaf", "cf95", file)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "tree-branches-labels-leaf.txt", out)
	if !strings.Contains(out, "\ncf95108a * │  │  assistant: I'll add the handler.  ← in view\n") {
		t.Errorf("the entry in view is not marked:\n%s", out)
	}
	out, _, code = runCLI(t, "--format", "tree-json", "--leaf", "cf95108a", file)
	var doc struct {
		Leaf any   `json:"leaf"`
		Path []any `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	s, err := session.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if e := s.Entry("cf95108a"); fmt.Sprint(doc.Leaf) != fmt.Sprint(e.Line) || len(doc.Path) != len(s.Path(e)) {
		t.Errorf("tree-json's leaf is %v with a path of %d, want line %d with %d", doc.Leaf, len(doc.Path), e.Line, len(s.Path(e)))
	}
	// The page opens at the entry the start of its id names: the page
	// is the one its whole id gives, not the leaf's.
	pages := map[string][]byte{}
	for _, leaf := range []string{"cf95", "cf95108a", ""} {
		page := filepath.Join(t.TempDir(), "p.html")
		args := []string{"-o", page, file}
		if leaf != "" {
			args = append(args, "--leaf", leaf)
		}
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("page at %q: exit %d, %s", leaf, code, errOut)
		}
		pages[leaf], _ = os.ReadFile(page)
	}
	if !bytes.Equal(pages["cf95"], pages["cf95108a"]) || bytes.Equal(pages["cf95"], pages[""]) {
		t.Error("the page at the start of an id is not the page at that entry")
	}
}

func TestTreeFormats(t *testing.T) {
	out, errOut, code := runCLI(t, "--format", "tree", corpus+"pi-v3-sdk-branches-labels.jsonl")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "tree-branches-labels.txt", out)

	out, errOut, code = runCLI(t, "--format", "tree-json", corpus+"gjc-v3-pinion04-badline.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errOut, "gjc-v3-pinion04-badline.jsonl:44: the line is not valid JSON") {
		t.Errorf("the warning does not name the line: %q", errOut)
	}
	if !strings.Contains(out, `"parent": "missing:`) {
		t.Errorf("tree-json lacks the orphan's missing parent")
	}
}

func TestHTMLOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	abs, err := filepath.Abs(filepath.Join(testdataDir(t), "corpus", "pi-v3-sdk-branches-labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, abs)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.TrimSpace(out) != "pi-v3-sdk-branches-labels.html" {
		t.Errorf("printed %q, want the output path", out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "pi-v3-sdk-branches-labels.html"))
	if err != nil || !bytes.Contains(page, []byte("Health endpoint")) {
		t.Fatalf("page not written: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the page (no temporary files left)", len(entries))
	}

	out, errOut, code = runCLI(t, "--format", "md", abs)
	md, err := os.ReadFile(filepath.Join(dir, "pi-v3-sdk-branches-labels.md"))
	if code != 0 || strings.TrimSpace(out) != "pi-v3-sdk-branches-labels.md" || err != nil || !bytes.HasPrefix(md, []byte("# Health endpoint\n")) {
		t.Errorf("--format md: exit %d, %q, %v", code, errOut, err)
	}

	stdout, _, code := runCLI(t, "-o", "-", "--theme", "dark", abs)
	if code != 0 || !strings.HasPrefix(stdout, "<!DOCTYPE html>") || !strings.Contains(stdout, `data-theme="dark"`) {
		t.Errorf("-o - did not write the dark page to stdout (exit %d)", code)
	}
}

// testdataRoot is absolute, computed before any test changes directory.
var testdataRoot, _ = filepath.Abs("../../testdata")

func testdataDir(t *testing.T) string {
	t.Helper()
	return testdataRoot
}

// TestInputUntouched runs every command on copies of corpus files and
// checks that each input is byte-identical afterwards: pi itself rewrites
// the files it migrates.
func TestInputUntouched(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"pi-v1-pimono-migration-test-fixture.jsonl", "pi-v2-pimono-migration-test-fixture.jsonl", "gjc-v3-pinion04-badline.jsonl", "pi-v3-sdk-branches-labels.jsonl"} {
		data, err := os.ReadFile(filepath.Join(testdataDir(t), "corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, data, 0o444); err != nil {
			t.Fatal(err)
		}
		before := sha256.Sum256(data)
		info, _ := os.Stat(in)
		for _, args := range [][]string{
			{in, "-o", filepath.Join(dir, "out.html")},
			{"--format", "tree", in},
			{"--format", "tree-json", in},
		} {
			if _, errOut, code := runCLI(t, args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			after, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			info2, _ := os.Stat(in)
			if sha256.Sum256(after) != before || !info2.ModTime().Equal(info.ModTime()) {
				t.Errorf("%v changed %s", args, name)
			}
		}
	}
}
