package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// countingMasker is a Masker that counts the files it looks at.
type countingMasker struct {
	session.Masker
	mu    sync.Mutex
	found map[string]int // by file name
}

func (p *countingMasker) Find(s *session.Session) session.Finding {
	p.mu.Lock()
	p.found[filepath.Base(s.File)]++
	p.mu.Unlock()
	return p.Masker.Find(s)
}

func (p *countingMasker) reset() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	was := p.found
	p.found = map[string]int{}
	return was
}

// TestFamiliesMaskedTogether (issue 33, item 1): a catalog that masks
// its sessions masks what one session of a family names secret wherever
// another repeats it (a sub-agent's transcript, a fork that names its
// session by its path): in the search's snippets and in the sessions it
// loads. A file that grows by lines that name nothing new is read alone;
// one that names a new secret has its family read and masked again, and
// the loaded sessions and their hashes follow.
func TestFamiliesMaskedTogether(t *testing.T) {
	const pw, token, later = "Zq8vP2mWx7LkR4tNb9", "Hk4Tq9Wz2Lm7Xc3Vb8Np", "Rm5Yp8Qs2Vt6Wn3Kd7Lc"
	src := t.TempDir()
	dir := filepath.Join(src, "--work--")
	parent := filepath.Join(dir, "p.jsonl")
	agent := filepath.Join(dir, "p", "W.jsonl")
	fork := filepath.Join(dir, "f.jsonl")
	alone := filepath.Join(dir, "a.jsonl")
	head := func(id, from string) string {
		return fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":"2026-11-20T10:00:00Z","cwd":"/work","parentSession":%q}`, id, from) + "\n"
	}
	msg := func(id, parent, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-11-20T10:00:01Z","message":{"role":"user","content":%q}}`, id, p, text) + "\n"
	}
	write(t, parent, head("p", "")+msg("u1", "", "export DB_PASSWORD="+pw)+msg("u2", "u1", "parentword "+token))
	write(t, agent, head("w", parent)+msg("w1", "", "agentword logged in with "+pw))
	write(t, fork, head("f", parent)+msg("f1", "", "forkword SERVICE_TOKEN="+token))
	write(t, alone, head("a", "")+msg("a1", "", "aloneword "+pw))

	red, err := redact.New(redact.Options{Secrets: true})
	must(t, err)
	prep := &countingMasker{Masker: red, found: map[string]int{}}
	c, err := New(context.Background(), []string{src}, Options{Mask: prep})
	must(t, err)
	defer c.Close()
	ids := map[string]string{}
	for _, i := range c.List() {
		ids[filepath.Base(i.Path)] = i.ID
	}
	snippet := func(word string) string {
		t.Helper()
		res, err := c.Search(context.Background(), word, 10)
		must(t, err)
		if len(res.Hits) != 1 {
			t.Fatalf("%s: %d hits", word, len(res.Hits))
		}
		return res.Hits[0].Snippet
	}
	for word, want := range map[string]string{
		"agentword":  "logged in with [REDACTED:secret-assignment#2]", // the fork's value comes first
		"parentword": "parentword [REDACTED:secret-assignment#1]",
		"aloneword":  "aloneword " + pw, // of no family: nothing names it there
	} {
		if got := snippet(word); !strings.Contains(got, want) {
			t.Errorf("%s: the snippet is %q, want %q in it", word, got, want)
		}
	}
	loaded := func(name string) string {
		t.Helper()
		s, _, err := c.Load(ids[name])
		must(t, err)
		var b strings.Builder
		for _, e := range s.Entries {
			b.WriteString(e.Message.Text() + "\n")
		}
		return b.String()
	}
	if got := loaded("W.jsonl"); strings.Contains(got, pw) {
		t.Errorf("the sub-agent's session loaded holds the password:\n%s", got)
	}
	agentHash, _ := c.Info(ids["W.jsonl"])

	// Lines that name nothing new: the file alone is read again.
	prep.reset()
	appendLine(t, agent, msg("w2", "w1", "agentmore nothing new here"))
	_, err = c.Refresh(context.Background())
	must(t, err)
	if got := prep.reset(); got["W.jsonl"] != 1 || got["p.jsonl"] != 0 || got["f.jsonl"] != 0 {
		t.Errorf("a sub-agent grew by lines with no secret: read %v", got)
	}

	// A line that makes a value the parent repeats a secret: the family
	// is read again, and masked as one.
	appendLine(t, agent, msg("w3", "w2", "API_KEY="+later))
	appendLine(t, parent, msg("u3", "u2", "laterword "+later))
	_, err = c.Refresh(context.Background())
	must(t, err)
	if got := prep.reset(); got["f.jsonl"] != 1 || got["a.jsonl"] != 0 {
		t.Errorf("a sub-agent named a new secret: read %v", got)
	}
	if got := snippet("laterword"); strings.Contains(got, later) {
		t.Errorf("the parent's snippet shows the value its sub-agent names: %q", got)
	}
	if got := loaded("p.jsonl"); strings.Contains(got, later) || strings.Contains(got, pw) {
		t.Errorf("the parent loaded shows a value its family names secret:\n%s", got)
	}
	if i, _ := c.Info(ids["W.jsonl"]); i.Hash == agentHash.Hash {
		t.Errorf("the sub-agent's hash did not change with its family")
	}

	// A value only the fork names is masked in the parent once the fork
	// is read; the fork is found by the path its header names.
	if got := loaded("p.jsonl"); strings.Contains(got, token) {
		t.Errorf("the parent loaded shows the value its fork names secret")
	}
}
