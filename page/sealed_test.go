package page

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/browsertest"
)

// How an encrypted page ends when it is opened with a passphrase.
const (
	opened  = "opened"
	refused = "wrong passphrase"
	broken  = "damaged"
)

// goOutcome opens enc with DecryptPage.
func goOutcome(enc []byte, passphrase string) string {
	_, err := DecryptPage(enc, passphrase)
	switch {
	case err == nil:
		return opened
	case errors.Is(err, ErrWrongPassphrase):
		return refused
	case errors.Is(err, ErrDamaged):
		return broken
	}
	return "error: " + err.Error()
}

// browserOutcome opens the encrypted page at path in a tab, as a reader
// does, and says what the page did.
func browserOutcome(t *testing.T, tb *browsertest.Tab, path, passphrase string) string {
	t.Helper()
	tb.Navigate("file://" + filepath.ToSlash(path))
	tb.WaitJS(`!!document.getElementById('passphrase')`)
	browsertest.Eval[bool](tb, `(document.getElementById('passphrase').value = `+browsertest.JSString(passphrase)+`,
		document.getElementById('unlock').requestSubmit(), true)`)
	tb.WaitJSFor(`!document.getElementById('unlock-status') || document.getElementById('unlock-status').classList.contains('problem')`, 30*time.Second)
	if browsertest.Eval[bool](tb, `!document.getElementById('unlock-status')`) {
		tb.WaitJSFor(`!!document.querySelector('#path article[data-entry]')`, 30*time.Second)
		return opened
	}
	msg := browsertest.Eval[string](tb, `document.getElementById('unlock-status').textContent`)
	switch {
	case strings.Contains(msg, "does not open this page"):
		return refused
	case strings.Contains(msg, "damaged or was changed"):
		return broken
	}
	return "message: " + msg
}

// sealedFile is an encrypted page cut into its parts: what comes before
// the segments, the segments as written, and what follows them.
type sealedFile struct {
	head     string
	segments []string
	tail     string
}

var sealedBlock = regexp.MustCompile(`<script type="` + regexp.QuoteMeta(sealedScriptType) + `">([^<]*)</script>\n`)

func cutSealed(t *testing.T, enc []byte) sealedFile {
	t.Helper()
	found := sealedBlock.FindAllSubmatchIndex(enc, -1)
	if len(found) < 4 {
		t.Fatalf("%d segments, want several", len(found))
	}
	f := sealedFile{head: string(enc[:found[0][0]]), tail: string(enc[found[len(found)-1][1]:])}
	for _, m := range found {
		f.segments = append(f.segments, string(enc[m[2]:m[3]]))
	}
	return f
}

// join writes the file with segments in blocks made by block.
func (f sealedFile) join(segments []string, block func(i int, seg string) string) []byte {
	var b strings.Builder
	b.WriteString(f.head)
	for i, s := range segments {
		if block == nil {
			b.WriteString(`<script type="` + sealedScriptType + `">` + s + "</script>\n")
		} else {
			b.WriteString(block(i, s))
		}
	}
	b.WriteString(f.tail)
	return []byte(b.String())
}

// flip changes one base64 character of s to another of the alphabet.
func flip(s string, at int) string {
	c := byte('A')
	if s[at] == 'A' {
		c = 'B'
	}
	return s[:at] + string(c) + s[at+1:]
}

