package page

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"github.com/piexport/piexport/session"
)

// repeatedReads is a session that reads the same file three times, and
// another once, each read's output well over repeatMinBytes.
func repeatedReads(t testing.TB) *session.Session {
	t.Helper()
	var code strings.Builder
	for i := range 40 {
		fmt.Fprintf(&code, "func f%d() int { return %d }\n", i, i)
	}
	lines := []string{`{"type":"session","version":3,"id":"r","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/u/p"}`}
	parent := "null"
	for k, file := range []string{"a.go", "b.go", "a.go", "a.go"} {
		text := code.String()
		if file == "b.go" {
			text = strings.ReplaceAll(text, "func", "fn ")
		}
		lines = append(lines,
			fmt.Sprintf(`{"type":"message","id":"a%d","parentId":%s,"timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"assistant","content":[{"type":"toolCall","id":"c%d","name":"read","arguments":{"path":"/home/u/p/%s"}}]}}`, k, parent, 2*k+1, k, file),
			fmt.Sprintf(`{"type":"message","id":"r%d","parentId":"a%d","timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"toolResult","toolCallId":"c%d","toolName":"read","content":[{"type":"text","text":%s}]}}`, k, k, 2*k+2, k, jsonString(text)))
		parent = fmt.Sprintf("%q", fmt.Sprintf("r%d", k))
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "reads.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRepeatedOutputsRenderedOnce: the output a.go's three reads share is
// rendered once, written three times as if rendered each time, and let go
// after its last use.
func TestRepeatedOutputsRenderedOnce(t *testing.T) {
	s := repeatedReads(t)
	p, err := NewPage(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	reps := p.r.repeats
	if reps == nil || len(reps.left) != 1 {
		t.Fatalf("repeats %+v, want a.go's output, counted", reps)
	}
	for _, n := range reps.left {
		if n != 3 {
			t.Errorf("a.go's output is counted %d times, want 3", n)
		}
	}
	var with bytes.Buffer
	if err := p.Write(&with); err != nil {
		t.Fatal(err)
	}
	if len(reps.left) != 0 || len(reps.done) != 0 {
		t.Errorf("after the page, repeats still hold %d counts and %d renderings", len(reps.left), len(reps.done))
	}
	// The same page rendered without the repeats.
	q, err := NewPage(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q.r.repeats = nil
	var without bytes.Buffer
	if err := q.Write(&without); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(with.Bytes(), without.Bytes()) {
		t.Error("the page differs when repeated outputs are rendered once")
	}
	if n := bytes.Count(with.Bytes(), []byte("f39")); n < 3 {
		t.Errorf("a.go's output is in the page %d times, want 3", n)
	}
}

// Of the four reads, the three of a.go are rendered once between them,
// and b.go's once: two renderings for four outputs.
func TestRepeatsRenderOnce(t *testing.T) {
	s := repeatedReads(t)
	var results []*session.Message
	for _, e := range s.Entries {
		if e.Role() == "toolResult" {
			results = append(results, e.Message)
		}
	}
	reps := countRepeats(results)
	renders := 0
	for _, res := range results {
		want := template.HTML(fmt.Sprintf("<pre>%x</pre>", res.ResultSum()))
		render := func() template.HTML { renders++; return want }
		if got := reps.output(res, "plain", render); got != want {
			t.Errorf("an output written as %q, want %q", got, want)
		}
	}
	if len(results) != 4 || renders != 2 {
		t.Errorf("%d outputs were rendered %d times, want 4 outputs rendered twice", len(results), renders)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
