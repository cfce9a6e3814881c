package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTeamMachines: each machine's history is under a home of its own,
// where piexport's default roots find it, and holds sessions of its own
// (other seeds: no session id is shared); a second call reuses them.
func TestTeamMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("generates sessions")
	}
	c := &config{dir: t.TempDir(), machines: 3, shape: "mixed"}
	ms, all, err := c.teamMachines("3MB", 3_000_000, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 || len(all.files) != 3 {
		t.Fatalf("%d machines, %d sessions: want 3 and 3", len(ms), len(all.files))
	}
	ids := map[string]string{}
	for _, m := range ms {
		for _, f := range m.h.files {
			if !strings.HasPrefix(f, m.home+"/.pi/agent/sessions/") {
				t.Errorf("%s: %s is not in pi's session directory of %s", m.role, f, m.home)
			}
			id, err := headerID(f)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := ids[id]; ok {
				t.Errorf("%s and %s hold the same session %s", other, m.role, id)
			}
			ids[id] = m.role
		}
	}
	// A history made again would lose what was put beside it.
	mark := filepath.Join(ms[1].h.dir, "mark")
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.teamMachines("3MB", 3_000_000, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the histories were made again, not reused: %v", err)
	}
}

// TestMachineEnv: piexport runs as a machine with its home, and with
// none of the variables that would send it to other sessions.
func TestMachineEnv(t *testing.T) {
	t.Setenv("PI_CODING_AGENT_DIR", "/elsewhere")
	t.Setenv("XDG_DATA_HOME", "/elsewhere")
	t.Setenv("HOME", "/root-home")
	env := (&machine{home: "/bench/m01"}).env()
	if !slices.Contains(env, "HOME=/bench/m01") || slices.Contains(env, "HOME=/root-home") {
		t.Errorf("HOME is not the machine's: %q", env)
	}
	for _, e := range env {
		if strings.Contains(e, "/elsewhere") {
			t.Errorf("%s is passed on", e)
		}
	}
}