// TestDamagedPageSaysSo: Go's DecryptPage and the page's script, run on
// the same changed files, agree on each: it opens, or the passphrase is
// wrong, or the file is damaged. A file whose first segment is missing,
// or that holds only the first of its segments, is damaged: it used to be
// taken for a wrong passphrase. DecryptPage used to accept what the
// browser refused (a line end in a segment, params keys in another case)
// and to refuse what the browser opens (the parameters after the
// segments, a tag's name in capitals).
func TestDamagedPageSaysSo(t *testing.T) {
	var buf bytes.Buffer
	if err := samplePage().writeEncrypted(&buf, testPassphrase, 4<<10, 1000); err != nil {
		t.Fatal(err)
	}
	enc := buf.Bytes()
	f := cutSealed(t, enc)
	segs := f.segments
	n := len(segs)
	params := regexp.MustCompile(`(<script type="application/json" id="sealed-params">)([^<]*)(</script>\n)`)
	paramsOf := func(file []byte, edit func(string) string) []byte {
		return params.ReplaceAllFunc(file, func(m []byte) []byte {
			p := params.FindSubmatch(m)
			return []byte(string(p[1]) + edit(string(p[2])) + string(p[3]))
		})
	}
	withParams := func(edit func(string) string) []byte { return paramsOf(enc, edit) }
	noCheck := func(s string) string { return regexp.MustCompile(`"check":"[^"]*",`).ReplaceAllString(s, "") }
	replace := func(old, new string) func(string) string {
		return func(s string) string {
			if !strings.Contains(s, old) {
				t.Fatalf("the parameters %s lack %s", s, old)
			}
			return strings.Replace(s, old, new, 1)
		}
	}
	paramsBlock := params.Find(enc)
	noParams := bytes.Replace(enc, paramsBlock, nil, 1)
	cases := []struct {
		name       string
		file       []byte
		passphrase string
		want       string
	}{
		{"as written", enc, testPassphrase, opened},
		{"a wrong passphrase", enc, "not the passphrase", refused},
		{"the first segment missing", f.join(segs[1:], nil), testPassphrase, broken},
		{"the first segment missing, a wrong passphrase", f.join(segs[1:], nil), "not the passphrase", refused},
		{"only the first segment", f.join(segs[:1], nil), testPassphrase, broken},
		{"the last segment missing", f.join(segs[:n-1], nil), testPassphrase, broken},
		{"a middle segment missing", f.join(append(append([]string{}, segs[:2]...), segs[3:]...), nil), testPassphrase, broken},
		{"two segments swapped", f.join(append([]string{segs[1], segs[0]}, segs[2:]...), nil), testPassphrase, broken},
		{"a segment twice", f.join(append(append([]string{}, segs...), segs[n-1]), nil), testPassphrase, broken},
		{"a changed character in the first segment", f.join(append([]string{flip(segs[0], 40)}, segs[1:]...), nil), testPassphrase, broken},
		{"a changed character in the second segment", f.join(append([]string{segs[0], flip(segs[1], 40)}, segs[2:]...), nil), testPassphrase, broken},
		{"a line end in a segment", f.join(append([]string{segs[0], segs[1][:64] + "\n" + segs[1][64:]}, segs[2:]...), nil), testPassphrase, broken},
		{"spaces around a segment", f.join(append([]string{segs[0], " " + segs[1] + " "}, segs[2:]...), nil), testPassphrase, broken},
		{"no segment", f.join(nil, nil), testPassphrase, broken},
		{"tags in capitals", f.join(segs, func(_ int, s string) string {
			return `<SCRIPT TYPE="APPLICATION/X-PIEXPORT-SEALED">` + s + "</SCRIPT>\n"
		}), testPassphrase, opened},
		{"a segment in a template", f.join(segs, func(i int, s string) string {
			b := `<script type="` + sealedScriptType + `">` + s + "</script>\n"
			if i == 1 {
				b = `<template><script type="` + sealedScriptType + `">` + segs[0] + "</script></template>\n" + b
			}
			return b
		}), testPassphrase, opened},
		{"the parameters after the segments", append(noParams[:len(noParams)-len("</body>\n</html>\n")], append(append([]byte{}, paramsBlock...), "</body>\n</html>\n"...)...), testPassphrase, opened},
		{"no parameters", noParams, testPassphrase, broken},
		{"another version", withParams(replace(`"v":1`, `"v":2`)), testPassphrase, broken},
		{"a key in capitals", withParams(replace(`"v":1`, `"V":1`)), testPassphrase, broken},
		{"a number as a string", withParams(replace(`"iterations":1000`, `"iterations":"1000"`)), testPassphrase, broken},
		{"iterations past the bound", withParams(replace(`"iterations":1000`, `"iterations":100000000`)), testPassphrase, broken},
		{"other iterations", withParams(replace(`"iterations":1000`, `"iterations":1001`)), testPassphrase, refused},
		{"iterations written 1e3", withParams(replace(`"iterations":1000`, `"iterations":1e3`)), testPassphrase, opened},
		// A page without a check (made before there was one) takes a
		// first segment that does not open for a wrong passphrase.
		{"the check missing", withParams(noCheck), testPassphrase, opened},
		{"the check missing, the first segment too", paramsOf(f.join(segs[1:], nil), noCheck), testPassphrase, refused},
		{"a changed check", withParams(func(s string) string {
			i := strings.Index(s, `"check":"`) + len(`"check":"`)
			return flip(s, i+3)
		}), testPassphrase, refused},
		{"a check of null", withParams(func(s string) string {
			return regexp.MustCompile(`"check":"[^"]*"`).ReplaceAllString(s, `"check":null`)
		}), testPassphrase, broken},
		{"parameters that are not JSON", withParams(func(s string) string { return s[:len(s)-1] }), testPassphrase, broken},
		{"parameters of null", withParams(func(string) string { return "null" }), testPassphrase, broken},
	}
	for _, tc := range cases {
		if got := goOutcome(tc.file, tc.passphrase); got != tc.want {
			t.Errorf("%s: DecryptPage: %s, want %s", tc.name, got, tc.want)
		}
	}
	browser := browsertest.Start(t)
	tb := browsertest.OpenTab(t, browser)
	dir := t.TempDir()
	for i, tc := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".html")
		if err := os.WriteFile(path, tc.file, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := browserOutcome(t, tb, path, tc.passphrase); got != tc.want {
			t.Errorf("%s: the browser: %s, want %s", tc.name, got, tc.want)
		}
		if i == 2 {
			tb.Shot("encrypted-first-segment-missing")
		}
	}
}

// TestPassphraseComposedOrNot: the same passphrase typed on two systems
// may arrive composed (é) or not (e and a combining accent); the page
// opens with either, in the browser and in DecryptPage, whichever it was
// made with. One a browser cannot type is refused.
func TestPassphraseComposedOrNot(t *testing.T) {
	const composed, decomposed = "Amélie's Ångström passphrase", "Ame\u0301lie's A\u030angstro\u0308m passphrase"
	browser := browsertest.Start(t)
	tb := browsertest.OpenTab(t, browser)
	for _, made := range []string{composed, decomposed} {
		var buf bytes.Buffer
		if err := samplePage().writeEncrypted(&buf, made, sealSegment, 1000); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "sealed.html")
		if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, typed := range []string{composed, decomposed} {
			if got := goOutcome(buf.Bytes(), typed); got != opened {
				t.Errorf("made with %q, DecryptPage of %q: %s", made, typed, got)
			}
			if got := browserOutcome(t, tb, path, typed); got != opened {
				t.Errorf("made with %q, typed %q: %s", made, typed, got)
			}
		}
	}
	for _, bad := range []string{"", "a passphrase\r", "a\x00passphrase", "a pass\xffphrase"} {
		if err := samplePage().WriteEncrypted(&bytes.Buffer{}, bad); err == nil {
			t.Errorf("WriteEncrypted took %q", bad)
		}
	}
}
