package page

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"golang.org/x/net/html"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/hostile"
)

const testPassphrase = "correct horse battery staple"

// encryptSample writes the sample page encrypted in segments of segment
// bytes, and the same page as Write makes it.
func encryptSample(t *testing.T, segment int) (p *Page, encrypted, plain []byte) {
	t.Helper()
	var enc, want bytes.Buffer
	if err := samplePage().writeEncrypted(&enc, testPassphrase, segment, sealIterations); err != nil {
		t.Fatal(err)
	}
	p = samplePage()
	if err := p.Write(&want); err != nil {
		t.Fatal(err)
	}
	return p, enc.Bytes(), want.Bytes()
}

// TestEncryptedPageHoldsNoText: nothing the page shows is in the
// encrypted file, in any form the page could write it; the passphrase
// gives back the page itself, byte for byte.
func TestEncryptedPageHoldsNoText(t *testing.T) {
	_, enc, plain := encryptSample(t, 4<<10)
	if n := bytes.Count(enc, []byte(`type="`+sealedScriptType+`"`)); n < 2 {
		t.Fatalf("%d sealed segments, want several", n)
	}
	planted := []string{hostile.Title, hostile.Cwd, "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "ROOT-MARK", "GAMMA-MARK", "claude-sonnet-4-5", "session-index", "data-entry", "piexportPage"}
	for _, s := range planted {
		for _, form := range []string{s, html.EscapeString(s)} {
			if bytes.Contains(enc, []byte(form)) {
				t.Errorf("the encrypted page holds %q", form)
			}
		}
		if !bytes.Contains(plain, []byte(html.EscapeString(s))) && !bytes.Contains(plain, []byte(s)) {
			t.Errorf("the page itself does not hold %q: the check proves nothing", s)
		}
	}
	got, err := DecryptPage(enc, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, plain) {
		t.Errorf("the decrypted page differs from the page (%d bytes, want %d)", len(got), len(plain))
	}
	if _, err := DecryptPage(enc, "Correct horse battery staple"); !errors.Is(err, ErrWrongPassphrase) {
		t.Errorf("a wrong passphrase: %v, want ErrWrongPassphrase", err)
	}
}

// TestEncryptedPageResistsChanges: a changed, dropped or swapped segment
// is found, and so is a page cut short after a whole segment.
func TestEncryptedPageResistsChanges(t *testing.T) {
	_, enc, _ := encryptSample(t, 4<<10)
	open := []byte(`<script type="` + sealedScriptType + `">`)
	var starts []int
	for i := 0; ; {
		k := bytes.Index(enc[i:], open)
		if k < 0 {
			break
		}
		starts = append(starts, i+k)
		i += k + len(open)
	}
	if len(starts) < 3 {
		t.Fatalf("%d segments", len(starts))
	}
	segEnd := func(k int) int {
		return starts[k] + bytes.Index(enc[starts[k]:], []byte("</script>\n")) + len("</script>\n")
	}
	cases := map[string][]byte{}
	flipped := bytes.Clone(enc)
	flipped[starts[1]+len(open)+10] ^= 1
	cases["a changed byte"] = flipped
	cases["a segment dropped"] = append(bytes.Clone(enc[:starts[1]]), enc[segEnd(1):]...)
	last := len(starts) - 1
	cases["the last segment dropped"] = append(bytes.Clone(enc[:starts[last]]), enc[segEnd(last):]...)
	swapped := bytes.Clone(enc[:starts[1]])
	swapped = append(swapped, enc[starts[2]:segEnd(2)]...)
	swapped = append(swapped, enc[starts[1]:segEnd(1)]...)
	swapped = append(swapped, enc[segEnd(2):]...)
	cases["two segments swapped"] = swapped
	for name, b := range cases {
		if _, err := DecryptPage(b, testPassphrase); err == nil {
			t.Errorf("%s: the page still opens", name)
		}
	}
}

// TestEncryptedPageWithoutJavaScript: a browser without JavaScript shows
// why the page cannot be read, and no passphrase box.
func TestEncryptedPageWithoutJavaScript(t *testing.T) {
	_, enc, _ := encryptSample(t, sealSegment)
	root := parseNoScript(t, enc)
	var text strings.Builder
	for _, n := range pageFindAll(root, func(n *html.Node) bool { return n.Data == "main" }) {
		text.WriteString(pageText(n))
	}
	if !strings.Contains(text.String(), "needs JavaScript to decrypt") {
		t.Errorf("without JavaScript the page does not say it needs it:\n%s", text.String())
	}
	for _, n := range pageFindAll(root, func(n *html.Node) bool { return n.Data == "script" }) {
		typ, _ := pageAttr(n, "type")
		if typ != "" && typ != sealedScriptType && typ != "application/json" {
			t.Errorf("a script of type %q", typ)
		}
	}
}

// TestEncryptedPageInBrowser opens an encrypted page from file:// under
// its Content-Security-Policy: a wrong passphrase shows nothing and says
// so; the right one opens the page, which works as the page does.
func TestEncryptedPageInBrowser(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	p, enc, _ := encryptSample(t, 4<<10)
	path := filepath.Join(t.TempDir(), "sealed.html")
	if err := os.WriteFile(path, enc, 0o600); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(path)

	unlock := func(tb *browsertest.Tab, passphrase string) {
		tb.T.Helper()
		tb.WaitJS(`!!document.getElementById('passphrase')`)
		// Typed and sent with Enter, as a reader does.
		tb.Do(chromedp.SendKeys(chromedp.ID("passphrase"), passphrase+kb.Enter))
	}

	t.Run("wrong passphrase", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(url)
		if visible := browsertest.Eval[bool](tb, `document.getElementById('unlock').checkVisibility()`); !visible {
			t.Fatal("no passphrase box")
		}
		unlock(tb, "not the passphrase")
		tb.WaitJSFor(`document.getElementById('unlock-status').classList.contains('problem')`, 60e9)
		if msg := browsertest.Eval[string](tb, `document.getElementById('unlock-status').textContent`); !strings.Contains(msg, "does not open") {
			t.Errorf("status = %q", msg)
		}
		if shown := browsertest.Eval[bool](tb, `!!document.getElementById('path') || document.title !== 'Encrypted pi session'`); shown {
			t.Error("a wrong passphrase showed the page")
		}
		tb.Shot("encrypted-wrong-passphrase")
		if value := browsertest.Eval[string](tb, `document.getElementById('passphrase').value`); value != "" {
			t.Errorf("the box keeps the wrong passphrase %q", value)
		}
		// And the right one still works after it.
		unlock(tb, testPassphrase)
		tb.WaitJSFor(`!!document.querySelector('#path article[data-entry]')`, 60e9)
		tb.Settle()
		checkNoXSS(tb, p)
	})

	t.Run("right passphrase", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(url)
		unlock(tb, testPassphrase)
		tb.WaitJSFor(`!!document.querySelector('#path article[data-entry]')`, 60e9)
		tb.Settle()
		checkNoXSS(tb, p)
		checkPathShown(tb, samplePath(p, "d6"))
		// The tree works: another branch opens from its packed chunk.
		tb.Click(nodeSelector("b2"))
		checkPathShown(tb, samplePath(p, "b3"))
		if text := browsertest.Eval[string](tb, `document.querySelector('#path').innerText`); !strings.Contains(text, "ALPHA-MARK") {
			t.Errorf("the branch of b2 does not show ALPHA-MARK:\n%s", text)
		}
		if n := browsertest.Eval[int](tb, `document.querySelectorAll('script[type="`+sealedScriptType+`"], #unlock').length`); n != 0 {
			t.Errorf("%d elements of the encrypted page are left", n)
		}
		// The full-text search finds what it finds on the page itself.
		rows, status := search(tb, "ALPHA-MARK")
		plain := browsertest.OpenTab(t, browser)
		openPage(plain, writePageFile(t, samplePage()), p)
		want, wantStatus := search(plain, "ALPHA-MARK")
		// The row selected may differ ("match 1 of 1", "1 entry
		// matches"); the count of matches may not.
		matches := regexp.MustCompile(`^(?:match \d+ of ([\d,]+)|([\d,]+) entr(?:y|ies) match(?:es)?)$`)
		count := func(status string) string {
			m := matches.FindStringSubmatch(status)
			if m == nil {
				return ""
			}
			return m[1] + m[2]
		}
		if len(rows) == 0 || !slices.Equal(rows, want) || count(status) == "" || count(status) != count(wantStatus) {
			t.Errorf("search: %v (%q), on the page itself %v (%q)", rows, status, want, wantStatus)
		}
	})

	t.Run("a changed file", func(t *testing.T) {
		changed := bytes.Clone(enc)
		open := []byte(`<script type="` + sealedScriptType + `">`)
		second := bytes.Index(changed[bytes.Index(changed, open)+1:], open) + 1 + bytes.Index(changed, open)
		changed[second+len(open)+20] ^= 1
		path := filepath.Join(t.TempDir(), "changed.html")
		if err := os.WriteFile(path, changed, 0o600); err != nil {
			t.Fatal(err)
		}
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate("file://" + filepath.ToSlash(path))
		unlock(tb, testPassphrase)
		tb.WaitJSFor(`document.getElementById('unlock-status').classList.contains('problem')`, 60e9)
		if msg := browsertest.Eval[string](tb, `document.getElementById('unlock-status').textContent`); !strings.Contains(msg, "damaged or was changed") {
			t.Errorf("status = %q", msg)
		}
		if shown := browsertest.Eval[bool](tb, `!!document.getElementById('path')`); shown {
			t.Error("a changed file showed the page")
		}
	})

	t.Run("deep link, without Uint8Array.fromBase64", func(t *testing.T) {
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(url + "#b3")
		// Browsers before 2025 decode base64 with atob.
		tb.Do(chromedp.Evaluate[chromedp.Void](`delete Uint8Array.fromBase64`))
		unlock(tb, testPassphrase)
		tb.WaitJSFor(`!!document.querySelector('#path article[data-entry]')`, 60e9)
		tb.Settle()
		checkPathShown(tb, samplePath(p, "b3"))
	})
}

// BenchmarkWriteEncrypted writes the page of BenchmarkWrite encrypted:
// with it, in one run, what encrypting adds (the key's 600,000 rounds
// once per page, gzip and AES-GCM). MB/s counts the page's bytes.
func BenchmarkWriteEncrypted(b *testing.B) {
	benchmarkWrite(b, func(w io.Writer, p *Page) error { return p.WriteEncrypted(w, testPassphrase) })
}
