package page

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// TestBrowserCopyButtonClear: on a phone, where the Copy button of each
// code block and tool output is always shown (there is no hover), it
// covers no text of the block: not the first line of a command's output.
// With a mouse it shows on hover only, over the block's corner.
func TestBrowserCopyButtonClear(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, exportPage(t, loadCorpus(t, "pi-v3-civ6.jsonl"), Options{Home: "/home/dev"}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		width int64
	}{{"phone", 390}, {"wide", 1400}} {
		t.Run(tc.name, func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			if tc.width < 600 {
				tb.Do(chromedp.EmulateViewport(tc.width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
			} else {
				tb.Do(chromedp.EmulateViewport(tc.width, 1000))
			}
			tb.Navigate("file://" + filepath.ToSlash(path))
			tb.WaitJS(`document.querySelectorAll('.code-box > .copy-code').length > 0`)
			type result struct {
				Boxes    int      `json:"boxes"`
				Problems []string `json:"problems"`
			}
			// Every block whose button is shown.
			r := browsertest.Eval[result](tb, `(() => {
				const problems = [];
				let boxes = 0;
				for (const box of document.querySelectorAll('.code-box')) {
					const button = box.querySelector(':scope > .copy-code');
					const pre = box.querySelector(':scope > pre');
					// A button shown only on hover (with a mouse) may
					// cover a line while the pointer is on the block.
					if (!button || !pre || !box.checkVisibility() || getComputedStyle(button).opacity === '0') continue;
					boxes++;
					const b = button.getBoundingClientRect();
					const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
					for (let n = walker.nextNode(); n; n = walker.nextNode()) {
						const range = document.createRange();
						range.selectNodeContents(n);
						const hit = Array.from(range.getClientRects()).find(r => r.width > 0 && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
						if (hit) {
							problems.push('the Copy button covers "' + n.textContent.slice(0, 60) + '"');
							break;
						}
						if (range.getBoundingClientRect().top > b.bottom) break;
					}
				}
				return { boxes, problems };
			})()`)
			if r.Boxes == 0 {
				t.Fatal("no code block with a Copy button is shown")
			}
			for _, p := range r.Problems {
				t.Error(p)
			}
			tb.Shot("copy-button-" + tc.name)
		})
	}
}
