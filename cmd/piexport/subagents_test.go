package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copyOMPFamily copies the corpus's omp session with its sub-agent
// folder, and a pi session beside it, into dir.
func copyOMPFamily(t *testing.T, dir string) (omp, pi string) {
	t.Helper()
	for _, name := range []string{"omp18-task-subagents.jsonl", "omp18-task-subagents/Lexer.jsonl",
		"omp18-task-subagents/Lexer/Tokens.jsonl", "omp18-task-subagents/Parser.jsonl", "pi-v3-sdk-branches-labels.jsonl"} {
		copyCorpus(t, name, filepath.Join(dir, name))
	}
	return filepath.Join(dir, "omp18-task-subagents.jsonl"), filepath.Join(dir, "pi-v3-sdk-branches-labels.jsonl")
}

// archiveFiles returns the files an archive in dir holds but its
// search index, by name.
func archiveFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, d := range mustReadDir(t, dir) {
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			b, err := os.ReadFile(filepath.Join(dir, d.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[d.Name()] = b
		}
	}
	return out
}

// An archive of session files named one by one carries the transcripts
// of their omp sub-agents, kept in the folder beside each, as an archive
// of their directory does: the same pages, linked the same way, and in
// Markdown the same documents.
func TestArchiveOfNamedFilesCarriesSubAgents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	omp, pi := copyOMPFamily(t, dir)
	for _, format := range []string{"html", "md"} {
		t.Run(format, func(t *testing.T) {
			ext := "." + format
			built := map[string]map[string][]byte{}
			for name, inputs := range map[string][]string{
				"named":     {omp, pi},
				"directory": {dir},
				"relative":  {"omp18-task-subagents.jsonl", "pi-v3-sdk-branches-labels.jsonl"},
			} {
				out := filepath.Join(t.TempDir(), "site")
				args := append([]string{"-q", "--no-cache", "--format", format, "-o", out}, inputs...)
				if name == "relative" {
					t.Chdir(dir)
				}
				if _, errOut, code := runCLI(t, args...); code != 0 {
					t.Fatalf("%s: exit %d: %s", name, code, errOut)
				}
				built[name] = archiveFiles(t, out)
			}
			named := built["named"]
			var names []string
			for name := range named {
				names = append(names, name)
			}
			slices.Sort(names)
			// A sub-agent's page is named after its session's.
			for _, agent := range []string{"d--omp18-task-subagents--Lexer", "d--omp18-task-subagents--Parser", "d--omp18-task-subagents--Lexer--Tokens"} {
				if named[agent+ext] == nil {
					t.Errorf("named files: no %s%s among %v", agent, ext, names)
				}
			}
			if format == "html" && !bytes.Contains(named["d--omp18-task-subagents.html"], []byte(`href="d--omp18-task-subagents--Lexer.html"`)) {
				t.Errorf("the session's page does not link its sub-agent's")
			}
			if format == "md" && !bytes.Contains(named["index.md"], []byte("(d--omp18-task-subagents--Lexer.md)")) {
				t.Errorf("the index does not list the sub-agents' documents")
			}
			// Whichever way the session was named, the pages are the
			// same.
			for _, way := range []string{"directory", "relative"} {
				for _, name := range names {
					if other := built[way][name]; other == nil {
						t.Errorf("%s: no %s", way, name)
					} else if !strings.HasPrefix(name, "index.") && !bytes.Equal(other, named[name]) {
						t.Errorf("%s: %s differs from the archive of the files named", way, name)
					}
				}
			}
		})
	}
}
