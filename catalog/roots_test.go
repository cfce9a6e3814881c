package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDefaultRoots: every directory pi 1.6 and omp 18 keep sessions in,
// as their settings and environment say, in the order they prefer them;
// those that do not exist are left out, and one named twice is read once.
func TestDefaultRoots(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	cwd := filepath.Join(base, "work")
	mkdir := func(parts ...string) string {
		t.Helper()
		d := filepath.Join(parts...)
		must(t, os.MkdirAll(d, 0o755))
		return d
	}
	write := func(path, content string) {
		t.Helper()
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(t, os.WriteFile(path, []byte(content), 0o644))
	}
	piDefault := mkdir(home, ".pi", "agent", "sessions")
	ompDefault := mkdir(home, ".omp", "agent", "sessions")
	mkdir(cwd)
	vars := map[string]string{}
	e := env{getenv: func(k string) string { return vars[k] }, home: home, cwd: cwd, goos: "linux"}
	check := func(name string, want []string, wantWarnings ...string) {
		t.Helper()
		got, warnings := defaultRoots(e)
		if !slices.Equal(got, want) {
			t.Errorf("%s: roots\n got %q\nwant %q", name, got, want)
		}
		if len(warnings) != len(wantWarnings) {
			t.Errorf("%s: warnings %q, want %d", name, warnings, len(wantWarnings))
		}
		for i, w := range wantWarnings {
			if i < len(warnings) && !strings.Contains(warnings[i], w) {
				t.Errorf("%s: warning %q lacks %q", name, warnings[i], w)
			}
		}
	}
	check("defaults", []string{piDefault, ompDefault})

	// pi's sessionDir setting, ~ and relative paths as pi reads them; the
	// project's settings come first.
	global := mkdir(home, "pi-sessions")
	write(filepath.Join(home, ".pi", "agent", "settings.json"), "\uFEFF"+`{"theme":"dark","sessionDir":"~/pi-sessions"}`)
	check("sessionDir setting", []string{global, piDefault, ompDefault})
	project := mkdir(cwd, "sessions-here")
	write(filepath.Join(cwd, ".pi", "settings.json"), `{"sessionDir":"sessions-here"}`)
	check("project sessionDir", []string{project, global, piDefault, ompDefault})

	// The environment variable comes first of all; named twice, once.
	envDir := mkdir(base, "from-env")
	vars["PI_CODING_AGENT_SESSION_DIR"] = envDir
	check("PI_CODING_AGENT_SESSION_DIR", []string{envDir, project, global, piDefault, ompDefault})
	vars["PI_CODING_AGENT_SESSION_DIR"] = global
	check("named twice", []string{global, project, piDefault, ompDefault})
	delete(vars, "PI_CODING_AGENT_SESSION_DIR")
	must(t, os.Remove(filepath.Join(cwd, ".pi", "settings.json")))

	// $PI_CODING_AGENT_DIR moves pi's agent directory: its settings and
	// its sessions. A broken settings file is said, not followed.
	agent := mkdir(base, "agent")
	agentSessions := mkdir(agent, "sessions")
	write(filepath.Join(agent, "settings.json"), `{"sessionDir": 42}`)
	vars["PI_CODING_AGENT_DIR"] = agent
	check("PI_CODING_AGENT_DIR", []string{agentSessions, ompDefault}, "sessionDir is not a string")
	write(filepath.Join(agent, "settings.json"), `{"sessionDir": "~/pi-sessions",`)
	check("broken settings", []string{agentSessions, ompDefault}, "is not valid JSON")
	delete(vars, "PI_CODING_AGENT_DIR")

	// omp: its XDG data directory once omp moved there, $PI_CONFIG_DIR for
	// ~/.omp, and its profiles.
	xdg := filepath.Join(base, "xdg")
	vars["XDG_DATA_HOME"] = xdg
	check("XDG without omp", []string{global, piDefault, ompDefault})
	xdgSessions := mkdir(xdg, "omp", "sessions")
	xdgProfile := mkdir(xdg, "omp", "profiles", "work", "sessions")
	profile := mkdir(home, ".omp", "profiles", "work", "agent", "sessions")
	check("omp XDG and profiles", []string{global, piDefault, xdgSessions, xdgProfile, ompDefault, profile})
	e.goos = "windows"
	check("no XDG on Windows", []string{global, piDefault, ompDefault, profile})
	e.goos = "linux"
	delete(vars, "XDG_DATA_HOME")
	other := mkdir(home, ".omp-dev", "agent", "sessions")
	vars["PI_CONFIG_DIR"] = ".omp-dev"
	check("PI_CONFIG_DIR", []string{global, piDefault, other})
}
