package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Where pi and omp keep sessions, as pi 1.6.0 and omp 18.3.4 decide it.
//
// pi (docs/sessions.md, docs/settings.md, main.js): --session-dir, else
// $PI_CODING_AGENT_SESSION_DIR, else the sessionDir setting (the
// project's .pi/settings.json over the agent directory's settings.json),
// else <agent dir>/sessions; the agent directory is $PI_CODING_AGENT_DIR,
// else ~/.pi/agent. A leading ~ is the home directory; a relative
// sessionDir is taken from the working directory.
//
// omp (cli/args.ts, pi-utils dirs.ts): --session-dir, else
// $PI_CODING_AGENT_SESSION_DIR, else <agent dir>/sessions: the agent
// directory is $PI_CODING_AGENT_DIR, else ~/$PI_CONFIG_DIR/agent (".omp"
// by default), or ~/.omp/profiles/<name>/agent for a profile
// ($OMP_PROFILE, $PI_PROFILE); on Linux and macOS, once omp has moved its
// data under $XDG_DATA_HOME/omp, the sessions are $XDG_DATA_HOME/omp/sessions
// (and .../omp/profiles/<name>/sessions).
//
// A directory pi or omp used before a setting moved it still holds the
// sessions written there, so every one of these that exists is read, in
// the order pi and omp prefer them.

// DefaultRootsHelp names the directories DefaultRoots looks in, for
// messages that say none held a session.
const DefaultRootsHelp = "pi's session directory ($PI_CODING_AGENT_SESSION_DIR, the sessionDir setting, ~/.pi/agent/sessions) and omp's (~/.omp/agent/sessions)"

// env is what DefaultRoots reads of its surroundings; tests replace it.
type env struct {
	getenv    func(string) string
	home, cwd string
	goos      string
}

func processEnv() env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return env{getenv: os.Getenv, home: home, cwd: cwd, goos: runtime.GOOS}
}

// DefaultRoots returns the directories pi and omp keep their sessions in,
// those of them that exist, each once, in this order: the directory
// $PI_CODING_AGENT_SESSION_DIR names; the sessionDir setting of pi's
// project settings (./.pi/settings.json) and of pi's own settings
// ($PI_CODING_AGENT_DIR/settings.json, else ~/.pi/agent/settings.json);
// pi's default, $PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions;
// then omp's: $XDG_DATA_HOME/omp/sessions, ~/.omp/agent/sessions (with
// $PI_CONFIG_DIR for .omp), and each omp profile's sessions. warnings say
// which settings files could not be read.
func DefaultRoots() (roots []string, warnings []string) {
	return defaultRoots(processEnv())
}

func defaultRoots(e env) (roots []string, warnings []string) {
	var dirs []string
	add := func(d string) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	add(e.path(e.getenv("PI_CODING_AGENT_SESSION_DIR")))
	piAgent := filepath.Join(e.home, ".pi", "agent")
	if d := e.getenv("PI_CODING_AGENT_DIR"); d != "" {
		piAgent = e.path(d)
	}
	for _, settings := range []string{filepath.Join(e.cwd, ".pi", "settings.json"), filepath.Join(piAgent, "settings.json")} {
		d, err := sessionDirSetting(settings)
		if err != nil {
			warnings = append(warnings, err.Error())
		}
		add(e.path(d))
	}
	add(filepath.Join(piAgent, "sessions"))

	if e.home != "" {
		config := e.getenv("PI_CONFIG_DIR")
		if config == "" {
			config = ".omp"
		}
		ompRoot := filepath.Join(e.home, config)
		if xdg := e.getenv("XDG_DATA_HOME"); xdg != "" && (e.goos == "linux" || e.goos == "darwin") {
			if isDir(filepath.Join(xdg, "omp")) {
				add(filepath.Join(xdg, "omp", "sessions"))
			}
			profiles, _ := filepath.Glob(filepath.Join(xdg, "omp", "profiles", "*", "sessions"))
			dirs = append(dirs, profiles...)
		}
		add(filepath.Join(ompRoot, "agent", "sessions"))
		profiles, _ := filepath.Glob(filepath.Join(ompRoot, "profiles", "*", "agent", "sessions"))
		dirs = append(dirs, profiles...)
	}

	seen := map[string]bool{}
	for _, d := range dirs {
		d = filepath.Clean(d)
		if seen[d] || !isDir(d) {
			continue
		}
		seen[d] = true
		roots = append(roots, d)
	}
	return roots, warnings
}

// path reads a directory as pi does: a leading ~ is the home directory,
// a relative path is taken from the working directory.
func (e env) path(p string) string {
	if p == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(p, "~"); ok && e.home != "" && (rest == "" || os.IsPathSeparator(rest[0])) {
		p = e.home + rest
	}
	if !filepath.IsAbs(p) && e.cwd != "" {
		p = filepath.Join(e.cwd, p)
	}
	return p
}

// sessionDirSetting reads the sessionDir setting of a pi settings file:
// "" when the file does not exist or does not set it.
func sessionDirSetting(path string) (string, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: cannot be read, so its sessionDir setting is not followed: %w", path, err)
	}
	var s struct {
		SessionDir json.RawMessage `json:"sessionDir"`
	}
	if err := json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &s); err != nil {
		return "", fmt.Errorf("%s: is not valid JSON, so its sessionDir setting is not followed: %w", path, err)
	}
	var dir string
	if len(s.SessionDir) > 0 && json.Unmarshal(s.SessionDir, &dir) != nil && string(s.SessionDir) != "null" {
		return "", fmt.Errorf("%s: sessionDir is not a string, so it is not followed", path)
	}
	return dir, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
