package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without paths, an archive (and --usage, and --serve) reads the sessions
// where pi keeps them, the sessionDir setting included; a name that can
// only be a page is still asked for its session.
func TestArchiveOfDefaultDirectories(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "PI_CONFIG_DIR", "XDG_DATA_HOME"} {
		t.Setenv(v, "")
	}
	moved := filepath.Join(home, "elsewhere")
	settings := filepath.Join(home, ".pi", "agent", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"sessionDir":"~/elsewhere"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	copyCorpus(t, "pi-v3-sdk-branches-labels.jsonl", filepath.Join(moved, "a.jsonl"))
	copyCorpus(t, "pi-v3-earth0-tiny.jsonl", filepath.Join(home, ".omp", "agent", "sessions", "--p--", "b.jsonl"))

	out := filepath.Join(t.TempDir(), "site")
	if _, errOut, code := runCLI(t, "-q", "--no-cache", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(index), `<td class="title">`); n != 2 || !strings.Contains(string(index), "Health endpoint") {
		t.Errorf("the archive of the default directories lists %d sessions, want both:\n%s", n, index)
	}
	if stdout, errOut, code := runCLI(t, "--usage", "--no-cache", "--json"); code != 0 || !strings.Contains(stdout, `"sessions": 2`) {
		t.Errorf("--usage without paths: exit %d, %s %s", code, stdout, errOut)
	}
	for _, args := range [][]string{{"-o", "page.html"}, {"-o", "notes.md", "--format", "md"}, {"-o", out, "--leaf", "x"}, {"-o", "-"}} {
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "no session file given") {
			t.Errorf("%q: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
}
