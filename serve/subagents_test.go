package serve

import (
	"bytes"
	"context"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// ompProject copies omp18-task-subagents.jsonl and its sub-agents'
// transcripts (omp18-task-subagents/...) into a sessions directory, and
// returns the directory and the main session's path.
func ompProject(t *testing.T) (dir, main string) {
	t.Helper()
	return ompProjectAs(t, "Lexer")
}

// ompProjectAs is ompProject with the agent Lexer named lexer instead,
// in its files' names and wherever the session names it.
func ompProjectAs(t *testing.T, lexer string) (dir, main string) {
	t.Helper()
	dir = t.TempDir()
	proj := filepath.Join(dir, "--home-dev-parser--")
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(corpus, path)
		if d.IsDir() || !strings.HasPrefix(rel, "omp18-task-subagents") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(proj, strings.ReplaceAll(rel, "Lexer", lexer)), bytes.ReplaceAll(b, []byte("Lexer"), []byte(lexer)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(proj, "omp18-task-subagents.jsonl")
}

// maskAnswers stands in for --redact: it marks what the catalog prepared.
func maskAnswers(s *session.Session) {
	for _, e := range s.Entries {
		if e.Message == nil {
			continue
		}
		for i := range e.Message.Content {
			b := &e.Message.Content[i]
			b.Text = strings.ReplaceAll(b.Text, "LEXER-ANSWER", "LEXER-MASKED")
		}
	}
}

// A served page carries its sub-agents' transcripts, as the single-file
// page does: the task call opens them in place. They come through the
// catalog, prepared (masked) as the session is, and the page is made
// again when one of them changes.
func TestSubAgentsInServedPage(t *testing.T) {
	dir, main := ompProject(t)
	srv := start(t, Options{Paths: []string{dir}, Mask: testtool.EachMasker{Name: "mask", Session: maskAnswers}})
	id := ids(t, srv)["Refactor the parser"]
	if id == "" {
		t.Fatalf("the index does not list the session: %v", ids(t, srv))
	}
	res, page := get(t, srv.url+"s/"+id)
	// The task call's links are in the path; the transcripts travel
	// packed, named by their panels' ids.
	for _, want := range []string{`data-subagent="sub-Lexer"`, `data-subagent="sub-Parser"`, "sub-Lexer/Tokens"} {
		if !strings.Contains(page, want) {
			t.Errorf("the served page lacks %s", want)
		}
	}
	etag := res.Header.Get("ETag")

	// A sub-agent's transcript grows: the page is another.
	appendTo(t, filepath.Join(strings.TrimSuffix(main, ".jsonl"), "Lexer.jsonl"),
		`{"type":"message","id":"late0001","parentId":null,"timestamp":"2026-11-21T09:30:00.000Z","message":{"role":"user","content":"one more thing"}}`+"\n")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		res, _ := get(t, srv.url+"s/"+id)
		if res.Header.Get("ETag") != etag {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not change with its sub-agent's transcript; log:\n%s", srv.log)
		}
	}
}

// In the browser, the served page's task call opens its sub-agent's
// transcript, masked as the catalog prepared it.
func TestBrowserSubAgents(t *testing.T) {
	dir, _ := ompProject(t)
	cat, err := catalog.New(context.Background(), []string{dir}, catalog.Options{Mask: testtool.EachMasker{Name: "mask", Session: maskAnswers}})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	s := newServer(cat, nil, Options{Home: "/home/dev", Mask: testtool.EachMasker{Name: "mask", Session: maskAnswers}}, &logger{}, "")
	hs := httptest.NewServer(s.handler())
	defer hs.Close()
	defer close(s.stopping)

	var id string
	for _, i := range cat.List() {
		if filepath.Base(i.Path) == "omp18-task-subagents.jsonl" {
			id = i.ID
		}
	}
	tb := newBrowserTab(t)
	tb.do(chromedp.Navigate(hs.URL + "/s/" + id))
	tb.waitJS(`document.querySelector('a[data-subagent="sub-Lexer"]') !== null`)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('a[data-subagent="sub-Lexer"]').click()`))
	tb.waitJS(`document.getElementById('sub-Lexer').checkVisibility() && document.getElementById('sub-Lexer').innerText.includes('LEXER-MASKED')`)
	if text := mustEval[string](tb, `document.getElementById('sub-Lexer').innerText`); strings.Contains(text, "LEXER-ANSWER") {
		t.Errorf("the transcript was not prepared as the session was: %q", text)
	}
}

// In the browser, a task call opens the transcript of a sub-agent whose
// id holds a secret, masked in the call and in the transcript's name
// alike (issue 33, item 4).
func TestBrowserMaskedAgentID(t *testing.T) {
	id := fakesecret.New(46).Make("github-pat").Values[0]
	dir, main := ompProjectAs(t, id)
	red, err := redact.New(redact.Options{Secrets: true})
	must(t, err)
	cat, err := catalog.New(context.Background(), []string{dir}, catalog.Options{Mask: red})
	must(t, err)
	defer cat.Close()
	s := newServer(cat, nil, Options{Home: "/home/dev", Mask: red}, &logger{}, "")
	hs := httptest.NewServer(s.handler())
	defer hs.Close()
	defer close(s.stopping)
	var sid string
	for _, i := range cat.List() {
		if i.Path == main {
			sid = i.ID
		}
	}
	const panel = "sub-[REDACTED:github-pat#1]"
	tb := newBrowserTab(t)
	tb.do(chromedp.Navigate(hs.URL + "/s/" + sid))
	tb.waitJS(`document.querySelector('a[data-subagent="` + panel + `"]') !== null`)
	tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('a[data-subagent="` + panel + `"]').click()`))
	tb.waitJS(`document.getElementById('` + panel + `') !== null && document.getElementById('` + panel + `').checkVisibility()`)
	if text := mustEval[string](tb, `document.body.innerText`); strings.Contains(text, id[:12]) {
		t.Errorf("the page shows the agent's id")
	}
}
