package session

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/internal/fileguard"
)

// Sessions come in families that repeat each other: a session, the
// transcripts of its omp sub-agents, the session it was forked or cloned
// from (pi's /fork and /clone) and the sessions forked from it. Masking a
// secret that one of them names (package redact) must see them all.

// ForkedFrom reads the session the file at path was forked from off its
// header line, without loading the file (see HeaderForkedFrom). It
// returns "" when path is not a regular file: it is opened without
// blocking, so a file swapped for a named pipe does not hang the reader.
func ForkedFrom(path string) string {
	f, _, err := fileguard.OpenInput(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return HeaderForkedFrom(f)
}

// HeaderForkedFrom reads the session a session file was forked from off
// its header line, the first line r gives: the header's parentSession (a
// sub-agent's names the session that started it), or a v1 file's
// branchedFrom. It returns "" when that line is not a session header or
// names none.
func HeaderForkedFrom(r io.Reader) string {
	line, err := bufio.NewReaderSize(r, 64<<10).ReadSlice('\n')
	if err != nil && len(line) == 0 {
		return ""
	}
	var h struct {
		Type          string `json:"type"`
		ParentSession string `json:"parentSession"`
		BranchedFrom  string `json:"branchedFrom"`
	}
	if json.Unmarshal(line, &h) != nil || h.Type != "session" {
		return ""
	}
	if h.ParentSession != "" {
		return h.ParentSession
	}
	return h.BranchedFrom
}

// Family returns the session files of the family of the one at path (see
// above), path among them, sorted: the transcripts of its sub-agents and
// theirs, the session its header names when that file is here, the
// sessions beside each of them whose headers name it (by its path, or by
// its name when the path they name is not here: a family moved together),
// and so on as far as these lead. It reads the files' headers, not the
// files.
func Family(path string) []string { return new(Families).Of(path) }

// Families finds the families of several session files (see Family),
// reading the headers of each directory once. The zero value is ready to
// use.
type Families struct {
	byDir map[string]map[string]string // directory → file → what it was forked from
}

// Of returns the family of the session file at path, as Family does.
func (fs *Families) Of(path string) []string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return []string{path}
	}
	if fs.byDir == nil {
		fs.byDir = map[string]map[string]string{}
	}
	var (
		seen   = map[string]bool{abs: true}
		queue  = []string{abs}
		froms  = func(dir string) map[string]string { return headersIn(dir, fs.byDir) }
		family []string
	)
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		family = append(family, p)
		for _, a := range subAgentFiles(p) {
			add(a)
		}
		if parent, ok := SubAgentParent(p, IsFile); ok {
			add(parent)
		}
		if from := froms(filepath.Dir(p))[p]; from != "" {
			if from = filepath.Clean(from); IsFile(from) {
				add(from)
			} else if beside := filepath.Join(filepath.Dir(p), filepath.Base(from)); IsFile(beside) {
				add(beside) // moved with it
			}
		}
		for f, from := range froms(filepath.Dir(p)) {
			if from == "" || f == p {
				continue
			}
			if filepath.Clean(from) == p || !IsFile(from) && filepath.Base(from) == filepath.Base(p) {
				add(f)
			}
		}
	}
	slices.Sort(family)
	return family
}

// headersIn returns what each session file in dir was forked from (see
// ForkedFrom), read once per directory into cache.
func headersIn(dir string, cache map[string]map[string]string) map[string]string {
	if m, ok := cache[dir]; ok {
		return m
	}
	m := map[string]string{}
	cache[dir] = m
	entries, err := os.ReadDir(dir)
	if err != nil {
		return m
	}
	for _, d := range entries {
		if name := d.Name(); d.Type().IsRegular() && strings.HasSuffix(name, ".jsonl") {
			p := filepath.Join(dir, name)
			m[p] = ForkedFrom(p)
		}
	}
	return m
}

// subAgentFiles lists the transcripts of the sub-agents of the session
// file at path, and theirs, as LoadSubAgents finds them.
func subAgentFiles(path string) []string {
	var out []string
	type job struct {
		dir   string
		depth int
	}
	for stack := []job{{SubAgentDir(path), 0}}; len(stack) > 0; {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		entries, err := os.ReadDir(j.dir)
		if err != nil {
			continue
		}
		for _, d := range entries {
			if name := d.Name(); isTranscript(d) {
				file := filepath.Join(j.dir, name)
				out = append(out, file)
				if j.depth+1 < maxSubAgentDepth {
					stack = append(stack, job{SubAgentDir(file), j.depth + 1})
				}
			}
		}
	}
	return out
}

// isTranscript says whether an entry of a sub-agent directory is a
// transcript LoadSubAgents reads.
func isTranscript(d os.DirEntry) bool {
	name := d.Name()
	return d.Type().IsRegular() && strings.HasSuffix(name, ".jsonl") && !strings.Contains(name, ".bak")
}
