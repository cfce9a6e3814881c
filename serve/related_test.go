package serve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/page"
)

// omp's sub-agent transcripts are listed under their session, not as
// sessions of their own, and pages link both ways; so do forks.
func TestRelated(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "--proj--")
	line := func(id, text string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", id, text)
	}
	header := func(id, parent string) string {
		return fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w","parentSession":%q}`+"\n", id, parent)
	}
	main := filepath.Join(proj, "main.jsonl")
	writeFile(t, main, []byte(header("m", "")+line("a", "the main session")))
	writeFile(t, filepath.Join(proj, "main", "Lexer.jsonl"), []byte(header("l", "")+line("b", "an agent's task")))
	writeFile(t, filepath.Join(proj, "fork.jsonl"), []byte(header("f", main)+line("c", "a forked session")))
	srv := start(t, Options{Paths: []string{dir}})

	_, index := get(t, srv.url)
	m := map[string]string{}
	for _, l := range regexp.MustCompile(`<td class="title"><a href="s/([0-9a-f]+)">([^<]*)</a>`).FindAllStringSubmatch(index, -1) {
		m[l[2]] = l[1]
	}
	if _, listed := m["an agent&#39;s task"]; listed || len(m) != 2 {
		t.Fatalf("index lists %v; want the main session and its fork, not the sub-agent", m)
	}
	agent := regexp.MustCompile(`Sub-agents: <a href="s/([0-9a-f]+)">Lexer</a>`).FindStringSubmatch(index)
	if agent == nil {
		t.Fatalf("the index does not list the sub-agent under its session")
	}
	if !strings.Contains(index, `Forked from: <a href="s/`+m["the main session"]+`">the main session</a>`) ||
		!strings.Contains(index, `Forks: <a href="s/`+m["a forked session"]+`">a forked session</a>`) {
		t.Error("the index does not link the fork both ways")
	}
	_, agentPage := get(t, srv.url+"s/"+agent[1])
	if !strings.Contains(agentPage, `<dt>Sub-agent of</dt><dd><a href="`+m["the main session"]+`">the main session</a>`) {
		t.Error("the sub-agent's page does not link its session")
	}
	_, mainPage := get(t, srv.url+"s/"+m["the main session"])
	for _, want := range []string{
		`<dt>Sub-agents</dt><dd><a href="` + agent[1] + `">Lexer</a>`,
		`<dt>Forks</dt><dd><a href="` + m["a forked session"] + `">a forked session</a>`,
	} {
		if !strings.Contains(mainPage, want) {
			t.Errorf("the main session's page lacks %s", want)
		}
	}
}

// A shared session's page links where it was shared (Options.Shared,
// asked with the file's own path, also by a server that shows paths
// masked); when that changes, so does the page, cached or not.
func TestShared(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "--proj--", "main.jsonl")
	writeFile(t, main, []byte(`{"type":"session","version":3,"id":"m","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}`+"\n"+
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"the main session"}}`+"\n"))
	writeFile(t, filepath.Join(dir, "--proj--", "other.jsonl"), []byte(`{"type":"message","id":"b","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"another session"}}`+"\n"))
	var mu sync.Mutex
	var links []page.Link
	shared := func(path string) []page.Related {
		mu.Lock()
		defer mu.Unlock()
		if path != main || len(links) == 0 {
			return nil
		}
		return []page.Related{{Label: "Shared", Links: slices.Clone(links)}}
	}
	masked := Options{Mask: testtool.EachMasker{Name: "masked",
		TextWith: func(s string) string { return strings.ReplaceAll(s, dir, "~") }}}
	for name, opt := range map[string]Options{"no cache": {}, "cache": {CacheDir: t.TempDir()}, "masked": masked} {
		t.Run(name, func(t *testing.T) {
			mu.Lock()
			links = []page.Link{{Title: "secret gist 5ca1ab1e (2026-11-25)", URL: "https://gist.github.com/u/5ca1ab1e"}}
			mu.Unlock()
			opt.Paths, opt.Shared = []string{dir}, shared
			srv := start(t, opt)
			id := ids(t, srv)["the main session"]
			want := `<dt>Shared</dt><dd><a href="https://gist.github.com/u/5ca1ab1e">secret gist 5ca1ab1e (2026-11-25)</a>`
			if _, p := get(t, srv.url+"s/"+id); !strings.Contains(p, want) {
				t.Errorf("the page does not link the share")
			}
			mu.Lock()
			links = nil
			mu.Unlock()
			if _, p := get(t, srv.url+"s/"+id); strings.Contains(p, "<dt>Shared</dt>") {
				t.Errorf("the page still links a share that is gone")
			}
		})
	}
}
