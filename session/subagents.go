package session

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// omp keeps the transcripts of a session's sub-agents beside it: the
// session <dir>/<name>.jsonl has its sub-agents at <dir>/<name>/<AgentId>.jsonl,
// and theirs nest the same way under <dir>/<name>/<AgentId>/ (omp 18.3.4,
// task/executor.ts and export/html/index.ts). A task tool call names the
// agents it started; each agent id is its transcript's file name.

// SubAgentDir returns the directory that holds the sub-agent transcripts
// of the session file at path.
func SubAgentDir(path string) string { return strings.TrimSuffix(path, ".jsonl") }

// SubAgentParent returns the session file whose sub-agent the file at
// path is, when that file exists: <dir>/<name>.jsonl for a .jsonl file
// in <dir>/<name>/. exists says whether a file does (the catalog and
// the archive ask the files they found; os.Stat for the disk). It is the
// one place that rule is written.
func SubAgentParent(path string, exists func(string) bool) (string, bool) {
	if !strings.HasSuffix(path, ".jsonl") {
		return "", false
	}
	dir := filepath.Dir(path)
	if dir == "." || dir == string(filepath.Separator) || dir == path {
		return "", false
	}
	parent := dir + ".jsonl"
	return parent, exists(parent)
}

// IsFile reports whether a regular file is at path: SubAgentParent's
// question, asked of the disk.
func IsFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// SubAgent is one sub-agent transcript and the sub-agents it started.
type SubAgent struct {
	// ID is the agent id, the transcript's file name without ".jsonl".
	ID string
	// Key joins the ids from the session's own sub-agent down to this one
	// with "/": "Lexer", "Lexer/Tokens".
	Key     string
	Session *Session
	Agents  []*SubAgent
}

// maxSubAgentDepth bounds how deep sub-agent directories are followed.
const maxSubAgentDepth = 16

// LoadSubAgents loads the sub-agent transcripts kept beside the session
// file at path, and theirs, in the order of their names. A transcript that
// cannot be read is left out, with a warning; a session without
// sub-agents has none and no warning.
func LoadSubAgents(path string) ([]*SubAgent, []Warning) {
	var warnings []Warning
	type job struct {
		dir, prefix string
		depth       int
		into        *[]*SubAgent
	}
	var top []*SubAgent
	stack := []job{{SubAgentDir(path), "", 0, &top}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		entries, err := os.ReadDir(j.dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
				warnings = append(warnings, Warning{File: j.dir, Text: "the sub-agent transcripts cannot be listed: " + err.Error()})
			}
			continue
		}
		for _, d := range entries {
			name := d.Name()
			if !isTranscript(d) {
				continue
			}
			file := filepath.Join(j.dir, name)
			s, err := Load(file)
			if err != nil {
				warnings = append(warnings, Warning{File: file, Text: "this sub-agent transcript is left out: " + err.Error()})
				continue
			}
			id := strings.TrimSuffix(name, ".jsonl")
			a := &SubAgent{ID: id, Key: id, Session: s}
			if j.prefix != "" {
				a.Key = j.prefix + "/" + id
			}
			*j.into = append(*j.into, a)
			if j.depth+1 < maxSubAgentDepth {
				stack = append(stack, job{SubAgentDir(file), a.Key, j.depth + 1, &a.Agents})
			}
		}
	}
	return top, warnings
}

// RenameSubAgents names agents, and theirs, again after their
// transcripts' files as their sessions now have them (Session.File): once
// package redact has masked a file's name as it masked the task call that
// names the agent (an agent id can hold a secret), the two match again.
func RenameSubAgents(agents []*SubAgent) {
	type job struct {
		prefix string
		list   []*SubAgent
	}
	for stack := []job{{"", agents}}; len(stack) > 0; {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, a := range j.list {
			a.ID = strings.TrimSuffix(filepath.Base(a.Session.File), ".jsonl")
			a.Key = a.ID
			if j.prefix != "" {
				a.Key = j.prefix + "/" + a.ID
			}
			stack = append(stack, job{a.Key, a.Agents})
		}
	}
}

// FindSubAgent returns the sub-agent with the given id among agents, or nil.
func FindSubAgent(agents []*SubAgent, id string) *SubAgent {
	if i := slices.IndexFunc(agents, func(a *SubAgent) bool { return a.ID == id }); i >= 0 {
		return agents[i]
	}
	return nil
}

