package page

import (
	"bytes"
	"strings"
	"testing"
)

// TestRenderPanicShowsEntryUnformatted: an entry whose rendering panics
// on a render worker (another goroutine than the caller's, which no
// recover of the caller's reaches) costs the page that entry's
// formatting only: it is shown unformatted with a note saying why, every
// other entry as usual, and Warnings names it once.
func TestRenderPanicShowsEntryUnformatted(t *testing.T) {
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	p, err := NewPage(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const target = "8940eb96"
	rendered := p.render
	p.render = func(i int) *entryView {
		if p.nodes[i].Entry.ID == target {
			var none []int
			_ = none[i+3] // a fault as the renderer could have
		}
		return rendered(i)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.Bytes()
	arts := articles(t, page)
	if got := arts[target]; !strings.Contains(got, "could not be shown as usual") || !strings.Contains(got, "index out of range") {
		t.Errorf("the entry that failed shows %q", got)
	}
	plain := articles(t, exportPage(t, loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl"), Options{}))
	for id, want := range plain {
		if id != target && arts[id] != want {
			t.Errorf("entry %s differs from the page without the fault", id)
		}
	}
	w := p.Warnings()
	if len(w) != 1 || w[0].Line == 0 || !strings.Contains(w[0].Text, "entry "+target+" could not be rendered (runtime error: index out of range") ||
		!strings.Contains(w[0].Text, "page/problems_test.go:") {
		t.Errorf("warnings %q, want one naming the entry, its line and where it failed", w)
	}
}

// TestUnformattedEntry: the entry that could not be rendered shows its
// JSON when the session keeps it, else its text, escaped either way.
func TestUnformattedEntry(t *testing.T) {
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	r := &sessionRenderer{s: s, problems: &problems{}}
	e := s.Entry(s.Leaf.ID)
	v := r.unformatted(e, kindOf(e), "a <b>reason</b>")
	body := string(v.Body)
	if strings.Contains(body, "<b>") || !strings.Contains(body, "a &lt;b&gt;reason") {
		t.Errorf("the reason is not escaped: %s", body)
	}
	var text strings.Builder
	s.WriteSearchText(&text, s.Full(e))
	if len(e.Raw) == 0 && !strings.Contains(body, `<pre class="unformatted">`) || text.Len() == 0 {
		t.Errorf("the entry's text is not shown: %s", body)
	}
}
