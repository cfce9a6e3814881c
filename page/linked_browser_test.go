package page

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// TestBrowserLinkedWordsMarked: a search hit links to its entry with the
// words it found (?hl=, as the server and the archive's index write
// them); the page marks them there and opens the fold of a long output
// that hides them.
func TestBrowserLinkedWordsMarked(t *testing.T) {
	var out strings.Builder
	for i := range 120 {
		if i == 90 {
			out.WriteString("a rare zebrafinch nested in line 90\n")
			continue
		}
		fmt.Fprintf(&out, "line %d of the build output\n", i)
	}
	text, _ := json.Marshal(out.String())
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"build it"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"make"}}],"stopReason":"toolUse"}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":` + string(text) + `}],"isError":false}}`,
		`{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"text","text":"It built. A Café by the lighthouse. 한국어 문서."}],"stopReason":"stop"}}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "linked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := writeExport(t, s, Options{})
	browser := browsertest.Start(t)
	t.Parallel()

	// Without ?hl= the line is folded away, and nothing is marked.
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(page + "#r1")
	tb.WaitJS(`document.querySelector('[data-entry="a1"]') !== null`)
	if hidden := browsertest.Eval[bool](tb, foldedJS("zebrafinch")); !hidden {
		t.Fatal("line 90 of the output is not folded away: the test needs it to be")
	}

	tb = browsertest.OpenTab(t, browser)
	tb.Navigate(page + "?hl=zebrafinch%20nest*#r1")
	tb.WaitJS(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size > 0`)
	if hidden := browsertest.Eval[bool](tb, foldedJS("zebrafinch")); hidden {
		t.Error("?hl=zebrafinch: the fold that holds the word stays closed")
	}
	marked := browsertest.Eval[[]string](tb, `Array.from(CSS.highlights.get('piexport-hit')).map(r => r.toString())`)
	if strings.Join(marked, " ") != "zebrafinch nest" {
		t.Errorf("?hl=zebrafinch%%20nest*: marked %q, want the word and the prefix", marked)
	}

	// Words as the index reads them: accents folded, whole words.
	tb = browsertest.OpenTab(t, browser)
	tb.Navigate(page + "?hl=cafe+light#a2")
	tb.WaitJS(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size > 0`)
	marked = browsertest.Eval[[]string](tb, `Array.from(CSS.highlights.get('piexport-hit')).map(r => r.toString())`)
	if strings.Join(marked, " ") != "Café" {
		t.Errorf("?hl=cafe+light: marked %q, want Café alone (light is not a word of the entry)", marked)
	}

	// A Hangul syllable is a letter of its own to the index, not a
	// consonant with marks.
	tb = browsertest.OpenTab(t, browser)
	tb.Navigate(page + "?hl=" + url.QueryEscape("한국어") + "#a2")
	tb.WaitJS(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size > 0`)
	marked = browsertest.Eval[[]string](tb, `Array.from(CSS.highlights.get('piexport-hit')).map(r => r.toString())`)
	if strings.Join(marked, " ") != "한국어" {
		t.Errorf("?hl=한국어: marked %q", marked)
	}
}

// foldedJS says whether the word is hidden in the article of a1, the
// call whose card shows the output: not an element yet (the folded lines
// stay text until opened), or inside a closed <details>.
func foldedJS(word string) string {
	return `(() => {
		const w = document.createTreeWalker(document.querySelector('article[data-entry="a1"]'), NodeFilter.SHOW_TEXT);
		for (let n = w.nextNode(); n; n = w.nextNode()) {
			if (!n.data.includes(` + fmt.Sprintf("%q", word) + `)) continue;
			for (let d = n.parentElement; d; d = d.parentElement) if (d.tagName === 'DETAILS' && !d.open) return true;
			return false;
		}
		return true;
	})()`
}
