package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

// The sessions the documentation sites are built from, and what each
// page made of one must hold.

// siteSource is a session file of a site, and what its page must hold.
type siteSource struct {
	path string
	// stem is its page's name: the project folder's and the file's, a
	// sub-agent's after its session's.
	stem string
	// ids are the entries of its path that the page shows; labels the
	// labels of its parts; text all the strings of its file, and its lines.
	ids    []string
	labels []string
	text   string
}

// hostileContexts put a string where session Markdown can hold it: as
// text, in a code span, a fence, indented code, a list, a quote, a
// table, a link's text.
var hostileContexts = []string{"%s", "before %s after", "`%s`", "```\n%s\n```", "    %s", "- %s", "> %s", "| a | b |\n| --- | --- |\n| %s | x |", "[%s](https://example.com)",
	// Code to CommonMark (a list item's content, then four spaces), a
	// paragraph to Python-Markdown (four spaces are a list's content).
	"- item\n\n      %s",
	// A lazy line: a code span to goldmark that runs over lines.
	"> ``\n%s\n> ``"}

// writeHostileSession writes a session whose every kind of text holds
// every string of hostile.Engine, in every context.
func writeHostileSession(t *testing.T, path string) {
	t.Helper()
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	enc.SetEscapeHTML(false)
	add := func(v map[string]any) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	ts := func(i int) string { return fmt.Sprintf("2026-02-01T10:%02d:%02dZ", i/60%60, i%60) }
	add(map[string]any{"type": "session", "version": 3, "id": "hostile-session", "timestamp": ts(0), "cwd": hostile.Cwd})
	parent, n := "", 0
	entry := func(v map[string]any) {
		n++
		id := fmt.Sprintf("h%04d", n)
		v["id"], v["parentId"], v["timestamp"] = id, parent, ts(n)
		if parent == "" {
			v["parentId"] = nil
		}
		add(v)
		parent = id
	}
	msg := func(m map[string]any) { entry(map[string]any{"type": "message", "message": m}) }
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	entry(map[string]any{"type": "session_info", "name": hostile.Title})
	for i, s := range hostile.Engine {
		var all []string
		for _, c := range hostileContexts {
			all = append(all, fmt.Sprintf(c, s))
		}
		msg(map[string]any{"role": "user", "content": s + "\n\n" + strings.Join(all, "\n\n")})
		call := fmt.Sprintf("call%d", i)
		msg(map[string]any{"role": "assistant", "model": s, "provider": "p", "content": []any{
			map[string]any{"type": "thinking", "thinking": strings.Join(all, "\n\n")},
			text(strings.Join(all, "\n\n")),
			map[string]any{"type": "toolCall", "id": call, "name": "bash", "arguments": map[string]any{"command": s}},
		}})
		msg(map[string]any{"role": "toolResult", "toolCallId": call, "toolName": "bash", "content": []any{text(s + "\n" + strings.Join(all, "\n"))}})
		entry(map[string]any{"type": "custom_message", "customType": s, "content": s, "display": i%2 == 0})
	}
	entry(map[string]any{"type": "label", "targetId": "h0002", "label": hostile.Label})
	entry(map[string]any{"type": "compaction", "summary": strings.Join(hostile.Engine, "\n\n"), "firstKeptEntryId": "h0002", "tokensBefore": 1000})
	msg(map[string]any{"role": "assistant", "content": []any{text(strings.Join(hostile.Engine, "\n"))}})
	if err := os.WriteFile(path, lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// siteSources lists the session files of a site (the corpus, its
// sub-agents, and hostile sessions written to dir) with what their pages
// must hold.
func siteSources(t *testing.T, dir string) []siteSource {
	t.Helper()
	hostileDir := filepath.Join(dir, "hostile")
	if err := os.MkdirAll(hostileDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeHostileSession(t, filepath.Join(hostileDir, "engines.jsonl"))
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(hostileDir, "engines.jsonl"),
		corpus+"omp18-task-subagents/Lexer.jsonl", corpus+"omp18-task-subagents/Parser.jsonl", corpus+"omp18-task-subagents/Lexer/Tokens.jsonl")
	home, _ := os.UserHomeDir() // as the archive has it
	var out []siteSource
	for _, f := range files {
		s, err := session.Load(f)
		if err != nil {
			continue // the event stream: listed as unreadable
		}
		src := siteSource{path: f, stem: pageStem(f)}
		for _, e := range s.Path(s.Leaf) {
			if (e.Type == "usage" || e.Type == "model_usage") && e.Work != nil {
				continue
			}
			src.ids = append(src.ids, e.ID)
		}
		var doc bytes.Buffer
		if err := gfm.WriteMarkdown(&doc, s, gfm.Options{Home: home}); err != nil {
			t.Fatal(err)
		}
		src.labels = docsite.Labels(doc.String())
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The strings, and the file as it is: a tool's arguments are shown
		// as their JSON.
		src.text = jsonStrings(raw) + string(raw)
		out = append(out, src)
	}
	return out
}

// pageStem is the page name the archive gives a session file of the
// corpus or of the hostile directory.
func pageStem(path string) string {
	dir, base := filepath.Base(filepath.Dir(path)), strings.TrimSuffix(filepath.Base(path), ".jsonl")
	switch {
	case dir == "Lexer":
		return "corpus--omp18-task-subagents--Lexer--" + base
	case dir == "omp18-task-subagents":
		return "corpus--omp18-task-subagents--" + base
	}
	return dir + "--" + base
}

// siteAnchor is an entry's anchor in a target: Hugo's heading ids keep
// letters, digits, "_", "-", ":" and ".".
func siteAnchor(id, target string) string {
	if target != "hugo" {
		return id
	}
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_-:.", r) {
			return r
		}
		return '-'
	}, id)
}

// jsonStrings is every string of a JSONL file, decoded, one per line.
func jsonStrings(raw []byte) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				b.WriteString(k + "\n")
				walk(x)
			}
		}
	}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		var v any
		if json.Unmarshal(line, &v) == nil {
			walk(v)
		}
	}
	return b.String()
}