// TaskAgent is one sub-agent an omp task tool call asked for, with how it
// ended where the call's result says.
type TaskAgent struct {
	ID          string
	Description string
	Assignment  string
	// Status is "done", "failed", "aborted" or "merge failed" from the
	// result; "" when there is no result for the agent.
	Status     string
	Error      string
	DurationMs float64
	Tokens     int64
	Model      string
	Output     string
}

// TaskAgents reads the agents a task tool call's arguments ask for: its
// "tasks", or the one task its own fields describe.
func TaskAgents(args json.RawMessage) []TaskAgent {
	type task struct {
		ID          string `json:"id"`
		Description string `json:"description"`
		Assignment  string `json:"assignment"`
	}
	var a struct {
		Tasks []task `json:"tasks"`
		task
	}
	if json.Unmarshal(args, &a) != nil {
		return nil
	}
	var out []TaskAgent
	for _, t := range a.Tasks {
		out = append(out, TaskAgent{ID: t.ID, Description: t.Description, Assignment: t.Assignment})
	}
	if len(out) == 0 && (a.ID != "" || a.Description != "" || a.Assignment != "") {
		out = append(out, TaskAgent{ID: a.ID, Description: a.Description, Assignment: a.Assignment})
	}
	return out
}

// TaskRun merges a task call's agents with its result's details: the
// agents as the result lists them (their ids are the transcripts' names),
// with the call's descriptions and assignments, then any the call asked
// for that the result does not list.
func TaskRun(args json.RawMessage, result *Entry) []TaskAgent {
	asked := TaskAgents(args)
	var details struct {
		Results []struct {
			ID          string  `json:"id"`
			Description string  `json:"description"`
			ExitCode    *int    `json:"exitCode"`
			Aborted     bool    `json:"aborted"`
			AbortReason string  `json:"abortReason"`
			Error       string  `json:"error"`
			DurationMs  float64 `json:"durationMs"`
			Tokens      float64 `json:"tokens"`
			Model       string  `json:"resolvedModel"`
			Output      string  `json:"output"`
		} `json:"results"`
	}
	if result != nil && result.Message != nil {
		_ = json.Unmarshal(result.Message.Details, &details)
	}
	var out []TaskAgent
	for _, r := range details.Results {
		a := TaskAgent{ID: r.ID, Description: r.Description, Error: r.Error, DurationMs: r.DurationMs,
			Tokens: toInt64(r.Tokens), Model: r.Model, Output: r.Output}
		switch {
		case r.Aborted:
			a.Status = "aborted"
			if a.Error == "" {
				a.Error = r.AbortReason
			}
		case r.ExitCode != nil && *r.ExitCode == 0 && r.Error != "":
			a.Status = "merge failed"
		case r.ExitCode != nil && *r.ExitCode == 0:
			a.Status = "done"
		default:
			a.Status = "failed"
		}
		if i := slices.IndexFunc(asked, func(t TaskAgent) bool { return t.ID == r.ID }); i >= 0 {
			if a.Description == "" {
				a.Description = asked[i].Description
			}
			a.Assignment = asked[i].Assignment
			asked = slices.Delete(asked, i, i+1)
		}
		out = append(out, a)
	}
	return append(out, asked...)
}

// ParentOf says how to name the session s came from, whose file s's
// header names (pi's /fork and /clone keep its path, omp a sub-agent's
// parent's): by that path with home as ~ when it lies there, else by the
// file's name alone, for the path is of the machine the session was
// written on (/tmp/…/x.jsonl, another user's home) and would mislead.
// role says which it is: "Sub-agent of" (omp writes session_init) or
// "Forked from". It returns "", "" when the header names none.
func (s *Session) ParentOf(home string) (name, role string) {
	if s.Header == nil || s.Header.ParentSession == "" {
		return "", ""
	}
	p := s.Header.ParentSession
	if name = ShortenHome(p, home); name == p {
		name = filepath.Base(filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
	}
	role = "Forked from"
	for _, e := range s.Entries {
		if e.Type == "session_init" {
			role = "Sub-agent of"
			break
		}
	}
	return name, role
}
