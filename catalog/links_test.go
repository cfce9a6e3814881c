package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// omp's sub-agent transcripts are listed under their session, and forks
// link to the session they came from, both ways.
func TestLinks(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	proj := filepath.Join(dir, "--proj--")
	main := filepath.Join(proj, "main.jsonl")
	sessionFile(t, main, "/w", day, "user:parent")
	sessionFile(t, filepath.Join(proj, "main", "Agent1.jsonl"), "/w", day, "user:first agent")
	sessionFile(t, filepath.Join(proj, "main", "Agent1", "Sub.jsonl"), "/w", day, "user:agent of an agent")
	sessionFile(t, filepath.Join(proj, "main", "Agent2.jsonl"), "/w", day, "user:second agent")
	sessionFile(t, filepath.Join(proj, "other", "x.jsonl"), "/w", day, "user:not an agent: no other.jsonl")
	fork := fmt.Sprintf(`{"type":"session","version":3,"id":"f","timestamp":"2026-03-02T00:00:00Z","cwd":"/w","parentSession":%q}`+"\n", main)
	write(t, filepath.Join(proj, "fork.jsonl"), fork+`{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-02T00:00:00Z","message":{"role":"user","content":"forked"}}`+"\n")
	// A fork made on another machine names its parent by a path that is
	// not here; the file name finds it.
	elsewhere := `{"type":"session","version":3,"id":"g","timestamp":"2026-03-02T00:00:00Z","cwd":"/w","parentSession":"/home/someone/.pi/agent/sessions/--proj--/main.jsonl"}` + "\n"
	write(t, filepath.Join(dir, "--moved--", "clone.jsonl"), elsewhere+`{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-02T00:00:00Z","message":{"role":"user","content":"cloned"}}`+"\n")

	c, _ := newCatalogOf(t, dir)
	byName := map[string]Info{}
	for _, i := range c.List() {
		rel, _ := filepath.Rel(dir, i.Path)
		byName[filepath.ToSlash(rel)] = i
	}
	id := func(name string) string {
		t.Helper()
		i, ok := byName[name]
		if !ok {
			t.Fatalf("%s is not listed", name)
		}
		return i.ID
	}
	for name, want := range map[string]string{
		"--proj--/main/Agent1.jsonl":     id("--proj--/main.jsonl"),
		"--proj--/main/Agent2.jsonl":     id("--proj--/main.jsonl"),
		"--proj--/main/Agent1/Sub.jsonl": id("--proj--/main/Agent1.jsonl"),
		"--proj--/other/x.jsonl":         "",
		"--proj--/main.jsonl":            "",
	} {
		if got := byName[name].Parent; got != want {
			t.Errorf("%s: parent %q, want %q", name, got, want)
		}
	}
	agents := byName["--proj--/main.jsonl"].Agents
	slices.Sort(agents)
	want := []string{id("--proj--/main/Agent1.jsonl"), id("--proj--/main/Agent2.jsonl")}
	slices.Sort(want)
	if !slices.Equal(agents, want) {
		t.Errorf("main's agents = %q, want %q", agents, want)
	}
	if got := byName["--proj--/fork.jsonl"].ForkOf; got != id("--proj--/main.jsonl") {
		t.Errorf("fork's parent = %q", got)
	}
	if got := byName["--moved--/clone.jsonl"].ForkOf; got != id("--proj--/main.jsonl") {
		t.Errorf("clone's parent = %q", got)
	}
	forks := byName["--proj--/main.jsonl"].Forks
	slices.Sort(forks)
	want = []string{id("--moved--/clone.jsonl"), id("--proj--/fork.jsonl")}
	slices.Sort(want)
	if !slices.Equal(forks, want) {
		t.Errorf("main's forks = %q, want %q", forks, want)
	}
}
