package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
)

// TestFamiliesPreparedTogether (issue 33, item 1): under Mask, a
// session, its sub-agent's transcript and its fork are masked as one
// family, in the same order at every build, and a session of no family
// alone; when one member changes, every member's page is made again, and
// an unchanged family is not read at all.
func TestFamiliesPreparedTogether(t *testing.T) {
	src := filepath.Join(t.TempDir(), "--proj--")
	out := t.TempDir()
	line := func(id, text string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", id, text)
	}
	header := func(id, parent string) string {
		return fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w","parentSession":%q}`+"\n", id, parent)
	}
	write := func(p, s string) string {
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	main := write(filepath.Join(src, "main.jsonl"), header("m", "")+line("a", "the main session"))
	agent := write(filepath.Join(src, "main", "Lexer.jsonl"), header("l", main)+line("b", "a lexing task"))
	fork := write(filepath.Join(src, "fork.jsonl"), header("f", main)+line("c", "a forked session"))
	alone := write(filepath.Join(src, "alone.jsonl"), header("x", "")+line("d", "a session of its own"))
	files := []string{alone, fork, agent, main}

	rec := &recordingMasker{masked: map[string][]string{}}
	opt := Options{Mask: rec}
	var calls []string // each family masked: its ids in order, those masked marked *
	build := func() Result {
		t.Helper()
		rec.masked = map[string][]string{}
		res, err := Build(context.Background(), out, files, opt)
		must(t, err)
		calls = rec.calls()
		return res
	}
	res := build()
	// The first build makes every page, then makes the related pages
	// again once their titles are known.
	if len(res.Rendered) != 4 || !slices.Contains(calls, "x*") || !slices.ContainsFunc(calls, func(c string) bool {
		return strings.Count(c, "*") == 3 && strings.Contains(c, "m") && strings.Contains(c, "l") && strings.Contains(c, "f")
	}) {
		t.Fatalf("first build: rendered %d, prepared %q", len(res.Rendered), calls)
	}
	var order string
	for _, c := range calls {
		if strings.Count(c, " ") == 2 {
			if order == "" {
				order = strings.ReplaceAll(c, "*", "")
			} else if strings.ReplaceAll(c, "*", "") != order {
				t.Errorf("the family came in two orders: %q", calls)
			}
		}
	}

	if res = build(); len(res.Rendered) != 0 || len(calls) != 0 {
		t.Errorf("an unchanged archive: rendered %q, prepared %q", res.Rendered, calls)
	}

	write(fork, header("f", main)+line("c", "a forked session, longer"))
	res = build()
	slices.Sort(res.Rendered)
	want := []string{agent, fork, main}
	slices.Sort(want)
	if !slices.Equal(res.Rendered, want) || len(calls) == 0 || strings.Contains(strings.Join(calls, ","), "x") {
		t.Errorf("a fork changed: rendered %q, prepared %q", res.Rendered, calls)
	}
	for _, c := range calls {
		if strings.ReplaceAll(c, "*", "") != order {
			t.Errorf("prepared %q, not the family %q", c, order)
		}
	}

	// Touched, not changed: nothing is made again.
	later := time.Now().Add(time.Minute)
	must(t, os.Chtimes(agent, later, later))
	if res = build(); len(res.Rendered) != 0 {
		t.Errorf("a member touched: rendered %q", res.Rendered)
	}
}

// recordingMasker masks nothing and records, for each family it is given
// (the ids of its members in order), the members it masked.
type recordingMasker struct {
	mu     sync.Mutex
	masked map[string][]string
}

type idFinding string

func (f idFinding) Kept() session.Finding                          { return f }
func (f idFinding) Same(g session.Finding) bool                    { return g == session.Finding(f) }
func (m *recordingMasker) Find(s *session.Session) session.Finding { return idFinding(s.Header.ID) }
func (m *recordingMasker) Text(s string) string                    { return s }
func (m *recordingMasker) Key() string                             { return "test" }

func (m *recordingMasker) Mask(s *session.Session, family []session.Finding) {
	var ids []string
	for _, f := range family {
		ids = append(ids, string(f.(idFinding)))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := strings.Join(ids, " ")
	m.masked[key] = append(m.masked[key], s.Header.ID)
}

// calls says each family masked as "m l* f*": its members in order, those
// masked marked *.
func (m *recordingMasker) calls() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for key, masked := range m.masked {
		ids := strings.Fields(key)
		for i, id := range ids {
			if slices.Contains(masked, id) {
				ids[i] += "*"
			}
		}
		out = append(out, strings.Join(ids, " "))
	}
	slices.Sort(out)
	return out
}
