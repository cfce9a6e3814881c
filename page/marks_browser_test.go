package page

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// TestBrowserLinkedWordsCannotFreeze: a link's ?hl= words are marked in
// the entry it opens, whatever the entry and the words. An entry of
// "a " 200,000 times opened with ?hl=a marked every one of its 200,000
// words, in one task of 20 s, and ?hl= with twenty copies of a (or any
// word a search link may carry) hung the tab: each copy was marked
// again. The words are now taken once each, the page holds at most
// HitMarks.MAX marks however many text nodes hold them, and the text is
// read a slice at a time.
func TestBrowserLinkedWordsCannotFreeze(t *testing.T) {
	many, _ := json.Marshal(strings.Repeat("a ", 200000))
	var list strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&list, "- item %d: a b a\n", i)
	}
	items, _ := json.Marshal(list.String())
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":` + string(many) + `}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":` + string(items) + `}],"stopReason":"stop"}}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "many.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := writeExport(t, s, Options{})
	browser := browsertest.Start(t)
	t.Parallel()
	for _, tc := range []struct {
		name, query, entry string
		first              string // the text of the first mark
	}{
		{"one word in one text node", "?hl=a", "u1", "a"},
		{"the word twenty times", "?hl=" + strings.TrimSuffix(strings.Repeat("a+", 20), "+"), "u1", "a"},
		{"a word and the same as a prefix", "?hl=item+item*+item", "a1", "item"},
		{"words in thousands of text nodes", "?hl=a+b+item", "a1", "item"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			tb.Navigate(page + tc.query + "#" + tc.entry)
			// The marks are all made once their number stops growing
			// for a few frames.
			tb.WaitJSFor(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size > 0`, 30e9)
			for steady := false; !steady; {
				steady = browsertest.Eval[bool](tb, `new Promise(done => {
					const size = () => CSS.highlights.get('piexport-hit').size;
					const was = size();
					setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => done(size() === was))), 50);
				})`, chromedp.EvalAwaitPromise)
			}
			type marks struct {
				Size   int      `json:"size"`
				First  string   `json:"first"`
				Where  []string `json:"where"`
				Within bool     `json:"within"`
			}
			got := browsertest.Eval[marks](tb, `(() => {
				// A mark in an entry the path has dropped since (it is a
				// virtual list) is an empty range.
				const all = Array.from(CSS.highlights.get('piexport-hit'));
				const live = all.filter(r => !r.collapsed);
				live.sort((a, b) => a.compareBoundaryPoints(Range.START_TO_START, b));
				return {
					size: all.length,
					first: live.length ? live[0].toString() : '',
					where: Array.from(new Set(live.map(r => r.startContainer.parentElement.closest('article').dataset.entry))),
					within: live.every(r => ['a', 'b', 'item'].includes(r.toString())),
				};
			})()`)
			if got.Size != 1000 {
				t.Errorf("%d marks, want 1000, the most a page holds", got.Size)
			}
			if got.First != tc.first || !got.Within {
				t.Errorf("the first mark reads %q, want %q (all marks are words of the link: %v)", got.First, tc.first, got.Within)
			}
			if len(got.Where) != 1 || got.Where[0] != tc.entry {
				t.Errorf("marks in %v, want in %s only", got.Where, tc.entry)
			}
		})
	}
}

// TestBrowserMarksYield: marking reads the text a slice at a time, and
// the page answers between slices: a timer set when marking starts runs
// before it ends, in a scope of many text nodes that hold no match.
func TestBrowserMarksYield(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "fold.js", "marks.js")
	got := browsertest.Eval[map[string]int](tb, `(() => {
		const scope = document.createElement('div');
		for (let i = 0; i < 200000; i++) scope.appendChild(document.createTextNode('text that holds no match ' + i));
		document.body.appendChild(scope);
		const marks = new HitMarks(document);
		let ticks = 0, stop = false;
		const tick = () => { ticks++; if (!stop) setTimeout(tick, 0); };
		setTimeout(tick, 0);
		marks.show(scope, ['zebrafinch'], false);
		const sync = ticks;
		return marks.done.then(() => { stop = true; return {sync: sync, during: ticks}; });
	})()`, chromedp.EvalAwaitPromise)
	if got["sync"] != 0 || got["during"] == 0 {
		t.Errorf("timers ran %d times while marking (%d before show returned): marking does not yield", got["during"], got["sync"])
	}
}
