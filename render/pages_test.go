package render_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// TestFastLexerSamePages exports every corpus session and a generated one
// with fastlex and with chroma's own lexers and wants the same bytes.
// Work is not limited: chroma's lexers cannot count it.
func TestFastLexerSamePages(t *testing.T) {
	render.UnlimitedWork(t)
	sessions, names := samePagesSessions(t)
	pages := func() [][]byte {
		render.ResetCaches()
		var pages [][]byte
		for _, s := range sessions {
			var b bytes.Buffer
			if err := page.WriteHTML(&b, s, page.Options{}); err != nil {
				t.Fatal(err)
			}
			pages = append(pages, b.Bytes())
		}
		return pages
	}
	fast := pages()
	render.UseChromaLexers(t)
	plain := pages()
	for i, name := range names {
		if !bytes.Equal(fast[i], plain[i]) {
			t.Errorf("%s: the page differs with chroma's own lexers", name)
		}
	}
}

// samePagesSessions loads the corpus sessions that load, and the
// generated sample, which holds every language sessiongen writes.
func samePagesSessions(t *testing.T) (sessions []*session.Session, names []string) {
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	for _, file := range files {
		if s, err := session.Load(file); err == nil {
			sessions = append(sessions, s)
			names = append(names, filepath.Base(file))
		}
	}
	if len(sessions) < 10 {
		t.Fatalf("only %d corpus sessions load", len(sessions))
	}
	gen, err := session.Read(bytes.NewReader(sessiongen.Sample(1<<20)), "gen.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return append(sessions, gen), append(names, "generated 1 MB")
}
