package page

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/piexport/piexport/session"
)

var searchScriptRE = regexp.MustCompile(`<script type="` + regexp.QuoteMeta(searchScriptType) + `" id="search-index">([^<]*)</script>`)

// searchLines returns the lines of a page's search index, one per entry
// in tree order.
func searchLines(t testing.TB, page []byte) []string {
	t.Helper()
	m := searchScriptRE.FindAllSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("%d search indexes in the page, want 1", len(m))
	}
	if !packAlphabet.Match(m[0][1]) {
		t.Fatal("the search index holds characters outside base64's URL alphabet")
	}
	raw, err := unpackChunk(string(m[0][1]))
	if err != nil {
		t.Fatalf("search index: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
}

func TestSearchIndex(t *testing.T) {
	const src = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/u/p"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"Why does **ListenAndServe** fail? Why?"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Check the MUX first."},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"go test ./...","timeout":30}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"main.go"}}]}}
{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"\u001b[31mFAIL\u001b[0m\tTestHealth\n404 404\tnot found"}]}}
{"type":"label","id":"l1","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","targetId":"u1","label":"Ünïcode"}
`
	s, err := session.Read(strings.NewReader(src), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := exportPage(t, s, Options{})
	lines := searchLines(t, page)
	want := []string{
		"ünïcode why does **listenandserve** fail? why?",      // the label, then the text, each word once
		"check the mux first. read main.go",                   // thinking, and the call no result answers
		"bash go test ./... 30 fail testhealth 404 not found", // the call with its result, escapes left out
		"ünïcode",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("index lines\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// The index comes last: after every entry and every packed body, so
	// that it never delays drawing the end of the path.
	at := searchScriptRE.FindIndex(page)[0]
	if bytes.LastIndex(page, []byte("<article")) > at || bytes.LastIndex(page, []byte(packScriptType)) > at {
		t.Error("the search index comes before an entry or a packed body")
	}
}
