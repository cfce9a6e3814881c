package page

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// captureCopies makes the page's clipboard writes land in window.__copied.
const captureCopies = `navigator.clipboard.writeText = t => { window.__copied = t; return Promise.resolve(); }`

// TestBrowserCodeBlocks: a fenced block says its language, and Copy
// copies a block's text: without line numbers, with the lines folded
// under "N more lines".
func TestBrowserCodeBlocks(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	s := loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl")
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{Leaf: "89f878db"}))
	block := `document.querySelector('[data-entry="89f878db"] pre.chroma')`
	if label := browsertest.Eval[string](tb, `getComputedStyle(`+block+`, '::before').content`); label != `"Go"` {
		t.Errorf("the Go block's label reads %s, want \"Go\"", label)
	}
	tb.Do(chromedp.Evaluate[chromedp.Void](captureCopies))
	tb.Do(chromedp.Evaluate[chromedp.Void](block + `.parentElement.querySelector('.copy-code').click()`))
	tb.WaitJS(`window.__copied !== undefined`)
	if got := browsertest.Eval[string](tb, `window.__copied`); !strings.HasPrefix(got, "mux := http.NewServeMux()") {
		t.Errorf("Copy copied %q", got)
	}
	tb.WaitJS(block + `.parentElement.querySelector('.copy-code').textContent === 'Copied'`)

	// The sample's read output shows 10 of its 60 lines; Copy copies all.
	v := samplePage()
	tb = browsertest.OpenTab(t, browser)
	openPage(tb, writePageFile(t, v), v)
	tb.Do(chromedp.Evaluate[chromedp.Void](captureCopies))
	tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-entry="r2"] .code-box .copy-code').click()`))
	tb.WaitJS(`window.__copied !== undefined`)
	got := browsertest.Eval[string](tb, `window.__copied`)
	if lines := strings.Split(strings.TrimRight(got, "\n"), "\n"); len(lines) != 60 || !strings.Contains(lines[59], "parse60") {
		t.Errorf("Copy copied %d lines, want 60 ending with parse60: %q", len(lines), got)
	}
}

// TestBrowserShowAll: the buttons beside the t and o keys open and close
// every thinking block and every tool output, and say which they do.
func TestBrowserShowAll(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	v := samplePage()
	tb := browsertest.OpenTab(t, browser)
	openPage(tb, writePageFile(t, v), v)
	open := func(sel string) int {
		return browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('`+sel+`')).filter(d => d.open).length`)
	}
	tb.Click(`[data-toggle-all="thinking"]`)
	if n := open("details.thinking"); n == 0 || n != browsertest.Eval[int](tb, `document.querySelectorAll('details.thinking').length`) {
		t.Errorf("after Show all thinking, %d thinking blocks are open", n)
	}
	if got := browsertest.Eval[string](tb, `document.querySelector('[data-toggle-all="thinking"]').textContent + '|' + document.querySelector('[data-toggle-all="thinking"]').getAttribute('aria-pressed')`); got != "Hide all thinking|true" {
		t.Errorf("the thinking button reads %q", got)
	}
	tb.Click(`[data-toggle-all="output"]`)
	if n := open("details.more"); n != 1 {
		t.Errorf("after Show all tool output, %d long outputs are open, want 1", n)
	}
	tb.Press("t") // the key and the button are one switch
	if n := open("details.thinking"); n != 0 {
		t.Errorf("after t, %d thinking blocks are open", n)
	}
	if pressed := browsertest.Eval[string](tb, `document.querySelector('[data-toggle-all="thinking"]').getAttribute('aria-pressed')`); pressed != "false" {
		t.Errorf("after t the thinking button is pressed=%s", pressed)
	}
}

// TestBrowserDownloadJSONL: a page asked to carry its session file offers
// it, byte for byte; one not asked does not.
func TestBrowserDownloadJSONL(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	const file = "pi-v3-sdk-branches-labels.jsonl"
	raw, err := os.ReadFile("../testdata/corpus/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s := loadCorpus(t, file)
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{JSONL: raw, JSONLName: file}))
	tb.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const create = URL.createObjectURL;
		URL.createObjectURL = b => { b.text().then(t => { window.__download = t; }); return create(b); };
		HTMLAnchorElement.prototype.click = function () { window.__name = this.download; };
	})()`))
	tb.Click(`#download-jsonl`)
	tb.WaitJS(`window.__download !== undefined`)
	if got := browsertest.Eval[string](tb, `window.__download`); got != string(raw) {
		t.Errorf("the download differs from the session file (%d bytes, want %d)", len(got), len(raw))
	}
	if name := browsertest.Eval[string](tb, `window.__name`); name != file {
		t.Errorf("the download is named %q, want %q", name, file)
	}

	tb = browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, s, Options{}))
	if n := browsertest.Eval[int](tb, `document.querySelectorAll('#download-jsonl, #session-jsonl').length`); n != 0 {
		t.Errorf("a page not asked to carry the file has %d of its download elements", n)
	}
}
