package render

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/linediff"
)

// withoutBlockCache turns the rendered-block cache off for a benchmark:
// with it, every iteration after the first would measure a map lookup.
func withoutBlockCache(b *testing.B) {
	old := SetCodeCacheLimit(0)
	b.Cleanup(func() { SetCodeCacheLimit(old) })
}

// repeatTo repeats unit until the result is at least n bytes.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, n/len(unit)+1)
}

const benchMarkdownUnit = "## Plan for the `session` loader\n\n" +
	"The loader reads **one line at a time** with a `bufio.Reader`, so a 64 KiB token limit never bites. " +
	"See [the docs](https://pkg.go.dev/bufio#Reader) and https://example.com/issues/42 for details.[^why]\n\n" +
	"1. Decode each line with a `json.Decoder`.\n2. Keep *both* objects when a line holds two.\n" +
	"   - warnings are values, not prints\n   - errors carry `file:line`\n\n" +
	"- [x] migrations\n- [ ] compaction entries\n\n" +
	"| step | time | note |\n|:-----|-----:|------|\n| parse | 12 ms | fast |\n| render | 30 ms | goldmark + chroma |\n\n" +
	"> Note: raw <b>HTML</b> is shown as text.\n\n" +
	"```go\nfunc load(r io.Reader) ([]Entry, error) {\n\tbr := bufio.NewReader(r)\n\tfor {\n\t\tline, err := br.ReadBytes('\\n')\n\t\tif err == io.EOF {\n\t\t\treturn entries, nil\n\t\t}\n\t}\n}\n```\n\n" +
	"[^why]: Real tool output has lines longer than that.\n\n"

const benchGoUnit = `// Package store keeps entries in memory.
package store

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// ErrNotFound is returned for a missing key.
var ErrNotFound = errors.New("store: not found")

// Store is a concurrency-safe map with ordered listing.
type Store struct {
	mu   sync.RWMutex
	data map[string][]byte
}

// Get returns the value stored under key.
func (s *Store) Get(key string) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.data[key]
	if !ok {
		return nil, fmt.Errorf("get %q: %w", key, ErrNotFound)
	}
	return v, nil
}

// Keys lists the keys in order.
func (s *Store) Keys() []string {
	s.mu.RLock()
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	s.mu.RUnlock()
	sort.Strings(keys)
	return keys
}

`

const benchPythonUnit = `"""Summarise a session file."""
import json
import sys
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Summary:
    entries: int = 0
    roles: Counter = field(default_factory=Counter)
    tokens: int = 0

    def add(self, entry: dict) -> None:
        self.entries += 1
        message = entry.get("message") or {}
        self.roles[message.get("role", "?")] += 1
        usage = message.get("usage") or {}
        self.tokens += int(usage.get("input", 0)) + int(usage.get("output", 0))


def main(path: str) -> int:
    summary = Summary()
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            try:
                summary.add(json.loads(line))
            except json.JSONDecodeError as err:
                print(f"{path}:{lineno}: {err}", file=sys.stderr)
    print(f"{summary.entries} entries, {summary.tokens} tokens, roles={dict(summary.roles)}")
    return 0

`

const benchTypeScriptUnit = `import { readFile } from "node:fs/promises";

export interface Entry {
  id: string;
  parentId: string | null;
  type: "message" | "compaction" | "label";
  timestamp: string;
}

/** Builds the children index of a session tree without recursion. */
export function childrenOf(entries: readonly Entry[]): Map<string, Entry[]> {
  const children = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = e.parentId ?? "";
    const list = children.get(key) ?? [];
    list.push(e);
    children.set(key, list);
  }
  return children;
}

export async function load(path: string): Promise<Entry[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      try {
        return JSON.parse(line) as Entry;
      } catch (err) {
        throw new Error(` + "`${path}:${i + 1}: ${String(err)}`" + `);
      }
    });
}

`

const benchANSIUnit = "\x1b[1m=== RUN\x1b[0m   TestLoad/large_session\n" +
	"\x1b[32m--- PASS\x1b[0m: TestLoad (0.12s)\n" +
	"\x1b[31m--- FAIL\x1b[0m: TestExport/\x1b[1mgolden\x1b[0m (0.30s)\n" +
	"    export_test.go:42: got \x1b[38;5;196m<div>\x1b[0m want \x1b[38;2;0;200;0m<section>\x1b[0m\n" +
	"Downloading 10%\rDownloading 55%\rDownloading 100%\n" +
	"\x1b]0;go test\x07\x1b[2K\x1b[1Gok  \tgithub.com/piexport/piexport/session\t0.412s\n"

// BenchmarkRenderMarkdown renders ~100 KB of assistant-style Markdown,
// with its fenced Go blocks (Mixed, where chroma takes most of the time)
// and without them (Prose).
func BenchmarkRenderMarkdown(b *testing.B) {
	withoutBlockCache(b)
	prose, _, _ := strings.Cut(benchMarkdownUnit, "```go")
	for _, tc := range []struct{ name, unit string }{
		{"Mixed", benchMarkdownUnit},
		{"Prose", prose},
	} {
		b.Run(tc.name, func(b *testing.B) {
			src := repeatTo(tc.unit, 100<<10)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Markdown(src, "e-bench-")
			}
		})
	}
}

// BenchmarkHighlight measures chroma with our formatter on ~100 KB
// sources. The budget is lifted so the figure is the lexer's throughput,
// not the deadline.
func BenchmarkHighlight(b *testing.B) {
	for _, tc := range []struct{ name, lang, unit string }{
		{"Go", "go", benchGoUnit},
		{"Python", "python", benchPythonUnit},
		{"TypeScript", "typescript", benchTypeScriptUnit},
	} {
		b.Run(tc.name, func(b *testing.B) {
			code := repeatTo(tc.unit, 100<<10)
			l := lexerForLang(tc.lang)
			b.SetBytes(int64(len(code)))
			for b.Loop() {
				renderCodeNow(code, l, 0, limits{len(code), 1 << 20})
			}
		})
	}
}

func BenchmarkANSI(b *testing.B) {
	s := repeatTo(benchANSIUnit, 1<<20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Terminal(s)
	}
}

func BenchmarkRenderDiff(b *testing.B) {
	old := repeatTo(benchGoUnit, 100<<10)
	d := linediff.Unified(old, strings.ReplaceAll(old, "s.mu.RLock()", "s.mu.Lock()"))
	b.SetBytes(int64(len(d)))
	for b.Loop() {
		Diff(d)
	}
}
