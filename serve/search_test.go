package serve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Search results come in pages of maxHits, each linking to the one before
// and after it (issue 23.13).
func TestSearchPages(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:00:00Z","cwd":"/w"}` + "\n")
	const n = 2*maxHits + 20
	parent := "null"
	for i := range n {
		fmt.Fprintf(&b, `{"type":"message","id":"e%03d","parentId":%s,"timestamp":"2026-03-01T09:%02d:%02dZ","message":{"role":"user","content":"the needle number %d"}}`+"\n",
			i, parent, 1+i/60, i%60, i)
		parent = fmt.Sprintf(`"e%03d"`, i)
	}
	writeFile(t, filepath.Join(dir, "--w--", "s.jsonl"), []byte(b.String()))
	writeFile(t, filepath.Join(dir, "--w--", "t.jsonl"), []byte(`{"type":"session","version":3,"id":"t","timestamp":"2026-03-02T09:00:00Z","cwd":"/w"}`+"\n"))
	srv := start(t, Options{Paths: []string{dir}})
	hit := regexp.MustCompile(`#e(\d{3})"`)
	seen := map[string]bool{}
	for page, want := range []struct {
		shown      string
		prev, next bool
	}{
		{"1 to 50 are shown", false, true},
		{"51 to 100 are shown", true, true},
		{"101 to 120 are shown", true, false},
	} {
		u := srv.url + "search?q=needle"
		if page > 0 {
			u += fmt.Sprintf("&page=%d", page+1)
		}
		_, body := get(t, u)
		if !strings.Contains(body, fmt.Sprintf("%d matching entries in 1 session; %s.", n, want.shown)) {
			t.Errorf("page %d does not say %q", page+1, want.shown)
		}
		hits := hit.FindAllStringSubmatch(body, -1)
		if len(hits) != min(maxHits, n-page*maxHits) {
			t.Errorf("page %d lists %d hits", page+1, len(hits))
		}
		for _, h := range hits {
			if seen[h[1]] {
				t.Errorf("entry e%s on two pages", h[1])
			}
			seen[h[1]] = true
		}
		if got := strings.Contains(body, `rel="prev"`); got != want.prev {
			t.Errorf("page %d: link to the previous page %v, want %v", page+1, got, want.prev)
		}
		if got := strings.Contains(body, fmt.Sprintf(`href="?page=%d&amp;q=needle" rel="next"`, page+2)); got != want.next {
			t.Errorf("page %d: link to page %d %v, want %v", page+1, page+2, got, want.next)
		}
	}
	if len(seen) != n {
		t.Errorf("the pages list %d entries, want %d", len(seen), n)
	}
	if _, body := get(t, srv.url+"search?q=needle&page=9"); !strings.Contains(body, "this page is past the last") {
		t.Error("a page past the last does not say so")
	}
}

// A hit in a sub-agent's transcript says whose sub-agent it is: its
// session's title, then the agent ids down to it; a hit in the session
// itself, its title alone.
func TestSearchNamesSubAgentsSession(t *testing.T) {
	dir, _ := ompProject(t)
	srv := start(t, Options{Paths: []string{dir}})
	for q, want := range map[string]string{
		"LEXER-TASK":    `<h2><a href="s/%s">Refactor the parser › Lexer</a></h2>`,
		"TOKENS-ANSWER": `<h2><a href="s/%s">Refactor the parser › Lexer › Tokens</a></h2>`,
		"OMP-USER":      `<h2><a href="s/%s">Refactor the parser</a></h2>`,
	} {
		_, body := get(t, srv.url+"search?q="+q)
		if !regexp.MustCompile(fmt.Sprintf(regexp.QuoteMeta(want), `[0-9a-f]+`)).MatchString(body) {
			t.Errorf("search %s: no heading %q in\n%s", q, want, body)
		}
	}
}
