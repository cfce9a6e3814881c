package serve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
